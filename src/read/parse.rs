//! The stack-trace parser: finds every trace in a text and reads its throwables and frames.
//!
//! Works line by line on each decoded [`Document`]. It recognises the lines Java's
//! `Throwable.printStackTrace` writes (`at …`, `Caused by: …`, `Suppressed: …`, `... N more`,
//! logback's `... N common frames omitted`), after removing mail quoting (`> `, `>> `) and
//! indentation. A trace's first header is found by looking up from its first frame, so a trace may
//! start in the middle of a log line. Hard-wrapped frames are joined; hard-wrapped messages keep
//! their line breaks. It never panics and runs in time linear in the input.

use crate::decode::{self, looks_like_frame_call, Document};
use crate::model::{Frame, Location, Relation, ThreadInfo, Throwable, Trace};
use crate::read::scan;
use crate::span::Span;
use serde::Serialize;

/// How far up from a trace's first frame the header may be (lines) when it starts inside a line
/// (after a log line's prefix), and how many lines a `Caused by:` message may continue over.
const MAX_MESSAGE_LINES: usize = 64;
/// How far up from a trace's first frame a header that starts its own line may be (lines): the
/// planner's `Cannot generate a valid execution plan for the given query:` prints the whole plan
/// in the message, hundreds of lines. Further up, the trace is read without a header.
const MAX_LONG_MESSAGE_LINES: usize = 5_000;
/// How many following lines a hard-wrapped frame may continue over.
const MAX_FRAME_CONTINUATIONS: usize = 4;
/// What counts as indentation: a no-break space too (HTML pages and some mail clients use it),
/// the ideographic space U+3000 (Chinese mail: the flagship came from user-zh@), the other
/// Unicode spaces of U+2000–U+200A, the narrow no-break space and zero-width characters
/// (U+200B, U+FEFF) a mail client may leave.
const INDENTATION: [char; 17] = [
    ' ', '\t', '\u{a0}', '\u{3000}', '\u{2000}', '\u{2001}', '\u{2002}', '\u{2003}', '\u{2004}',
    '\u{2005}', '\u{2006}', '\u{2007}', '\u{2008}', '\u{2009}', '\u{200a}', '\u{200b}', '\u{feff}',
];

/// The length in bytes of a frame line's `at ` (or `at` and an ideographic space), if `body`
/// starts with one.
fn at_prefix_len(body: &str) -> Option<usize> {
    if body.starts_with("at ") {
        Some(3)
    } else if body.starts_with("at\u{3000}") {
        Some(2 + '\u{3000}'.len_utf8())
    } else {
        None
    }
}
/// Frames restored from `... N more` lines in one trace, at most: a real chain restores a few
/// thousand (tens of causes sharing a hundred frames); a text with 20,000 nested causes, each
/// `... k more`, would restore hundreds of millions (a tester's hostile input, 2026-12-02).
const MAX_RESTORED_FRAMES: usize = 200_000;

/// Blank lines allowed inside a trace (some mail clients and log formats add them).
const MAX_BLANK_RUN: usize = 2;

/// Something the parser saw but could not read fully. It never stops parsing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Problem {
    /// Where in the original input.
    pub span: Span,
    /// What it is ([`ProblemKind::message`] says it in English).
    pub kind: ProblemKind,
    /// Lowercase sentence, details in parentheses (`frame without a location (no "(")`).
    pub message: String,
}

impl Problem {
    fn new(span: Span, kind: ProblemKind) -> Problem {
        Problem {
            span,
            message: kind.message(),
            kind,
        }
    }
}

/// The kinds of [`Problem`], with their numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum ProblemKind {
    /// A Python traceback, shown as text.
    PythonTraceback,
    /// Frames with no throwable header above them.
    FramesWithoutHeader,
    /// A header line with no class name.
    HeaderWithoutClass,
    /// An `at` line with no `(`.
    FrameWithoutLocation,
    /// `... n more` not restored: the trace already restores `restored` frames.
    RestoreBudgetSpent {
        /// The `n` of the line.
        n: usize,
        /// Frames already restored in the trace.
        restored: usize,
    },
    /// `... n more` when the enclosing throwable has fewer frames.
    MoreThanEnclosing {
        /// The `n` of the line.
        n: usize,
        /// The enclosing throwable's frames.
        has: usize,
        /// Frames restored.
        restored: usize,
    },
}

impl ProblemKind {
    /// In English: a lowercase sentence, details in parentheses.
    pub fn message(self) -> String {
        match self {
            ProblemKind::PythonTraceback => {
                "a Python traceback (PyFlink): shown as text, not read as a Java trace".into()
            }
            ProblemKind::FramesWithoutHeader => "frames without an exception line above them (a trace cut off, or interrupted by other lines)".into(),
            ProblemKind::HeaderWithoutClass => "throwable header without a class name".into(),
            ProblemKind::FrameWithoutLocation => "frame without a location (no \"(\")".into(),
            ProblemKind::RestoreBudgetSpent { n, restored } => format!(
                "\"... {n} more\" not restored: this trace already restores {restored} frames from \"... more\" lines (the most it does)"
            ),
            ProblemKind::MoreThanEnclosing { n, has, restored } => format!(
                "\"... {n} more\" but the enclosing throwable has {has} frames (restored {restored})"
            ),
        }
    }
}

/// Everything read from one input.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Parsed {
    /// Traces in input order.
    pub traces: Vec<Trace>,
    /// What could not be read, in input order.
    pub problems: Vec<Problem>,
    /// jstack deadlock reports (`Found one Java-level deadlock:`), where printed.
    pub deadlocks: Vec<Span>,
}

/// Parses every trace in `input`.
///
/// Never fails: input without a recognisable trace gives no traces, and damaged parts give
/// [`Problem`]s. All spans are byte offsets into `input` on `char` boundaries.
#[inline(never)]
pub fn parse(input: &str) -> Parsed {
    let mut out = Parsed::default();
    for doc in decode::documents(input) {
        DocParser::new(&doc, &mut out).run();
    }
    out
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Blank,
    Frame,
    CausedBy,
    Suppressed,
    /// logback's root-cause-first layout: `Wrapped by: X: msg` follows the throwable it wraps.
    WrappedBy,
    Omitted(usize),
    /// jstack's `- locked <0x…> (a …)`, `- waiting on …`, `- parking to wait for …` under a frame.
    LockInfo,
    Other,
}

impl Kind {
    fn structural(self) -> bool {
        !matches!(self, Kind::Blank | Kind::Other)
    }
}

/// A line of the decoded document. Offsets are into `Document::text`.
#[derive(Clone, Copy, Debug)]
struct Line {
    /// End of the line without its terminator (`\n`, `\r\n` or `\r`).
    end: usize,
    /// Start of the content after quote markers and indentation.
    body: usize,
    /// Start of the content after quote markers, before its indentation (what a message line
    /// keeps: the planner's plan is a tree drawn with indentation).
    indented: usize,
    /// Indentation width after quote markers (tab = 4).
    indent: usize,
    kind: Kind,
}

fn split_lines(text: &str) -> Vec<Line> {
    let mut lines = Vec::with_capacity(text.len() / 60 + 1);
    let mut start = 0;
    let bytes = text.as_bytes();
    while start <= bytes.len() {
        // A line ends at `\n`, `\r\n`, or a lone `\r` (old Mac files, some terminals).
        let brk = memchr::memchr2(b'\n', b'\r', &bytes[start..]);
        let (end, next) = match brk {
            Some(rel)
                if bytes[start + rel] == b'\r' && bytes.get(start + rel + 1) == Some(&b'\n') =>
            {
                (start + rel, start + rel + 2)
            }
            Some(rel) => (start + rel, start + rel + 1),
            None => (bytes.len(), bytes.len() + 1),
        };
        lines.push(classify(text, start, end));
        start = next;
    }
    join_bare_at(text, &mut lines);
    lines
}

/// A mail client that wraps at 72 or 76 columns never splits a word: a frame longer than the
/// line arrives as `    at` on one line and `org.apache.…(StreamTask.java:1045)` on the next.
/// Such an `at` line is a frame when the next line reads as the rest of one; `read_frame` joins
/// them.
fn join_bare_at(text: &str, lines: &mut [Line]) {
    for k in 1..lines.len() {
        let (before, after) = lines.split_at_mut(k);
        let (line, next) = (&mut before[k - 1], &after[0]);
        if line.kind == Kind::Other
            && next.kind == Kind::Other
            && text[line.body..line.end].trim_end() == "at"
            && is_frame_call(&text[next.body..next.end])
        {
            line.kind = Kind::Frame;
        }
    }
}

/// Strips quote markers and indentation, then decides what kind of line it is.
fn classify(text: &str, start: usize, end: usize) -> Line {
    let line = &text[start..end];
    let mut pos = 0;
    // Mail quoting: any run of `>` with spaces between (`> `, `>> `, `> > `).
    let trimmed = line.trim_start_matches([' ', '\t']);
    if trimmed.starts_with('>') {
        let q = line.len() - trimmed.len();
        let after = trimmed.trim_start_matches(['>', ' ']);
        let quote_len = trimmed.len() - after.len();
        // Keep indentation past one space after the last `>`.
        let last_gt = trimmed[..quote_len].rfind('>').map_or(0, |i| i + 1);
        pos = q + last_gt;
        if line[pos..].starts_with(' ') {
            pos += 1;
        }
    }
    let rest = &line[pos..];
    let unindented = rest.trim_start_matches(INDENTATION);
    let ws = &rest[..rest.len() - unindented.len()];
    let indent = ws.chars().map(|c| if c == '\t' { 4 } else { 1 }).sum();
    let indented = start + pos;
    pos += ws.len();
    let body = &line[pos..];
    let mut kind = kind_of(body);
    let mut indent = indent;
    if kind == Kind::Other {
        // A log prefix on every line (`2023-05-01T10:00:00Z stdout F \tat …`,
        // `10:00:00,123 ERROR [main] - Caused by: …`): look past it for a structural token.
        if let Some((at, ind)) = after_log_prefix(body) {
            kind = kind_of(&body[at..]);
            indent = ind;
            pos += at;
        }
    }
    Line {
        end,
        body: start + pos,
        indented,
        indent,
        kind,
    }
}

fn kind_of(body: &str) -> Kind {
    if body.is_empty() {
        Kind::Blank
    } else if at_prefix_len(body).is_some_and(|n| is_frame_call(&body[n..])) {
        Kind::Frame
    } else if body.starts_with("Caused by:") || body.starts_with("Caused by：") {
        Kind::CausedBy
    } else if body.starts_with("Suppressed:") {
        Kind::Suppressed
    } else if body.starts_with("Wrapped by:") {
        Kind::WrappedBy
    } else if let Some(n) = omitted_count(body) {
        Kind::Omitted(n)
    } else if body == "..."
        || body.strip_prefix("- ").is_some_and(|r| {
            ["locked", "waiting", "blocked", "parking", "eliminated"]
                .iter()
                .any(|p| r.trim_start().starts_with(p))
        })
    {
        // jstack (`- locked <0x…> (a …)`), ThreadInfo (`-  blocked on X@1f3c`), or a stack
        // cut at its maximum depth (`...`).
        Kind::LockInfo
    } else {
        Kind::Other
    }
}

/// Whether `rest` (what follows `at `) reads as a frame: a qualified method name (`pkg.C.m`,
/// `app//pkg.C.m`, `java.base@17/pkg.C.m`, starting with a letter, `_` or `$`, with a `.` or a
/// `/` in it), then its location in parentheses, or the end of the line (a hard-wrapped frame).
/// Prose in a mail (`  at first I thought…`, `at 10.30 it failed`, `at e.g. noon`) does not.
fn is_frame_call(rest: &str) -> bool {
    let name_len = scan::find_char(rest, |c| c == '(' || c == '（' || scan::is_whitespace(c))
        .unwrap_or(rest.len());
    let (name, after) = rest.split_at(name_len);
    let starts_ok = name
        .bytes()
        .next()
        .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_' || b == b'$' || b >= 0x80);
    let after = after.trim_start();
    starts_ok
        && name.contains(['.', '/'])
        && (after.is_empty() || after.starts_with(['(', '（', '~', '[']))
}

/// Where a structural token starts after a log prefix, and the indentation before it.
/// The prefix must look like one (a digit, `|`, `]` or `:` in at most 200 bytes) and the token
/// must be a frame call (`at pkg.C.m(`), `Caused by: `, `Suppressed: `, `Wrapped by: ` or
/// `... N more`, preceded by white space.
fn after_log_prefix(body: &str) -> Option<(usize, usize)> {
    let limit = body.len().min(200);
    let bytes = body.as_bytes();
    let mut i = 1;
    while i < limit {
        let b = bytes[i];
        let candidate =
            (b == b'a' && body[i..].starts_with("at ") && looks_like_frame_call(&body[i + 3..]))
                || (b == b'C' && body[i..].starts_with("Caused by: "))
                || (b == b'S' && body[i..].starts_with("Suppressed: "))
                || (b == b'W' && body[i..].starts_with("Wrapped by: "))
                || (b == b'.' && omitted_count(&body[i..]).is_some());
        if candidate && matches!(bytes[i - 1], b' ' | b'\t') {
            let prefix = &body[..i];
            let ws_start = prefix.trim_end_matches([' ', '\t']).len();
            let looks_like_prefix = prefix[..ws_start]
                .bytes()
                .any(|c| c.is_ascii_digit() || matches!(c, b'|' | b']' | b':'));
            if looks_like_prefix && ws_start > 0 {
                let ind = prefix[ws_start..]
                    .chars()
                    .map(|c| if c == '\t' { 4 } else { 1 })
                    .sum::<usize>();
                // The first white space separates the prefix from the line's own indentation.
                return Some((i, ind.saturating_sub(1)));
            }
        }
        i += 1;
    }
    None
}

/// `... 20 more` or logback's `... 20 common frames omitted` → 20.
fn omitted_count(body: &str) -> Option<usize> {
    let rest = body.strip_prefix("...")?.trim_start();
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    // A count too large for usize (a damaged paste) still marks the line; it restores what exists.
    let n = rest[..digits].parse().unwrap_or(usize::MAX);
    let tail = rest[digits..].trim();
    (tail == "more" || tail == "common frames omitted").then_some(n)
}

/// Finds where a throwable header starts in `body`: a qualified class name followed by `:` or
/// the end of the line, at the start of the body or (anywhere) when its simple name ends in
/// `Exception`, `Error` or `Throwable`. Returns the byte offset within `body`.
fn header_start(body: &str) -> Option<usize> {
    // The JVM's default handler: `Exception in thread "main" com.acme.Oops: …`.
    if let Some(rest) = body.strip_prefix("Exception in thread \"") {
        if let Some(close) = rest.find("\" ") {
            let at = "Exception in thread \"".len() + close + 2;
            if qualified_name_len(&body[at..]) > 0 {
                return Some(at);
            }
        }
    }
    let bytes = body.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let boundary = i == 0 || !is_ident_byte(bytes[i - 1]) && bytes[i - 1] != b'.';
        if boundary && is_ident_start(bytes[i]) {
            let len = qualified_name_len(&body[i..]);
            if len > 0 {
                let name = &body[i..i + len];
                let after = &body[i + len..];
                let ends_ok = after.is_empty() || after.starts_with(": ") || after == ":";
                let simple = name.rsplit('.').next().unwrap_or(name);
                let class_like = name.contains('.')
                    && simple
                        .as_bytes()
                        .first()
                        .is_some_and(u8::is_ascii_uppercase);
                if ends_ok && class_like && (i == 0 || throwable_like(name)) {
                    return Some(i);
                }
                i += len.max(1);
                continue;
            }
        }
        i += 1;
    }
    None
}

/// Where a throwable header starts in `body` when it starts the line (at its first byte, or
/// after the JVM's `Exception in thread "…" `, not after a log line's prefix) and names a
/// throwable (`…Exception`, `…Error`, `…Throwable`); `None` otherwise.
fn line_throwable_start(body: &str) -> Option<usize> {
    header_start(body).filter(|&at| {
        let rest = &body[at..];
        (at == 0 || body.starts_with("Exception in thread \""))
            && throwable_like(&rest[..qualified_name_len(rest)])
    })
}

/// How the simple name of a throwable class ends.
const THROWABLE_SUFFIXES: [&str; 3] = ["Exception", "Error", "Throwable"];

/// Cheap test before looking for an exception inside a line.
fn mentions_throwable(body: &str) -> bool {
    // One pass over the line for the suffixes' first letters (`E`, `T`), not one per suffix.
    let b = body.as_bytes();
    memchr::memchr2_iter(b'E', b'T', b).any(|i| {
        THROWABLE_SUFFIXES
            .iter()
            .any(|s| b[i..].starts_with(s.as_bytes()))
    })
}

/// Marks that open inline text around an exception, with what closes them.
const OPENING_MARKS: [(&str, &str); 4] = [("```", "```"), ("`", "`"), ("**", "**"), ("\"", "\"")];

/// Where an exception line starts inside `body` (a sentence, inline code, bold, after a log
/// prefix), and the mark that closes its message when one opened it: a qualified throwable
/// name followed by `:` or the end of the line (or `:` and text without a space:
/// `java.lang.OutOfMemoryError:Metaspace`), or a simple one (`TimeoutException: …`,
/// upper-case start, at least one more letter before the suffix) followed by `: `. A
/// `Caused by: ` before it is passed over.
fn inline_throwable_start(body: &str) -> Option<(usize, Option<&'static str>)> {
    let bytes = body.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let boundary = i == 0 || !is_ident_byte(bytes[i - 1]) && bytes[i - 1] != b'.';
        if !(boundary && is_ident_start(bytes[i])) {
            i += 1;
            continue;
        }
        let len = qualified_name_len(&body[i..]);
        if len == 0 {
            i += 1;
            continue;
        }
        let name = &body[i..i + len];
        let after = &body[i + len..];
        let simple = name.rsplit('.').next().unwrap_or(name);
        let suffix_ok = THROWABLE_SUFFIXES
            .iter()
            .any(|s| simple.len() > s.len() && simple.ends_with(s));
        let upper = simple
            .as_bytes()
            .first()
            .is_some_and(u8::is_ascii_uppercase);
        let before = body[..i].trim_end_matches(' ');
        let before = before
            .strip_suffix("Caused by:")
            .unwrap_or(before)
            .trim_end();
        let close = OPENING_MARKS
            .iter()
            .find(|(open, _)| before.ends_with(open))
            .map(|&(_, close)| close);
        // A name without its package where nothing but markup or a log prefix stands before it
        // (`TimeoutException: Heartbeat of …` on its own line, in inline code, after `… ERROR
        // x - `); in the middle of a sentence only when a message follows as exceptions print
        // them, from a capital ("fails with an UnsupportedFileSystemSchemeException: Could not
        // find…"), not prose ("I suspected NullPointerException: that was wrong").
        let starts_its_text = close.is_some()
            || before.is_empty()
            || before.ends_with(['-', ']', '|', ':', '>'])
            || after
                .strip_prefix(": ")
                .and_then(|m| m.chars().next())
                .is_some_and(|c| c.is_uppercase());
        let ok = suffix_ok
            && upper
            && if name.contains('.') {
                after.is_empty()
                    || after.starts_with([':', '：'])
                    || after.starts_with([' ', '`', '*', '"', ')'])
            } else {
                starts_its_text
                    && after.starts_with(": ")
                    && simple.bytes().all(|b| b.is_ascii_alphanumeric())
            };
        if ok {
            return Some((i, close));
        }
        i += len;
    }
    None
}

/// What makes a throwable the same one read twice: its simple class and the first six words
/// of its message (empty without a message, which matches any message of that class).
fn throwable_key(t: &Throwable) -> (String, String) {
    let simple = t.class.rsplit('.').next().unwrap_or(&t.class).to_owned();
    let words = t
        .message
        .as_deref()
        .unwrap_or("")
        .split_whitespace()
        .take(6)
        .collect::<Vec<_>>()
        .join(" ");
    (simple, words)
}

/// A qualified name whose simple name ends in `Exception`, `Error` or `Throwable`.
fn throwable_like(name: &str) -> bool {
    let simple = name.rsplit('.').next().unwrap_or(name);
    name.contains('.') && THROWABLE_SUFFIXES.iter().any(|s| simple.ends_with(s))
}

fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b == b'$'
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$'
}

/// Length of `a.b.C$D`-style name at the start of `s` (ASCII identifiers joined by dots).
fn qualified_name_len(s: &str) -> usize {
    let bytes = s.as_bytes();
    let mut i = 0;
    loop {
        if i >= bytes.len() || !is_ident_start(bytes[i]) {
            return trim_trailing_dot(s, i);
        }
        while i < bytes.len() && is_ident_byte(bytes[i]) {
            i += 1;
        }
        if i < bytes.len() && bytes[i] == b'.' {
            i += 1;
        } else {
            return i;
        }
    }
}

fn trim_trailing_dot(s: &str, i: usize) -> usize {
    if i > 0 && s.as_bytes()[i - 1] == b'.' {
        i - 1
    } else {
        i
    }
}

/// Parses the frame text after `at ` (already joined when wrapped).
/// Returns `None` for the location-less remainder when there is no `(`.
fn parse_frame_text(text: &str) -> (String, String, Location, Option<String>, Option<String>) {
    // A Chinese input method writes full-width parentheses and colons (`（Foo.java：12）`);
    // read them as Java prints them. Only the returned strings change, not the spans.
    let ascii;
    // (Each full-width form starts with the byte 0xEF: most frames have none.)
    let text = if text.as_bytes().contains(&0xEF) && text.contains(['（', '）', '：']) {
        ascii = fullwidth_to_ascii(text);
        ascii.trim()
    } else {
        text.trim()
    };
    // log4j2 extended info at the end: ` ~[jar:version]` or ` [jar:version]`.
    let (code, jar) = match text.rfind(" ~[").or_else(|| text.rfind(" [")) {
        Some(i) if text.ends_with(']') && text[..i].ends_with(')') => {
            let inner = text[i..].trim_start().trim_start_matches('~');
            (
                text[..i].trim_end(),
                Some(
                    inner
                        .trim_start_matches('[')
                        .trim_end_matches(']')
                        .to_owned(),
                ),
            )
        }
        _ => (text, None),
    };
    let (qualified, location) = match code.find('(') {
        Some(open) => {
            let close = code[open..].find(')').map_or(code.len(), |c| open + c);
            (&code[..open], parse_location(&code[open + 1..close]))
        }
        None => (code, Location::Unknown),
    };
    let (module, qualified) = strip_module(qualified.trim());
    let (class, method) = match qualified.rfind('.') {
        Some(dot) => (&qualified[..dot], &qualified[dot + 1..]),
        None => ("", qualified),
    };
    (
        class.to_owned(),
        method.to_owned(),
        location,
        module.map(str::to_owned),
        jar,
    )
}

fn parse_location(loc: &str) -> Location {
    let loc = loc.trim();
    // jstack puts the module inside the parentheses: `(java.base@17.0.7/Thread.java:833)`.
    let loc = match loc.rsplit_once('/') {
        Some((module, rest))
            if module.contains('@')
                || module.starts_with("java.")
                || module.starts_with("jdk.") =>
        {
            rest
        }
        _ => loc,
    };
    match loc {
        "Native Method" => Location::Native,
        "Unknown Source" | "" => Location::Unknown,
        _ => match loc.rsplit_once(':') {
            Some((file, line)) if line.bytes().all(|b| b.is_ascii_digit()) && !line.is_empty() => {
                Location::Source {
                    file: file.to_owned(),
                    line: line.parse().ok(),
                }
            }
            _ => Location::Source {
                file: loc.to_owned(),
                line: None,
            },
        },
    }
}

/// Removes Java 9+ `classloader/module@version/` prefixes (`java.base@11.0.9/`, `app//`).
/// Hidden lambda classes (`Foo$$Lambda$12/0x0000…`) keep their slash.
fn strip_module(qualified: &str) -> (Option<&str>, &str) {
    let mut rest = qualified;
    let mut module = None;
    while let Some(slash) = rest.find('/') {
        let prefix = &rest[..slash];
        let module_like = !prefix.contains('$')
            && prefix
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'@' | b'-' | b'_'));
        if !module_like {
            break;
        }
        // `loader/module@version/` or `module@version/`: the segment next to the class is the
        // module; `app//` has a class loader and no module.
        module = (!prefix.is_empty()).then_some(prefix);
        rest = &rest[slash + 1..];
    }
    (module, rest)
}

/// A thread header: `"name" #12 [daemon] prio=5 … tid=0x… nid=0x… state` (jstack) or
/// `"name" Id=12 STATE …` (`ThreadInfo.toString`, Flink's REST thread dump).
fn is_thread_header(body: &str) -> bool {
    let Some(rest) = body.strip_prefix('"') else {
        return false;
    };
    let Some(close) = rest.find('"') else {
        return false;
    };
    let after = &rest[close + 1..];
    after.starts_with(" #")
        || after.starts_with(" Id=")
        || after.contains(" tid=")
        || after.contains(" nid=")
        || after.contains(" prio=")
}

/// What heads a run of frames.
#[derive(Clone, Copy, Debug)]
enum Start {
    /// A message printed without its class on `line`, right above the frames.
    Message { line: usize },
    /// A throwable header at decoded offset `at` on `line`, its message continuing below it as
    /// `message_lines` says.
    Throwable {
        line: usize,
        at: usize,
        message_lines: MessageLines,
    },
    /// Frames with nothing readable above them, from `line`.
    Headerless { line: usize },
    /// A jstack thread header on `line`, with its `java.lang.Thread.State:` line.
    Thread { line: usize, state: Option<usize> },
}

/// A CJK unified ideograph (U+4E00–U+9FFF), as Chinese prose is written.
pub(crate) fn is_cjk_ideograph(c: char) -> bool {
    ('\u{4e00}'..='\u{9fff}').contains(&c)
}

/// How far a throwable's message may continue below its header line.
#[derive(Clone, Copy, Debug)]
enum MessageLines {
    /// Over at most this many lines, up to the first frame (or other structural line) below; with
    /// none in reach, the message is the header line alone.
    UpToFrames(usize),
    /// A throwable printed without frames (the SQL Client's errors): up to the next prompt
    /// (`Flink SQL>`), log-level tag (`[ERROR]`, `[INFO]`, `[WARNING]`), line that starts with a
    /// throwable, structural line or run of blank lines, or the end of the text, over at most
    /// [`MAX_LONG_MESSAGE_LINES`] lines.
    Frameless,
    /// An exception line inside other text (a sentence, inline code, bold, a log line): the
    /// message is the rest of that line, up to the closing mark (`` ` ``, `**`, `"`) when one
    /// opened it.
    Inline(Option<&'static str>),
}

/// Reorders throwables read root cause first (logback `Wrapped by:`) so that the top-level
/// throwable comes first and causes follow, as in Java's own order, fixing every index.
fn top_first(throwables: Vec<Throwable>) -> Vec<Throwable> {
    let n = throwables.len();
    let top = throwables
        .iter()
        .position(|t| t.relation == Relation::Top)
        .unwrap_or(0);
    let mut order = Vec::with_capacity(n);
    let mut seen = vec![false; n];
    let mut next = Some(top);
    while let Some(k) = next {
        if k >= n || seen[k] {
            break;
        }
        seen[k] = true;
        order.push(k);
        next = throwables[k].cause;
    }
    order.extend((0..n).filter(|&k| !seen[k]));
    let mut new_of = vec![0; n];
    for (new, &old) in order.iter().enumerate() {
        new_of[old] = new;
    }
    let mut slots: Vec<Option<Throwable>> = throwables.into_iter().map(Some).collect();
    order
        .iter()
        .map(|&old| {
            let mut t = slots[old].take().expect("each index once");
            t.cause = t.cause.map(|c| new_of[c]);
            t.suppressed = t.suppressed.iter().map(|&c| new_of[c]).collect();
            t.relation = match t.relation {
                Relation::Top => Relation::Top,
                Relation::CauseOf(p) => Relation::CauseOf(new_of[p]),
                Relation::SuppressedBy(p) => Relation::SuppressedBy(new_of[p]),
            };
            t
        })
        .collect()
}

struct DocParser<'a> {
    doc: &'a Document,
    lines: Vec<Line>,
    out: &'a mut Parsed,
    /// The span of the last frame read without a location (no `(`), if any: when it is the
    /// trace's last line, the text was cut in the middle of that frame.
    locationless: Option<Span>,
}

impl<'a> DocParser<'a> {
    fn new(doc: &'a Document, out: &'a mut Parsed) -> Self {
        DocParser {
            doc,
            lines: split_lines(&doc.text),
            out,
            locationless: None,
        }
    }

    fn span(&self, start: usize, end: usize) -> Span {
        self.doc.orig_span(start, end)
    }

    fn body(&self, line: &Line) -> &'a str {
        &self.doc.text[line.body..line.end]
    }

    fn run(mut self) {
        let mut i = 0;
        let mut free_from = 0; // lines before this belong to an earlier trace
        let traces_before = self.out.traces.len();
        // Line ranges `[first, next)` read as traces, in order.
        let mut covered: Vec<(usize, usize)> = Vec::new();
        while i < self.lines.len() {
            let line = self.lines[i];
            let start = match line.kind {
                Kind::Frame => Some(self.find_header(i, free_from)),
                // A `Caused by:` right under an exception line printed without frames (a chain
                // condensed to its headers): that line is the top throwable.
                Kind::CausedBy
                    if i > free_from
                        && self.lines[i - 1].kind == Kind::Other
                        && line_throwable_start(self.body(&self.lines[i - 1])).is_some() =>
                {
                    let above = self.lines[i - 1];
                    let at = line_throwable_start(self.body(&above)).unwrap_or(0);
                    Some(Start::Throwable {
                        line: i - 1,
                        at: above.body + at,
                        message_lines: MessageLines::UpToFrames(MAX_MESSAGE_LINES),
                    })
                }
                // A fragment that starts at a `Caused by:`: read it as the top throwable.
                Kind::CausedBy | Kind::Suppressed => Some(Start::Throwable {
                    line: i,
                    at: self.after_label(&line),
                    message_lines: MessageLines::UpToFrames(MAX_MESSAGE_LINES),
                }),
                Kind::Other if is_thread_header(self.body(&line)) => {
                    let state = self
                        .lines
                        .get(i + 1)
                        .filter(|n| self.body(n).starts_with("java.lang.Thread.State:"))
                        .map(|_| i + 1);
                    Some(Start::Thread { line: i, state })
                }
                Kind::Other => {
                    if let Some(end) = self.note_other(i) {
                        // A Python traceback's lines are not read for exceptions inside text.
                        covered.push((i, end + 1));
                    }
                    None
                }
                _ => None,
            };
            match start {
                Some(start) => {
                    let (Start::Throwable { line: first, .. }
                    | Start::Thread { line: first, .. }
                    | Start::Message { line: first }
                    | Start::Headerless { line: first }) = start;
                    let next = self.read_trace(start);
                    i = next.max(i + 1);
                    covered.push((first.min(i), i));
                    free_from = i;
                }
                None => i += 1,
            }
        }
        if self.out.traces.is_empty() {
            self.frameless_headers();
        }
        let first_own = self.out.traces.len();
        self.inline_headers(&covered, traces_before, first_own);
    }

    /// Exception lines printed without frames inside other text, outside every trace read:
    /// in a sentence, inline code or bold, quotes, after any log prefix, with or without the
    /// package (`TimeoutException: Heartbeat of TaskManager … timed out`, kept as written).
    /// A line already read, or one whose throwable a trace of this text already holds (a log
    /// line announcing the trace below it), is not read again. Only names of throwables count
    /// (`…Exception`, `…Error`, `…Throwable`), so ordinary prose gives no trace.
    fn inline_headers(&mut self, covered: &[(usize, usize)], traces_before: usize, own_end: usize) {
        // What this document's traces already hold, by `throwable_key`: looked up once per
        // candidate, so a log with many traces stays linear.
        // Each message's first words too: a line that repeats the start of a message read
        // over several lines (`X: foo` of `X: foo` / `bar baz`) is that throwable again.
        let mut known: std::collections::HashSet<(String, String)> = self.out.traces
            [traces_before..own_end]
            .iter()
            .flat_map(|t| t.throwables.iter())
            .flat_map(|t| {
                let (class, words) = throwable_key(t);
                let parts: Vec<&str> = words.split(' ').collect();
                (1..=parts.len())
                    .map(|k| (class.clone(), parts[..k].join(" ")))
                    .collect::<Vec<_>>()
            })
            .collect();
        let classes: std::collections::HashSet<String> =
            known.iter().map(|(c, _)| c.clone()).collect();
        let mut c = 0;
        let mut i = 0;
        while i < self.lines.len() {
            while c < covered.len() && covered[c].1 <= i {
                c += 1;
            }
            if c < covered.len() && covered[c].0 <= i {
                i = covered[c].1;
                continue;
            }
            let line = self.lines[i];
            let body = self.body(&line);
            if line.kind != Kind::Other || !mentions_throwable(body) {
                i += 1;
                continue;
            }
            let Some((at, close)) = inline_throwable_start(body) else {
                i += 1;
                continue;
            };
            let at = line.body + at;
            let (throwable, _) =
                self.read_header(i, at, Relation::Top, MessageLines::Inline(close));
            let key = throwable_key(&throwable);
            // A header without a message matches any of its class.
            let seen = known.contains(&key)
                || (throwable.message.is_none() && classes.contains(&key.0))
                || known.contains(&(key.0.clone(), String::new()));
            if !seen {
                known.insert(key);
                let span = throwable.header_span;
                self.out.traces.push(Trace {
                    throwables: vec![throwable],
                    span,
                    container: self.doc.container,
                    thread: None,
                    flink_context: false,
                    cut_at: None,
                });
            }
            i += 1;
        }
        // Keep input order: the traces read inline go among the others by where they start.
        self.out.traces[traces_before..].sort_by_key(|t| t.span.start);
    }

    /// When the text holds no trace at all: exception lines printed without frames, as the SQL
    /// Client prints its errors (`[ERROR] Could not execute SQL statement. Reason:` and
    /// `org.apache.calcite.sql.validate.SqlValidatorException: Object 'x' not found`). A line
    /// that starts with a qualified class named `…Exception`, `…Error` or `…Throwable`, followed
    /// by `: ` or the end of the line, is read as a trace of one throwable without frames.
    fn frameless_headers(&mut self) {
        let mut i = 0;
        while i < self.lines.len() {
            let line = self.lines[i];
            let body = self.body(&line);
            let is_header = line.kind == Kind::Other && line_throwable_start(body) == Some(0);
            if is_header {
                let before = self.out.traces.len();
                let next = self.read_trace(Start::Throwable {
                    line: i,
                    at: line.body,
                    message_lines: MessageLines::Frameless,
                });
                // Flink's SQL Client prints `Could not execute SQL statement. Reason:` (with
                // `[ERROR] ` before it) on the line above the exception.
                let sql_client = i > 0 && {
                    let above = self.lines[i - 1];
                    self.body(&above)
                        .contains("Could not execute SQL statement. Reason:")
                };
                if sql_client {
                    if let Some(t) = self.out.traces.get_mut(before) {
                        t.flink_context = true;
                    }
                }
                i = next.max(i + 1);
            } else {
                i += 1;
            }
        }
    }

    /// The line after the message of the header on line `h`, and whether the message may run
    /// over the lines up to it (else it is the header line alone).
    fn message_end(&self, h: usize, extent: MessageLines) -> (usize, bool) {
        let mut j = h + 1;
        match extent {
            MessageLines::UpToFrames(n) => {
                let limit = (h + 1 + n).min(self.lines.len());
                // A `...` line inside a message is the poster's elision of some of its lines
                // (Kryo's `Serialization trace:` cut short), not a stack cut at its depth limit.
                while j < limit
                    && (!self.lines[j].kind.structural() || self.body(&self.lines[j]) == "...")
                {
                    j += 1;
                }
                (j, j < limit)
            }
            MessageLines::Frameless => {
                let limit = (h + 1 + MAX_LONG_MESSAGE_LINES).min(self.lines.len());
                let mut blank_run = 0;
                while j < limit {
                    let line = &self.lines[j];
                    let body = self.body(line);
                    let after_blank = blank_run > 0;
                    blank_run = if line.kind == Kind::Blank {
                        blank_run + 1
                    } else {
                        0
                    };
                    let stop = line.kind.structural()
                        || blank_run > MAX_BLANK_RUN
                        // Chinese words after a blank line are the person's, not the message's
                        // (`查询日志：` under a one-line error in a user-zh mail): Flink's and the
                        // JDK's messages are English.
                        || (after_blank && body.chars().any(is_cjk_ideograph))
                        // The closing fence of a Markdown code block ends the error, and so
                        // does the next log line.
                        || body.starts_with("```")
                        || looks_like_log_line(body)
                        || body.starts_with("Flink SQL>")
                        || ["[ERROR]", "[INFO]", "[WARNING]"]
                            .iter()
                            .any(|tag| body.starts_with(tag))
                        || line_throwable_start(body).is_some();
                    if stop {
                        break;
                    }
                    j += 1;
                }
                (j, true)
            }
            MessageLines::Inline(_) => (h + 1, false),
        }
    }

    /// Offset just after `Caused by:` / `Suppressed:` / `Wrapped by:` and the spaces after it.
    fn after_label(&self, line: &Line) -> usize {
        let body = self.body(line);
        let colon = body.find([':', '：']).map_or(body.len(), |c| {
            c + body[c..].chars().next().map_or(1, char::len_utf8)
        });
        let skip = body[colon..].len() - body[colon..].trim_start().len();
        line.body + colon + skip
    }

    /// Records what a line outside any trace tells: a jstack deadlock report, a Python traceback.
    /// Returns the last line of a Python traceback starting at `i`.
    fn note_other(&mut self, i: usize) -> Option<usize> {
        let line = self.lines[i];
        let body = self.body(&line);
        // `Found one Java-level deadlock:` / `Found 2 Java-level deadlocks:` (not the closing
        // `Found 1 deadlock.` summary of the same report).
        if body.starts_with("Found ") && body.contains("Java-level deadlock") {
            let span = self.span(line.body, line.end);
            self.out.deadlocks.push(span);
        } else if body.starts_with("Traceback (most recent call last):") {
            // A Python traceback (PyFlink): indented `File …` lines, then `SomeError: message`.
            let mut end = i;
            while end + 1 < self.lines.len() {
                let next = self.lines[end + 1];
                let indented = next.indent > 0 && next.kind != Kind::Blank;
                end += 1;
                if !indented {
                    break;
                }
            }
            let last = self.lines[end];
            let span = self.span(line.body, last.end);
            self.out
                .problems
                .push(Problem::new(span, ProblemKind::PythonTraceback));
            return Some(end);
        }
        None
    }

    /// Looks up from the first frame at line `first` for what heads the frames: a throwable
    /// header, or a jstack thread header (`"name" #12 prio=5 …` and `java.lang.Thread.State:`).
    fn find_header(&self, first: usize, free_from: usize) -> Start {
        let near = first.saturating_sub(MAX_MESSAGE_LINES);
        let lowest = free_from.max(first.saturating_sub(MAX_LONG_MESSAGE_LINES));
        let mut j = first;
        let mut state = None;
        while j > lowest {
            j -= 1;
            let line = &self.lines[j];
            // Messages print as they are, blank lines included: a message that ends in a newline
            // (PyFlink's "Failed to create stage bundle factory! <boot log>"), the planner's
            // "Cannot generate a valid execution plan for the given query: \n\n<plan>".
            // A `...` line above the frames is the poster's elision of message lines.
            if line.kind == Kind::Blank || self.body(line) == "..." {
                continue;
            }
            if line.kind != Kind::Other {
                break;
            }
            let body = self.body(line);
            if j < near {
                // Far up, only a line that starts with a throwable (not a log line that
                // mentions one): a long message rather than frames cut off from their header.
                if let Some(at) = line_throwable_start(body) {
                    return Start::Throwable {
                        line: j,
                        at: line.body + at,
                        message_lines: MessageLines::UpToFrames(first - j),
                    };
                }
                continue;
            }
            if body.starts_with("java.lang.Thread.State:") {
                state = Some(j);
                continue;
            }
            // A jstack header, or the deadlock section's `"name":` line (not a JSON `"key": …`).
            if is_thread_header(body)
                || (body.starts_with('"') && body.ends_with("\":") && body.len() > 3)
            {
                return Start::Thread { line: j, state };
            }
            if state.is_some() {
                break;
            }
            if let Some(at) = header_start(body) {
                return Start::Throwable {
                    line: j,
                    at: line.body + at,
                    message_lines: MessageLines::UpToFrames(MAX_MESSAGE_LINES.max(first - j)),
                };
            }
        }
        // A message printed without its class right above the frames (`Failed to send data via
        // PSC producer: Expiring 3 record(s) for …`, pinterest/psc#58): read as a throwable with
        // that message and no class. Prose that introduces a trace ("Here is the trace:") is
        // not: the line must go on after a `: `.
        if first > free_from && self.lines[first - 1].kind == Kind::Other {
            let line = &self.lines[first - 1];
            let body = self.body(line).trim_end();
            let message_like = body
                .split_once(": ")
                .is_some_and(|(head, tail)| !head.is_empty() && tail.trim().len() >= 3);
            if message_like
                && !looks_like_log_line(body)
                && !body.starts_with(['`', '#', '>', '|', '"', '['])
            {
                return Start::Message { line: first - 1 };
            }
        }
        Start::Headerless { line: first }
    }

    /// Reads one trace from its start. Returns the line after the trace.
    fn read_trace(&mut self, start: Start) -> usize {
        let mut built: Vec<Throwable> = Vec::new();
        let mut stack: Vec<(usize, usize)> = Vec::new(); // (indent, index into built)
        let mut thread = None;
        let (h, mut i) = match start {
            Start::Throwable {
                line,
                at,
                message_lines,
            } => {
                let (throwable, next) = self.read_header(line, at, Relation::Top, message_lines);
                built.push(throwable);
                (line, next)
            }
            Start::Message { line } => {
                let l = self.lines[line];
                let body = self.doc.text[l.body..l.end].trim_end();
                let mut t = empty_throwable(self.span(l.body, l.body + body.len()), Relation::Top);
                t.message = Some(body.to_owned());
                built.push(t);
                (line, line + 1)
            }
            Start::Headerless { line } => {
                let l = self.lines[line];
                let span = self.span(l.body, l.body);
                self.out.problems.push(Problem::new(
                    self.span(l.body, l.end),
                    ProblemKind::FramesWithoutHeader,
                ));
                built.push(empty_throwable(span, Relation::Top));
                (line, line)
            }
            Start::Thread { line, state } => {
                let (info, span) = self.thread_info(line, state);
                built.push(empty_throwable(span, Relation::Top));
                thread = Some(info);
                (line, state.unwrap_or(line) + 1)
            }
        };
        stack.push((0, 0));
        let mut last_line = i.saturating_sub(1).max(h);
        let mut blank_run = 0;
        let mut wrapped = false;
        while i < self.lines.len() {
            let line = self.lines[i];
            let current = built.len() - 1;
            match line.kind {
                Kind::Blank => {
                    blank_run += 1;
                    if blank_run > MAX_BLANK_RUN {
                        break;
                    }
                    i += 1;
                    continue;
                }
                Kind::Other => break,
                Kind::LockInfo => {
                    last_line = i;
                    i += 1;
                }
                Kind::Frame => {
                    let (frame, next) = self.read_frame(i);
                    built[current].frames.push(frame);
                    last_line = next - 1;
                    i = next;
                }
                Kind::Omitted(n) => {
                    let span = self.span(line.body, line.end);
                    built[current].omitted = Some((n, span));
                    last_line = i;
                    i += 1;
                }
                Kind::WrappedBy => {
                    // Root cause first (logback `%rEx`): the new throwable wraps the chain so far.
                    let at = self.after_label(&line);
                    let inner = stack[0].1;
                    let new_index = built.len();
                    let (mut throwable, next) = self.read_header(
                        i,
                        at,
                        Relation::Top,
                        MessageLines::UpToFrames(MAX_MESSAGE_LINES),
                    );
                    throwable.cause = Some(inner);
                    built[inner].relation = Relation::CauseOf(new_index);
                    built.push(throwable);
                    stack.clear();
                    stack.push((line.indent, new_index));
                    wrapped = true;
                    last_line = next - 1;
                    i = next;
                }
                Kind::CausedBy | Kind::Suppressed => {
                    let at = self.after_label(&line);
                    let new_index = built.len();
                    let relation = if line.kind == Kind::CausedBy {
                        // Attach to the latest throwable at this indentation or shallower.
                        let p = stack
                            .iter()
                            .rposition(|&(ind, _)| ind <= line.indent)
                            .unwrap_or(0);
                        let parent = stack[p].1;
                        stack.truncate(p);
                        built[parent].cause = Some(new_index);
                        Relation::CauseOf(parent)
                    } else {
                        let p = stack
                            .iter()
                            .rposition(|&(ind, _)| ind < line.indent)
                            .unwrap_or(0);
                        let parent = stack[p].1;
                        stack.truncate(p + 1);
                        built[parent].suppressed.push(new_index);
                        Relation::SuppressedBy(parent)
                    };
                    let (throwable, next) = self.read_header(
                        i,
                        at,
                        relation,
                        MessageLines::UpToFrames(MAX_MESSAGE_LINES),
                    );
                    built.push(throwable);
                    stack.push((line.indent, new_index));
                    last_line = next - 1;
                    i = next;
                }
            }
            blank_run = 0;
        }
        let mut throwables = built;
        if thread.is_none()
            && throwables
                .iter()
                .all(|t| t.class.is_empty() && t.frames.is_empty())
        {
            // A lone `Caused by:` without a class or frames: nothing to show (the header problem
            // was reported by read_header).
            return last_line + 1;
        }
        if wrapped {
            throwables = top_first(throwables);
        }
        if let Some(th) = &thread {
            // jstack's deadlock section repeats the stacks of threads already listed, under a
            // header of the name alone (`"name":`). Full headers (`"name" #12 … tid=…`) are
            // threads of their own, even with a name another thread has (a pool's threads).
            let section = self.body(&self.lines[h]).ends_with("\":");
            let seen = section
                && self
                    .out
                    .traces
                    .iter()
                    .any(|t| t.thread.as_ref().is_some_and(|o| o.name == th.name));
            if seen {
                return last_line + 1;
            }
        }
        let cut_at = self.drop_cut_frame(&mut throwables);
        self.expand_omitted(&mut throwables);
        let start = throwables[0].header_span.start;
        let end_line = self.lines[last_line];
        let end = self.span(end_line.end, end_line.end).end;
        self.out.traces.push(Trace {
            throwables,
            span: Span::new(start, end),
            container: self.doc.container,
            thread,
            flink_context: false,
            cut_at,
        });
        last_line + 1
    }

    /// The thread name (between the first pair of quotes) and state of a jstack thread header.
    fn thread_info(&self, line: usize, state: Option<usize>) -> (ThreadInfo, Span) {
        let l = self.lines[line];
        let body = self.body(&l);
        let close = body[1..].find('"').map_or(body.len(), |c| c + 1);
        let name = body[1..close].to_owned();
        let state = match state {
            Some(s) => {
                let sl = self.lines[s];
                let text = self.body(&sl);
                Some(
                    text.trim_start_matches("java.lang.Thread.State:")
                        .trim()
                        .to_owned(),
                )
            }
            None => {
                let rest = &body[(close + 1).min(body.len())..];
                // `java.lang.management.ThreadInfo` (Flink's REST thread dump): `Id=2 RUNNABLE`.
                let after_id = rest
                    .trim_start()
                    .strip_prefix("Id=")
                    .and_then(|r| r.split_once(' '))
                    .map(|(_, r)| r.trim());
                match after_id {
                    Some(r) if !r.is_empty() => Some(r.to_owned()),
                    // jstack without a state line: the header may say it.
                    _ => [
                        "runnable",
                        "waiting on condition",
                        "waiting for monitor entry",
                        "in Object.wait()",
                        "sleeping",
                    ]
                    .iter()
                    .find(|s| rest.contains(*s))
                    .map(|s| s.to_string()),
                }
            }
        };
        let span = self.span(l.body, l.end);
        (
            ThreadInfo {
                name,
                state,
                header_span: span,
            },
            span,
        )
    }

    /// Reads a header starting at decoded offset `at` on line `h`, with message continuation
    /// lines up to the next structural line. Returns the throwable and the next line to read.
    fn read_header(
        &mut self,
        h: usize,
        at: usize,
        relation: Relation,
        message_lines: MessageLines,
    ) -> (Throwable, usize) {
        let (mut h, mut at) = (h, at);
        // `Caused by:` at the end of a line a mail client wrapped, the class on the next.
        if self.doc.text[at..self.lines[h].end].trim().is_empty() && h + 1 < self.lines.len() {
            let next = self.lines[h + 1];
            let nb = self.body(&next);
            if next.kind == Kind::Other && header_start(nb) == Some(0) {
                h += 1;
                at = next.body;
            }
        }
        let line = self.lines[h];
        let text = &self.doc.text[at..line.end];
        let name_len = qualified_name_len(text);
        let mut class = text[..name_len].to_owned();
        let mut class_span = self.span(at, at + name_len);
        let mut rest = &text[name_len..];
        // A class name hard-wrapped at the end of the line (`…consumer.OffsetOutOf` /
        // `RangeException: Fetch position …`): join when only the joined name looks like a
        // throwable class.
        if name_len > 0 && rest.trim().is_empty() && h + 1 < self.lines.len() {
            let next = self.lines[h + 1];
            let nb = self.body(&next);
            let tail_len = nb.bytes().take_while(|&b| is_ident_byte(b)).count();
            let after = &nb[tail_len..];
            let joined = format!("{class}{}", &nb[..tail_len]);
            if next.kind == Kind::Other
                && tail_len > 0
                && throwable_like(&joined)
                && !throwable_like(&class)
                && (after.is_empty() || after.starts_with(':'))
            {
                class = joined;
                class_span = self.span(at, next.body + tail_len);
                rest = after;
                h += 1;
            }
        }
        let line = self.lines[h];
        // A Chinese mail writes the colon full-width (`DorisRuntimeException：…`).
        let mut message = rest
            .strip_prefix(':')
            .or_else(|| rest.strip_prefix('：'))
            .map(|m| m.trim().to_owned())
            .filter(|m| !m.is_empty() || rest.starts_with([':', '：']));
        if name_len == 0 && !text.trim().is_empty() {
            message = Some(text.trim().to_owned());
        }
        let (mut j, found) = self.message_end(h, message_lines);
        let mut end = line.end;
        if found && j > h + 1 {
            let mut parts: Vec<&str> = Vec::new();
            for k in h + 1..j {
                let l = self.lines[k];
                parts.push(self.doc.text[l.indented..l.end].trim_end());
            }
            while parts.last().is_some_and(|p| p.is_empty()) {
                parts.pop();
            }
            // Keep the indentation the lines have relative to each other, not the one they share.
            let common = parts
                .iter()
                .filter(|p| !p.is_empty())
                .map(|p| p.len() - p.trim_start_matches(INDENTATION).len())
                .min()
                .unwrap_or(0);
            for p in &mut parts {
                *p = match p.get(common..) {
                    Some(rest) => rest,
                    // Mixed white space (a no-break space is two bytes): drop it all.
                    None => p.trim_start_matches(INDENTATION),
                };
            }
            if !parts.is_empty() {
                end = self.lines[h + parts.len()].end;
                let joined = parts.join("\n");
                message = Some(match message {
                    Some(m) if !m.is_empty() => format!("{m}\n{joined}"),
                    _ => joined,
                });
            }
        } else {
            j = h + 1;
            // A header ending in `: ` whose message is on the next line alone, as a mail or an
            // issue wraps it (`…UnsupportedFileSystemSchemeException: ` and `Could not find a
            // file system implementation …` below it, no frames after): that line is the message.
            let open_colon = message.as_deref() == Some("");
            if open_colon
                && !matches!(message_lines, MessageLines::Inline(Some(_)))
                && h + 1 < self.lines.len()
            {
                let next = self.lines[h + 1];
                let nb = self.body(&next).trim();
                // Not a log line of its own (a timestamp, a level): then the message was
                // empty.
                if next.kind == Kind::Other
                    && !nb.is_empty()
                    && !nb.starts_with("```")
                    && !looks_like_log_line(nb)
                    && line_throwable_start(nb).is_none()
                    && header_start(nb).is_none()
                {
                    message = Some(nb.to_owned());
                    end = next.end;
                    j = h + 2;
                }
            }
        }
        if let MessageLines::Inline(Some(close)) = message_lines {
            if let Some(m) = &mut message {
                if let Some(k) = m.find(close) {
                    m.truncate(k);
                    *m = m.trim_end().to_owned();
                }
            }
        }
        let mut message = message.filter(|m| !m.is_empty());
        let mut printed_as = None;
        if class == SERIALIZED_THROWABLE {
            // Flink ships remote exceptions as SerializedThrowable; loggers that print the class
            // name (not toString) show the wrapper, with the original exception in the message.
            if let Some((inner, rest)) = message.as_deref().and_then(original_in_message) {
                printed_as = Some(std::mem::replace(&mut class, inner));
                message = rest;
            }
        }
        // `X: X: message`: from Flink 1.16 a SerializedThrowable's own message is `X: message`
        // and its toString() puts X before it again, so a cause printed by printStackTrace shows
        // the class twice (so does `new X(new X(message))`). Read the message without the repeat.
        if let Some(rest) = message.as_deref().and_then(|m| repeated_class(m, &class)) {
            message = rest;
        }
        let header_span = self.span(at, end);
        if name_len == 0 {
            self.out
                .problems
                .push(Problem::new(header_span, ProblemKind::HeaderWithoutClass));
        }
        let throwable = Throwable {
            class,
            printed_as,
            message,
            class_span,
            ..empty_throwable(header_span, relation)
        };
        (throwable, j)
    }

    /// Reads the frame on line `i`, joining hard-wrapped continuation lines.
    /// Returns the frame and the next line to read.
    fn read_frame(&mut self, i: usize) -> (Frame, usize) {
        let line = self.lines[i];
        // After `at ` (nothing for a bare `at`, whose frame is on the next line).
        let body = &self.doc.text[line.body..line.end];
        let skip = at_prefix_len(body).unwrap_or(3);
        let first = self
            .doc
            .text
            .get((line.body + skip).min(line.end)..line.end)
            .unwrap_or("");
        let mut text = first.trim().to_owned();
        let mut end = line.end;
        let mut next = i + 1;
        while !frame_complete(&text)
            && next < self.lines.len()
            && next - i <= MAX_FRAME_CONTINUATIONS
            && self.lines[next].kind == Kind::Other
        {
            let l = self.lines[next];
            text.push_str(self.body(&l).trim());
            end = l.end;
            next += 1;
        }
        // A log4j2 jar suffix wrapped onto the next line: `~[flink-dist-1.17.2.jar:1.17.2]`.
        if frame_complete(&text) && next < self.lines.len() && self.lines[next].kind == Kind::Other
        {
            let l = self.lines[next];
            let b = self.body(&l).trim();
            if (b.starts_with("~[") || b.starts_with('['))
                && b.ends_with(']')
                && (b.contains(".jar") || b.contains("?:"))
            {
                text.push(' ');
                text.push_str(b);
                end = l.end;
                next += 1;
            }
        }
        let span = self.span(line.body, end);
        if scan::find_either(&text, b'(', '（').is_none() {
            self.out
                .problems
                .push(Problem::new(span, ProblemKind::FrameWithoutLocation));
            self.locationless = Some(span);
        }
        let (class, method, location, module, jar) = parse_frame_text(&text);
        let frame = Frame {
            class,
            method,
            location,
            module,
            jar,
            span,
            expanded_from: None,
        };
        (frame, next)
    }

    /// Removes the trace's last printed frame when it has no location (`at com.esotericsoftware.kryo`
    /// and nothing after it): the text was cut in the middle of that frame, so its class and
    /// method cannot be read. Returns the cut frame's span.
    fn drop_cut_frame(&mut self, throwables: &mut [Throwable]) -> Option<Span> {
        let cut = self.locationless?;
        let (t, k) = throwables
            .iter()
            .enumerate()
            .filter_map(|(t, th)| th.frames.len().checked_sub(1).map(|k| (t, k)))
            .max_by_key(|&(t, k)| throwables[t].frames[k].span.end)?;
        let last_header = throwables.iter().map(|th| th.header_span.end).max()?;
        let frame = &throwables[t].frames[k];
        if frame.span != cut || frame.span.start < last_header {
            return None;
        }
        throwables[t].frames.pop();
        Some(cut)
    }

    /// Restores `... N more` frames from the enclosing throwable (Java prints a cause's frames
    /// only up to those it shares with the enclosing trace).
    fn expand_omitted(&mut self, throwables: &mut [Throwable]) {
        let mut budget = MAX_RESTORED_FRAMES;
        for t in 0..throwables.len() {
            let Some((n, span)) = throwables[t].omitted else {
                continue;
            };
            if n > budget {
                // A hostile or broken text: each `... N more` of a deep chain restoring from an
                // enclosing throwable that restored its own, quadratic in the depth.
                self.out.problems.push(Problem::new(
                    span,
                    ProblemKind::RestoreBudgetSpent {
                        n,
                        restored: MAX_RESTORED_FRAMES - budget,
                    },
                ));
                budget = 0;
                continue;
            }
            let enclosing = match throwables[t].relation {
                Relation::CauseOf(p) | Relation::SuppressedBy(p) => p,
                Relation::Top => continue,
            };
            if enclosing >= t {
                continue;
            }
            let parent_frames = &throwables[enclosing].frames;
            let take = n.min(parent_frames.len());
            if take < n {
                self.out.problems.push(Problem::new(
                    span,
                    ProblemKind::MoreThanEnclosing {
                        n,
                        has: parent_frames.len(),
                        restored: take,
                    },
                ));
            }
            let from = parent_frames.len() - take;
            let restored: Vec<Frame> = parent_frames[from..]
                .iter()
                .enumerate()
                .map(|(k, f)| Frame {
                    expanded_from: Some(from + k),
                    ..f.clone()
                })
                .collect();
            budget -= restored.len();
            throwables[t].frames.extend(restored);
        }
    }
}

fn frame_complete(text: &str) -> bool {
    match scan::find_either(text, b'(', '（') {
        Some(open) => scan::find_either(&text[open..], b')', '）').is_some(),
        None => false,
    }
}

/// `（`, `）` and `：` (full width, as a Chinese input method writes them) as `(`, `)` and `:`.
fn fullwidth_to_ascii(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '（' => '(',
            '）' => ')',
            '：' => ':',
            c => c,
        })
        .collect()
}

/// `org.apache.flink.util.SerializedThrowable`: Flink's carrier for exceptions whose classes may
/// not load where they are read; `toString()` prints the original class name, but loggers that
/// print `getClass().getName()` show this name.
pub const SERIALIZED_THROWABLE: &str = "org.apache.flink.util.SerializedThrowable";

/// `java.lang.NullPointerException: msg` at the start of a message → (class, rest of message).
fn original_in_message(message: &str) -> Option<(String, Option<String>)> {
    let len = qualified_name_len(message);
    let name = &message[..len];
    if !throwable_like(name) {
        return None;
    }
    let rest = &message[len..];
    if rest.is_empty() {
        return Some((name.to_owned(), None));
    }
    let rest = rest.strip_prefix(':')?.trim();
    Some((name.to_owned(), (!rest.is_empty()).then(|| rest.to_owned())))
}

/// `X: message` when the throwable's class is `X` → the message after it (`None`: nothing left).
fn repeated_class(message: &str, class: &str) -> Option<Option<String>> {
    if class.is_empty() {
        return None;
    }
    let rest = message.strip_prefix(class)?;
    if rest.is_empty() {
        return Some(None);
    }
    let rest = rest.strip_prefix(':')?.trim();
    Some((!rest.is_empty()).then(|| rest.to_owned()))
}

/// A line that starts a log event of its own: a timestamp or bracketed field first, or a
/// level word (`INFO`, `WARN`, …) first or between spaces.
fn looks_like_log_line(s: &str) -> bool {
    let s = s.trim_start();
    s.starts_with(|c: char| c.is_ascii_digit() || c == '[')
        || ["INFO", "WARN", "ERROR", "DEBUG", "TRACE"]
            .iter()
            .any(|l| s.starts_with(l) || s.contains(&format!(" {l} ")))
}

pub(crate) fn empty_throwable(span: Span, relation: Relation) -> Throwable {
    Throwable {
        class: String::new(),
        printed_as: None,
        message: None,
        header_span: span,
        class_span: span,
        frames: Vec::new(),
        omitted: None,
        relation,
        cause: None,
        suppressed: Vec::new(),
        logged: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sql_client_errors_without_frames_are_read_when_there_is_no_trace() {
        let input = "Flink SQL> select * from orders o join customers c on o.cid = c.id;\n\
            [ERROR] Could not execute SQL statement. Reason:\n\
            org.apache.calcite.sql.validate.SqlValidatorException: Object 'customers' not found\n";
        let parsed = parse(input);
        assert_eq!(parsed.traces.len(), 1);
        let t = &parsed.traces[0].throwables[0];
        assert_eq!(
            t.class,
            "org.apache.calcite.sql.validate.SqlValidatorException"
        );
        assert_eq!(t.message.as_deref(), Some("Object 'customers' not found"));
        assert!(t.frames.is_empty());
        assert!(
            parsed.traces[0].flink_context,
            "the SQL Client's error line"
        );
        // An exception line inside a sentence is read (issue 11), with its message up to the
        // end of the line; prose that only names an exception is not.
        let prose = parse("We saw java.io.IOException: x in the logs\n");
        assert_eq!(prose.traces[0].throwables[0].class, "java.io.IOException");
        assert!(parse("The IOException is thrown when …\n")
            .traces
            .is_empty());
        // With a real trace in the text, an exception line outside it is a trace of its own
        // (issue 11)…
        let with_trace =
            "org.acme.FooException: alone\njava.lang.RuntimeException: x\n\tat a.B.c(B.java:1)\n";
        let p = parse(with_trace);
        assert_eq!(p.traces.len(), 2);
        assert_eq!(p.traces[0].throwables[0].class, "org.acme.FooException");
        // …but a log line announcing the trace below it is not read twice.
        let announced = "12:00:01 ERROR Task - Map (1/1) failed: java.lang.RuntimeException: x\njava.lang.RuntimeException: x\n\tat a.B.c(B.java:1)\n";
        assert_eq!(parse(announced).traces.len(), 1);
    }

    /// The SQL Client prints the whole message: the planner's plan and the reason below it, a
    /// factory error's list of identifiers (tester round 3: only the first line was kept).
    #[test]
    fn sql_client_errors_keep_their_whole_message() {
        let input = "Flink SQL> SELECT * FROM orders;\n\
            [ERROR] Could not execute SQL statement. Reason:\n\
            org.apache.flink.table.api.ValidationException: Could not find any factory for identifier 'kafka'.\n\
            \n\
            Available factory identifiers are:\n\
            \n\
            blackhole\n\
            datagen\n\
            \n\
            Flink SQL> SELECT 1;\n\
            [ERROR] Could not execute SQL statement. Reason:\n\
            org.apache.flink.table.api.TableException: Cannot generate a valid execution plan for the given query: \n\
            \n\
            FlinkLogicalJoin(condition=[=($0, $3)], joinType=[inner])\n\
            \n\
            Rowtime attributes must not be in the input rows of a regular join.\n\
            org.acme.NextException: a throwable line starts the next error\n";
        let parsed = parse(input);
        let messages: Vec<&str> = parsed
            .traces
            .iter()
            .map(|t| t.throwables[0].message.as_deref().unwrap_or(""))
            .collect();
        assert_eq!(
            messages,
            [
                "Could not find any factory for identifier 'kafka'.\n\nAvailable factory identifiers are:\n\nblackhole\ndatagen",
                "Cannot generate a valid execution plan for the given query:\n\nFlinkLogicalJoin(condition=[=($0, $3)], joinType=[inner])\n\nRowtime attributes must not be in the input rows of a regular join.",
                "a throwable line starts the next error",
            ]
        );
        // The header spans its whole message, for the gutter and the highlights.
        let second = &parsed.traces[1].throwables[0];
        assert!(input[second.header_span.start..second.header_span.end].ends_with("regular join."));
    }

    #[test]
    fn chinese_words_after_a_blank_line_end_a_frameless_message() {
        // tests/corpus/connector/n-cdc14-jdk11-unsafe-monitorenter (apache/flink-cdc#212).
        let input = "[ERROR] Could not execute SQL statement. Reason:\njava.lang.NoSuchMethodError: 'void sun.misc.Unsafe.monitorEnter(java.lang.Object)'\n\n查询日志：\n\n";
        let t = &parse(input).traces[0];
        assert_eq!(
            t.throwables[0].message.as_deref(),
            Some("'void sun.misc.Unsafe.monitorEnter(java.lang.Object)'")
        );
    }

    #[test]
    fn a_message_with_blank_lines_keeps_its_header() {
        let input = "Exception in thread \"main\" org.apache.flink.table.api.TableException: Cannot generate a valid execution plan for the given query: \n\
            \n\
            LogicalSink(table=[default_catalog.default_database.sink], fields=[a])\n\
            +- LogicalProject(a=[$0])\n\
            \n\
            This exception indicates that the query uses an unsupported SQL feature.\n\
            \tat org.apache.flink.table.planner.plan.optimize.program.FlinkVolcanoProgram.optimize(FlinkVolcanoProgram.scala:70)\n\
            \tat com.acme.SqlJob.main(SqlJob.java:40)\n";
        let parsed = parse(input);
        assert_eq!(parsed.traces.len(), 1);
        let top = &parsed.traces[0].throwables[0];
        assert_eq!(top.class, "org.apache.flink.table.api.TableException");
        assert_eq!(top.frames.len(), 2);
        let m = top.message.as_deref().unwrap_or_default();
        assert!(
            m.starts_with("Cannot generate a valid execution plan") && m.contains("LogicalProject"),
            "{m}"
        );
        assert!(parsed.problems.is_empty(), "{:?}", parsed.problems);
    }

    #[test]
    fn a_blank_line_between_the_message_and_the_frames_keeps_the_header() {
        let input = "java.lang.RuntimeException: Failed to create stage bundle factory! boot log:\n\
            line one of the log\n\
            \n\
            \tat org.apache.flink.python.AbstractPythonFunctionRunner.open(AbstractPythonFunctionRunner.java:200)\n\
            \tat org.apache.flink.streaming.runtime.tasks.StreamTask.invoke(StreamTask.java:600)\n";
        let parsed = parse(input);
        assert_eq!(parsed.traces.len(), 1);
        let top = &parsed.traces[0].throwables[0];
        assert_eq!(top.class, "java.lang.RuntimeException");
        assert_eq!(top.frames.len(), 2);
        assert!(top
            .message
            .as_deref()
            .is_some_and(|m| m.ends_with("line one of the log")));
        assert!(parsed.problems.is_empty(), "{:?}", parsed.problems);
    }

    /// The planner prints the whole plan in the message of `Cannot generate a valid execution
    /// plan for the given query:` (org.apache.flink.table.planner.plan.optimize.program
    /// .FlinkVolcanoProgram), often hundreds of lines.
    #[test]
    fn a_message_of_hundreds_of_lines_keeps_its_header() {
        let plan: String = (0..300)
            .map(|k| format!("   +- FlinkLogicalCalc(select=[a, b], where=[>(a, {k})])\n"))
            .collect();
        let input = format!(
            "2024-01-01 10:00:00,000 ERROR client - failed\n\
             org.apache.flink.table.api.TableException: Cannot generate a valid execution plan for the given query: \n\n\
             {plan}\n\
             This exception indicates that the query uses an unsupported SQL feature.\n\
             \tat org.apache.flink.table.planner.plan.optimize.program.FlinkVolcanoProgram.optimize(FlinkVolcanoProgram.scala:76)\n\
             \tat org.apache.flink.table.planner.plan.optimize.program.FlinkChainedProgram.optimize(FlinkChainedProgram.scala:59)\n"
        );
        let parsed = parse(&input);
        assert_eq!(parsed.traces.len(), 1);
        let top = &parsed.traces[0].throwables[0];
        assert_eq!(top.class, "org.apache.flink.table.api.TableException");
        assert_eq!(top.frames.len(), 2);
        let message = top.message.as_deref().unwrap_or("");
        assert!(message.starts_with("Cannot generate a valid execution plan"));
        assert!(message.contains("where=[>(a, 299)]"));
        assert!(message.ends_with("unsupported SQL feature."));
        assert!(parsed.problems.is_empty(), "{:?}", parsed.problems);
        // The plan keeps its tree: indentation relative to the other lines stays.
        let input = "java.lang.RuntimeException: plan:\n\
            \x20 FlinkLogicalJoin(condition=[=($0, $3)])\n\
            \x20 :- FlinkLogicalCalc(select=[a])\n\
            \x20 :  +- FlinkLogicalTableSourceScan(table=[[orders]])\n\
            \x20 +- FlinkLogicalTableSourceScan(table=[[shipments]])\n\
            \tat a.B.c(B.java:1)\n";
        let parsed = parse(input);
        assert_eq!(
            parsed.traces[0].throwables[0].message.as_deref(),
            Some(
                "plan:\nFlinkLogicalJoin(condition=[=($0, $3)])\n:- FlinkLogicalCalc(select=[a])\n:  +- FlinkLogicalTableSourceScan(table=[[orders]])\n+- FlinkLogicalTableSourceScan(table=[[shipments]])"
            )
        );
    }

    /// Far above frames cut off from their header, a log line that mentions an exception is not
    /// taken for the header (nearby, a header inside a log line is).
    #[test]
    fn far_up_only_a_line_that_starts_with_a_throwable_is_a_header() {
        let filler: String = (0..100)
            .map(|k| format!("2024-01-01 10:00:{:02},000 INFO x - step {k}\n", k % 60))
            .collect();
        let frames = "\tat a.b.C.d(C.java:1)\n\tat a.b.C.e(C.java:2)\n";
        let logged = format!(
            "2024-01-01 09:59:59,000 WARN x - failed: java.io.IOException: reset\n{filler}{frames}"
        );
        let parsed = parse(&logged);
        // The log line's exception is read on its own line (a trace without frames), and the
        // frames far below stay headerless.
        assert_eq!(parsed.traces.len(), 2);
        assert_eq!(parsed.traces[0].throwables[0].class, "java.io.IOException");
        assert!(parsed.traces[0].throwables[0].frames.is_empty());
        assert_eq!(parsed.traces[1].throwables[0].class, "");
        let printed = format!("java.io.IOException: reset\n{filler}{frames}");
        let parsed = parse(&printed);
        assert_eq!(parsed.traces[0].throwables[0].class, "java.io.IOException");
        let named = format!("a.b.PlanNode: x\n{filler}{frames}");
        assert_eq!(parse(&named).traces[0].throwables[0].class, "");
    }

    /// A pool's threads share a name (Kafka's `kafka-coordinator-heartbeat-thread | <group>`):
    /// each is a thread of its own; only the deadlock section's `"name":` repeats are dropped
    /// (tester round 3: eight such threads were read as one).
    #[test]
    fn threads_with_the_same_name_are_each_read() {
        let thread = |n: usize| {
            format!(
                "\"heartbeat | orders\" #{n} daemon prio=5 os_prio=0 tid=0x{n:x} nid=0x{n:x} waiting for monitor entry\n\
                 \x20  java.lang.Thread.State: BLOCKED (on object monitor)\n\
                 \tat org.apache.kafka.clients.consumer.internals.AbstractCoordinator$HeartbeatThread.run(AbstractCoordinator.java:1387)\n\
                 \t- waiting to lock <0x00000000c1a2b3c4> (a org.apache.kafka.clients.consumer.internals.ConsumerCoordinator)\n\n"
            )
        };
        let dump: String = (40..48).map(thread).collect();
        assert_eq!(parse(&dump).traces.len(), 8);
        let with_section = format!(
            "{dump}Found one Java-level deadlock:\n=============================\n\
             Java stack information for the threads listed above:\n\
             ===================================================\n\
             \"heartbeat | orders\":\n\
             \tat org.apache.kafka.clients.consumer.internals.AbstractCoordinator$HeartbeatThread.run(AbstractCoordinator.java:1387)\n"
        );
        assert_eq!(parse(&with_section).traces.len(), 8);
    }

    /// A Chinese mail (user-zh) writes `Caused by：` and the message colon full-width.
    #[test]
    fn full_width_colons_read_as_colons() {
        let p = parse("java.lang.RuntimeException: x\n\tat a.B.c(B.java:1)\nCaused by： java.io.IOException： boom\n\tat a.B.d(B.java:2)\n");
        assert_eq!(p.traces.len(), 1);
        let root = &p.traces[0].throwables[p.traces[0].root_cause()];
        assert_eq!(root.class, "java.io.IOException");
        assert_eq!(root.message.as_deref(), Some("boom"));
        let inline =
            parse("org.apache.doris.flink.exception.DorisRuntimeException：\nstream load error\n");
        assert_eq!(
            inline.traces[0].throwables[0].class,
            "org.apache.doris.flink.exception.DorisRuntimeException"
        );
    }

    #[test]
    fn prose_lines_starting_with_at_are_not_frames() {
        for prose in [
            "at first I thought it was the checkpoint timeout",
            "at least that is what the UI says.",
            "at 10.30 the job failed",
            "at e.g. midnight",
            "at",
            "at at at at",
        ] {
            assert_eq!(kind_of(prose), Kind::Other, "{prose}");
        }
        for frame in [
            "at org.apache.flink.runtime.taskmanager.Task.run(Task.java:568)",
            "at java.lang.Thread.run(Thread.java:750) ~[?:1.8.0_312]",
            "at java.base/java.lang.Thread.run(Thread.java:829)",
            "at app//org.apache.kafka.clients.Foo.bar(Foo.java:1)",
            "at com.foo.Bar$$Lambda$123/0x0000000800c0b840.accept(Unknown Source)",
            "at Foo.bar(Foo.java:1)",
            "at com.foo.Bar.baz (Bar.java:1)",
            "at org.apache.flink.runtime.checkpoint.CheckpointCoordinator.lambda$trigger",
        ] {
            assert_eq!(kind_of(frame), Kind::Frame, "{frame}");
        }
    }

    #[test]
    fn header_start_finds_the_throwable_in_a_log_line() {
        let line = "2021 WARN org.apache.flink.runtime.taskmanager.Task [] - x switched from RUNNING to FAILED with failure cause: java.io.IOException: Could not";
        let at = header_start(line).unwrap();
        assert!(line[at..].starts_with("java.io.IOException:"));
        assert_eq!(
            header_start("java.util.ConcurrentModificationException"),
            Some(0)
        );
        assert_eq!(
            header_start("ual_transform_UserLogBlackUidJudger -> ual_transform_IpLabel"),
            None
        );
        assert_eq!(header_start("attributes (com.example.model.Event)"), None);
        assert_eq!(header_start("2021-08-18 06:18:37"), None);
        let line = "Exception in thread \"main\" com.acme.Oops: x";
        assert_eq!(&line[header_start(line).unwrap()..], "com.acme.Oops: x");
    }

    #[test]
    fn frames_keep_inner_lambda_init_and_module_names() {
        let (c, m, l, module, jar) = parse_frame_text(
            "org.apache.flink.runtime.state.PartitionableListState.<init>(PartitionableListState.java:64) ~[flink-dist_2.11-1.13.2.jar:1.13.2]",
        );
        assert_eq!(
            (c.as_str(), m.as_str()),
            (
                "org.apache.flink.runtime.state.PartitionableListState",
                "<init>"
            )
        );
        assert_eq!(
            l,
            Location::Source {
                file: "PartitionableListState.java".into(),
                line: Some(64)
            }
        );
        assert_eq!(module, None);
        assert_eq!(jar.as_deref(), Some("flink-dist_2.11-1.13.2.jar:1.13.2"));

        let (c, m, l, module, _) =
            parse_frame_text("java.base@11.0.9/java.lang.Thread.run(Thread.java:834)");
        assert_eq!(
            (c.as_str(), m.as_str(), module.as_deref()),
            ("java.lang.Thread", "run", Some("java.base@11.0.9"))
        );
        assert_eq!(
            l,
            Location::Source {
                file: "Thread.java".into(),
                line: Some(834)
            }
        );

        let (c, m, l, module, _) =
            parse_frame_text("app//com.x.Y$$Lambda$12/0x0000000800c2c440.accept(Unknown Source)");
        assert_eq!(
            (c.as_str(), m.as_str(), module),
            ("com.x.Y$$Lambda$12/0x0000000800c2c440", "accept", None)
        );
        assert_eq!(l, Location::Unknown);

        let (_, m, l, _, _) = parse_frame_text("sun.misc.Unsafe.park(Native Method)");
        assert_eq!((m.as_str(), l), ("park", Location::Native));
    }

    #[test]
    fn cause_suppressed_and_more_are_linked_by_java_rules() {
        let input = "java.lang.Exception: top\n\tat a.A.one(A.java:1)\n\tat a.A.two(A.java:2)\n\tat a.A.three(A.java:3)\n\tSuppressed: java.lang.IllegalStateException: sup\n\t\tat b.B.x(B.java:9)\n\t\t... 2 more\n\tCaused by: java.lang.RuntimeException: sup-cause\n\t\t... 3 more\nCaused by: java.lang.Error: root\n\tat c.C.y(C.java:5)\n\t... 1 more\n";
        let parsed = parse(input);
        assert_eq!(parsed.traces.len(), 1);
        let t = &parsed.traces[0];
        assert_eq!(t.throwables.len(), 4);
        assert_eq!(t.throwables[1].relation, Relation::SuppressedBy(0));
        assert_eq!(t.throwables[2].relation, Relation::CauseOf(1));
        assert_eq!(t.throwables[3].relation, Relation::CauseOf(0));
        assert_eq!(t.cause_chain(), vec![0, 3]);
        let sup = &t.throwables[1];
        assert_eq!(sup.frames.len(), 3);
        assert_eq!(sup.frames[1].method, "two");
        assert_eq!(sup.frames[1].expanded_from, Some(1));
        let root = &t.throwables[3];
        assert_eq!(
            root.frames
                .iter()
                .map(|f| f.method.as_str())
                .collect::<Vec<_>>(),
            ["y", "three"]
        );
        assert_eq!(
            &input[root.frames[1].span.range()],
            "at a.A.three(A.java:3)"
        );
    }

    #[test]
    fn too_many_omitted_frames_is_a_problem_not_a_panic() {
        let parsed = parse("x.Y: a\n\tat a.B.c(B.java:1)\nCaused by: x.Z\n\t... 9 more\n");
        assert_eq!(parsed.traces[0].throwables[1].frames.len(), 1);
        assert_eq!(parsed.problems.len(), 1);
        assert!(parsed.problems[0].message.contains("9 more"));
    }

    #[test]
    fn wrapped_frames_are_joined_and_span_the_original_lines() {
        let input = "> java.lang.IllegalStateException: x\n>         at org.example.Foo.ba\n> r(Foo.java:\n> 12)\n";
        let parsed = parse(input);
        let f = &parsed.traces[0].throwables[0].frames[0];
        assert_eq!(
            (f.class.as_str(), f.method.as_str(), f.line()),
            ("org.example.Foo", "bar", Some(12))
        );
        assert_eq!(
            &input[f.span.range()],
            "at org.example.Foo.ba\n> r(Foo.java:\n> 12)"
        );
    }

    #[test]
    fn no_trace_in_prose() {
        let parsed = parse("hello, my job fails. any idea?\n\nthanks");
        assert!(parsed.traces.is_empty());
    }

    fn classes(t: &Trace) -> Vec<&str> {
        t.cause_chain()
            .iter()
            .map(|&i| t.throwables[i].class.as_str())
            .collect()
    }

    #[test]
    fn logback_root_cause_first_is_reordered_top_first() {
        let input = "java.lang.IllegalStateException: root\n\tat a.B.c(B.java:1)\n\tat a.B.d(B.java:2)\nWrapped by: java.lang.RuntimeException: outer\n\tat a.X.y(X.java:3)\n\t... 1 common frames omitted\n";
        let p = parse(input);
        let t = &p.traces[0];
        assert_eq!(
            classes(t),
            [
                "java.lang.RuntimeException",
                "java.lang.IllegalStateException"
            ]
        );
        assert_eq!(t.throwables[0].relation, Relation::Top);
        assert_eq!(t.throwables[1].relation, Relation::CauseOf(0));
        assert_eq!(t.root_cause(), 1);
    }

    #[test]
    fn kubernetes_timestamps_on_every_line_are_skipped() {
        let input = "2023-05-01T10:00:00.123456789Z java.lang.IllegalStateException: boom\n2023-05-01T10:00:00.123456789Z \tat com.acme.A.b(A.java:1)\n2023-05-01T10:00:00.123456789Z Caused by: java.io.IOException: x\n2023-05-01T10:00:00.123456789Z \tat com.acme.C.d(C.java:2)\n2023-05-01T10:00:00.123456789Z \t... 1 more\n";
        let p = parse(input);
        assert_eq!(p.traces.len(), 1);
        let t = &p.traces[0];
        assert_eq!(
            classes(t),
            ["java.lang.IllegalStateException", "java.io.IOException"]
        );
        assert_eq!(t.throwables[1].frames.len(), 2);
        assert_eq!(
            &input[t.throwables[1].frames[0].span.range()],
            "at com.acme.C.d(C.java:2)"
        );
    }

    #[test]
    fn thread_dump_threads_become_traces_with_their_state() {
        let input = "\"Map -> Sink: Print (1/1)#0\" #73 prio=5 os_prio=0 tid=0x00007f nid=0x5b03 waiting for monitor entry [0x7f]\n   java.lang.Thread.State: BLOCKED (on object monitor)\n\tat com.acme.Enricher.map(Enricher.java:42)\n\t- waiting to lock <0x000000076b5d3f88> (a java.lang.Object)\n\tat org.apache.flink.streaming.api.operators.StreamMap.processElement(StreamMap.java:38)\n\n\"main\" #1 prio=5 os_prio=0 tid=0x1 nid=0x2 runnable [0x3]\n   java.lang.Thread.State: RUNNABLE\n\tat java.io.FileInputStream.readBytes(Native Method)\n\nFound one Java-level deadlock:\n";
        let p = parse(input);
        assert_eq!(p.traces.len(), 2);
        let th = p.traces[0].thread.as_ref().unwrap();
        assert_eq!(th.name, "Map -> Sink: Print (1/1)#0");
        assert_eq!(th.state.as_deref(), Some("BLOCKED (on object monitor)"));
        assert_eq!(
            p.traces[0].throwables[0].frames.len(),
            2,
            "lock lines are not frames"
        );
        assert_eq!(
            p.traces[1].thread.as_ref().unwrap().state.as_deref(),
            Some("RUNNABLE")
        );
        assert_eq!(p.deadlocks.len(), 1);
    }

    #[test]
    fn a_message_without_its_class_right_above_frames_is_read_as_their_message() {
        // tests/corpus/connector/n-psc-flink-producer-expiring-records-broker-replacement (real).
        let input = "```\nFailed to send data via PSC producer: Expiring 3 record(s) for t-0:320000 ms has passed since batch creation\n\tat com.pinterest.flink.streaming.connectors.psc.FlinkPscProducer.checkErroneous(FlinkPscProducer.java:1847)\n```\n";
        let t = &parse(input).traces[0];
        assert_eq!(t.throwables[0].class, "");
        assert!(t.throwables[0]
            .message
            .as_deref()
            .is_some_and(|m| m.starts_with("Failed to send data via PSC producer: Expiring")));
        assert_eq!(t.throwables[0].frames.len(), 1);
        // Prose that only introduces the frames stays out of the trace.
        let prose = "Here is the trace:\n\tat com.acme.A.b(A.java:1)\n";
        assert_eq!(parse(prose).traces[0].throwables[0].message, None);
    }

    #[test]
    fn an_elided_part_of_a_message_does_not_split_the_trace() {
        // tests/corpus/serialization/n-kryo-datadog-span-context-queue-iterator (real).
        let input = "com.esotericsoftware.kryo.KryoException: java.lang.UnsupportedOperationException\nSerialization trace:\nqueue (a.B)\n...\n\tat com.esotericsoftware.kryo.serializers.ObjectField.write(ObjectField.java:82)\n\nCaused by: java.lang.UnsupportedOperationException\n\tat org.jctools.queues.Q.iterator(Q.java:247)\n";
        let p = parse(input);
        assert_eq!(p.traces.len(), 1);
        assert_eq!(
            classes(&p.traces[0]),
            [
                "com.esotericsoftware.kryo.KryoException",
                "java.lang.UnsupportedOperationException"
            ]
        );
        assert_eq!(p.traces[0].throwables[0].frames.len(), 1);
    }

    #[test]
    fn pyflink_python_traceback_is_reported_and_the_java_trace_read() {
        let input = "Traceback (most recent call last):\n  File \"job.py\", line 10, in <module>\n    env.execute()\npy4j.protocol.Py4JJavaError: An error occurred while calling o12.execute.\n: java.lang.RuntimeException: boom\n\tat org.apache.flink.client.Foo.bar(Foo.java:1)\n";
        let p = parse(input);
        assert_eq!(classes(&p.traces[0]), ["java.lang.RuntimeException"]);
        assert!(p
            .problems
            .iter()
            .any(|x| x.message.contains("Python traceback")));
    }

    #[test]
    fn serialized_throwable_shows_the_original_class() {
        let input = "java.io.IOException: x\n\tat a.B.c(B.java:1)\nCaused by: org.apache.flink.util.SerializedThrowable: java.lang.NullPointerException: boom\n\tat d.E.f(E.java:2)\nCaused by: org.apache.flink.util.SerializedThrowable: Checkpoint was declined\n";
        let t = &parse(input).traces[0];
        assert_eq!(t.throwables[1].class, "java.lang.NullPointerException");
        assert_eq!(t.throwables[1].message.as_deref(), Some("boom"));
        assert_eq!(
            t.throwables[1].printed_as.as_deref(),
            Some(SERIALIZED_THROWABLE)
        );
        assert_eq!(
            t.throwables[2].class, SERIALIZED_THROWABLE,
            "no class in the message: kept"
        );
    }

    #[test]
    fn serialized_throwable_in_a_log4j_log_shows_the_original_class() {
        // What log4j 2.17.1 (Flink's lib/) prints for a SerializedThrowable cause: its
        // getClass().getName() and getMessage(), which is `<class>: <message>` from Flink 1.16
        // (ThrowableProxy, printed by a probe against the 1.17.2 and 2.0.1 jars).
        let input = "java.lang.RuntimeException: outer\n\tat StProbe.main(StProbe.java:6)\nCaused by: org.apache.flink.util.SerializedThrowable: java.io.IOException: disk full\n\tat StProbe.main(StProbe.java:6)\n";
        let t = &parse(input).traces[0];
        assert_eq!(t.throwables[1].class, "java.io.IOException");
        assert_eq!(t.throwables[1].message.as_deref(), Some("disk full"));
        assert_eq!(
            t.throwables[1].printed_as.as_deref(),
            Some(SERIALIZED_THROWABLE)
        );
    }

    #[test]
    fn a_class_repeated_at_the_start_of_its_message_is_read_once() {
        // printStackTrace of a Flink 1.16+ SerializedThrowable cause (same probe): toString() is
        // `<class>: <message>` and its message already starts with `<class>: `.
        let input = "java.lang.RuntimeException: outer\n\tat a.B.c(B.java:1)\nCaused by: java.io.IOException: java.io.IOException: disk full\nCaused by: java.lang.RuntimeException: java.io.IOException: x\n\tat d.E.f(E.java:2)\nCaused by: java.lang.IllegalStateException: java.lang.IllegalStateException\n";
        let t = &parse(input).traces[0];
        assert_eq!(t.throwables[1].class, "java.io.IOException");
        assert_eq!(t.throwables[1].message.as_deref(), Some("disk full"));
        assert_eq!(
            t.throwables[2].message.as_deref(),
            Some("java.io.IOException: x"),
            "another class in the message: kept"
        );
        assert_eq!(t.throwables[3].message, None);
    }

    #[test]
    fn transport_damage_is_repaired() {
        // ANSI colours, a trace collapsed onto one line, literal \n\t escapes, a JSON array of lines.
        let ansi = "\u{1b}[31mjava.lang.IllegalStateException: boom\u{1b}[0m\n\u{1b}[2m\tat com.acme.A.b(A.java:1)\u{1b}[0m\n";
        let one_line = "java.lang.IllegalStateException: boom at com.acme.A.b(A.java:1) at com.acme.A.c(A.java:2) Caused by: java.io.IOException: x at com.acme.D.e(D.java:3) ... 1 more";
        let escaped = "msg=\"java.lang.IllegalStateException: boom\\n\\tat com.acme.A.b(A.java:1)\\nCaused by: java.io.IOException: x\\n\\tat com.acme.D.e(D.java:3)\"";
        let array = "[\"java.lang.IllegalStateException: boom\", \"\\tat com.acme.A.b(A.java:1)\"]";
        for input in [ansi, one_line, escaped, array] {
            let p = parse(input);
            assert_eq!(p.traces.len(), 1, "{input:?}");
            let t = &p.traces[0];
            assert_eq!(
                t.throwables[0].class, "java.lang.IllegalStateException",
                "{input:?}"
            );
            assert_eq!(
                t.throwables[0].frames[0].qualified_method(),
                "com.acme.A.b",
                "{input:?}"
            );
            let f = &t.throwables[0].frames[0];
            assert!(
                input[f.span.range()].contains("com.acme.A.b(A.java:1)"),
                "{input:?}: {:?}",
                &input[f.span.range()]
            );
        }
        assert_eq!(
            classes(&parse(one_line).traces[0]),
            ["java.lang.IllegalStateException", "java.io.IOException"]
        );
    }

    #[test]
    fn a_text_cut_in_its_last_frame_leaves_that_frame_out() {
        // apache_flink-kickstarter#463: the paste ends at `at com.esotericsoftware.kryo`.
        let input = "com.esotericsoftware.kryo.KryoException: java.lang.UnsupportedOperationException\n\
                     \tat com.esotericsoftware.kryo.serializers.ObjectField.read(ObjectField.java:125)\n\
                     \tat com.esotericsoftware.kryo";
        let t = &parse(input).traces[0];
        assert_eq!(t.throwables[0].frames.len(), 1);
        let cut = t.cut_at.expect("the cut frame is recorded");
        assert_eq!(&input[cut.start..cut.end], "at com.esotericsoftware.kryo");
        // A frame without a location in the middle is kept (only the last line can be cut).
        let middle = "java.lang.RuntimeException: x\n\tat a.B.c\n\tat a.B.d(B.java:1)\n";
        let t = &parse(middle).traces[0];
        assert_eq!(t.throwables[0].frames.len(), 2);
        assert_eq!(t.cut_at, None);
    }
}
