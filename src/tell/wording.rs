//! Small helpers for the sentences the page, the CLI and the replies print: counts with their
//! noun, and numbers with thousands separators.

/// `n` and its noun: `1 thread`, `2 threads`, `0 threads`.
pub fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
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
