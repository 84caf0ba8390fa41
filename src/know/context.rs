//! Facts read out of the text around a trace: checkpoint id, task (operator chain, subtask,
//! parallelism, attempt) and time.
//!
//! Flink names a task `<chain name> (<subtask>/<parallelism>)#<attempt>` where the chain name
//! joins the chained operators' names with ` -> ` and the subtask is printed 1-based; the
//! `#<attempt>` suffix exists from Flink 1.11 (FLINK-16620). The checkpoint failure messages
//! read "Could not perform checkpoint N for operator <task>." (`StreamTask`) and "Could not
//! complete snapshot N for operator <task>. Failure reason: …" (`CheckpointException`).

use crate::model::Trace;
use regex::Regex;
use serde::Serialize;
use std::sync::OnceLock;

/// A Flink task as named in the text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Task {
    /// The chain name as printed (`a -> b`).
    pub name: String,
    /// The chained operators, in chain order (the name split at ` -> `).
    pub operators: Vec<String>,
    /// Subtask as printed: 1-based.
    pub subtask: u32,
    /// Parallelism of the task.
    pub parallelism: u32,
    /// Execution attempt (`#0`), when printed (Flink 1.11 and later).
    pub attempt: Option<u32>,
}

/// What the text says about where and when the trace happened. Fields are `None` when unknown.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Context {
    /// The checkpoint that failed (`Could not perform checkpoint 575 …`).
    pub checkpoint_id: Option<u64>,
    /// The task that failed.
    pub task: Option<Task>,
    /// A timestamp printed on or just above the trace's first line, as printed
    /// (`2021-08-18 06:18:37`).
    pub time: Option<String>,
}

fn task_in_message() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"(?:for operator|for task|of task)\s+(.+?)\s+[(（](\d+)/(\d+)[)）](?:#(\d+))?")
            .expect("valid regex")
    })
}

fn task_in_log_line() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        // log4j2 `… [] - <task> (1/3)#140 (<execution id>) switched from RUNNING to FAILED`; the
        // id is 32 hex digits, or longer with `_` from Flink 1.15. A JSON log line
        // (`"message":"…`) or a Docker `{"log":"…` line keeps its prefix up to the last `] - `.
        Regex::new(r"^(?:.*(?:\] - |\x22message\x22:\x22))?(.+?) [(（](\d+)/(\d+)[)）](?:#(\d+))? [(（][0-9a-f_]{16,}[)）] switched from")
            .expect("valid regex")
    })
}

fn task_in_thread_name() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"^(.+?) [(（](\d+)/(\d+)[)）](?:#(\d+))?$").expect("valid regex"))
}

fn checkpoint_id() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"\b(?:[Cc]heckpoint|[Ss]napshot)\s+(?:id\s+)?(\d{1,18})\b")
            .expect("valid regex")
    })
}

fn timestamp() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(r"\b(\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(?:[,.]\d{1,6})?)")
            .expect("valid regex")
    })
}

/// Reads the context of `trace` from its messages and from the lines of `input` just above it.
///
/// `above_from` is the byte offset in `input` where the text above the trace may begin: the end
/// of the trace before it in the same text (0 for the first), so that a log line of one trace
/// never gives another its task or its time.
#[inline(never)]
pub fn read(input: &str, trace: &Trace, above_from: usize) -> Context {
    let chain = trace.cause_chain();
    let messages: Vec<String> = chain
        .iter()
        .filter_map(|&i| trace.throwables[i].message.as_deref())
        .map(|m| m.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    let checkpoint_id = messages
        .iter()
        // Each regex only where its words are: regex-lite scans every position of a long line.
        .find_map(|m| {
            let at = first_of(m, &["heckpoint", "napshot"])?.saturating_sub(1);
            checkpoint_id().captures_at(m, at)
        })
        .and_then(|c| c[1].parse().ok());
    let mut task = messages
        .iter()
        .find_map(|m| {
            let at = first_of(m, &["for operator", "for task", "of task"])?;
            task_in_message().captures_at(m, at)
        })
        .map(|c| task_from(&c));
    // The lines just above the trace (a log line that announces the failure, a date).
    let start = trace.span.start.min(input.len());
    let before = preceding_lines(input, start, 3, above_from);
    if task.is_none() {
        // A Flink task thread in a thread dump is named after its task.
        task = trace
            .thread
            .as_ref()
            .and_then(|th| task_in_thread_name().captures(&th.name))
            .map(|c| task_from(&c));
    }
    if task.is_none() {
        task = before
            .lines()
            .rev()
            .filter(|l| l.contains(" switched from"))
            .find_map(|l| task_in_log_line().captures(l))
            .map(|c| task_from(&c));
    }
    let time = before
        .lines()
        .rev()
        .find_map(|l| timestamp().captures_at(l, date_at(l)?))
        .map(|c| c[1].to_owned());
    Context {
        checkpoint_id,
        task,
        time,
    }
}

/// Byte offset of the first of `words` in `text`, `None` when none is there. Each regex here
/// starts with one of its words (or one letter before them), so a search from there finds what
/// a search from the start finds (`captures_at` keeps the text before for `\b`): regex-lite's
/// Pike VM otherwise steps through every position before it (a 1 MB log's 138 traces spent
/// 25.7 M instructions so).
fn first_of(text: &str, words: &[&str]) -> Option<usize> {
    words.iter().filter_map(|w| text.find(w)).min()
}

/// Byte offset of the first `dddd-dd-dd` in `line` (where a [`timestamp`] may start first).
fn date_at(line: &str) -> Option<usize> {
    line.as_bytes().windows(10).position(|w| {
        w.iter().enumerate().all(|(i, b)| match i {
            4 | 7 => *b == b'-',
            _ => b.is_ascii_digit(),
        })
    })
}

fn task_from(c: &regex::Captures<'_>) -> Task {
    // Read from the raw text above the trace: undo the escapes a JSON or HTML carrier left.
    let name = c[1]
        .trim()
        .replace("\\u003e", ">")
        .replace("&gt;", ">")
        .replace("\\u003c", "<")
        .replace("&lt;", "<");
    Task {
        operators: name.split(" -> ").map(|s| s.trim().to_owned()).collect(),
        name,
        subtask: c[2].parse().unwrap_or(0),
        parallelism: c[3].parse().unwrap_or(0),
        attempt: c.get(4).and_then(|a| a.as_str().parse().ok()),
    }
}

/// Bytes looked at, at most, on each side of a trace for the lines around it: a text of very
/// long lines (a JSON document on one line) must not make each trace read all of it.
const AROUND_BYTES: usize = 16 * 1024;

/// The text from the start of the `n`-th line above `offset` up to the end of `offset`'s line,
/// within [`AROUND_BYTES`] on each side and not before `floor` (a byte offset; one past
/// `offset` is read as 0).
fn preceding_lines(input: &str, offset: usize, n: usize, floor: usize) -> &str {
    let floor = if floor <= offset { floor } else { 0 };
    let lo =
        crate::span::floor_char_boundary(input, offset.saturating_sub(AROUND_BYTES).max(floor));
    let hi = crate::span::ceil_char_boundary(input, offset.saturating_add(AROUND_BYTES));
    let mut begin = input[lo..offset].rfind('\n').map_or(lo, |i| lo + i + 1);
    for _ in 0..n {
        if begin <= lo {
            break;
        }
        begin = input[lo..begin - 1].rfind('\n').map_or(lo, |i| lo + i + 1);
    }
    let end = input[offset..hi].find('\n').map_or(hi, |i| offset + i);
    &input[begin..end]
}

#[cfg(test)]
mod tests {
    #[test]
    fn date_at_finds_what_the_timestamp_regex_needs() {
        assert_eq!(super::date_at("2021-08-18 06:18:37,123 INFO"), Some(0));
        assert_eq!(super::date_at("x\"time\":\"2024-01-01T00:00:00Z"), Some(9));
        assert_eq!(super::date_at("1.13-2 06:18"), None);
        assert_eq!(super::date_at("2021-8-18"), None);
    }

    use super::*;

    #[test]
    fn searching_from_the_first_word_finds_what_searching_from_the_start_finds() {
        let messages = [
            "waited for task managers; Could not perform checkpoint 7 for operator Map (2/4)#1.",
            "xCheckpoint 12 and then checkpoint 13",
            // A two-byte letter before `heckpoint`: the search starts inside it.
            "Сheckpoint 3 (Cyrillic С), then checkpoint 4",
            "Snapshot 5 of task Sink: s (1/1) failed",
            "no words here 1/2",
            "for operator",
        ];
        for m in messages {
            let from = |re: &Regex, words: &[&str], back: usize| {
                first_of(m, words)
                    .and_then(|at| re.captures_at(m, at.saturating_sub(back)))
                    .map(|c| c[0].to_owned())
            };
            let whole = |re: &Regex| re.captures(m).map(|c| c[0].to_owned());
            let task_words = ["for operator", "for task", "of task"];
            assert_eq!(
                from(task_in_message(), &task_words, 0),
                whole(task_in_message()),
                "{m}"
            );
            let cp_words = ["heckpoint", "napshot"];
            assert_eq!(
                from(checkpoint_id(), &cp_words, 1),
                whole(checkpoint_id()),
                "{m}"
            );
        }
        assert_eq!(
            checkpoint_id()
                .captures_at("xCheckpoint 12 and then checkpoint 13", 1)
                .map(|c| c[1].to_owned()),
            Some("13".to_owned())
        );
    }

    #[test]
    fn reads_task_and_checkpoint_from_a_wrapped_message() {
        let input = "2021-08-18 06:18:37\njava.io.IOException: Could not perform checkpoint 575 for operator\nSource: a -> b (b)\n(18/60)#0.\n\tat x.Y.z(Y.java:1)\n";
        let parsed = crate::parse::parse(input);
        let ctx = read(input, &parsed.traces[0], 0);
        assert_eq!(ctx.checkpoint_id, Some(575));
        let task = ctx.task.unwrap();
        assert_eq!(task.operators, ["Source: a", "b (b)"]);
        assert_eq!(
            (task.subtask, task.parallelism, task.attempt),
            (18, 60, Some(0))
        );
        assert_eq!(ctx.time.as_deref(), Some("2021-08-18 06:18:37"));
    }

    #[test]
    fn the_lines_above_stop_at_the_trace_before() {
        // Two traces in one paste: the first on a dated log line, the second right under its
        // frames. The second's time and task are unknown, not the first one's.
        let input = "2021-08-18 06:18:37,100 WARN  org.apache.flink.runtime.taskmanager.Task [] - Map (1/2)#0 (0123456789abcdef0123456789abcdef) switched from RUNNING to FAILED.\n\
                     java.lang.IllegalStateException: one\n\tat a.B.c(B.java:1)\n\
                     java.lang.RuntimeException: two\n\tat d.E.f(E.java:2)\n";
        let parsed = crate::parse::parse(input);
        assert_eq!(parsed.traces.len(), 2);
        let first = read(input, &parsed.traces[0], 0);
        assert_eq!(first.time.as_deref(), Some("2021-08-18 06:18:37,100"));
        assert_eq!(first.task.map(|t| t.name).as_deref(), Some("Map"));
        let second = read(input, &parsed.traces[1], parsed.traces[0].span.end);
        assert_eq!(second, Context::default());
        // Read without the bound, the second trace took the first one's log line.
        assert!(read(input, &parsed.traces[1], 0).time.is_some());
    }

    #[test]
    fn nothing_known_gives_none() {
        let input = "java.lang.RuntimeException: boom\n\tat x.Y.z(Y.java:1)\n";
        let ctx = read(input, &crate::parse::parse(input).traces[0], 0);
        assert_eq!(ctx, Context::default());
    }

    #[test]
    fn reads_the_task_from_the_failure_log_line_of_any_version_and_carrier() {
        for (line, name, attempt) in [
            // Flink 1.15+: a long execution id with underscores; the trace starts on the next line.
            ("2025-07-14 12:00:32,174 WARN  org.apache.flink.runtime.taskmanager.Task [] - Map -> Sink: kafka-sink[4] (1/3)#140 (b4261ffe742ad92556738fcad2166ca0_cbc357ccb763df2852fee8c4fc7d55f2_0_140) switched from RUNNING to FAILED with failure cause:", "Map -> Sink: kafka-sink[4]", Some(140)),
            // Docker json-file: the raw line still has its JSON escapes.
            ("{\"log\":\"2022-12-01 14:20:22,595 INFO  x [] - Source: A -\\u003e Map (1/1) (63f5fb779bef06be84104994f2834919) switched from INITIALIZING to FAILED.\\n\"}", "Source: A -> Map", None),
            // A logstash/ECS line: the task is in the message field.
            ("{\"@timestamp\":\"x\",\"message\":\"Window(Tumbling(60000), T) (7/16) (0123456789abcdef0123456789abcdef) switched from RUNNING to FAILED\"}", "Window(Tumbling(60000), T)", None),
        ] {
            let input = format!("{line}\njava.lang.RuntimeException: x\n\tat a.B.c(B.java:1)\n");
            let parsed = crate::parse::parse(&input);
            let t = parsed.traces.iter().find(|t| t.throwables[0].class == "java.lang.RuntimeException").unwrap();
            let task = read(&input, t, 0).task.unwrap_or_else(|| panic!("no task from {line}"));
            assert_eq!((task.name.as_str(), task.attempt), (name, attempt), "{line}");
        }
    }
}
