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

/// Keys of the frames array.
const STACK_KEYS: &[&str] = &["stackTrace", "stackTraceElements", "stack", "frames"];
/// Keys of the throwable's class, in order of preference.
const CLASS_KEYS: &[&str] = &["type", "class", "exceptionClass", "@class", "className"];
/// Keys of the message, in order of preference.
const MESSAGE_KEYS: &[&str] = &["message", "localizedMessage", "msg"];
/// Keys of a nested cause object.
const CAUSE_KEYS: &[&str] = &["cause"];
/// Key of the Kubernetes Operator's list of the chain's throwables (class and message only).
const THROWABLE_LIST_KEY: &str = "throwableList";
/// Nested causes followed at most.
const MAX_DEPTH: usize = 32;

/// A JSON string literal: `start..end` without the quotes; whether it is an object key (a `:`
/// follows it); the object depth it stands at (1 inside a top-level object).
#[derive(Clone, Copy)]
struct Literal {
    start: usize,
    end: usize,
    key: bool,
    depth: usize,
}

/// The document's JSON-serialized throwables, one document each, with the byte range of the
/// JSON object each came from (in `doc`'s text), in text order. Empty when none is found.
pub(crate) fn documents(doc: &Document) -> Vec<(Document, usize, usize)> {
    let text = &doc.text;
    if !STACK_KEYS
        .iter()
        .any(|k| text.contains(&format!("\"{k}\"")))
    {
        return Vec::new();
    }
    let lits = literals(text);
    let mut found: Vec<Read> = Vec::new();
    for (i, l) in lits.iter().enumerate() {
        if !l.key || !STACK_KEYS.contains(&&text[l.start..l.end]) {
            continue;
        }
        let Some(open) = object_start(text, l.start - 1) else {
            continue;
        };
        let close = object_end(text, open);
        if let Some(t) = read_throwable(text, &lits, open, close, i) {
            found.push(t);
        }
    }
    // Only the outermost throwable objects: a cause's own stack is read with the object that
    // holds it.
    let outermost: Vec<&Read> = found
        .iter()
        .filter(|t| !found.iter().any(|o| o.open < t.open && t.close <= o.close))
        .collect();
    outermost
        .into_iter()
        .map(|t| {
            let mut b = Builder::new(doc, t.close - t.open);
            write_throwable(&mut b, doc, t, "", &lits, 0);
            (b.finish(Container::JsonString, false), t.open, t.close)
        })
        .collect()
}

/// One throwable object as read: where its class and message literals are and its frames.
struct Read {
    open: usize,
    close: usize,
    class: Option<Literal>,
    message: Option<Literal>,
    /// Each frame's text (`a.B.c(B.java:1)`) and the range of its element in the JSON.
    frames: Vec<(String, usize, usize)>,
}

/// Reads the object `open..close` whose frames array key is `lits[stack_key]` (or none).
fn read_throwable(
    text: &str,
    lits: &[Literal],
    open: usize,
    close: usize,
    stack_key: usize,
) -> Option<Read> {
    let depth = lits[stack_key].depth;
    let own = |k: &Literal| k.key && k.depth == depth && open < k.start && k.end < close;
    let value_of = |names: &[&str]| -> Option<Literal> {
        names.iter().find_map(|name| {
            let k = lits
                .iter()
                .position(|k| own(k) && &text[k.start..k.end] == *name)?;
            let v = lits.get(k + 1)?;
            // The value must be the string right after the key's colon.
            let between = text.get(lits[k].end + 1..v.start.checked_sub(1)?)?;
            (between.trim() == ":" && !v.key).then_some(*v)
        })
    };
    let class = value_of(CLASS_KEYS).filter(|c| looks_like_class(&text[c.start..c.end]));
    class?;
    let message = value_of(MESSAGE_KEYS);
    let frames = read_frames(text, lits, lits[stack_key].end + 1, close);
    Some(Read {
        open,
        close,
        class,
        message,
        frames,
    })
}

/// The frames of the array that starts after `from` (past the key's colon), up to its `]` or
/// `limit`.
fn read_frames(
    text: &str,
    lits: &[Literal],
    from: usize,
    limit: usize,
) -> Vec<(String, usize, usize)> {
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
                let Some(l) = lits.iter().find(|l| l.start == i + 1) else {
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
                let end = object_end(text, i);
                if let Some(f) = frame_of_object(text, lits, i, end) {
                    frames.push((f, i, end));
                }
                i = end;
            }
            _ => i += 1,
        }
    }
    frames
}

/// `a.B.c(B.java:1)` from a `StackTraceElement` object; `None` without class and method.
fn frame_of_object(text: &str, lits: &[Literal], open: usize, close: usize) -> Option<String> {
    let inside: Vec<&Literal> = lits
        .iter()
        .filter(|l| open < l.start && l.end < close)
        .collect();
    let string = |name: &str| -> Option<&str> {
        let k = inside
            .iter()
            .position(|l| l.key && &text[l.start..l.end] == name)?;
        let v = inside.get(k + 1)?;
        let between = text.get(inside[k].end + 1..v.start - 1)?;
        (between.trim() == ":").then(|| &text[v.start..v.end])
    };
    let raw = |name: &str| -> Option<&str> {
        let k = inside
            .iter()
            .find(|l| l.key && &text[l.start..l.end] == name)?;
        let rest = text.get(k.end + 1..close)?.trim_start().strip_prefix(':')?;
        let rest = rest.trim_start();
        let end = rest.find([',', '}', '\n']).unwrap_or(rest.len());
        Some(rest[..end].trim())
    };
    let class = string("className").or_else(|| string("declaringClass"))?;
    let method = string("methodName")?;
    let location = if raw("nativeMethod") == Some("true") {
        "Native Method".to_owned()
    } else {
        match (
            string("fileName"),
            raw("lineNumber").and_then(|n| n.parse::<i64>().ok()),
        ) {
            (Some(f), Some(n)) if n >= 0 => format!("{f}:{n}"),
            (Some(f), _) => f.to_owned(),
            (None, _) => "Unknown Source".to_owned(),
        }
    };
    Some(format!("{class}.{method}({location})"))
}

/// Writes `t` in Java's printed form, then its causes.
fn write_throwable(
    b: &mut Builder<'_>,
    doc: &Document,
    t: &Read,
    label: &str,
    lits: &[Literal],
    depth: usize,
) {
    let text = &doc.text;
    let Some(class) = t.class else {
        return;
    };
    b.replace(
        class.start,
        class.end,
        &format!("{label}{}", &text[class.start..class.end]),
    );
    if let Some(m) = t.message {
        if m.start < m.end {
            b.replace(class.end, class.end, ": ");
            let message = super::decode::json_unescape(doc, m.start, m.end);
            // A message of several lines stays the header's message (no line may look like a
            // frame of its own).
            let one = message.text.replace('\n', " ");
            if one == message.text {
                b.append(&message);
            } else {
                b.replace(m.start, m.end, &one);
            }
        }
    }
    b.replace(class.end, class.end, "\n");
    for (frame, a, e) in &t.frames {
        b.replace(*a, *e, &format!("\tat {frame}\n"));
    }
    if depth >= MAX_DEPTH {
        return;
    }
    // A nested `"cause": {…}` of Jackson's shape.
    let key_depth = lits
        .iter()
        .find(|l| l.key && t.open < l.start && l.end < t.close)
        .map(|l| l.depth);
    let cause = lits.iter().enumerate().find(|(_, l)| {
        l.key
            && Some(l.depth) == key_depth
            && t.open < l.start
            && l.end < t.close
            && CAUSE_KEYS.contains(&&text[l.start..l.end])
    });
    if let Some((_, key)) = cause {
        let after = text[key.end + 1..t.close].trim_start();
        if let Some(rest) = after.strip_prefix(':') {
            let open = t.close - rest.trim_start().len();
            if text.as_bytes().get(open) == Some(&b'{') {
                let close = object_end(text, open);
                let stack = lits.iter().position(|l| {
                    l.key
                        && open < l.start
                        && l.end < close
                        && l.depth == key.depth + 1
                        && STACK_KEYS.contains(&&text[l.start..l.end])
                });
                let read = match stack {
                    Some(s) => read_throwable(text, lits, open, close, s),
                    None => class_only(text, lits, open, close, key.depth + 1),
                };
                if let Some(c) = read {
                    write_throwable(b, doc, &c, "Caused by: ", lits, depth + 1);
                }
            }
        }
    }
    // The Kubernetes Operator's `"throwableList": [{"type": …, "message": …}, …]`: the causes
    // below the top-level throwable, without frames.
    if depth == 0 {
        let list = lits.iter().find(|l| {
            l.key
                && Some(l.depth) == key_depth
                && t.open < l.start
                && l.end < t.close
                && &text[l.start..l.end] == THROWABLE_LIST_KEY
        });
        if let Some(key) = list {
            let mut i = key.end + 1;
            let bytes = text.as_bytes();
            while i < t.close && bytes[i] != b'[' {
                i += 1;
            }
            i += 1;
            while i < t.close && bytes[i] != b']' {
                if bytes[i] == b'{' {
                    let close = object_end(text, i);
                    if let Some(c) = class_only(text, lits, i, close, key.depth + 1) {
                        write_throwable(b, doc, &c, "Caused by: ", lits, depth + 1);
                    }
                    i = close;
                } else {
                    i += 1;
                }
            }
        }
    }
}

/// A throwable object without frames (class and message only).
fn class_only(
    text: &str,
    lits: &[Literal],
    open: usize,
    close: usize,
    depth: usize,
) -> Option<Read> {
    let own = |k: &Literal| k.key && k.depth == depth && open < k.start && k.end < close;
    let value_of = |names: &[&str]| -> Option<Literal> {
        names.iter().find_map(|name| {
            let k = lits
                .iter()
                .position(|k| own(k) && &text[k.start..k.end] == *name)?;
            let v = lits.get(k + 1)?;
            let between = text.get(lits[k].end + 1..v.start.checked_sub(1)?)?;
            (between.trim() == ":" && !v.key).then_some(*v)
        })
    };
    let class = value_of(CLASS_KEYS).filter(|c| looks_like_class(&text[c.start..c.end]))?;
    Some(Read {
        open,
        close,
        class: Some(class),
        message: value_of(MESSAGE_KEYS),
        frames: Vec::new(),
    })
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

/// Every string literal of `text` with whether it is a key and its object depth.
fn literals(text: &str) -> Vec<Literal> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'{' => depth += 1,
            b'}' => depth = depth.saturating_sub(1),
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
                out.push(Literal {
                    start,
                    end,
                    key,
                    depth,
                });
                i = end;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// The `{` of the innermost object around `at`, skipping strings; `None` at the top level.
fn object_start(text: &str, at: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    // Walk forward once to know which bytes are inside strings.
    let mut in_string = vec![false; at.min(bytes.len())];
    let mut inside = false;
    let mut i = 0;
    while i < in_string.len() {
        if inside {
            in_string[i] = true;
            if bytes[i] == b'\\' {
                if i + 1 < in_string.len() {
                    in_string[i + 1] = true;
                }
                i += 2;
                continue;
            }
            if bytes[i] == b'"' {
                inside = false;
            }
        } else if bytes[i] == b'"' {
            inside = true;
            in_string[i] = true;
        }
        i += 1;
    }
    let mut depth = 0usize;
    for k in (0..in_string.len()).rev() {
        if in_string[k] {
            continue;
        }
        match bytes[k] {
            b'}' | b']' => depth += 1,
            b'{' if depth == 0 => return Some(k),
            b'{' | b'[' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

/// Just past the `}` that closes the object opened at `open`, or the end of the text.
fn object_end(text: &str, open: usize) -> usize {
    let bytes = text.as_bytes();
    let mut depth = 0usize;
    let mut in_string = false;
    let mut i = open;
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
