//! Throwables serialized as JSON objects rather than printed: a class, a message and an array of
//! frames, each frame an object (`{"className": …, "methodName": …, "fileName": …,
//! "lineNumber": …}`, as Jackson writes `StackTraceElement`) or a string (`"at a.B.c(B.java:1)"`).
//!
//! The shapes seen: Jackson's default serialization of a `Throwable` (`"stackTrace"`, `"cause"`,
//! `"message"`), and the Flink Kubernetes Operator's error in a resource's status (`"type"`,
//! `"message"`, `"stackTraceElements"`, `"throwableList"`). Each top-level such object becomes one
//! document in Java's printed form — `class: message`, `\tat …` lines, `Caused by:` for its
//! `"cause"` objects and its `"throwableList"` entries — every line mapped back to the JSON it
//! came from, so spans still point into the input. Text cut inside the JSON (a paste that ends
//! mid-field) gives the frames read so far.

use super::decode::{Builder, Container, Document};

/// Keys of the frames array (Jackson's `stackTrace`, the Kubernetes Operator's
/// `stackTraceElements`, Log4j 2's JSON layout's `extendedStackTrace`).
const STACK_KEYS: &[&str] = &[
    "stackTrace",
    "stackTraceElements",
    "extendedStackTrace",
    "stack",
    "frames",
];
/// Keys of the throwable's class, in order of preference (Log4j 2's JSON layout: `name`).
const CLASS_KEYS: &[&str] = &[
    "type",
    "class",
    "exceptionClass",
    "@class",
    "className",
    "name",
];
/// Keys of the message, in order of preference.
const MESSAGE_KEYS: &[&str] = &["message", "localizedMessage", "msg"];
/// Keys of a nested cause object.
const CAUSE_KEYS: &[&str] = &["cause"];
/// Key of the Kubernetes Operator's list of the chain's throwables (class and message only).
const THROWABLE_LIST_KEY: &str = "throwableList";
/// Nested causes followed at most (Java itself prints every one; this only bounds the work on a
/// hostile input).
const MAX_DEPTH: usize = 10_000;

/// A JSON string literal: `start..end` without the quotes; whether it is an object key (a `:`
/// follows it).
#[derive(Clone, Copy)]
struct Literal {
    start: usize,
    end: usize,
    key: bool,
    /// The `{` of the innermost object around it (`usize::MAX` at the top level).
    parent: usize,
}

/// The JSON's structure, read in one pass: its literals (by start), each object's closing
/// position and enclosing object, and each object's own keys.
struct Json {
    lits: Vec<Literal>,
    /// Object `{` → just past its `}` (absent when the text ends inside it).
    closes: std::collections::HashMap<usize, usize>,
    /// Object `{` → the `{` of the object around it.
    parents: std::collections::HashMap<usize, usize>,
    /// Object `{` → indices (into `lits`) of its own keys, in order.
    keys: std::collections::HashMap<usize, Vec<usize>>,
    /// Where the JSON ends: the text's end, or where JSON cut short stops ([`structure`]).
    end: usize,
}

impl Json {
    /// Just past the `}` of the object opened at `open`, or where the JSON ends (the end of
    /// `text`, or where JSON cut short stops).
    fn end_of(&self, open: usize, text: &str) -> usize {
        self.closes
            .get(&open)
            .copied()
            .unwrap_or(self.end.min(text.len()))
    }

    /// The literal starting at byte `start`, if any.
    fn literal_at(&self, start: usize) -> Option<&Literal> {
        let i = self.lits.partition_point(|l| l.start < start);
        self.lits.get(i).filter(|l| l.start == start)
    }

    /// Index (into `lits`) of the object's own key `name`.
    fn key(&self, text: &str, open: usize, name: &str) -> Option<usize> {
        self.keys.get(&open)?.iter().copied().find(|&k| {
            let l = &self.lits[k];
            &text[l.start..l.end] == name
        })
    }

    /// Where the value of key `k` starts (past its colon and white space), and its text to the
    /// end of `text`.
    fn after_colon<'t>(&self, text: &'t str, k: usize) -> Option<(usize, &'t str)> {
        let value = text
            .get(self.lits[k].end + 1..)?
            .trim_start()
            .strip_prefix(':')?
            .trim_start();
        Some((text.len() - value.len(), value))
    }

    /// The string value of the object's own key, the first of `names` it has, as a literal.
    fn value(&self, text: &str, open: usize, names: &[&str]) -> Option<Literal> {
        names.iter().find_map(|name| {
            let k = self.key(text, open, name)?;
            let v = self.lits.get(k + 1)?;
            let (at, _) = self.after_colon(text, k)?;
            (at + 1 == v.start && !v.key).then_some(*v)
        })
    }

    /// The raw (unquoted) value of the object's own key `name`: a number, `true`, `null`.
    fn raw<'t>(&self, text: &'t str, open: usize, name: &str) -> Option<&'t str> {
        let (_, value) = self.after_colon(text, self.key(text, open, name)?)?;
        let end = value.find([',', '}', '\n']).unwrap_or(value.len());
        Some(value[..end].trim())
    }

    /// The `{` that opens the value of the object's own key `name`, when it is an object.
    fn object_value(&self, text: &str, open: usize, name: &str) -> Option<usize> {
        let (at, value) = self.after_colon(text, self.key(text, open, name)?)?;
        value.starts_with('{').then_some(at)
    }
}

/// The document's JSON-serialized throwables, one document each, with the byte range of the
/// JSON object each came from (in `doc`'s text), in text order. Empty when none is found.
/// Linear in the text (one pass over it, then lookups).
pub(crate) fn documents(doc: &Document) -> Vec<(Document, usize, usize)> {
    let text = &doc.text;
    if !STACK_KEYS
        .iter()
        .any(|k| text.contains(&format!("\"{k}\"")))
    {
        return Vec::new();
    }
    let json = structure(text);
    // Objects that hold a frames array and a class: throwables.
    let mut throwables: Vec<usize> = Vec::new();
    let mut checked = std::collections::HashSet::new();
    for l in &json.lits {
        if l.key && l.parent != usize::MAX && STACK_KEYS.contains(&&text[l.start..l.end]) {
            let open = l.parent;
            // Each object once, however many frames arrays it holds.
            if checked.insert(open)
                && json
                    .value(text, open, CLASS_KEYS)
                    .is_some_and(|c| looks_like_class(&text[c.start..c.end]))
            {
                throwables.push(open);
            }
        }
    }
    let set: std::collections::HashSet<usize> = throwables.iter().copied().collect();
    // Only the outermost ones: a cause's own stack is read with the object that holds it.
    let mut outermost: Vec<usize> = throwables
        .into_iter()
        .filter(|&open| {
            let mut p = json.parents.get(&open).copied();
            while let Some(o) = p {
                if set.contains(&o) {
                    return false;
                }
                p = json.parents.get(&o).copied();
            }
            true
        })
        .collect();
    outermost.sort_unstable();
    outermost.dedup();
    outermost
        .into_iter()
        .filter_map(|open| {
            let close = json.end_of(open, text);
            let top = read_throwable(text, &json, open)?;
            let mut b = Builder::new(doc, close - open);
            write_chain(&mut b, doc, &json, top);
            Some((b.finish(Container::JsonString, false), open, close))
        })
        .collect()
}

/// One throwable object as read: where its class and message literals are and its frames.
struct Read {
    open: usize,
    class: Literal,
    message: Option<Literal>,
    /// Each frame's text (`a.B.c(B.java:1)`) and the range of its element in the JSON.
    frames: Vec<(String, usize, usize)>,
}

/// Reads the object opened at `open`: its class, message and frames (none when it has no
/// frames array).
fn read_throwable(text: &str, json: &Json, open: usize) -> Option<Read> {
    let class = json
        .value(text, open, CLASS_KEYS)
        .filter(|c| looks_like_class(&text[c.start..c.end]))?;
    let message = json.value(text, open, MESSAGE_KEYS);
    let close = json.end_of(open, text);
    let frames = json
        .keys
        .get(&open)
        .and_then(|keys| {
            keys.iter()
                .map(|&k| &json.lits[k])
                .find(|l| STACK_KEYS.contains(&&text[l.start..l.end]))
        })
        .map(|k| read_frames(text, json, k.end + 1, close))
        .unwrap_or_default();
    Some(Read {
        open,
        class,
        message,
        frames,
    })
}

/// The frames of the array that starts after `from` (past the key's colon), up to its `]` or
/// `limit`.
fn read_frames(text: &str, json: &Json, from: usize, limit: usize) -> Vec<(String, usize, usize)> {
    let bytes = text.as_bytes();
    let mut i = from;
    while i < limit && bytes[i] != b'[' {
        if !matches!(bytes[i], b':' | b' ' | b'\t' | b'\n' | b'\r') {
            return Vec::new();
        }
        i += 1;
    }
    let mut frames = Vec::new();
    i += 1;
    while i < limit {
        match bytes[i] {
            b']' => break,
            b'"' => {
                let Some(l) = json.literal_at(i + 1) else {
                    break;
                };
                let raw = text[l.start..l.end].trim();
                let raw = raw.strip_prefix("\\t").unwrap_or(raw).trim_start();
                let frame = raw.strip_prefix("at ").unwrap_or(raw);
                if frame.contains('(') {
                    frames.push((frame.to_owned(), i, l.end + 1));
                }
                i = l.end + 1;
            }
            b'{' => {
                let end = json.end_of(i, text);
                if let Some(f) = frame_of_object(text, json, i) {
                    frames.push((f, i, end));
                }
                i = end.max(i + 1);
            }
            _ => i += 1,
        }
    }
    frames
}

/// `a.B.c(B.java:1)` from a frame object (Jackson's `StackTraceElement`: `className`,
/// `methodName`, `fileName`, `lineNumber`, `nativeMethod`; Log4j 2's: `class`, `method`,
/// `file`, `line`); `None` without class and method.
fn frame_of_object(text: &str, json: &Json, open: usize) -> Option<String> {
    let string = |names: &[&str]| json.value(text, open, names).map(|l| &text[l.start..l.end]);
    let class = string(&["className", "declaringClass", "class"])?;
    let method = string(&["methodName", "method"])?;
    let line = json
        .raw(text, open, "lineNumber")
        .or_else(|| json.raw(text, open, "line"))
        .and_then(|n| n.parse::<i64>().ok());
    let location = if json.raw(text, open, "nativeMethod") == Some("true") || line == Some(-2) {
        "Native Method".to_owned()
    } else {
        match (string(&["fileName", "file"]), line) {
            (Some(f), Some(n)) if n >= 0 => format!("{f}:{n}"),
            (Some(f), _) => f.to_owned(),
            (None, _) => "Unknown Source".to_owned(),
        }
    };
    Some(format!("{class}.{method}({location})"))
}

/// Writes one throwable in Java's printed form: `label`, `class: message` (the message's first
/// line: a JSON message may hold a whole printed trace, whose frames must not pass for this
/// one's), then its frames.
fn write_one(b: &mut Builder<'_>, doc: &Document, t: &Read, label: &str) {
    let text = &doc.text;
    let class = t.class;
    b.replace(
        class.start,
        class.end,
        &format!("{label}{}", &text[class.start..class.end]),
    );
    if let Some(m) = t.message.filter(|m| m.start < m.end) {
        let message = super::decode::json_unescape(doc, m.start, m.end);
        let first = message.text.lines().next().unwrap_or("").trim_end();
        if !first.is_empty() {
            b.replace(class.end, class.end, ": ");
            if first.len() == message.text.len() {
                b.append(&message);
            } else {
                b.replace(m.start, m.end, first);
            }
        }
    }
    b.replace(class.end, class.end, "\n");
    for (frame, a, e) in &t.frames {
        b.replace(*a, *e, &format!("\tat {frame}\n"));
    }
}

/// Writes `top` and its causes: Jackson's nested `"cause"` objects, or the Kubernetes
/// Operator's `"throwableList"` (the causes below the top, without frames).
fn write_chain(b: &mut Builder<'_>, doc: &Document, json: &Json, top: Read) {
    let text = &doc.text;
    write_one(b, doc, &top, "");
    let mut current = top;
    let mut followed = false;
    for _ in 0..MAX_DEPTH {
        let Some(open) = CAUSE_KEYS
            .iter()
            .find_map(|k| json.object_value(text, current.open, k))
        else {
            break;
        };
        let Some(cause) = read_throwable(text, json, open) else {
            break;
        };
        write_one(b, doc, &cause, "Caused by: ");
        followed = true;
        current = cause;
    }
    if followed {
        return;
    }
    // The operator's list, from the top-level object.
    let Some(list_key) = json
        .key(text, current.open, THROWABLE_LIST_KEY)
        .map(|k| json.lits[k])
    else {
        return;
    };
    let close = json.end_of(current.open, text);
    let bytes = text.as_bytes();
    let mut i = list_key.end + 1;
    while i < close && bytes[i] != b'[' {
        i += 1;
    }
    i += 1;
    while i < close && bytes[i] != b']' {
        if bytes[i] == b'{' {
            let end = json.end_of(i, text);
            if let Some(c) = read_throwable(text, json, i) {
                write_one(b, doc, &c, "Caused by: ");
            }
            i = end.max(i + 1);
        } else if bytes[i] == b'"' {
            i = json.literal_at(i + 1).map_or(i + 1, |l| l.end + 1);
        } else {
            i += 1;
        }
    }
}

/// A qualified class name: identifier parts joined by dots, at least two.
fn looks_like_class(s: &str) -> bool {
    s.contains('.')
        && s.split('.').all(|p| {
            !p.is_empty()
                && p.chars()
                    .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
                && !p.starts_with(|c: char| c.is_ascii_digit())
        })
}

/// Reads the text's JSON structure (see [`Json`]); brackets inside strings are skipped, and a
/// text cut inside the JSON leaves its open objects without a close. JSON cut short and followed
/// by other text (a paste of a cut JSON document, then a trace) ends at the last line that still
/// looks like JSON ([`json_lines_end`]), read again up to there: the text after it is not the
/// JSON's (it was swallowed as the open object's, with the traces in it).
fn structure(text: &str) -> Json {
    let json = scan(text);
    if let Some(open) = json.unclosed {
        let cut = json_lines_end(text, open);
        if cut < text.len() {
            let mut again = scan(&text[..cut]);
            again.json.end = cut;
            return again.json;
        }
    }
    json.json
}

/// The end of the last line of JSON from the line after `open`'s ([`json_like_line`]; blank
/// lines do not end it); the first line that is not (a trace's header, a log line) ends it, and
/// the end of the text when there is none.
/// Pretty-printed JSON (Jackson, the Kubernetes Operator's status) has one token or key a line.
fn json_lines_end(text: &str, open: usize) -> usize {
    let Some(first_break) = text[open..].find('\n').map(|i| open + i) else {
        return text.len();
    };
    // The end of the last line of JSON; blank lines go on without ending or extending it.
    let mut end = first_break;
    let mut at = first_break + 1;
    for line in text[first_break + 1..].split_inclusive('\n') {
        let t = line.trim();
        if !t.is_empty() {
            if !json_like_line(t) {
                return end;
            }
            end = at + line.trim_end_matches(['\n', '\r']).len();
        }
        at += line.len();
    }
    text.len()
}

/// Whether a trimmed line can be a line of pretty-printed JSON: blank, or starting with a string,
/// a bracket, `,` or `:`, or a value alone (a number, `true`, `false`, `null`) and what may follow
/// it (`,`, closing brackets). A date (`2021-08-18 06:18:37`) is not.
fn json_like_line(t: &str) -> bool {
    if t.is_empty() || t.starts_with(['"', '{', '}', '[', ']', ',', ':']) {
        return true;
    }
    let value = t.trim_end_matches([',', ']', '}', ' ', '\t']);
    matches!(value, "true" | "false" | "null")
        || (!value.is_empty()
            && value.starts_with(|c: char| c.is_ascii_digit() || c == '-')
            && value
                .chars()
                .all(|c| c.is_ascii_digit() || matches!(c, '-' | '+' | '.' | 'e' | 'E')))
}

/// [`scan`]'s result: the structure, and the first object left open at the end, if any.
struct Scanned {
    json: Json,
    unclosed: Option<usize>,
}

/// One pass over `text` for [`structure`].
fn scan(text: &str) -> Scanned {
    let bytes = text.as_bytes();
    let mut json = Json {
        lits: Vec::new(),
        closes: std::collections::HashMap::new(),
        parents: std::collections::HashMap::new(),
        keys: std::collections::HashMap::new(),
        end: text.len(),
    };
    // Open `{` and `[` (the byte, its position).
    let mut stack: Vec<(u8, usize)> = Vec::new();
    let innermost_object = |stack: &[(u8, usize)]| {
        stack
            .iter()
            .rev()
            .find(|(b, _)| *b == b'{')
            .map_or(usize::MAX, |&(_, at)| at)
    };
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'{' => {
                let parent = innermost_object(&stack);
                if parent != usize::MAX {
                    json.parents.insert(i, parent);
                }
                stack.push((b'{', i));
            }
            b'[' => stack.push((b'[', i)),
            b'}' | b']' => {
                if let Some((b'{', at)) = stack.pop() {
                    json.closes.insert(at, i + 1);
                }
            }
            b'"' => {
                let start = i + 1;
                let mut j = start;
                while j < bytes.len() && bytes[j] != b'"' {
                    if bytes[j] == b'\\' {
                        j += 1;
                    }
                    j += 1;
                }
                let end = j.min(bytes.len());
                let key = text
                    .get(end + 1..)
                    .is_some_and(|rest| rest.trim_start_matches([' ', '\t']).starts_with(':'));
                let parent = innermost_object(&stack);
                if key && parent != usize::MAX {
                    json.keys.entry(parent).or_default().push(json.lits.len());
                }
                json.lits.push(Literal {
                    start,
                    end,
                    key,
                    parent,
                });
                i = end;
            }
            _ => {}
        }
        i += 1;
    }
    let unclosed = stack.iter().find(|(b, _)| *b == b'{').map(|&(_, at)| at);
    Scanned { json, unclosed }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decoded(input: &str) -> Vec<String> {
        documents(&Document::plain(input))
            .into_iter()
            .map(|(d, ..)| d.text)
            .collect()
    }

    #[test]
    fn reads_the_kubernetes_operators_error_json_even_when_cut() {
        // apache/flink-kubernetes-operator, the status error format (tests/corpus/deployment/
        // d-k8s-operator-cr-error-json-local-scheme), cut mid-field as posted.
        let input = include_str!(
            "../../tests/corpus/deployment/d-k8s-operator-cr-error-json-local-scheme.txt"
        );
        let docs = decoded(input);
        assert_eq!(docs.len(), 1, "{docs:?}");
        let lines: Vec<&str> = docs[0].lines().collect();
        assert!(lines[0].starts_with(
            "org.apache.flink.kubernetes.operator.exception.ReconciliationException: java.lang.IllegalArgumentException: Only \"local\" is supported"
        ), "{}", lines[0]);
        assert_eq!(
            lines[1],
            "\tat org.apache.flink.kubernetes.operator.controller.FlinkDeploymentController.reconcile(FlinkDeploymentController.java:133)"
        );
        assert_eq!(lines.len(), 3, "two whole frames before the cut: {lines:?}");
    }

    #[test]
    fn json_cut_short_ends_where_the_text_after_it_stops_looking_like_json() {
        // A helper's try-out: the cut status error above, then the flagship trace pasted under
        // it. The JSON object, never closed, took the rest of the text: the trace was not read.
        let json = include_str!(
            "../../tests/corpus/deployment/d-k8s-operator-cr-error-json-local-scheme.txt"
        );
        let input = format!("{json}\n\n{}", include_str!("../../tests/cases/seed.txt"));
        let found = documents(&Document::plain(&input));
        assert_eq!(found.len(), 1);
        let (doc, open, close) = &found[0];
        assert_eq!(doc.text.lines().count(), 3, "{}", doc.text);
        // From its `{` (after the post's code fence) to the end of its last line.
        assert_eq!((*open, *close), (3, json.trim_end().len()));
        for (line, json_like) in [
            ("\"lineNumber\": 133,", true),
            ("133,", true),
            ("-1.5e3 ]},", true),
            ("null", true),
            ("2021-08-18 06:18:37", false),
            ("java.io.IOException: x", false),
            ("nullable", false),
        ] {
            assert_eq!(json_like_line(line), json_like, "{line}");
        }
        let parsed = crate::parse::parse(&input);
        let classes: Vec<&str> = parsed
            .traces
            .iter()
            .map(|t| t.throwables[0].class.as_str())
            .collect();
        assert_eq!(
            classes,
            [
                "org.apache.flink.kubernetes.operator.exception.ReconciliationException",
                "java.io.IOException"
            ]
        );
        // Lines of JSON go on past blank ones and bracket-only ones; a cut JSON alone keeps the
        // whole text, as before.
        assert_eq!(json_lines_end(json, 0), json.len());
    }

    #[test]
    fn reads_jacksons_throwable_with_its_cause_and_string_frames() {
        let input = r#"{"cause":{"stackTrace":[{"className":"b.Inner","methodName":"go","fileName":"Inner.java","lineNumber":7,"nativeMethod":false}],"message":"boom","localizedMessage":"boom","class":"java.lang.IllegalStateException"},
 "stackTrace":["at a.Top.run(Top.java:1)","\tat a.Main.main(Main.java:2)"],
 "message":"wrapped","class":"java.io.IOException"}"#;
        let docs = decoded(input);
        assert_eq!(
            docs,
            [
                "java.io.IOException: wrapped\n\tat a.Top.run(Top.java:1)\n\tat a.Main.main(Main.java:2)\nCaused by: java.lang.IllegalStateException: boom\n\tat b.Inner.go(Inner.java:7)\n"
            ]
        );
    }

    #[test]
    fn maps_every_line_back_into_the_json() {
        let input =
            r#"{"type":"java.lang.RuntimeException","message":"x","stack":["at a.B.c(B.java:1)"]}"#;
        let docs = documents(&Document::plain(input));
        let (d, open, close) = &docs[0];
        assert_eq!((*open, *close), (0, input.len()));
        let at = d.text.find("a.B.c").unwrap();
        let span = d.orig_span(at, at + 5);
        assert!(input[span.start..span.end].contains("a.B.c(B.java:1)"));
        let class = d.orig_span(0, 26);
        assert_eq!(&input[class.start..class.end], "java.lang.RuntimeException");
    }

    #[test]
    fn leaves_other_json_alone() {
        assert!(decoded(r#"{"stack":"main","type":"x"}"#).is_empty());
        assert!(decoded(r#"{"frames":[1,2],"class":"not a class"}"#).is_empty());
        assert!(decoded("plain text").is_empty());
    }
}
