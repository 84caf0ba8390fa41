//! Frame patterns: globs over `class.method`, matched against the whole subject.
//!
//! `*` matches any run of characters (dots included), `{a,b}` matches one of the alternatives,
//! and every other character is literal — `$`, `<init>` and `.` need no escaping, so patterns
//! read like the frames they match: `java.util.HashMap$*.next*`,
//! `org.apache.flink.runtime.state.PartitionableListState.{<init>,deepCopy}`.

/// A compiled frame pattern. Matching needs no regex engine: one pass over the pattern's
/// pieces, keeping the set of subject positions reachable so far (at most pieces × subject
/// length steps, however many `*`s; no backtracking).
#[derive(Clone, Debug)]
pub struct Glob {
    pieces: Vec<Piece>,
}

#[derive(Clone, Debug)]
enum Piece {
    Literal(String),
    Star,
    /// `{a,b*}`: each alternative is a sequence of literals and stars.
    OneOf(Vec<Vec<Piece>>),
}

impl Glob {
    /// Whether the pattern matches the whole of `subject`.
    pub fn is_match(&self, subject: &str) -> bool {
        let s = subject.as_bytes();
        let mut pieces = self.pieces.as_slice();
        let mut at = 0;
        // Most subjects differ from the pattern's leading literal: one comparison rejects them.
        if let Some((Piece::Literal(l), rest)) = pieces.split_first() {
            if !s.starts_with(l.as_bytes()) {
                return false;
            }
            pieces = rest;
            at = l.len();
        }
        if pieces.is_empty() {
            return at == s.len();
        }
        // reach[i]: the subject's first i bytes are matched by the pieces seen so far.
        let mut reach = vec![false; s.len() + 1];
        reach[at] = true;
        run(pieces, reach, s).last().copied().unwrap_or(false)
    }
}

/// The positions reachable after `pieces`, from the positions in `reach`.
fn run(pieces: &[Piece], mut reach: Vec<bool>, s: &[u8]) -> Vec<bool> {
    for piece in pieces {
        let mut next = vec![false; reach.len()];
        match piece {
            Piece::Star => {
                if let Some(first) = reach.iter().position(|&b| b) {
                    next[first..].iter_mut().for_each(|b| *b = true);
                }
            }
            Piece::Literal(l) => step(&reach, &mut next, s, l.as_bytes()),
            Piece::OneOf(alts) => {
                for alt in alts {
                    let after = run(alt, reach.clone(), s);
                    next.iter_mut().zip(after).for_each(|(n, a)| *n |= a);
                }
            }
        }
        if !next.iter().any(|&b| b) {
            return next;
        }
        reach = next;
    }
    reach
}

/// Moves every reachable position over `lit` where the subject has it there.
fn step(reach: &[bool], next: &mut [bool], s: &[u8], lit: &[u8]) {
    for (i, _) in reach.iter().enumerate().filter(|(_, &r)| r) {
        if s[i..].starts_with(lit) {
            next[i + lit.len()] = true;
        }
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
/// Errors: unbalanced or nested braces (`{a,{b}}`, `a}`, `{a`).
pub fn compile(pattern: &str) -> Result<Glob, GlobError> {
    let err = |reason: &str| GlobError {
        pattern: pattern.to_owned(),
        reason: reason.to_owned(),
    };
    // The pieces outside braces, and those of the alternatives while inside them.
    let mut pieces = Vec::new();
    let mut alts: Option<Vec<Vec<Piece>>> = None;
    let mut alt: Vec<Piece> = Vec::new();
    let mut literal = String::new();
    let end_literal = |literal: &mut String, into: &mut Vec<Piece>| {
        if !literal.is_empty() {
            into.push(Piece::Literal(std::mem::take(literal)));
        }
    };
    for c in pattern.chars() {
        let into = if alts.is_some() {
            &mut alt
        } else {
            &mut pieces
        };
        match c {
            '*' => {
                end_literal(&mut literal, into);
                if !matches!(into.last(), Some(Piece::Star)) {
                    into.push(Piece::Star);
                }
            }
            '{' if alts.is_some() => return Err(err("nested \"{\"")),
            '{' => {
                end_literal(&mut literal, into);
                alts = Some(Vec::new());
            }
            ',' if alts.is_some() => {
                end_literal(&mut literal, into);
                alts.get_or_insert_with(Vec::new)
                    .push(std::mem::take(&mut alt));
            }
            '}' => {
                let Some(mut done) = alts.take() else {
                    return Err(err("\"}\" without \"{\""));
                };
                end_literal(&mut literal, &mut alt);
                done.push(std::mem::take(&mut alt));
                pieces.push(Piece::OneOf(done));
            }
            c => literal.push(c),
        }
    }
    if alts.is_some() {
        return Err(err("unclosed \"{\""));
    }
    end_literal(&mut literal, &mut pieces);
    Ok(Glob { pieces })
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
    }
}
