//! Searching text the way the parser's hot loops need: byte loops that the page's size-optimised
//! build (`opt-level = "z"`) keeps tight. The standard library's `[char; N]` and closure
//! patterns decode and compare every character through calls that build does not inline, and
//! `str::find(&str)` sets up a Two-Way searcher on every call: together more than a third of a
//! 1 MB diagnosis's instructions before (issue 13, measured with callgrind).

/// Byte offset of the first character of `text` for which `pred` holds, as
/// `text.find(pred)`: ASCII bytes are tested without decoding, other characters decoded.
pub fn find_char(text: &str, pred: impl Fn(char) -> bool) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b < 0x80 {
            if pred(char::from(b)) {
                return Some(i);
            }
            i += 1;
        } else {
            let c = text[i..].chars().next()?;
            if pred(c) {
                return Some(i);
            }
            i += c.len_utf8();
        }
    }
    None
}

/// `char::is_whitespace`, with ASCII characters (`\t`, `\n`, vertical tab, form feed, `\r`,
/// space) answered inline.
pub fn is_whitespace(c: char) -> bool {
    if c.is_ascii() {
        matches!(c, ' ' | '\t' | '\n' | '\x0B' | '\x0C' | '\r')
    } else {
        c.is_whitespace()
    }
}

/// Byte offset of the first `ascii` or `wide` in `text` (a parenthesis or colon and its
/// full-width form, which Chinese input methods write), as `text.find([ascii, wide])`.
pub fn find_either(text: &str, ascii: u8, wide: char) -> Option<usize> {
    let mut buf = [0u8; 4];
    let wide = wide.encode_utf8(&mut buf).as_bytes();
    let bytes = text.as_bytes();
    (0..bytes.len())
        .find(|&i| bytes[i] == ascii || bytes[i] == wide[0] && bytes[i..].starts_with(wide))
}

/// Haystacks longer than this are searched by `str::find` (linear in the worst case); shorter
/// ones, frame names and messages, by comparing at each occurrence of one byte of the needle
/// (its first upper-case letter, else its first byte), found with `memchr`.
const SHORT_HAYSTACK: usize = 4096;

/// Byte offset of the first occurrence of `needle` in `haystack`, as `haystack.find(needle)`.
pub fn find_str(haystack: &str, needle: &str) -> Option<usize> {
    if haystack.len() > SHORT_HAYSTACK {
        return haystack.find(needle);
    }
    let (h, n) = (haystack.as_bytes(), needle.as_bytes());
    if n.is_empty() {
        return Some(0);
    }
    if n.len() > h.len() {
        return None;
    }
    // Anchored on the needle's first upper-case ASCII letter (a class name's initial), rarer in
    // frame names than its dots and lower-case letters; else on its first byte. Occurrences of
    // the anchor come in order, so the first whole match is the first occurrence.
    let anchor = n.iter().position(u8::is_ascii_uppercase).unwrap_or(0);
    let last_start = h.len() - n.len();
    let mut from = anchor;
    while let Some(at) = h
        .get(from..=last_start + anchor)
        .and_then(|rest| memchr::memchr(n[anchor], rest))
    {
        let start = from + at - anchor;
        if h[start..].starts_with(n) {
            return Some(start);
        }
        from += at + 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn searches_find_what_the_standard_library_finds() {
        let text = "at a.B.c（B.java：12）then (x) 😀 y";
        assert_eq!(find_either(text, b'(', '（'), text.find(['(', '（']));
        assert_eq!(find_either(text, b':', '：'), text.find([':', '：']));
        assert_eq!(find_either("abc", b'(', '（'), None);
        assert_eq!(
            find_char(text, char::is_whitespace),
            text.find(char::is_whitespace)
        );
        assert_eq!(find_char("a\u{3000}b", char::is_whitespace), Some(1));
        for c in (0..0x3100u32).filter_map(char::from_u32) {
            assert_eq!(is_whitespace(c), c.is_whitespace(), "{c:?}");
        }
        assert_eq!(find_str(text, "then"), text.find("then"));
        assert_eq!(find_str(text, ""), Some(0));
        assert_eq!(find_str("ab", "abc"), None);
    }

    /// The anchored search finds the first occurrence, as `str::find` does, whatever the
    /// needle's anchor: every substring of frame-like texts as a needle, and near misses.
    #[test]
    fn anchored_searches_find_the_first_occurrence() {
        let hays = [
            "org.apache.flink.runtime.state.RocksDBStateDownloader.transferAllStateDataToDirectory",
            "a.A.aA.AA.AAa.A",
            "x.Rocks.RocksDB.Rocks",
            "中.Ab.中Ab",
            "AAAAB",
        ];
        for h in hays {
            let ends: Vec<usize> = (0..=h.len()).filter(|&i| h.is_char_boundary(i)).collect();
            for &a in &ends {
                for &b in ends.iter().filter(|&&b| b >= a) {
                    let n = &h[a..b];
                    assert_eq!(find_str(h, n), h.find(n), "{h:?} {n:?}");
                    let miss = format!("{n}Z");
                    assert_eq!(find_str(h, &miss), h.find(&miss), "{h:?} {miss:?}");
                }
            }
        }
        assert_eq!(find_str("xAAB", "AB"), Some(2));
        assert_eq!(find_str(".RocksDB.", ".RocksDB."), Some(0));
    }

    #[cfg(not(target_arch = "wasm32"))]
    proptest::proptest! {
        #[test]
        fn same_as_std(text in "[a(（)）: \u{3000}😀é]{0,12}", needle in "[a(（ é]{0,3}") {
            proptest::prop_assert_eq!(find_either(&text, b'(', '（'), text.find(['(', '（']));
            proptest::prop_assert_eq!(find_char(&text, |c| c == '(' || c.is_whitespace()), text.find(|c: char| c == '(' || c.is_whitespace()));
            proptest::prop_assert_eq!(find_str(&text, &needle), text.find(needle.as_str()));
        }
    }
}
