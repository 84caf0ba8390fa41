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
/// ones, frame names and messages, by comparing at each occurrence of the needle's first byte.
const SHORT_HAYSTACK: usize = 4096;

/// Byte offset of the first occurrence of `needle` in `haystack`, as `haystack.find(needle)`.
pub fn find_str(haystack: &str, needle: &str) -> Option<usize> {
    if haystack.len() > SHORT_HAYSTACK {
        return haystack.find(needle);
    }
    let (h, n) = (haystack.as_bytes(), needle.as_bytes());
    let Some(&first) = n.first() else {
        return Some(0);
    };
    if n.len() > h.len() {
        return None;
    }
    (0..=h.len() - n.len()).find(|&i| h[i] == first && h[i..].starts_with(n))
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
