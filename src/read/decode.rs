//! Undoing what carried the trace: JSON string escapes and HTML escaping.
//!
//! A [`Document`] is decoded text plus an offset map back to the original input, so that the
//! parser works on clean text while every span it reports still points into what was pasted.
//! Mail quoting, CRLF and hard wraps are line-level matters and are handled by the parser.

use crate::span::Span;

/// One piece of the offset map: `dec_len` decoded bytes at `dec_start` came from `orig_len`
/// original bytes at `orig_start`. Copied pieces have equal lengths; replaced pieces (an escape
/// such as `\n` or `&lt;`) map as a whole.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Piece {
    dec_start: usize,
    dec_len: usize,
    orig_start: usize,
    orig_len: usize,
    /// Copied byte for byte (offsets map one to one), as opposed to written in place of the
    /// original range (an unescaped character, a frame rebuilt from JSON), which maps as a whole
    /// even when both happen to be as long.
    exact: bool,
}

impl Piece {
    fn copied(&self) -> bool {
        self.exact
    }
}

/// How a document was taken out of the input, shown to the person ("read from JSON string").
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Container {
    /// The input as pasted.
    Plain,
    /// A string literal inside JSON (Flink REST responses, JSON logs); escapes undone.
    JsonString,
}

/// Decoded text with a map from its byte offsets to byte offsets of the original input.
#[derive(Clone, Debug)]
pub struct Document {
    /// The decoded text the parser reads.
    pub text: String,
    pieces: Vec<Piece>,
    /// Where the document came from.
    pub container: Container,
    /// True when HTML escapes (`&lt;`, `&gt;`, `&amp;`, …) or tags (`<br>`) were undone.
    pub html_unescaped: bool,
}

impl Document {
    /// The whole input, unchanged (identity map).
    pub fn plain(input: &str) -> Self {
        Document {
            text: input.to_owned(),
            pieces: vec![Piece {
                dec_start: 0,
                dec_len: input.len(),
                orig_start: 0,
                orig_len: input.len(),
                exact: true,
            }],
            container: Container::Plain,
            html_unescaped: false,
        }
    }

    /// The part `start..end` of the input, unchanged (byte offsets on char boundaries).
    pub fn plain_range(input: &str, start: usize, end: usize) -> Self {
        Document {
            text: input[start..end].to_owned(),
            pieces: vec![Piece {
                dec_start: 0,
                dec_len: end - start,
                orig_start: start,
                orig_len: end - start,
                exact: true,
            }],
            container: Container::Plain,
            html_unescaped: false,
        }
    }

    /// Maps a byte offset of the decoded text to the original input, as the start of a span.
    pub fn orig_start(&self, dec: usize) -> usize {
        match self.piece_at(dec) {
            Some(p) if p.copied() => p.orig_start + (dec - p.dec_start),
            Some(p) => p.orig_start,
            None => self.orig_end_of_all(),
        }
    }

    /// Maps a byte offset of the decoded text to the original input, as the end of a span.
    pub fn orig_end(&self, dec: usize) -> usize {
        if dec == 0 {
            return self.orig_start(0);
        }
        match self.piece_at(dec - 1) {
            Some(p) if p.copied() => p.orig_start + (dec - p.dec_start),
            Some(p) => p.orig_start + p.orig_len,
            None => self.orig_end_of_all(),
        }
    }

    /// Maps a decoded range to a span of the original input.
    pub fn orig_span(&self, start: usize, end: usize) -> Span {
        Span::new(self.orig_start(start), self.orig_end(end))
    }

    fn orig_end_of_all(&self) -> usize {
        self.pieces.last().map_or(0, |p| p.orig_start + p.orig_len)
    }

    fn piece_at(&self, dec: usize) -> Option<&Piece> {
        let i = self
            .pieces
            .partition_point(|p| p.dec_start + p.dec_len <= dec);
        self.pieces.get(i).filter(|p| p.dec_start <= dec)
    }
}

/// Builds a [`Document`] from pieces of a previous one (so maps compose back to the input).
pub(crate) struct Builder<'a> {
    from: &'a Document,
    text: String,
    pieces: Vec<Piece>,
}

impl<'a> Builder<'a> {
    /// A builder over `from` that expects about `capacity` bytes of output.
    pub(crate) fn new(from: &'a Document, capacity: usize) -> Self {
        Builder {
            from,
            text: String::with_capacity(capacity),
            pieces: Vec::new(),
        }
    }

    /// Copies `from.text[start..end]` unchanged.
    pub(crate) fn copy(&mut self, start: usize, end: usize) {
        if start >= end {
            return;
        }
        // The range may cross several pieces of the source map: split it along them.
        let mut pos = start;
        while pos < end {
            let Some(p) = self.from.piece_at(pos) else {
                break;
            };
            let piece_end = (p.dec_start + p.dec_len).min(end);
            let dec_start = self.text.len();
            self.text.push_str(&self.from.text[pos..piece_end]);
            if p.copied() {
                self.push(Piece {
                    dec_start,
                    dec_len: piece_end - pos,
                    orig_start: p.orig_start + (pos - p.dec_start),
                    orig_len: piece_end - pos,
                    exact: true,
                });
            } else {
                self.push(Piece {
                    dec_start,
                    dec_len: piece_end - pos,
                    orig_start: p.orig_start,
                    orig_len: p.orig_len,
                    exact: false,
                });
            }
            pos = piece_end;
        }
    }

    /// Replaces `from.text[start..end]` with `with`.
    pub(crate) fn replace(&mut self, start: usize, end: usize, with: &str) {
        let span = self.from.orig_span(start, end);
        let dec_start = self.text.len();
        self.text.push_str(with);
        if with.is_empty() {
            return;
        }
        self.push(Piece {
            dec_start,
            dec_len: with.len(),
            orig_start: span.start,
            orig_len: span.len(),
            exact: false,
        });
    }

    /// Copies `from.text[*run..start]` unchanged, writes `with` in place of `start..end`, and
    /// moves `*run` (the end of what is already written) to `end`.
    fn splice(&mut self, run: &mut usize, start: usize, end: usize, with: &str) {
        self.copy(*run, start);
        self.replace(start, end, with);
        *run = end;
    }

    /// Appends another document decoded from the same input, with its own map (which points
    /// at the input).
    pub(crate) fn append(&mut self, other: &Document) {
        for piece in &other.pieces {
            let dec_start = self.text.len();
            self.text
                .push_str(&other.text[piece.dec_start..piece.dec_start + piece.dec_len]);
            self.push(Piece {
                dec_start,
                ..*piece
            });
        }
    }

    fn push(&mut self, piece: Piece) {
        // Merge adjacent copied pieces so the map stays small on long clean runs.
        if let Some(last) = self.pieces.last_mut() {
            if last.copied()
                && piece.copied()
                && last.dec_start + last.dec_len == piece.dec_start
                && last.orig_start + last.orig_len == piece.orig_start
            {
                last.dec_len += piece.dec_len;
                last.orig_len += piece.orig_len;
                return;
            }
        }
        self.pieces.push(piece);
    }

    pub(crate) fn finish(self, container: Container, html_unescaped: bool) -> Document {
        Document {
            text: self.text,
            pieces: self.pieces,
            container,
            html_unescaped,
        }
    }
}

/// Which UTF-16 a text without a byte-order mark is in, from the zero bytes of its first 4 KB:
/// a log is mostly ASCII, so UTF-16LE has a zero in most odd bytes and almost none in the even
/// ones (BE the other way round). `Some(true)` for LE, `Some(false)` for BE, `None` when it
/// does not look like UTF-16 (UTF-8 text has no zero bytes at all).
fn utf16_without_bom(bytes: &[u8]) -> Option<bool> {
    let head = &bytes[..bytes.len().min(4096) & !1];
    let pairs = head.len() / 2;
    if pairs < 2 {
        return None;
    }
    let (mut even, mut odd) = (0, 0);
    for pair in head.chunks_exact(2) {
        even += usize::from(pair[0] == 0);
        odd += usize::from(pair[1] == 0);
    }
    let most = |n: usize| n * 10 >= pairs * 7;
    let few = |n: usize| n * 20 <= pairs;
    if most(odd) && few(even) {
        Some(true)
    } else if most(even) && few(odd) {
        Some(false)
    } else {
        None
    }
}

/// Turns the bytes of a file into text: a UTF-8 byte-order mark is dropped, UTF-16 with a
/// byte-order mark (what Windows PowerShell's `>` writes) is decoded, so is UTF-16 without one
/// when its zero bytes show it ([`utf16_without_bom`]: what some Windows tools save), and
/// anything else is read as UTF-8 with invalid bytes replaced by U+FFFD (a truncated paste is
/// still read).
pub fn bytes_to_text(bytes: &[u8]) -> String {
    let utf16 = |le: bool, skip: usize| {
        let units: Vec<u16> = bytes[skip..]
            .chunks_exact(2)
            .map(|c| {
                if le {
                    u16::from_le_bytes([c[0], c[1]])
                } else {
                    u16::from_be_bytes([c[0], c[1]])
                }
            })
            .collect();
        String::from_utf16_lossy(&units)
    };
    match bytes {
        [0xEF, 0xBB, 0xBF, rest @ ..] => String::from_utf8_lossy(rest).into_owned(),
        [0xFF, 0xFE, ..] => utf16(true, 2),
        [0xFE, 0xFF, ..] => utf16(false, 2),
        _ => match utf16_without_bom(bytes) {
            Some(le) => utf16(le, 0),
            None => String::from_utf8_lossy(bytes).into_owned(),
        },
    }
}

/// Splits the input into the documents the parser reads.
///
/// Input that looks like JSON (first non-blank byte `{` or `[`) gives one document per string
/// literal that holds a stack frame line (`at …(`), in input order; anything else is one plain
/// document. Each document is then HTML-unescaped when it shows HTML escapes.
pub fn documents(input: &str) -> Vec<Document> {
    let plain = Document::plain(input);
    let trimmed = input.trim_start();
    let mut docs = Vec::new();
    // Throwables serialized as JSON objects (class, message, an array of frames), wherever they
    // are: each becomes a document in Java's printed form; the text around them stays text.
    let thrown = super::json_throwable::documents(&plain);
    if !thrown.is_empty() {
        let mut at = 0;
        for (doc, open, close) in thrown {
            if !input[at..open].trim().is_empty() {
                docs.push(Document::plain_range(input, at, open));
            }
            docs.push(doc);
            at = close;
        }
        if !input[at..].trim().is_empty() {
            docs.push(Document::plain_range(input, at, input.len()));
        }
        return docs
            .into_iter()
            .map(html_unescape)
            .map(strip_zero_width)
            .map(strip_line_timestamps)
            .map(repair_lines)
            .collect();
    }
    // Docker's json-file log: one JSON object per line, each holding one line of output (plain
    // lines around them are kept).
    if trimmed.starts_with('{') || input.contains("\n{") {
        if let Some(doc) = json_lines_log(&plain) {
            return vec![repair_lines(strip_zero_width(html_unescape(doc)))];
        }
    }
    if trimmed.starts_with('{') || trimmed.starts_with('[') {
        docs = json_string_documents(&plain);
        docs.extend(json_line_arrays(&plain, false));
        // Text pasted after the JSON value (another log, a second trace) is read as text.
        let json_end = json_value_end(input);
        let rest = input[json_end..].trim_start();
        if !docs.is_empty() && !rest.is_empty() && !rest.starts_with(['{', '[']) {
            docs.push(Document::plain_range(input, json_end, input.len()));
        }
        // Keep input order (a log may mix both shapes).
        docs.sort_by_key(|d| d.orig_start(0));
    }
    // Part of such an array, copied without its brackets: quoted lines with commas
    // (`"Caused by: java.util.ConcurrentModificationException",` / `"\tat java.util…",`).
    if docs.is_empty() && trimmed.starts_with('"') {
        docs = json_line_arrays(&plain, true);
    }
    if docs.is_empty() {
        docs.push(plain);
    }
    docs.into_iter()
        .map(html_unescape)
        .map(strip_zero_width)
        .map(strip_line_timestamps)
        .map(repair_lines)
        .collect()
}

/// Characters that print as nothing: zero-width space, non-joiner and joiner, word joiner and a
/// byte-order mark inside the text. Web pages and chat tools put them inside long words
/// (`Concurrent\u{200b}ModificationException`), where they would split a class name; they
/// are dropped from what the parser reads (spans still point at the input).
fn is_zero_width(c: char) -> bool {
    matches!(
        c,
        '\u{200b}' | '\u{200c}' | '\u{200d}' | '\u{2060}' | '\u{feff}'
    )
}

fn strip_zero_width(doc: Document) -> Document {
    let t = &doc.text;
    // Their UTF-8 starts with E2 80 8B–8D, E2 81 A0 or EF BB BF: one scan for the lead bytes.
    let bytes = t.as_bytes();
    let has = memchr::memchr2_iter(0xE2, 0xEF, bytes).any(|i| {
        matches!(
            bytes.get(i..i + 3),
            Some([0xE2, 0x80, 0x8B..=0x8D] | [0xE2, 0x81, 0xA0] | [0xEF, 0xBB, 0xBF])
        )
    });
    if !has {
        return doc;
    }
    let container = doc.container;
    let html = doc.html_unescaped;
    let mut b = Builder::new(&doc, t.len());
    let mut run = 0;
    for (i, c) in t.char_indices() {
        if is_zero_width(c) {
            b.splice(&mut run, i, i + c.len_utf8(), "");
        }
    }
    b.copy(run, t.len());
    b.finish(container, html)
}

/// Length of a container-log prefix at the start of `line`: an RFC 3339 timestamp
/// (`2021-08-18T06:18:37.000002Z`, `…+02:00`) and a space, as `kubectl logs --timestamps` and
/// Docker print, optionally followed by the CRI stream and tag (`stderr F `, `stdout P `) of a
/// containerd / CRI-O log file. `None` when the line does not start so.
fn line_timestamp_len(line: &str) -> Option<usize> {
    let b = line.as_bytes();
    let digits =
        |r: std::ops::Range<usize>| b.get(r).is_some_and(|d| d.iter().all(u8::is_ascii_digit));
    let shape = digits(0..4)
        && b.get(4) == Some(&b'-')
        && digits(5..7)
        && b.get(7) == Some(&b'-')
        && digits(8..10)
        && b.get(10) == Some(&b'T')
        && digits(11..13)
        && b.get(13) == Some(&b':')
        && digits(14..16)
        && b.get(16) == Some(&b':')
        && digits(17..19);
    if !shape {
        return None;
    }
    let mut i = 19;
    if b.get(i) == Some(&b'.') {
        i += 1;
        while b.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
    }
    match b.get(i) {
        Some(b'Z') => i += 1,
        Some(b'+' | b'-')
            if digits(i + 1..i + 3) && b.get(i + 3) == Some(&b':') && digits(i + 4..i + 6) =>
        {
            i += 6
        }
        _ => return None,
    }
    if b.get(i) != Some(&b' ') {
        return None;
    }
    i += 1;
    for stream in ["stdout ", "stderr "] {
        if line[i..].starts_with(stream)
            && matches!(b.get(i + 7), Some(b'F' | b'P'))
            && b.get(i + 8) == Some(&b' ')
        {
            return Some(i + 9);
        }
    }
    Some(i)
}

/// Removes container-log prefixes ([`line_timestamp_len`]) from every line that has one, when
/// most lines do: messages continued over several lines then read without them (the operator
/// chain of `Could not perform checkpoint 575 for operator …`). Offsets still map to the input.
fn strip_line_timestamps(doc: Document) -> Document {
    let t = &doc.text;
    let (mut with, mut lines) = (0usize, 0usize);
    for line in t.lines().filter(|l| !l.trim().is_empty()).take(2000) {
        lines += 1;
        with += usize::from(line_timestamp_len(line).is_some());
    }
    if with < 3 || with * 2 < lines {
        return doc;
    }
    let container = doc.container;
    let html = doc.html_unescaped;
    let mut b = Builder::new(&doc, doc.text.len());
    let mut run = 0;
    let mut line_start = 0;
    let bytes = t.as_bytes();
    while line_start < t.len() {
        let line_end = memchr_byte(b'\n', &bytes[line_start..]).map_or(t.len(), |r| line_start + r);
        if let Some(n) = line_timestamp_len(&t[line_start..line_end]) {
            b.splice(&mut run, line_start, line_start + n, "");
        }
        line_start = line_end + 1;
    }
    b.copy(run, t.len());
    b.finish(container, html)
}

/// Where the first JSON value of `text` ends (byte offset after its closing bracket), by
/// counting brackets outside strings; the end of the text when it is not closed.
fn json_value_end(text: &str) -> usize {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut in_string = false;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if in_string => i += 1,
            b'"' => in_string = !in_string,
            b'{' | b'[' if !in_string => depth += 1,
            b'}' | b']' if !in_string => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    text.len()
}

/// Keys whose string value is one line of a program's output in a JSON-lines log.
const LINE_KEYS: &[&str] = &["\"log\":", "\"message\":", "\"msg\":", "\"line\":"];

/// A JSON-lines log where each object carries ONE output line (Docker's json-file driver:
/// `{"log":"\tat a.B.c(B.java:1)\n","stream":"stdout",…}`): the lines' values joined into one
/// document. `None` when most objects hold no such one-line value (then each multi-line
/// string is read on its own, as for logstash/ECS `stack_trace` fields).
fn json_lines_log(doc: &Document) -> Option<Document> {
    let text = &doc.text;
    if text.contains("\\n\\tat ") || text.contains("\\n    at ") {
        return None; // whole traces inside single values
    }
    // (start, end, is a JSON value): the one-line values, and the other lines kept as they are
    // (a log may mix plain lines and JSON lines).
    let mut picks: Vec<(usize, usize, bool)> = Vec::new();
    let mut objects = 0;
    let mut picked = 0;
    let mut start = 0;
    while start < text.len() {
        let end = text[start..].find('\n').map_or(text.len(), |r| start + r);
        let line = &text[start..end];
        if !line.trim_start().starts_with('{') {
            picks.push((start, (end + 1).min(text.len()), false));
        } else {
            objects += 1;
            let value = LINE_KEYS.iter().find_map(|k| {
                let at = line.find(k)? + k.len();
                let rest = &line[at..];
                let q = rest.find('"')?;
                rest[..q].trim().is_empty().then_some(start + at + q + 1)
            });
            if let Some(v) = value {
                let lit_end = string_literals(&text[v - 1..end])
                    .first()
                    .map(|&(_, e)| v - 1 + e);
                if let Some(e) = lit_end {
                    let raw = &text[v..e];
                    // One line: no escaped newline except a trailing one.
                    let inner = raw.strip_suffix("\\n").unwrap_or(raw);
                    if !inner.contains("\\n") {
                        picks.push((v, e, true));
                        picked += 1;
                    }
                }
            }
        }
        start = end + 1;
    }
    if objects < 2 || picked * 2 < objects {
        return None;
    }
    let mut b = Builder::new(doc, picks.iter().map(|&(v, e, _)| e - v + 1).sum());
    for &(v, e, json) in &picks {
        if !json {
            b.copy(v, e);
            if !b.text.ends_with('\n') {
                b.replace(e, e, "\n");
            }
            continue;
        }
        let one = json_unescape(doc, v, e);
        b.append(&one);
        if !one.text.ends_with('\n') {
            b.replace(e, e, "\n");
        }
    }
    Some(b.finish(Container::JsonString, false))
}

/// JSON arrays of strings, one line each (`["java.lang.X: y", "\tat a.B.c(B.java:1)"]`, at the
/// top level or as a field such as ECS's `error.stack_trace` with `stackTraceAsArray`): one
/// document per array that holds a frame, the strings' contents on their own lines. With
/// `fragment`, a run of at least two such literals counts without the brackets (a part of an
/// array, copied out of a log).
fn json_line_arrays(doc: &Document, fragment: bool) -> Vec<Document> {
    let text = &doc.text;
    let literals = string_literals(text);
    let is_frame = |&(a, b): &(usize, usize)| {
        let raw = text[a..b].trim_start_matches(' ');
        let raw = raw
            .strip_prefix("\\t")
            .unwrap_or(raw)
            .trim_start_matches(' ');
        raw.starts_with("at ")
    };
    let mut out = Vec::new();
    let mut k = 0;
    while k < literals.len() {
        // A run of literals separated only by commas and white space, inside `[` … `]`.
        let mut e = k;
        while e + 1 < literals.len() && text[literals[e].1 + 1..literals[e + 1].0 - 1].trim() == ","
        {
            e += 1;
        }
        let opens = text[..literals[k].0 - 1].trim_end().ends_with('[');
        let closes = text
            .get(literals[e].1 + 1..)
            .is_some_and(|r| r.trim_start().starts_with(']'));
        let group = &literals[k..=e];
        let bracketed = opens && closes || fragment && group.len() >= 2;
        if bracketed && group.iter().any(is_frame) {
            let mut b = Builder::new(doc, group.iter().map(|&(a, z)| z - a + 1).sum());
            for (n, &(start, end)) in group.iter().enumerate() {
                if n > 0 {
                    // The `", "` between two literals becomes a line break.
                    b.replace(group[n - 1].1, start, "\n");
                }
                b.append(&json_unescape(doc, start, end));
            }
            out.push(b.finish(Container::JsonString, false));
        }
        k = e + 1;
    }
    out
}

/// Start and end (exclusive, without quotes) of every JSON string literal in `text`.
fn string_literals(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(rel) = memchr_byte(b'"', &bytes[i..]) {
        let open = i + rel;
        let mut j = open + 1;
        while j < bytes.len() && bytes[j] != b'"' {
            if bytes[j] == b'\\' {
                j += 1;
            }
            j += 1;
        }
        let close = j.min(bytes.len());
        out.push((open + 1, close));
        i = close + 1;
        if i >= bytes.len() {
            break;
        }
    }
    out
}

/// Line-level repairs of what transports do to traces, each only where it is seen:
/// ANSI colour codes are removed; literal `\n` / `\t` escapes on a line that holds an escaped
/// frame (`\n\tat `) are undone; a trace collapsed onto one line (several `at pkg.C.m(` on it)
/// is split back into lines before each frame, `Caused by:`, `Suppressed:` and `... N more`.
fn repair_lines(doc: Document) -> Document {
    let t = &doc.text;
    let bytes = t.as_bytes();
    let has_ansi = memchr_byte(0x1b, bytes).is_some();
    let has_escaped = has(t, "\\n\\tat ") || has(t, "\\n    at ") || has(t, "\\nCaused by: ");
    let long_line = has_long_line(bytes, 120);
    let has_nbsp = has(t, "\u{a0}");
    // Newlines unescaped but tabs not: lines that start with the two characters `\t`.
    let literal_tab = has(t, "\n\\tat ") || has(t, "\n\\t... ");
    if !has_ansi && !has_escaped && !long_line && !has_nbsp && !literal_tab {
        return doc;
    }
    let container = doc.container;
    let html = doc.html_unescaped;
    let mut b = Builder::new(&doc, doc.text.len());
    let mut run = 0;
    let mut line_start = 0;
    while line_start <= t.len() {
        let line_end = memchr_byte(b'\n', &bytes[line_start..]).map_or(t.len(), |r| line_start + r);
        let line = &t[line_start..line_end];
        let escaped = has_escaped
            && (line.contains("\\n\\tat ")
                || line.contains("\\n    at ")
                || line.contains("\\nCaused by: "));
        let collapsed = long_line && line.len() >= 120 && count_inline_frames(line) >= 2;
        if literal_tab
            && (line.starts_with("\\tat ")
                || line.starts_with("\\t... ")
                || line.starts_with("\\tCaused by: "))
        {
            b.splice(&mut run, line_start, line_start + 2, "\t");
        }
        if has_ansi || escaped || collapsed || has_nbsp {
            let lb = line.as_bytes();
            let mut i = 0;
            while i < lb.len() {
                let at = line_start + i;
                // ESC [ params final
                if lb[i] == 0x1b {
                    let mut j = i + 1;
                    if lb.get(j) == Some(&b'[') {
                        j += 1;
                        while j < lb.len() && !(0x40..=0x7e).contains(&lb[j]) {
                            j += 1;
                        }
                        j = (j + 1).min(lb.len());
                    }
                    b.splice(&mut run, at, line_start + j, "");
                    i = j;
                    continue;
                }
                if escaped && lb[i] == b'\\' {
                    let with = match lb.get(i + 1) {
                        Some(b'n') => Some("\n"),
                        Some(b't') => Some("\t"),
                        Some(b'r') => Some(""),
                        _ => None,
                    };
                    if let Some(with) = with {
                        b.splice(&mut run, at, at + 2, with);
                        i += 2;
                        continue;
                    }
                }
                // A non-breaking space (U+00A0, two bytes) pasted as indentation or as a space.
                if has_nbsp && lb[i] == 0xC2 && lb.get(i + 1) == Some(&0xA0) {
                    b.splice(&mut run, at, at + 2, " ");
                    i += 2;
                    continue;
                }
                if collapsed && (lb[i] == b' ' || lb[i] == b'\t') && i > 0 {
                    let rest = &line[i + 1..];
                    if inline_break(rest) {
                        b.splice(&mut run, at, at + 1, "\n\t");
                        i += 1;
                        continue;
                    }
                }
                // Newlines dropped with nothing in their place: `…(Thread.java:829)Caused by: …`,
                // `... 1 moreCaused by: …`, `…(A.java:1)at b.C.d(…`.
                if collapsed
                    && i > 0
                    && line.is_char_boundary(i)
                    && !matches!(lb[i - 1], b' ' | b'\t')
                {
                    let rest = &line[i..];
                    let glued = rest.starts_with("Caused by: ")
                        || rest.starts_with("Suppressed: ")
                        || (lb[i - 1] == b')'
                            && rest.starts_with("at ")
                            && looks_like_frame_call(&rest[3..]));
                    if glued {
                        b.splice(&mut run, at, at, "\n");
                    }
                }
                i += 1;
            }
        }
        line_start = line_end + 1;
    }
    b.copy(run, t.len());
    b.finish(container, html)
}

fn has_long_line(bytes: &[u8], min: usize) -> bool {
    let mut start = 0;
    while start < bytes.len() {
        let end = memchr_byte(b'\n', &bytes[start..]).map_or(bytes.len(), |r| start + r);
        if end - start >= min {
            return true;
        }
        start = end + 1;
    }
    false
}

/// True when `s` starts with something that begins a line of a trace: `at pkg.Class.m(`,
/// `Caused by: `, `Suppressed: `, `... N more`.
fn inline_break(s: &str) -> bool {
    if let Some(rest) = s.strip_prefix("at ") {
        return looks_like_frame_call(rest);
    }
    s.starts_with("Caused by: ")
        || s.starts_with("Suppressed: ")
        || (s.starts_with("... ")
            && s[4..]
                .trim_start()
                .starts_with(|c: char| c.is_ascii_digit()))
}

/// `pkg.Class.method(` (a dotted name, optionally behind a module prefix, then `(`): what
/// follows `at ` on a frame line. Shared with the parser's log-prefix detection.
pub(crate) fn looks_like_frame_call(s: &str) -> bool {
    let bytes = s.as_bytes();
    let mut dots = 0;
    for (i, &b) in bytes.iter().enumerate().take(400) {
        match b {
            b'(' => return dots >= 1 && i > 2,
            // `（` (U+FF08, full width, as a Chinese input method writes it): EF BC 88.
            0xEF if bytes[i..].starts_with("（".as_bytes()) => return dots >= 1 && i > 2,
            b'.' => dots += 1,
            b if b.is_ascii_alphanumeric()
                || matches!(b, b'_' | b'$' | b'<' | b'>' | b'/' | b'@' | b'-') => {}
            _ => return false,
        }
    }
    false
}

fn count_inline_frames(line: &str) -> usize {
    let mut n = 0;
    let mut from = 0;
    while let Some(rel) = line[from..].find("at ") {
        let p = from + rel;
        let preceded = p == 0 || matches!(line.as_bytes()[p - 1], b' ' | b'\t');
        if preceded && looks_like_frame_call(&line[p + 3..]) {
            n += 1;
            if n >= 2 {
                return n;
            }
        }
        from = p + 3;
    }
    n
}

/// Finds JSON string literals holding a stack frame and decodes their escapes.
///
/// Tolerates invalid or truncated JSON: a literal is read up to its closing quote or the end.
fn json_string_documents(doc: &Document) -> Vec<Document> {
    let bytes = doc.text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(rel) = memchr_byte(b'"', &bytes[i..]) {
        let open = i + rel;
        let mut j = open + 1;
        let mut has_escape_n = false;
        while j < bytes.len() && bytes[j] != b'"' {
            if bytes[j] == b'\\' {
                if bytes.get(j + 1) == Some(&b'n') {
                    has_escape_n = true;
                }
                j += 1;
            }
            j += 1;
        }
        let close = j.min(bytes.len());
        let raw = &doc.text[open + 1..close];
        // A multi-line string with a frame, or a thread of Flink's REST thread dump
        // (`"\"name\" Id=4 RUNNABLE\n\n"`, even with no frame).
        let thread = raw.starts_with("\\\"") && raw.contains("\\\" Id=");
        let frames = raw.contains("\\tat ") || raw.contains("\\nat ") || raw.contains("\\n    at ");
        if has_escape_n && (frames || thread) {
            out.push(json_unescape(doc, open + 1, close));
        }
        i = (close + 1).min(bytes.len());
        if i >= bytes.len() {
            break;
        }
    }
    out
}

pub(crate) fn json_unescape(doc: &Document, start: usize, end: usize) -> Document {
    let mut b = Builder::new(doc, end - start);
    let text = &doc.text;
    let mut run = start;
    let mut i = start;
    let bytes = text.as_bytes();
    while i < end {
        if bytes[i] != b'\\' {
            i += 1;
            continue;
        }
        b.copy(run, i);
        let esc = bytes.get(i + 1).copied();
        let (with, len): (String, usize) = match esc {
            Some(b'n') => ("\n".into(), 2),
            Some(b't') => ("\t".into(), 2),
            Some(b'r') => ("\r".into(), 2),
            Some(b'"') => ("\"".into(), 2),
            Some(b'\\') => ("\\".into(), 2),
            Some(b'/') => ("/".into(), 2),
            Some(b'b') => ("\u{8}".into(), 2),
            Some(b'f') => ("\u{c}".into(), 2),
            Some(b'u') => {
                let hex = text.get(i + 2..i + 6).unwrap_or("");
                let unit = u32::from_str_radix(hex, 16).ok();
                // A surrogate pair (`\ud83d\ude00`) is one character.
                let low = text
                    .get(i + 6..i + 12)
                    .and_then(|n| n.strip_prefix("\\u"))
                    .and_then(|h| u32::from_str_radix(h, 16).ok())
                    .filter(|l| (0xDC00..0xE000).contains(l));
                match (unit, low) {
                    (Some(hi @ 0xD800..0xDC00), Some(lo)) => {
                        let c = char::from_u32(0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00));
                        (c.unwrap_or('\u{fffd}').to_string(), 12)
                    }
                    _ => match unit.and_then(char::from_u32) {
                        Some(c) => (c.to_string(), 6),
                        // A lone surrogate or a broken escape: keep a replacement character.
                        None => ('\u{fffd}'.to_string(), 2 + hex.len().min(4)),
                    },
                }
            }
            _ => (String::new(), 1),
        };
        let stop = (i + len).min(end);
        let stop = (stop..=end)
            .find(|&k| text.is_char_boundary(k))
            .unwrap_or(end);
        b.replace(i, stop, &with);
        i = stop;
        run = stop;
    }
    b.copy(run, end);
    b.finish(Container::JsonString, false)
}

const ENTITIES: &[(&str, &str)] = &[
    ("&lt;", "<"),
    ("&gt;", ">"),
    ("&amp;", "&"),
    ("&quot;", "\""),
    ("&apos;", "'"),
    ("&#39;", "'"),
    ("&#x27;", "'"),
    ("&nbsp;", " "),
    ("&#36;", "$"),
];

/// Undoes HTML escaping and line-break tags when the document shows any of them.
fn html_unescape(doc: Document) -> Document {
    let t = &doc.text;
    let bytes = t.as_bytes();
    let looks_html = memchr::memchr_iter(b'&', bytes).any(|i| {
        ["&lt;", "&gt;", "&amp;", "&quot;", "&#"]
            .iter()
            .any(|e| bytes[i..].starts_with(e.as_bytes()))
    }) || has_line_tag(t);
    if !looks_html {
        return doc;
    }
    let container = doc.container;
    let mut b = Builder::new(&doc, doc.text.len());

    let mut run = 0;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'&' => {
                if let Some((entity, with)) = ENTITIES.iter().find(|(e, _)| t[i..].starts_with(e)) {
                    b.splice(&mut run, i, i + entity.len(), with);
                    i = run;
                    continue;
                }
            }
            b'<' => {
                if let Some(tag_len) = html_tag_len(&t[i..]) {
                    let tag = t[i + 1..i + tag_len].to_ascii_lowercase();
                    let name: String = tag
                        .chars()
                        .take_while(|c| c.is_ascii_alphabetic() || *c == '/')
                        .collect();
                    let with = if matches!(name.as_str(), "br" | "/p" | "/div") {
                        "\n"
                    } else {
                        ""
                    };
                    b.splice(&mut run, i, i + tag_len, with);
                    i = run;
                    continue;
                }
            }
            _ => {}
        }
        i += 1;
    }
    b.copy(run, bytes.len());
    b.finish(container, true)
}

/// Length of an HTML tag (`<br>`, `<br/>`, `</pre>`, `<pre class="x">`) at the start of `s`.
/// Only tags of the few kinds that wrap pasted text are undone; `<init>` stays.
fn html_tag_len(s: &str) -> Option<usize> {
    const TAGS: &[&str] = &["br", "pre", "p", "div", "code", "span", "tt"];
    let rest = s.strip_prefix('<')?;
    let rest = rest.strip_prefix('/').unwrap_or(rest);
    let name_len = rest.bytes().take_while(|b| b.is_ascii_alphabetic()).count();
    let name = rest.get(..name_len)?.to_ascii_lowercase();
    if !TAGS.contains(&name.as_str()) {
        return None;
    }
    let after = rest.as_bytes().get(name_len)?;
    if !matches!(after, b'>' | b' ' | b'/') {
        return None;
    }
    // Bounded: an unclosed `<pre` must not make every later `<` scan to the end.
    let close = s.as_bytes().iter().take(200).position(|&b| b == b'>')?;
    Some(close + 1)
}

/// True when the text holds `<br` or `<pre` (any case). Looks only where `<` is, so text
/// without HTML costs one fast scan.
fn has_line_tag(t: &str) -> bool {
    let bytes = t.as_bytes();
    let mut from = 0;
    while let Some(rel) = memchr_byte(b'<', &bytes[from..]) {
        let at = from + rel + 1;
        let next = &bytes[at..bytes.len().min(at + 3)];
        if next.len() >= 2 && next[..2].eq_ignore_ascii_case(b"br")
            || next.eq_ignore_ascii_case(b"pre")
        {
            return true;
        }
        from = at;
    }
    false
}

/// Whether `needle` occurs in `text` (SIMD substring search: these checks read whole texts).
fn has(text: &str, needle: &str) -> bool {
    memchr::memmem::find(text.as_bytes(), needle.as_bytes()).is_some()
}

fn memchr_byte(needle: u8, haystack: &[u8]) -> Option<usize> {
    memchr::memchr(needle, haystack)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_width_characters_inside_a_class_name_are_not_read() {
        // A tester's paste (2026-12-02): a zero-width space inside the class, as web pages and
        // chat tools insert them; the class was read as `java.util.Concurrent`.
        let input = "Caused by: java.util.Concurrent\u{200b}ModificationException\n\tat java.util.HashMap$HashIterator.nextNode(HashMap.java:1445)\n";
        let d = crate::diagnose(input);
        let t = &d.traces[0].trace;
        assert_eq!(
            t.throwables[0].class,
            "java.util.ConcurrentModificationException"
        );
        // The span still points at the input, zero-width space included.
        assert_eq!(
            &input[t.throwables[0].class_span.range()],
            "java.util.Concurrent\u{200b}ModificationException"
        );
    }

    fn slice<'a>(input: &'a str, doc: &Document, needle: &str) -> &'a str {
        let at = doc.text.find(needle).expect("needle in decoded text");
        &input[doc.orig_span(at, at + needle.len()).range()]
    }

    #[test]
    fn quoted_lines_copied_out_of_a_json_array_are_read_as_lines() {
        let input = "\"Caused by: java.util.ConcurrentModificationException\",\n        \"\\tat java.util.Vector$Itr.next(Vector.java:1137)\",\n        \"\\t... 44 more\",\n";
        let docs = documents(input);
        assert_eq!(docs.len(), 1);
        assert_eq!(
            docs[0].text,
            "Caused by: java.util.ConcurrentModificationException\n\tat java.util.Vector$Itr.next(Vector.java:1137)\n\t... 44 more"
        );
        // One quoted line alone is just text.
        assert_eq!(documents("\"at a.B.c(B.java:1)\"").len(), 1);
        assert_eq!(
            documents("\"at a.B.c(B.java:1)\"")[0].text,
            "\"at a.B.c(B.java:1)\""
        );
    }

    #[test]
    fn plain_text_maps_to_itself() {
        let input = "java.lang.Exception: x\n\tat a.B.c(B.java:1)";
        let docs = documents(input);
        assert_eq!(docs.len(), 1);
        assert_eq!(docs[0].text, input);
        assert_eq!(slice(input, &docs[0], "a.B.c"), "a.B.c");
    }

    #[test]
    fn json_string_escapes_map_back_to_the_literal() {
        let input = r#"{"other":"no","root-exception":"java.io.IOException: boom\n\tat a.B.c(B.java:1)\n","t":1}"#;
        let docs = documents(input);
        assert_eq!(docs.len(), 1);
        assert_eq!(docs[0].container, Container::JsonString);
        assert_eq!(
            docs[0].text,
            "java.io.IOException: boom\n\tat a.B.c(B.java:1)\n"
        );
        assert_eq!(slice(input, &docs[0], "a.B.c(B.java:1)"), "a.B.c(B.java:1)");
        assert_eq!(slice(input, &docs[0], "boom\n\tat"), "boom\\n\\tat");
    }

    #[test]
    fn html_escapes_are_undone_and_tags_become_line_breaks() {
        let input = "<pre>X -&gt; Y<br>\tat a.B.&lt;init&gt;(B.java:1)</pre>";
        let docs = documents(input);
        assert!(docs[0].html_unescaped);
        assert_eq!(docs[0].text, "X -> Y\n\tat a.B.<init>(B.java:1)");
        assert_eq!(slice(input, &docs[0], "<init>"), "&lt;init&gt;");
        assert_eq!(slice(input, &docs[0], "X -> Y"), "X -&gt; Y");
    }

    #[test]
    fn bytes_with_byte_order_marks_become_text() {
        let utf16le: Vec<u8> = [0xFF, 0xFE]
            .into_iter()
            .chain("at é".encode_utf16().flat_map(u16::to_le_bytes))
            .collect();
        assert_eq!(bytes_to_text(&utf16le), "at é");
        let utf16be: Vec<u8> = [0xFE, 0xFF]
            .into_iter()
            .chain("at".encode_utf16().flat_map(u16::to_be_bytes))
            .collect();
        assert_eq!(bytes_to_text(&utf16be), "at");
        // Without a byte-order mark, told by its zero bytes.
        let trace = "java.lang.IllegalStateException: x\n\tat com.acme.A.run(A.java:1)\n";
        let le: Vec<u8> = trace.encode_utf16().flat_map(u16::to_le_bytes).collect();
        assert_eq!(bytes_to_text(&le), trace);
        let be: Vec<u8> = trace.encode_utf16().flat_map(u16::to_be_bytes).collect();
        assert_eq!(bytes_to_text(&be), trace);
        // Binary with zero bytes everywhere, and UTF-8, stay as they were read.
        assert_eq!(bytes_to_text(&[0u8; 64]), "\0".repeat(64));
        assert_eq!(bytes_to_text("at é".as_bytes()), "at é");
        assert_eq!(bytes_to_text(b"\xEF\xBB\xBFat"), "at");
        assert_eq!(bytes_to_text(b"a\xFFb"), "a\u{FFFD}b");
        assert_eq!(
            bytes_to_text(&[0xFF, 0xFE, 0x41]),
            "",
            "an odd trailing byte is dropped"
        );
    }

    #[test]
    fn truncated_json_does_not_panic() {
        for input in [
            "{\"a\":\"x\\n\\tat a.B(",
            "[\"\\u12",
            "{\"\\",
            "{\"é\\u00e9\\nat x(\"",
        ] {
            let docs = documents(input);
            for d in &docs {
                let s = d.orig_span(0, d.text.len());
                assert!(input.get(s.range()).is_some());
            }
        }
    }
}
