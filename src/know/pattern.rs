//! Message patterns: a regex with a literal prefilter.
//!
//! The page's regex engine (`regex-lite`, chosen for size) scans every position of a message with
//! its PikeVM and has no literal optimisation of its own. Most rule patterns begin each of their
//! alternatives with plain text (`Could not find any factory for identifier '[^']*'`,
//! `Timeout expired while fetching topic metadata|not present in metadata after \d+ ms`): a
//! message holding none of those texts cannot match, and `str::contains` says so much faster.

use regex::Regex;

/// A compiled message pattern: [`MessagePattern::is_match`] is `Regex::is_match`, sped up by the
/// literal each alternative must contain, when every alternative has one.
#[derive(Debug, Clone)]
pub struct MessagePattern {
    re: Regex,
    /// One text per top-level alternative, each required by it; `None` when some alternative
    /// starts with no usable text (then every message is searched).
    needles: Option<Vec<String>>,
}

impl MessagePattern {
    /// Compiles `pattern` (regex-lite syntax, unanchored).
    ///
    /// Errors: the regex's own compile error.
    pub fn new(pattern: &str) -> Result<MessagePattern, regex::Error> {
        Ok(MessagePattern {
            re: Regex::new(pattern)?,
            needles: needles(pattern),
        })
    }

    /// Whether the pattern matches somewhere in `message`.
    pub fn is_match(&self, message: &str) -> bool {
        if let Some(needles) = &self.needles {
            if !needles.iter().any(|n| message.contains(n.as_str())) {
                return false;
            }
        }
        self.re.is_match(message)
    }

    /// True when every alternative of the pattern starts with a literal text of at least
    /// [`DECISIVE_NEEDLE`] bytes: such a pattern speaks for itself on a line of prose (`Ask
    /// timed out on \[`, `is running beyond (physical|virtual) memory limits`), unlike a
    /// pattern written to filter a class's messages (`^[\w$]+$`, a negated prefix).
    pub fn is_decisive(&self) -> bool {
        self.needles
            .as_ref()
            .is_some_and(|n| n.iter().all(|x| x.len() >= DECISIVE_NEEDLE))
    }
}

/// Shortest literal that makes a pattern decisive on its own ([`MessagePattern::is_decisive`]).
pub const DECISIVE_NEEDLE: usize = 12;

/// Shortest text worth checking for: a shorter one would be found in most messages.
const MIN_NEEDLE: usize = 3;

/// The literal text that starts each top-level alternative of `pattern` (after a leading `^`),
/// or `None` when an alternative has none of at least [`MIN_NEEDLE`] bytes, or when the pattern
/// sets flags or names groups (`(?i)` would make the text case-insensitive; only `(?:` is
/// understood).
pub fn needles(pattern: &str) -> Option<Vec<String>> {
    if pattern
        .match_indices("(?")
        .any(|(i, _)| !pattern[i + 2..].starts_with(':'))
    {
        return None;
    }
    let mut out = Vec::new();
    for alt in top_level_alternatives(pattern) {
        let lit = leading_literal(alt.strip_prefix('^').unwrap_or(alt));
        if lit.len() < MIN_NEEDLE {
            return None;
        }
        out.push(lit);
    }
    Some(out)
}

/// Splits `pattern` at the `|`s outside groups and classes.
fn top_level_alternatives(pattern: &str) -> Vec<&str> {
    let (mut depth, mut in_class, mut escaped) = (0usize, false, false);
    let mut start = 0;
    let mut out = Vec::new();
    for (i, c) in pattern.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '[' if !in_class => in_class = true,
            ']' if in_class => in_class = false,
            _ if in_class => {}
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            '|' if depth == 0 => {
                out.push(&pattern[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&pattern[start..]);
    out
}

/// The text an alternative must start with: plain characters and escaped punctuation, up to the
/// first construct; a character made optional or repeatable by a quantifier after it is left
/// out (`ab?` requires only `a`).
fn leading_literal(alt: &str) -> String {
    let mut lit = String::new();
    let mut chars = alt.chars().peekable();
    while let Some(c) = chars.next() {
        let ch = match c {
            '\\' => match chars.next() {
                Some(e) if e.is_ascii_punctuation() => e,
                // `\d`, `\s`, `\b`, `\n`…: a class or an assertion, not text.
                _ => break,
            },
            '.' | '*' | '+' | '?' | '(' | ')' | '[' | ']' | '{' | '}' | '|' | '^' | '$' => break,
            c => c,
        };
        if matches!(chars.peek(), Some('?' | '*' | '{')) {
            break;
        }
        lit.push(ch);
        if matches!(chars.peek(), Some('+')) {
            break;
        }
    }
    lit
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn needles_are_the_leading_text_of_every_alternative() {
        assert_eq!(
            needles("Could not find any factory for identifier '[^']*'"),
            Some(vec![
                "Could not find any factory for identifier '".to_owned()
            ])
        );
        assert_eq!(
            needles("^Async function call has timed out"),
            Some(vec!["Async function call has timed out".to_owned()])
        );
        assert_eq!(
            needles(r"Timeout expired|not present in metadata after \d+ ms"),
            Some(vec![
                "Timeout expired".to_owned(),
                "not present in metadata after ".to_owned()
            ])
        );
        assert_eq!(
            needles(r"java\.util\.HashMap\$Values"),
            Some(vec!["java.util.HashMap$Values".to_owned()])
        );
        assert_eq!(
            needles("(?:Kafka)?Consumer is not safe"),
            None,
            "starts with a group"
        );
        assert_eq!(needles("^(Java heap space|GC overhead)"), None);
        assert_eq!(needles("[Hh]eartbeat of"), None);
        assert_eq!(needles("(?i)checkpoint"), None, "flags");
        assert_eq!(needles("ab|x"), None, "too short to be worth it");
        assert_eq!(needles("colou?r of"), Some(vec!["colo".to_owned()]));
        assert_eq!(needles("aaa+b"), Some(vec!["aaa".to_owned()]));
        assert_eq!(
            needles(r"[a|b]xyz|(c|d)"),
            None,
            "| inside a class or group"
        );
    }

    #[test]
    fn the_prefilter_never_rejects_a_match() {
        let messages = [
            "Could not find any factory for identifier 'kafka' that implements",
            "Timeout expired while fetching topic metadata",
            "Topic x not present in metadata after 60000 ms.",
            "colour of the sky",
            "color of the sky",
            "Consumer is not safe for multi-threaded access",
        ];
        for p in [
            "Could not find any factory for identifier '[^']*'",
            r"Timeout expired while fetching topic metadata|not present in metadata after \d+ ms",
            "colou?r of",
            "(?:Kafka)?Consumer is not safe",
        ] {
            let mp = MessagePattern::new(p).expect("valid");
            let re = Regex::new(p).expect("valid");
            for m in messages {
                assert_eq!(mp.is_match(m), re.is_match(m), "{p} on {m}");
            }
        }
    }

    #[cfg(not(target_arch = "wasm32"))]
    proptest::proptest! {
        /// On patterns built from text, escapes, classes, groups, quantifiers and alternation, the
        /// prefilter agrees with the regex alone.
        #[test]
        fn agrees_with_the_regex(
            pattern in r"\^?[ab]{2,5}[?*+]?([ab.]|\\\.|\\d|\[ab\]|\(a\|b\))?[?*+]?[ab]{0,2}(\|[ab]{3,4}[?*+]?[ab.]{0,2}){0,2}",
            message in "[ab.1]{0,8}",
        ) {
            if let Ok(re) = Regex::new(&pattern) {
                let mp = MessagePattern::new(&pattern).expect("compiles as the regex did");
                proptest::prop_assert_eq!(mp.is_match(&message), re.is_match(&message), "{} on {}", pattern, message);
            }
        }
    }
}
