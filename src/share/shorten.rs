//! The text of a shorter link: only what matters of one diagnosed trace.
//!
//! Kept: the few lines just above the trace (the log line that announces the failure, its time),
//! every throwable's header (class and message, long messages cut), and of its frames the first
//! one (where it was thrown), those the findings highlight and the user's own code, each printed
//! as Java prints a frame. Left out: the other frames, other traces, repeats and the rest of the
//! log. The result is diagnosed again and must give the same first finding; when it does not,
//! less is left out (all frames, then the trace as pasted, then nothing).

use crate::diagnose::{Diagnosis, TraceDiagnosis};
use crate::frames::is_printed_user_code;
use crate::model::{Frame, Location, Relation, Trace};
use crate::wording::plural;
use serde::Serialize;

/// Longest message kept whole (characters); longer ones are cut and end in ` […]`.
const MAX_MESSAGE_CHARS: usize = 400;
/// How many lines above the trace are kept (as many as the context reader looks at).
const LINES_ABOVE: usize = 3;
/// Longest line above the trace that is kept (bytes).
const MAX_LINE_ABOVE: usize = 400;

/// The text of a shorter link and what it leaves out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Shortened {
    /// The shorter text (the input itself when nothing could be left out).
    pub text: String,
    /// What was left out, one phrase each, for "Left out: …" (`41 of 58 frames of the root
    /// cause`, `2 other traces`, `the log lines around the trace`). Empty when `text` is the
    /// input.
    pub left_out: Vec<String>,
    /// The trace kept: index into `Diagnosis::traces` (its number on the page is one more).
    pub trace: Option<usize>,
    /// The rule id of that trace's first finding, which the shorter text still leads with.
    pub finding: Option<String>,
}

/// [`shorten_trace`] of the trace the page shows first: the first diagnosed one, else the first.
pub fn shorten(text: &str, diagnosis: &Diagnosis) -> Shortened {
    shorten_trace(text, diagnosis, None)
}

/// Shortens `text` (the input `diagnosis` was made from) to trace `trace` (index into
/// `diagnosis.traces`; `None` or out of range: the first diagnosed trace, else the first).
///
/// The result parses and diagnoses to the same first finding, and has no frame that the trace
/// does not have. Diagnoses at most four candidate texts no longer than the input.
pub fn shorten_trace(text: &str, diagnosis: &Diagnosis, trace: Option<usize>) -> Shortened {
    let pick = trace
        .filter(|&i| i < diagnosis.traces.len())
        .or_else(|| diagnosis.traces.iter().position(|d| !d.findings.is_empty()))
        .or((!diagnosis.traces.is_empty()).then_some(0));
    let Some(i) = pick else {
        return unchanged(text, None, None);
    };
    let d = &diagnosis.traces[i];
    let want = d.findings.first().map(|f| f.rule.clone());
    let plans: &[Plan] = if d.trace.thread.is_some() {
        // A thread of a thread dump: its header is no throwable; keep it as pasted.
        &[Plan::AsPasted]
    } else {
        &[
            Plan::Reprinted {
                all_frames: false,
                cap: Some(MAX_MESSAGE_CHARS),
            },
            Plan::Reprinted {
                all_frames: false,
                cap: None,
            },
            Plan::Reprinted {
                all_frames: true,
                cap: None,
            },
            Plan::AsPasted,
        ]
    };
    for &plan in plans {
        let (short, mut left_out) = build(text, d, plan);
        if short.len() >= text.len() || !leads_with(&short, want.as_deref()) {
            continue;
        }
        let others = diagnosis.traces.len() - 1;
        if others > 0 {
            left_out.push(plural(others, "other trace", "other traces"));
        }
        if d.occurrences > 1 {
            left_out.push(plural(
                d.occurrences - 1,
                "repeat of this trace",
                "repeats of this trace",
            ));
        }
        // A text that is shorter only by what the reprint does not count (a trailing space, a
        // poster's `...` line) is kept as it is: a shortened text always says what it left out.
        if left_out.is_empty() {
            continue;
        }
        return Shortened {
            text: short,
            left_out,
            trace: Some(i),
            finding: want,
        };
    }
    unchanged(text, Some(i), want)
}

fn unchanged(text: &str, trace: Option<usize>, finding: Option<String>) -> Shortened {
    Shortened {
        text: text.to_owned(),
        left_out: Vec::new(),
        trace,
        finding,
    }
}

/// True when `text` diagnoses with `want` as its first trace's first finding (`None`: a trace
/// without findings).
fn leads_with(text: &str, want: Option<&str>) -> bool {
    let d = crate::diagnose(text);
    d.traces
        .first()
        .is_some_and(|t| t.findings.first().map(|f| f.rule.as_str()) == want)
}

#[derive(Clone, Copy)]
enum Plan {
    /// Headers and frames printed anew, as Java prints them.
    Reprinted {
        /// Every frame, or only those that matter.
        all_frames: bool,
        /// Messages cut at this many characters.
        cap: Option<usize>,
    },
    /// The trace's own text.
    AsPasted,
}

/// The shorter text by `plan`, and what it left out of the trace and around it.
fn build(text: &str, d: &TraceDiagnosis, plan: Plan) -> (String, Vec<String>) {
    let trace = &d.trace;
    let span_end = trace.span.end.min(text.len());
    let (above_start, above) = lines_above(text, trace);
    let mut out = String::from(above);
    let mut left_out = Vec::new();
    match plan {
        Plan::AsPasted => out.push_str(text.get(trace.span.start..span_end).unwrap_or("")),
        Plan::Reprinted { all_frames, cap } => {
            let keep = if all_frames {
                trace
                    .throwables
                    .iter()
                    .map(|t| vec![true; t.frames.len()])
                    .collect()
            } else {
                frames_that_matter(d)
            };
            let cut = reprint(&mut out, trace, &keep, cap);
            left_out.extend(frames_left_out(d, &keep));
            if cut > 0 {
                left_out.push(if cut == 1 {
                    "the end of a long message".to_owned()
                } else {
                    format!("the end of {cut} long messages")
                });
            }
        }
    }
    let around = text.get(..above_start).unwrap_or("").trim().is_empty()
        && text.get(span_end..).unwrap_or("").trim().is_empty();
    if !around {
        left_out.push("the log lines around the trace".to_owned());
    }
    if !out.ends_with('\n') {
        out.push('\n');
    }
    (out, left_out)
}

/// Up to [`LINES_ABOVE`] short lines just above the trace, with the part of its first line
/// before the header (a log prefix): `(start offset, text)`. Empty for a trace read from JSON.
fn lines_above<'a>(text: &'a str, trace: &Trace) -> (usize, &'a str) {
    let start = trace.span.start.min(text.len());
    if trace.container != crate::decode::Container::Plain || !text.is_char_boundary(start) {
        return (start, "");
    }
    let bytes = text.as_bytes();
    // The start of the trace's own line, then of each line above it.
    let line_start = |end: usize| {
        bytes[..end]
            .iter()
            .rposition(|&b| b == b'\n' || b == b'\r')
            .map_or(0, |p| p + 1)
    };
    let mut from = line_start(start);
    if start - from > MAX_LINE_ABOVE {
        return (start, "");
    }
    for _ in 0..LINES_ABOVE {
        if from == 0 {
            break;
        }
        // Step over the terminator (`\n`, `\r\n` or `\r`) to the line above.
        let mut end = from - 1;
        if bytes[end] == b'\n' && end > 0 && bytes[end - 1] == b'\r' {
            end -= 1;
        }
        let above = line_start(end);
        let line = text.get(above..end).unwrap_or("");
        let t = line.trim_start_matches(|c: char| c.is_whitespace() || c == '>');
        // Stop at a long line, or a line of another trace.
        if line.len() > MAX_LINE_ABOVE
            || t.starts_with("at ")
            || t.starts_with("...")
            || t.starts_with("Caused by")
            || t.starts_with("Suppressed")
        {
            break;
        }
        from = above;
    }
    (from, text.get(from..start).unwrap_or(""))
}

/// Per throwable, per frame: kept? The first frame, highlighted frames, user code.
fn frames_that_matter(d: &TraceDiagnosis) -> Vec<Vec<bool>> {
    let mut keep: Vec<Vec<bool>> = d
        .trace
        .throwables
        .iter()
        .map(|t| {
            t.frames
                .iter()
                .enumerate()
                .map(|(k, f)| k == 0 || is_printed_user_code(f))
                .collect()
        })
        .collect();
    for h in d.findings.iter().flat_map(|f| &f.highlights) {
        if let Some(slot) = h.frame.and_then(|k| keep.get_mut(h.throwable)?.get_mut(k)) {
            *slot = true;
        }
    }
    keep
}

/// `41 of 58 frames of the root cause`, `12 of 30 frames of the 3 other throwables`.
fn frames_left_out(d: &TraceDiagnosis, keep: &[Vec<bool>]) -> Vec<String> {
    let dropped = |i: usize| keep.get(i).map_or(0, |k| k.iter().filter(|&&b| !b).count());
    let root = d.root_cause;
    let mut out = Vec::new();
    let total_root = d.trace.throwables.get(root).map_or(0, |t| t.frames.len());
    if dropped(root) > 0 {
        out.push(format!(
            "{} of {} frames of the root cause",
            dropped(root),
            total_root
        ));
    }
    let others: Vec<usize> = (0..d.trace.throwables.len())
        .filter(|&i| i != root)
        .collect();
    let (drop, total) = others.iter().fold((0, 0), |(a, b), &i| {
        (a + dropped(i), b + d.trace.throwables[i].frames.len())
    });
    if drop > 0 {
        out.push(format!(
            "{drop} of {total} frames of the {}",
            if others.len() == 1 {
                "other throwable".to_owned()
            } else {
                format!("{} other throwables", others.len())
            }
        ));
    }
    out
}

/// Prints `trace` as `Throwable.printStackTrace` does (suppressed throwables indented, then the
/// cause), with only the frames `keep` marks and no `... N more` (restored frames that are kept
/// are printed where they belong). Returns how many messages were cut at `cap` characters.
fn reprint(out: &mut String, trace: &Trace, keep: &[Vec<bool>], cap: Option<usize>) -> usize {
    let mut cut = 0;
    let mut seen = vec![false; trace.throwables.len()];
    // (throwable, depth); an explicit stack: a million `Caused by:` must not overflow.
    let mut stack = vec![(0usize, 0usize)];
    while let Some((i, depth)) = stack.pop() {
        let Some(t) = trace.throwables.get(i) else {
            continue;
        };
        if std::mem::replace(&mut seen[i], true) {
            continue;
        }
        let indent = "\t".repeat(depth);
        let class = t.printed_as.as_deref().unwrap_or(&t.class);
        if !class.is_empty() {
            out.push_str(&indent);
            out.push_str(match t.relation {
                Relation::Top => "",
                Relation::CauseOf(_) => "Caused by: ",
                Relation::SuppressedBy(_) => "Suppressed: ",
            });
            out.push_str(class);
            if let Some(m) = &t.message {
                out.push_str(": ");
                match cap.and_then(|c| m.char_indices().nth(c)) {
                    Some((at, _)) => {
                        out.push_str(&m[..at]);
                        out.push_str(" […]");
                        cut += 1;
                    }
                    None => out.push_str(m),
                }
            }
            out.push('\n');
        }
        for (k, f) in t.frames.iter().enumerate() {
            if keep.get(i).and_then(|v| v.get(k)).copied().unwrap_or(false) {
                out.push_str(&indent);
                out.push_str("\tat ");
                frame_line(out, f);
                out.push('\n');
            }
        }
        if let Some(c) = t.cause {
            stack.push((c, depth));
        }
        stack.extend(t.suppressed.iter().rev().map(|&s| (s, depth + 1)));
    }
    cut
}

/// `java.base@11.0.9/java.util.HashMap$HashIterator.nextNode(HashMap.java:1445) ~[jar]`.
fn frame_line(out: &mut String, f: &Frame) {
    if let Some(m) = &f.module {
        out.push_str(m);
        out.push('/');
    }
    out.push_str(&f.class);
    out.push('.');
    out.push_str(&f.method);
    out.push('(');
    match &f.location {
        Location::Source { file, line } => {
            out.push_str(file);
            if let Some(n) = line {
                out.push(':');
                out.push_str(&n.to_string());
            }
        }
        Location::Native => out.push_str("Native Method"),
        Location::Unknown => out.push_str("Unknown Source"),
    }
    out.push(')');
    if let Some(j) = &f.jar {
        out.push_str(" ~[");
        out.push_str(j);
        out.push(']');
    }
}
