//! Frame patterns: globs over `class.method`, matched against the whole subject.
//!
//! `*` matches any run of characters (dots included), `{a,b}` matches one of the alternatives,
//! and every other character is literal — `$`, `<init>` and `.` need no escaping, so patterns
//! read like the frames they match: `java.util.HashMap$*.next*`,
//! `org.apache.flink.runtime.state.PartitionableListState.{<init>,deepCopy}`.

/// A compiled frame pattern: its braces expanded into plain alternatives, each a run of literal
/// segments separated by `*`s. Such an alternative is matched greedily, without backtracking: the
/// subject must start with the first segment and end with the last, and the segments between are
/// found left to right (at most segments × subject length steps, however many `*`s), with no
/// allocation. (Before issue 13's typing round, a set of reachable positions was built per piece:
/// a sixth of a 1 MB diagnosis's time.)
#[derive(Clone, Debug)]
pub struct Glob {
    alternatives: Vec<Alternative>,
    /// What every match starts with: the longest common prefix of the alternatives' first
    /// segments (`java.util.` for `java.util.{HashMap,TreeMap}*`); checked before them.
    prefix: String,
    /// What every match ends with: the longest common suffix of their last segments.
    suffix: String,
}

/// One brace-free alternative of a glob: literal segments that were separated by `*`s (`a*b*c`
/// is `[a, b, c]`, `*a` is `["", a]`, `*` is `["", ""]`, `abc` is `[abc]`).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Alternative {
    segments: Vec<String>,
}

impl Alternative {
    fn is_match(&self, subject: &str) -> bool {
        let (first, rest) = match self.segments.split_first() {
            Some(x) => x,
            None => return subject.is_empty(),
        };
        let Some((last, middle)) = rest.split_last() else {
            return subject == first;
        };
        if subject.len() < first.len() + last.len()
            || !subject.starts_with(first.as_str())
            || !subject.ends_with(last.as_str())
        {
            return false;
        }
        let mut between = &subject[first.len()..subject.len() - last.len()];
        for segment in middle {
            match crate::read::scan::find_str(between, segment) {
                Some(at) => between = &between[at + segment.len()..],
                None => return false,
            }
        }
        true
    }
}

/// Alternatives a glob's braces may expand to at most (`{a,b}.{c,d}` is 4).
const MAX_ALTERNATIVES: usize = 256;

impl Glob {
    /// Whether the pattern matches the whole of `subject`.
    pub fn is_match(&self, subject: &str) -> bool {
        // Most frames fail here, before the alternatives (up to 22 in the catalogue, each
        // checked on every frame of a trace by some conditions).
        subject.starts_with(self.prefix.as_str())
            && subject.ends_with(self.suffix.as_str())
            && self.alternatives.iter().any(|a| a.is_match(subject))
    }
}

/// A glob that cannot be compiled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GlobError {
    /// The pattern as written.
    pub pattern: String,
    /// What is wrong (`unclosed "{"`).
    pub reason: String,
}

impl std::fmt::Display for GlobError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "invalid frame pattern {:?} ({})",
            self.pattern, self.reason
        )
    }
}

/// Compiles `pattern` to a [`Glob`] that must match the whole subject.
///
/// Errors: unbalanced or nested braces (`{a,{b}}`, `a}`, `{a`), or braces that expand to more
/// than 256 alternatives.
pub fn compile(pattern: &str) -> Result<Glob, GlobError> {
    let err = |reason: &str| GlobError {
        pattern: pattern.to_owned(),
        reason: reason.to_owned(),
    };
    // The pattern's brace-free expansions so far, and the alternatives of an open brace.
    let mut texts = vec![String::new()];
    let mut alts: Option<Vec<String>> = None;
    // Runs of literal text are appended whole; only `{`, `,` and `}` (ASCII) are looked at one
    // by one (a char at a time made compiling the catalogue's globs a tenth of a cold start).
    let mut rest = pattern;
    while !rest.is_empty() {
        let at = rest
            .bytes()
            .position(|b| matches!(b, b'{' | b',' | b'}'))
            .unwrap_or(rest.len());
        let (literal, tail) = rest.split_at(at);
        if !literal.is_empty() {
            match alts.as_mut() {
                Some(open) => {
                    if let Some(a) = open.last_mut() {
                        a.push_str(literal);
                    }
                }
                None => texts.iter_mut().for_each(|t| t.push_str(literal)),
            }
        }
        let Some(c) = tail.chars().next() else {
            break;
        };
        rest = &tail[c.len_utf8()..];
        match (c, alts.as_mut()) {
            ('{', Some(_)) => return Err(err("nested \"{\"")),
            ('{', None) => alts = Some(vec![String::new()]),
            (',', Some(open)) => open.push(String::new()),
            ('}', None) => return Err(err("\"}\" without \"{\"")),
            ('}', Some(_)) => {
                let open = alts.take().unwrap_or_default();
                if texts.len() * open.len() > MAX_ALTERNATIVES {
                    return Err(err("braces expand to more than 256 alternatives"));
                }
                texts = texts
                    .iter()
                    .flat_map(|t| open.iter().map(move |a| format!("{t}{a}")))
                    .collect();
            }
            // A `,` outside braces is literal.
            (c, _) => texts.iter_mut().for_each(|t| t.push(c)),
        }
    }
    if alts.is_some() {
        return Err(err("unclosed \"{\""));
    }
    let mut alternatives: Vec<Alternative> = Vec::new();
    for text in texts {
        let parts: Vec<&str> = text.split('*').collect();
        let last = parts.len() - 1;
        // `a**b` is `a*b`: empty segments between two stars match anywhere.
        let segments = parts
            .iter()
            .enumerate()
            .filter(|&(i, p)| i == 0 || i == last || !p.is_empty())
            .map(|(_, p)| (*p).to_owned())
            .collect();
        let alternative = Alternative { segments };
        if !alternatives.contains(&alternative) {
            alternatives.push(alternative);
        }
    }
    // Every alternative has a first and a last segment (`split` yields at least one part).
    let firsts = alternatives.iter().filter_map(|a| a.segments.first());
    let lasts = alternatives.iter().filter_map(|a| a.segments.last());
    let prefix = firsts
        .map(String::as_str)
        .reduce(common_prefix)
        .unwrap_or_default()
        .to_owned();
    let suffix = lasts
        .map(String::as_str)
        .reduce(common_suffix)
        .unwrap_or_default()
        .to_owned();
    Ok(Glob {
        alternatives,
        prefix,
        suffix,
    })
}

/// The longest start `a` and `b` share, cut at a `char` boundary.
fn common_prefix<'a>(a: &'a str, b: &str) -> &'a str {
    let n = a
        .char_indices()
        .zip(b.chars())
        .find(|((_, x), y)| x != y)
        .map_or(a.len().min(b.len()), |((i, _), _)| i);
    &a[..n]
}

/// The longest end `a` and `b` share, cut at a `char` boundary.
fn common_suffix<'a>(a: &'a str, b: &str) -> &'a str {
    let shared: usize = a
        .chars()
        .rev()
        .zip(b.chars().rev())
        .take_while(|(x, y)| x == y)
        .map(|(x, _)| x.len_utf8())
        .sum();
    &a[a.len() - shared..]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_match_whole_frames() {
        let g = compile("org.apache.flink.runtime.state.PartitionableListState.{<init>,deepCopy}")
            .unwrap();
        assert!(g.is_match("org.apache.flink.runtime.state.PartitionableListState.<init>"));
        assert!(g.is_match("org.apache.flink.runtime.state.PartitionableListState.deepCopy"));
        assert!(!g.is_match("org.apache.flink.runtime.state.PartitionableListState.get"));
        assert!(!g.is_match("x.org.apache.flink.runtime.state.PartitionableListState.<init>"));
        let g = compile("java.util.*Map$*.*").unwrap();
        assert!(g.is_match("java.util.HashMap$HashIterator.nextNode"));
        assert!(!g.is_match("java.util.ArrayList$Itr.next"));
        assert!(compile("a.B.c").unwrap().is_match("a.B.c"));
        assert!(
            !compile("a.B.c").unwrap().is_match("aXB.c"),
            "dots are literal"
        );
    }

    /// The part every match starts and ends with, checked before the alternatives.
    #[test]
    fn globs_know_what_every_match_starts_and_ends_with() {
        let g = compile("java.util.{HashMap,HashSet,TreeMap}*.*").unwrap();
        assert_eq!((g.prefix.as_str(), g.suffix.as_str()), ("java.util.", ""));
        let g = compile("a.{Bx,Cx}.run").unwrap();
        assert_eq!((g.prefix.as_str(), g.suffix.as_str()), ("a.", "x.run"));
        let g = compile("{x.é1,x.é2}").unwrap();
        assert_eq!((g.prefix.as_str(), g.suffix.as_str()), ("x.é", ""));
        let g = compile("{ab,b}").unwrap();
        assert_eq!((g.prefix.as_str(), g.suffix.as_str()), ("", "b"));
        assert!(g.is_match("b") && g.is_match("ab") && !g.is_match("cb"));
        let g = compile("*").unwrap();
        assert_eq!((g.prefix.as_str(), g.suffix.as_str()), ("", ""));
    }

    #[test]
    fn alternatives_may_hold_stars_and_be_empty() {
        let g = compile("java.nio.{Util.getTemporaryDirectBuffer,IOUtil.*}").unwrap();
        assert!(g.is_match("java.nio.IOUtil.write"));
        assert!(g.is_match("java.nio.Util.getTemporaryDirectBuffer"));
        assert!(!g.is_match("java.nio.Util.getTemporaryDirectBufferX"));
        let g = compile("a.{,x.}b").unwrap();
        assert!(g.is_match("a.b") && g.is_match("a.x.b") && !g.is_match("a.y.b"));
        let g = compile("*a*a*a*a*a*b").unwrap();
        assert!(!g.is_match(&"a".repeat(5000)), "no backtracking blow-up");
        assert!(compile("*").unwrap().is_match(""));
        assert!(!compile("").unwrap().is_match("x"));
    }

    /// The regex a glob stood for before [`Glob`] (`*` is `.*`, `{a,b}` is `(?:a|b)`): the
    /// reference the matcher is checked against.
    #[cfg(not(target_arch = "wasm32"))]
    fn reference(pattern: &str) -> Option<regex::Regex> {
        let mut re = String::from("^(?:");
        for c in pattern.chars() {
            match c {
                '*' => re.push_str(".*"),
                '{' => re.push_str("(?:"),
                ',' => re.push('|'),
                '}' => re.push(')'),
                c => re.push_str(&regex::escape(&c.to_string())),
            }
        }
        re.push_str(")$");
        regex::Regex::new(&re).ok()
    }

    #[cfg(not(target_arch = "wasm32"))]
    proptest::proptest! {
        #[test]
        fn matches_as_the_regex_did(
            pattern in "[ab.$*]{0,6}(\\{[ab*]{0,3}(,[ab.*]{0,3}){0,2}\\})?[ab.*]{0,4}",
            subject in "[ab.$]{0,12}",
        ) {
            let glob = compile(&pattern).expect("valid pattern");
            let re = reference(&pattern).expect("valid reference");
            proptest::prop_assert_eq!(glob.is_match(&subject), re.is_match(&subject), "{} on {}", pattern, subject);
        }
    }

    #[test]
    fn bad_braces_are_errors() {
        assert!(compile("{a,{b}}").is_err());
        assert!(compile("a}").is_err());
        assert_eq!(compile("{a").unwrap_err().reason, "unclosed \"{\"");
        let many = "{a,b,c,d}".repeat(5);
        assert!(compile(&many[..36]).is_ok(), "256 alternatives");
        assert!(compile(&many).is_err(), "1,024 alternatives");
    }
}
