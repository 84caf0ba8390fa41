//! Frame patterns: globs over `class.method` compiled to anchored regexes.
//!
//! `*` matches any run of characters (dots included), `{a,b}` matches one of the alternatives,
//! and every other character is literal — `$`, `<init>` and `.` need no escaping, so patterns
//! read like the frames they match: `java.util.HashMap$*.next*`,
//! `org.apache.flink.runtime.state.PartitionableListState.{<init>,deepCopy}`.

use regex::Regex;

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

/// Compiles `pattern` to a regex that must match the whole subject.
///
/// Errors: unbalanced or nested braces (`{a,{b}}`, `a}`, `{a`).
pub fn compile(pattern: &str) -> Result<Regex, GlobError> {
    let err = |reason: &str| GlobError {
        pattern: pattern.to_owned(),
        reason: reason.to_owned(),
    };
    let mut re = String::with_capacity(pattern.len() * 2 + 4);
    re.push_str("^(?:");
    let mut in_braces = false;
    let mut literal = String::new();
    let flush = |literal: &mut String, re: &mut String| {
        re.push_str(&regex::escape(literal));
        literal.clear();
    };
    for c in pattern.chars() {
        match c {
            '*' => {
                flush(&mut literal, &mut re);
                re.push_str(".*");
            }
            '{' if in_braces => return Err(err("nested \"{\"")),
            '{' => {
                flush(&mut literal, &mut re);
                re.push_str("(?:");
                in_braces = true;
            }
            ',' if in_braces => {
                flush(&mut literal, &mut re);
                re.push('|');
            }
            '}' if !in_braces => return Err(err("\"}\" without \"{\"")),
            '}' => {
                flush(&mut literal, &mut re);
                re.push(')');
                in_braces = false;
            }
            c => literal.push(c),
        }
    }
    if in_braces {
        return Err(err("unclosed \"{\""));
    }
    flush(&mut literal, &mut re);
    re.push_str(")$");
    Regex::new(&re).map_err(|e| err(&e.to_string()))
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
    fn bad_braces_are_errors() {
        assert!(compile("{a,{b}}").is_err());
        assert!(compile("a}").is_err());
        assert_eq!(compile("{a").unwrap_err().reason, "unclosed \"{\"");
    }
}
