//! Small helpers for the sentences the page, the CLI and the replies print: counts with their
//! noun, and numbers with thousands separators.

/// `n` and its noun: `1 thread`, `2 threads`, `0 threads`.
pub fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `items` as a list in a sentence: `a`, `a and b`, `a, b and c` (`and` is the conjunction with
/// its spaces: `" and "`, `" 和 "`).
pub fn join_list(items: &[String], and: &str) -> String {
    match items.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{}{and}{last}", rest.join(", ")),
        _ => items.concat(),
    }
}

/// `98000` as `98,000` (a comma every three digits, as the page's English text writes them).
pub fn thousands(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_join_with_commas_and_the_conjunction() {
        let l = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(join_list(&l(&[]), " and "), "");
        assert_eq!(join_list(&l(&["1.14.6"]), " and "), "1.14.6");
        assert_eq!(join_list(&l(&["a", "b"]), " and "), "a and b");
        assert_eq!(join_list(&l(&["a", "b", "c"]), " 和 "), "a, b 和 c");
    }

    #[test]
    fn counts_and_numbers_read_as_english() {
        assert_eq!(plural(1, "thread", "threads"), "1 thread");
        assert_eq!(plural(0, "thread", "threads"), "0 threads");
        assert_eq!(plural(24, "frame", "frames"), "24 frames");
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(1_048_730), "1,048,730");
    }
}

/// The most characters of a name (an operator chain, a task name) the page shows; SQL jobs
/// print task names of tens of thousands of characters.
pub const MAX_NAME_CHARS: usize = 300;

/// `s` whole when it has at most `max` chars, else its first `max` chars followed by
/// `… (12,345 more characters)`: a long name capped, saying how much was left out.
pub fn cap_name(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((at, _)) => {
            let rest = s[at..].chars().count();
            format!("{}… ({} more characters)", &s[..at], thousands(rest))
        }
        None => s.to_owned(),
    }
}

#[cfg(test)]
mod cap_tests {
    use super::*;

    #[test]
    fn a_long_name_is_capped_and_says_how_much_was_left_out() {
        assert_eq!(cap_name("abc", 3), "abc");
        assert_eq!(cap_name("abcdef", 3), "abc… (3 more characters)");
        let long = "é".repeat(50_000);
        let capped = cap_name(&long, MAX_NAME_CHARS);
        assert!(capped.ends_with("… (49,700 more characters)"), "{capped}");
    }
}
