//! Message patterns: a regex with a literal prefilter.
//!
//! The page's regex engine (`regex-lite`, chosen for size) scans every position of a message with
//! its PikeVM and has no literal optimisation of its own. Almost every rule pattern requires some
//! plain text in each of its alternatives (`Could not find any factory for identifier '[^']*'`,
//! `(?:Kafka)?Consumer is not safe for multi-threaded access`): a message holding none of those
//! texts cannot match, and `str::contains` says so much faster ([`prefilter`]).

use regex::Regex;
use std::sync::OnceLock;

/// Whether [`MessagePattern::new`] compiles the regex at once. Natively (the command line, the
/// tests) it does, so a bad pattern fails the catalogue's load and its test. In the page the
/// regex is compiled when a message first gets past the literal prefilter: most rules' regexes
/// never run on a given trace, and compiling all of them took a good part of the first
/// diagnosis's time in wasm (issue 13). The page's rules are the same files, checked natively.
const EAGER: bool = !cfg!(target_arch = "wasm32");

/// A compiled message pattern: [`MessagePattern::is_match`] is `Regex::is_match`, sped up by the
/// literal each alternative must contain, when every alternative has one.
#[derive(Debug, Clone)]
pub struct MessagePattern {
    /// The pattern as written.
    source: String,
    /// The regex, compiled on first use ([`EAGER`]: at once); `None` when it does not compile
    /// (never for a bundled rule: see [`EAGER`]), which then matches nothing.
    re: OnceLock<Option<Regex>>,
    /// Named groups that must capture the same text in one match (empty: any match will do).
    same: Vec<String>,
    /// One text per top-level alternative, each its leading literal; `None` when some
    /// alternative starts with no usable text ([`MessagePattern::is_decisive`]).
    needles: Option<Vec<String>>,
    /// Texts one of which every match contains ([`prefilter`]); `None`: search every message.
    prefilter: Option<Prefilter>,
}

impl MessagePattern {
    /// Compiles `pattern` (regex-lite syntax, unanchored).
    ///
    /// Errors: the regex's own compile error.
    pub fn new(pattern: &str) -> Result<MessagePattern, regex::Error> {
        let p = MessagePattern {
            source: pattern.to_owned(),
            re: OnceLock::new(),
            same: Vec::new(),
            needles: needles(pattern),
            prefilter: prefilter(pattern),
        };
        if EAGER {
            let _ = p.re.set(Some(Regex::new(pattern)?));
        }
        Ok(p)
    }

    /// Compiles the regex now if it was not yet (a worker does so before its first input,
    /// while the person is still typing: [`crate::rules::compile_patterns`]).
    pub fn compile(&self) {
        let _ = self.re();
    }

    /// The regex, compiled now if it was not yet.
    fn re(&self) -> Option<&Regex> {
        self.re
            .get_or_init(|| Regex::new(&self.source).ok())
            .as_ref()
    }

    /// Compiles `pattern` whose named groups `same` must all capture the same text in one match
    /// (`X cannot be cast to X`).
    ///
    /// Errors: the regex's compile error, or a name in `same` that is not a group of `pattern`.
    pub fn with_same(pattern: &str, same: &[String]) -> Result<MessagePattern, String> {
        let mut p = MessagePattern::new(pattern).map_err(|e| e.to_string())?;
        if let Some(missing) = same.iter().find(|s| !p.has_group(s)) {
            return Err(format!(
                "`same` names {missing:?}, not a group of {pattern:?}"
            ));
        }
        p.same = same.to_vec();
        Ok(p)
    }

    /// Whether the pattern has a group named `name`: asked of the compiled regex when it is
    /// compiled (natively, at once), else read from the pattern's text (`(?P<name>` or
    /// `(?<name>`, not escaped), so that loading the page's catalogue compiles no regex. A test
    /// checks that both answers agree on every bundled pattern.
    pub fn has_group(&self, name: &str) -> bool {
        match self.re.get() {
            Some(re) => re
                .as_ref()
                .is_some_and(|re| re.capture_names().flatten().any(|n| n == name)),
            None => group_names(&self.source).any(|n| n == name),
        }
    }

    /// Whether the `same` groups of one match all captured the same text (true when there are
    /// none).
    fn same_agree(&self, c: &regex::Captures<'_>) -> bool {
        let mut texts = self.same.iter().map(|n| c.name(n).map(|m| m.as_str()));
        let first = texts.next().flatten();
        self.same.is_empty() || first.is_some() && texts.all(|t| t == first)
    }

    /// The text the group `name` captures in the first match in `message` (whose `same` groups
    /// agree), if any.
    pub fn capture(&self, message: &str, name: &str) -> Option<String> {
        unwrapped(message).find_map(|m| self.capture_as_printed(&m, name))
    }

    fn capture_as_printed(&self, message: &str, name: &str) -> Option<String> {
        self.re()?
            .captures_iter(message)
            .find(|c| self.same_agree(c))
            .and_then(|c| c.name(name))
            .map(|m| m.as_str().to_owned())
    }

    /// Whether the pattern matches somewhere in `message` (with its `same` groups agreeing, in
    /// one match).
    pub fn is_match(&self, message: &str) -> bool {
        unwrapped(message).any(|m| self.is_match_as_printed(&m))
    }

    fn is_match_as_printed(&self, message: &str) -> bool {
        if self
            .prefilter
            .as_ref()
            .is_some_and(|p| !p.may_match(message))
        {
            return false;
        }
        let Some(re) = self.re() else {
            return false;
        };
        if self.same.is_empty() {
            return re.is_match(message);
        }
        re.captures_iter(message).any(|c| self.same_agree(&c))
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

/// A message as printed, then, when it was hard-wrapped over several lines (joined with `\n`),
/// the same text unwrapped: lines joined with a space (wrapped between words) and without one
/// (wrapped inside a word, as terminals and issue forms cut long lines: `ref\nerences`).
fn unwrapped(message: &str) -> impl Iterator<Item = std::borrow::Cow<'_, str>> {
    use std::borrow::Cow;
    let wrapped = message.contains('\n');
    std::iter::once(Cow::Borrowed(message)).chain(
        wrapped
            .then(|| {
                [
                    Cow::Owned(message.replace('\n', " ")),
                    Cow::Owned(message.replace('\n', "")),
                ]
            })
            .into_iter()
            .flatten(),
    )
}

/// Shortest literal that makes a pattern decisive on its own ([`MessagePattern::is_decisive`]).
pub const DECISIVE_NEEDLE: usize = 12;

/// Shortest text worth checking for: a shorter one would be found in most messages.
const MIN_NEEDLE: usize = 3;

/// The names of the groups `pattern` writes as `(?P<name>…)` or `(?<name>…)`, in order; a `(`
/// escaped with a backslash starts none.
fn group_names(pattern: &str) -> impl Iterator<Item = &str> {
    let bytes = pattern.as_bytes();
    pattern.match_indices('(').filter_map(move |(at, _)| {
        // An odd number of backslashes before the `(` escapes it.
        let slashes = bytes[..at]
            .iter()
            .rev()
            .take_while(|&&b| b == b'\\')
            .count();
        if slashes % 2 == 1 {
            return None;
        }
        let rest = &pattern[at + 1..];
        let rest = rest
            .strip_prefix("?P<")
            .or_else(|| rest.strip_prefix("?<"))?;
        rest.find('>').map(|end| &rest[..end])
    })
}

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

/// What a message must contain for a pattern to match it: one of `needles` (ASCII letters in
/// any case when `ascii_case`: `(?i)`, which regex-lite applies to ASCII only).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prefilter {
    /// One text per top-level alternative, the longest it requires (lowercase when
    /// `ascii_case`).
    pub needles: Vec<String>,
    /// Whether the pattern starts with `(?i)`.
    pub ascii_case: bool,
}

impl Prefilter {
    /// False when `message`, as printed and unwrapped (as [`MessagePattern::is_match`] reads
    /// it), holds none of the needles: the pattern cannot match it.
    pub fn admits(&self, message: &str) -> bool {
        unwrapped(message).any(|m| self.may_match(&m))
    }

    /// False when `message` holds none of the needles, so the pattern cannot match it.
    pub fn may_match(&self, message: &str) -> bool {
        if self.ascii_case {
            let hay = message.as_bytes();
            self.needles.iter().any(|n| {
                hay.windows(n.len())
                    .any(|w| w.eq_ignore_ascii_case(n.as_bytes()))
            })
        } else {
            // Not `str::contains`: its two-way searcher's set-up per needle and message was
            // 8 % of a 1 MB diagnosis (issue 13); messages are short.
            self.needles
                .iter()
                .any(|n| crate::read::scan::find_str(message, n).is_some())
        }
    }
}

/// The literal texts `pattern`'s matches must contain: for each top-level alternative, the
/// longest run of plain characters it requires outside groups and classes (`(?:Kafka)?Consumer
/// is not safe` requires `Consumer is not safe`; `(Table sink '[^']*'|AppendStreamTableSink)
/// doesn't support` requires ` doesn't support`). `None` when an alternative requires no text of
/// at least [`MIN_NEEDLE`] bytes, or when the pattern sets flags other than a leading `(?i)`
/// (named groups `(?P<…>` and `(?:` are fine). Checking for these texts first spares the regex
/// most messages: its PikeVM was an eighth of a 1 MB diagnosis before (issue 13).
pub fn prefilter(pattern: &str) -> Option<Prefilter> {
    let (body, ascii_case) = match pattern.strip_prefix("(?i)") {
        Some(rest) => (rest, true),
        None => (pattern, false),
    };
    if body
        .match_indices("(?")
        .any(|(i, _)| !body[i + 2..].starts_with(':') && !body[i + 2..].starts_with("P<"))
    {
        return None;
    }
    let mut needles = Vec::new();
    for alt in top_level_alternatives(body) {
        let lit = longest_required_literal(alt);
        if lit.len() < MIN_NEEDLE || ascii_case && !lit.is_ascii() {
            return None;
        }
        needles.push(if ascii_case {
            lit.to_ascii_lowercase()
        } else {
            lit
        });
    }
    Some(Prefilter {
        needles,
        ascii_case,
    })
}

/// The longest run of plain characters (and escaped punctuation) that `alt` (an alternative
/// without a top-level `|`) requires, outside its groups and classes. A character made optional
/// or repeatable by a quantifier after it ends the run before it (`ab?` requires `a`; `ab+c`
/// requires `ab`).
fn longest_required_literal(alt: &str) -> String {
    let mut best = String::new();
    let mut run = String::new();
    let mut chars = alt.chars().peekable();
    let end_run = |run: &mut String, best: &mut String| {
        if run.len() > best.len() {
            *best = std::mem::take(run);
        }
        run.clear();
    };
    while let Some(c) = chars.next() {
        let literal = match c {
            '\\' => match chars.next() {
                Some(e) if e.is_ascii_punctuation() => Some(e),
                // A code (`\x41`, `\x{41}`, `\u0041`, `\U00000041`) or a class (`\pL`,
                // `\p{Greek}`): its digits or name are not text.
                Some(e @ ('x' | 'u' | 'U' | 'p' | 'P')) => {
                    if chars.peek() == Some(&'{') {
                        for k in chars.by_ref() {
                            if k == '}' {
                                break;
                            }
                        }
                    } else {
                        let digits = match e {
                            'x' => 2,
                            'u' => 4,
                            'U' => 8,
                            _ => 1,
                        };
                        for _ in 0..digits {
                            chars.next();
                        }
                    }
                    None
                }
                // `\d`, `\s`, `\b`…: a class or an assertion, not plain text.
                _ => None,
            },
            '(' => {
                // Skip the group, whatever it holds.
                let mut depth = 1;
                let mut in_class = false;
                while depth > 0 {
                    match chars.next() {
                        None => break,
                        Some('\\') => {
                            chars.next();
                        }
                        Some('[') if !in_class => in_class = true,
                        Some(']') if in_class => in_class = false,
                        Some('(') if !in_class => depth += 1,
                        Some(')') if !in_class => depth -= 1,
                        Some(_) => {}
                    }
                }
                None
            }
            '[' => {
                // Skip the class (a `]` right after `[` or `[^` is a member).
                let mut first = true;
                while let Some(k) = chars.next() {
                    match k {
                        '\\' => {
                            chars.next();
                        }
                        '^' if first => continue,
                        ']' if !first => break,
                        _ => {}
                    }
                    first = false;
                }
                None
            }
            '{' => {
                // A repetition `{m,n}` of what came before: that is not required as a run.
                run.pop();
                for k in chars.by_ref() {
                    if k == '}' {
                        break;
                    }
                }
                None
            }
            '?' | '*' => {
                run.pop();
                None
            }
            '+' | '.' | '^' | '$' | ')' | ']' | '}' | '|' => None,
            c => Some(c),
        };
        match literal {
            Some(ch) => match chars.peek() {
                // Optional or repeated zero times: not required.
                Some('?' | '*' | '{') => {
                    end_run(&mut run, &mut best);
                    if chars.next() == Some('{') {
                        for k in chars.by_ref() {
                            if k == '}' {
                                break;
                            }
                        }
                    }
                    if chars.peek() == Some(&'?') {
                        chars.next();
                    }
                }
                Some('+') => {
                    chars.next();
                    // `a+` requires `a`; `a+*` or `a+{0,2}` (a quantified repetition) does not.
                    if !matches!(chars.peek(), Some('*' | '{')) {
                        run.push(ch);
                    }
                    end_run(&mut run, &mut best);
                    if chars.peek() == Some(&'?') {
                        chars.next();
                    }
                }
                _ => run.push(ch),
            },
            None => {
                end_run(&mut run, &mut best);
                // A lazy `?` after a quantifier.
                if matches!(c, '*' | '+' | '?' | '}') && chars.peek() == Some(&'?') {
                    chars.next();
                }
            }
        }
    }
    end_run(&mut run, &mut best);
    best
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
    #[test]
    fn group_names_read_from_the_text_are_the_regex_s() {
        // What `has_group` reads from a pattern's text before it is compiled (the page) is what
        // the compiled regex says (natively every bundled pattern is compiled at load).
        let mut checked = 0;
        for rule in crate::rules::catalogue() {
            for c in rule.all_conditions() {
                if let crate::rules::Compiled::Throwable {
                    message,
                    not_message,
                    ..
                } = c
                {
                    for p in [message, not_message].into_iter().flatten() {
                        let re = p.re().expect("bundled patterns compile");
                        let from_regex: Vec<&str> = re.capture_names().flatten().collect();
                        let from_text: Vec<&str> = super::group_names(&p.source).collect();
                        assert_eq!(from_text, from_regex, "{}", p.source);
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 50, "{checked} patterns");
        let names = |p: &str| super::group_names(p).map(str::to_owned).collect::<Vec<_>>();
        assert_eq!(names(r"(?P<a>x)\(?P<b>y\)(?<c>z)"), ["a", "c"]);
        assert_eq!(names(r"\\(?P<d>x)"), ["d"]);
        let lazy = super::MessagePattern {
            source: "(?P<cls>[a-z.]+) cannot be cast".into(),
            re: std::sync::OnceLock::new(),
            same: Vec::new(),
            needles: None,
            prefilter: None,
        };
        assert!(lazy.has_group("cls") && !lazy.has_group("other"));
        assert!(lazy.re.get().is_none(), "has_group compiled nothing");
    }

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
    fn the_prefilter_needs_the_longest_text_each_alternative_requires() {
        let needles = |p: &str| prefilter(p).map(|f| f.needles);
        assert_eq!(
            needles("(?:Kafka)?Consumer is not safe"),
            Some(vec!["Consumer is not safe".to_owned()])
        );
        assert_eq!(
            needles("(Table sink '[^']*'|AppendStreamTableSink) doesn't support"),
            Some(vec![" doesn't support".to_owned()])
        );
        assert_eq!(
            needles(r"(?:^|: )(?P<class>[\w.$]+)@[0-9a-f]+ is not serializable\. The"),
            Some(vec![" is not serializable. The".to_owned()])
        );
        assert_eq!(needles("ab?cd{2}efg"), Some(vec!["efg".to_owned()]));
        assert_eq!(
            needles(r"ab\x41\x{42}\u0043cd"),
            None,
            "a code's digits are not text"
        );
        assert_eq!(needles("abcd+ef"), Some(vec!["abcd".to_owned()]));
        assert_eq!(
            needles("xbaa+*"),
            Some(vec!["xba".to_owned()]),
            "a+* is optional"
        );
        assert_eq!(needles(r"x\d+yz{1,3}abcd"), Some(vec!["abcd".to_owned()]));
        assert_eq!(
            needles("[abc]]x|longer one"),
            None,
            "one alternative too short"
        );
        assert_eq!(
            needles("^(Java heap space|GC overhead)"),
            None,
            "only a group"
        );
        assert_eq!(needles("(?s)abc"), None, "other flags");
        let ci = prefilter("(?i)connection refused|UnknownHost").expect("ASCII needles");
        assert_eq!(ci.needles, ["connection refused", "unknownhost"]);
        assert!(ci.ascii_case && ci.may_match("java.net.ConnectException: Connection Refused"));
        assert!(!ci.may_match("Connection reset"));
        assert_eq!(
            needles("(?i)拒绝连接|abc"),
            None,
            "case folding of non-ASCII needles"
        );
    }

    /// Small regexes over a tiny alphabet: every construct the prefilter reads.
    #[cfg(not(target_arch = "wasm32"))]
    fn small_regex() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let atom = prop_oneof![
            "[abc ]{1,4}",
            Just(r"\.".to_owned()),
            Just("[ab]".to_owned()),
            Just("[^a]".to_owned()),
            Just(r"\w".to_owned()),
            Just(r"\x61".to_owned()),
            Just(r"\x{62}c".to_owned()),
            Just(".".to_owned()),
            Just("(?:a|bc)".to_owned()),
            Just("(?P<g>ab)".to_owned()),
            Just("^".to_owned()),
            Just("$".to_owned()),
        ];
        let quantifier = prop_oneof![
            Just(""),
            Just(""),
            Just("?"),
            Just("*"),
            Just("+"),
            Just("{2}"),
            Just("{0,2}"),
            Just("+?"),
        ];
        let piece = (atom, quantifier).prop_map(|(a, q)| format!("{a}{q}"));
        let alt = proptest::collection::vec(piece, 1..5).prop_map(|v| v.concat());
        (
            proptest::collection::vec(alt, 1..3).prop_map(|v| v.join("|")),
            proptest::bool::ANY,
        )
            .prop_map(|(p, ci)| if ci { format!("(?i){p}") } else { p })
    }

    #[cfg(not(target_arch = "wasm32"))]
    use proptest::strategy::Strategy as _;

    #[cfg(not(target_arch = "wasm32"))]
    proptest::proptest! {
        #[test]
        fn the_prefilter_never_rejects_what_the_regex_matches(
            (pattern, message) in small_regex().prop_flat_map(|p| {
                // Messages the pattern matches (proptest draws them from the regex, without
                // its anchors and flags), among random ones.
                let plain = p.replace("(?i)", "").replace(['^', '$'], "").replace("(?P<g>", "(");
                let drawn = proptest::string::string_regex(&plain)
                    .map(proptest::strategy::Strategy::boxed)
                    .unwrap_or_else(|_| proptest::strategy::Strategy::boxed(proptest::strategy::Just(String::new())));
                (
                    proptest::strategy::Just(p),
                    proptest::prop_oneof![
                        "[abcABC. ]{0,16}",
                        ("[ab]{0,3}", drawn, "[ab]{0,3}").prop_map(|(a, m, b)| format!("{a}{m}{b}")),
                    ],
                )
            }),
        ) {
            if let Ok(re) = Regex::new(&pattern) {
                let p = MessagePattern::new(&pattern).expect("it compiles");
                proptest::prop_assert_eq!(p.is_match(&message), re.is_match(&message), "{} on {:?}", pattern, message);
            }
        }
    }

    #[test]
    fn same_groups_must_capture_the_same_text_in_one_match() {
        let same = ["a".to_owned(), "b".to_owned()];
        let p = MessagePattern::with_same(
            r"(?:^|class )(?P<a>[\w.$]+) cannot be cast to (?:class )?(?P<b>[\w.$]+)",
            &same,
        )
        .expect("valid");
        assert!(p.is_match("com.foo.X cannot be cast to com.foo.X"));
        assert!(p.is_match(
            "class com.foo.X cannot be cast to class com.foo.X (com.foo.X is in unnamed module of loader 'app'; …)"
        ));
        assert!(!p.is_match("com.foo.X cannot be cast to com.foo.Y"));
        assert!(
            !p.is_match("com.foo.X cannot be cast to com.foo.XY"),
            "a prefix is not the same class"
        );
        assert!(
            MessagePattern::with_same("(?P<a>x)", &same).is_err(),
            "b is no group"
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
