//! Byte spans into the original text and the line index that turns them into 1-based lines.
//!
//! Every node the parser produces keeps a [`Span`] into the text the person pasted, never into a
//! decoded copy: the page highlights and the CLI quotes exactly what was typed. Lines and columns
//! are computed only when rendering, from a [`LineIndex`] (the habit of `codespan-reporting`).

use serde::{Deserialize, Serialize};

/// A half-open range `start..end` of byte offsets (starting at 0) into the original input.
///
/// Invariant kept by the parser: `start <= end <= input.len()` and both fall on `char`
/// boundaries, so `&input[span.range()]` never panics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Span {
    /// First byte of the range (byte offset, starting at 0).
    pub start: usize,
    /// One past the last byte of the range (byte offset, starting at 0).
    pub end: usize,
}

impl Span {
    /// A span from `start` to `end` (byte offsets); `end` is clamped up to `start`.
    pub fn new(start: usize, end: usize) -> Self {
        Span {
            start,
            end: end.max(start),
        }
    }

    /// The range for slicing the original input.
    pub fn range(self) -> std::ops::Range<usize> {
        self.start..self.end
    }

    /// Length in bytes.
    pub fn len(self) -> usize {
        self.end - self.start
    }

    /// True when the span covers no byte.
    pub fn is_empty(self) -> bool {
        self.start == self.end
    }

    /// The smallest span covering both.
    pub fn cover(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
}

/// Start offsets of every line of a text, for turning byte offsets into 1-based line numbers.
///
/// A line ends after `\n`, `\r\n` or a lone `\r`.
#[derive(Clone, Debug)]
pub struct LineIndex {
    starts: Vec<usize>,
    len: usize,
}

impl LineIndex {
    /// Indexes `text` in one pass. Lines end at `\n`, `\r\n` or a lone `\r`, as the parser
    /// splits them.
    pub fn new(text: &str) -> Self {
        let mut starts = vec![0];
        let bytes = text.as_bytes();
        starts.extend(
            bytes
                .iter()
                .enumerate()
                .filter(|&(i, &b)| b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n')))
                .map(|(i, _)| i + 1),
        );
        LineIndex {
            starts,
            len: text.len(),
        }
    }

    /// The 1-based line that holds byte `offset` (an offset past the end gives the last line).
    pub fn line_of(&self, offset: usize) -> usize {
        let offset = offset.min(self.len);
        match self.starts.binary_search(&offset) {
            Ok(i) => i + 1,
            Err(i) => i,
        }
    }

    /// Number of lines (a text without a trailing newline still counts its last line).
    pub fn line_count(&self) -> usize {
        self.starts.len()
    }

    /// Byte span of 1-based `line`, without its line terminator; `None` past the last line.
    pub fn line_span(&self, text: &str, line: usize) -> Option<Span> {
        let start = *self.starts.get(line.checked_sub(1)?)?;
        let mut end = self.starts.get(line).map_or(self.len, |next| next - 1);
        if end > start && text.as_bytes().get(end - 1) == Some(&b'\r') {
            end -= 1;
        }
        Some(Span::new(start, end))
    }
}

/// The largest char boundary of `s` at or below byte `at` (`at` past the end: `s.len()`).
pub fn floor_char_boundary(s: &str, at: usize) -> usize {
    let mut at = at.min(s.len());
    while !s.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// The smallest char boundary of `s` at or above byte `at` (`at` past the end: `s.len()`).
pub fn ceil_char_boundary(s: &str, at: usize) -> usize {
    let mut at = at.min(s.len());
    while !s.is_char_boundary(at) {
        at += 1;
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn char_boundaries_round_down_and_up() {
        let s = "aé b"; // é is bytes 1..3
        assert_eq!(floor_char_boundary(s, 2), 1);
        assert_eq!(ceil_char_boundary(s, 2), 3);
        assert_eq!(floor_char_boundary(s, 99), s.len());
        assert_eq!(ceil_char_boundary(s, 99), s.len());
    }

    #[test]
    fn line_of_counts_from_one_and_keeps_crlf() {
        let text = "a\r\nbc\nd";
        assert_eq!(
            LineIndex::new("a\rb\r\nc").line_count(),
            3,
            "a lone CR ends a line"
        );
        let index = LineIndex::new(text);
        assert_eq!(index.line_count(), 3);
        assert_eq!(index.line_of(0), 1);
        assert_eq!(index.line_of(2), 1, "the \\n belongs to line 1");
        assert_eq!(index.line_of(3), 2);
        assert_eq!(index.line_of(7), 3);
        assert_eq!(index.line_of(99), 3);
        let span = index.line_span(text, 1).unwrap();
        assert_eq!(&text[span.range()], "a");
        assert_eq!(&text[index.line_span(text, 3).unwrap().range()], "d");
        assert_eq!(index.line_span(text, 4), None);
        assert_eq!(index.line_span(text, 0), None);
    }
}
