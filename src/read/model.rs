//! The parsed shape of a JVM stack trace: traces, throwables, frames.
//!
//! Java prints a throwable as a header (`class: message`), its frames (`at …`), an optional
//! `... N more`, then its `Suppressed:` throwables (indented) and its `Caused by:` throwable.
//! Names follow `java.lang.Throwable.printStackTrace`. Text fields are normalised (wraps joined,
//! escapes undone); the matching [`Span`]s point into the original input.

use crate::decode::Container;
use crate::span::Span;
use serde::Serialize;

/// How a frame's source location was printed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Location {
    /// `File.java:123` (line is 1-based) or `File.java` without a line.
    Source {
        /// File name as printed, e.g. `StreamTask.java`.
        file: String,
        /// 1-based line number, when printed.
        line: Option<u32>,
    },
    /// `Native Method`.
    Native,
    /// `Unknown Source` (no debug information).
    Unknown,
}

/// One `at pkg.Class.method(File.java:N)` line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Frame {
    /// Fully qualified class, with `$` for inner and lambda classes
    /// (e.g. `java.util.HashMap$HashIterator`). Module and class-loader prefixes are removed.
    pub class: String,
    /// Method name as printed (`<init>`, `<clinit>`, `lambda$performCheckpoint$8`).
    pub method: String,
    /// Where the frame points in source.
    pub location: Location,
    /// Java 9+ module prefix such as `java.base@11.0.9`, when printed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub module: Option<String>,
    /// log4j2 extended info such as `flink-dist_2.11-1.13.2.jar:1.13.2`, when printed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub jar: Option<String>,
    /// The original text of the frame line(s), from `at` to the end of the frame.
    pub span: Span,
    /// `Some(i)` when this frame was not printed here but restored from `... N more`:
    /// it is frame `i` of the enclosing throwable (Java's rule: the last N frames are shared).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expanded_from: Option<usize>,
}

impl Frame {
    /// `class.method`, the string frame patterns match against.
    pub fn qualified_method(&self) -> String {
        // Not `format!`: a 1 MB log asks this of 26,000 frames, and the formatting machinery
        // cost ten times the copy (callgrind: 25.6 M of its 408 M instructions).
        let mut s = String::with_capacity(self.class.len() + 1 + self.method.len());
        s.push_str(&self.class);
        s.push('.');
        s.push_str(&self.method);
        s
    }

    /// The class name without its package (`HashMap$HashIterator`).
    pub fn simple_class(&self) -> &str {
        self.class.rsplit('.').next().unwrap_or(&self.class)
    }

    /// File name, when printed.
    pub fn file(&self) -> Option<&str> {
        match &self.location {
            Location::Source { file, .. } => Some(file),
            _ => None,
        }
    }

    /// The location as Java prints it: `Task.java:566`, `Task.java`, `Native Method` or
    /// `Unknown Source`.
    pub fn location_text(&self) -> String {
        match &self.location {
            Location::Source {
                file,
                line: Some(line),
            } => format!("{file}:{line}"),
            Location::Source { file, line: None } => file.clone(),
            Location::Native => "Native Method".to_owned(),
            Location::Unknown => "Unknown Source".to_owned(),
        }
    }

    /// 1-based line number, when printed.
    pub fn line(&self) -> Option<u32> {
        match &self.location {
            Location::Source { line, .. } => *line,
            _ => None,
        }
    }
}

/// How a throwable hangs off another one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Relation {
    /// The first throwable of a trace.
    Top,
    /// `Caused by:` of the throwable at the index.
    CauseOf(usize),
    /// `Suppressed:` in the throwable at the index.
    SuppressedBy(usize),
}

/// One throwable: header, frames, and its place in the trace.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Throwable {
    /// Fully qualified class (`java.util.ConcurrentModificationException`); empty when the
    /// frames had no readable header.
    pub class: String,
    /// The class printed in the header when it differs from `class`: a Flink
    /// `org.apache.flink.util.SerializedThrowable` whose message names the original class.
    pub printed_as: Option<String>,
    /// The message, with hard-wrapped lines joined by `\n` as they appeared; `None` when the
    /// header had no `: message`.
    pub message: Option<String>,
    /// The header line(s): from the class name to the end of the message.
    pub header_span: Span,
    /// The class name in the header.
    pub class_span: Span,
    /// Printed frames followed by frames restored from `... N more` (marked `expanded_from`).
    pub frames: Vec<Frame>,
    /// How many frames `... N more` said were omitted, and where it was printed.
    pub omitted: Option<(usize, Span)>,
    /// Where this throwable hangs.
    pub relation: Relation,
    /// Index of the `Caused by:` throwable, if any.
    pub cause: Option<usize>,
    /// Indices of `Suppressed:` throwables, in print order.
    pub suppressed: Vec<usize>,
    /// For a log line read when the text holds no exception at all: its level and logger
    /// (the message is [`Throwable::message`], the class is empty).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub logged: Option<Logged>,
}

/// A log line printed without an exception (`… WARN  org.apache.flink…KinesisProxy  - Got
/// recoverable SdkClientException …`): what a text without any exception still tells.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Logged {
    /// The level as printed: `ERROR`, `FATAL`, `WARN` or `WARNING`.
    pub level: String,
    /// The logger, usually the class that logged (`io.debezium.connector.mysql.MySqlStreamingChangeEventSource`).
    pub logger: String,
}

impl Throwable {
    /// The class name without its package.
    pub fn simple_class(&self) -> &str {
        self.class.rsplit('.').next().unwrap_or(&self.class)
    }

    /// What to call the throwable in a list: its class, or for one printed without a class,
    /// what stands in its place (`WARN log line`, `message`).
    pub fn label(&self, simple: bool) -> String {
        match (&self.logged, self.class.is_empty()) {
            (_, false) if simple => self.simple_class().to_owned(),
            (_, false) => self.class.clone(),
            (Some(l), true) => format!("{} log line", l.level),
            (None, true) if self.message.is_some() => "message".to_owned(),
            (None, true) => "frames".to_owned(),
        }
    }

    /// Frames as printed (without those restored from `... N more`).
    pub fn printed_frames(&self) -> impl Iterator<Item = &Frame> {
        self.frames.iter().filter(|f| f.expanded_from.is_none())
    }
}

/// A thread of a jstack thread dump (`"name" #12 prio=5 … ` and `java.lang.Thread.State: …`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ThreadInfo {
    /// The thread name, as printed between quotes (a Flink task thread is named after its task:
    /// `Map -> Sink: Print (1/1)#0`).
    pub name: String,
    /// `BLOCKED (on object monitor)`, `WAITING (parking)`, … when printed.
    pub state: Option<String>,
    /// The thread header line.
    pub header_span: Span,
}

/// One stack trace: a top-level throwable with its causes and suppressed throwables.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Trace {
    /// All throwables; index 0 is the top-level one, then in print order.
    pub throwables: Vec<Throwable>,
    /// From the header of the first throwable to the end of the last line of the trace.
    pub span: Span,
    /// The document the trace was read from.
    pub container: Container,
    /// For a thread of a thread dump: the thread (its frames are in `throwables[0]`, which has
    /// no class).
    pub thread: Option<ThreadInfo>,
    /// The text around the trace shows it comes from Flink even though the trace names no
    /// Flink class: the SQL Client's `[ERROR] Could not execute SQL statement. Reason:` line
    /// above exception lines printed without frames.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub flink_context: bool,
    /// The text ends in the middle of this trace's last frame (`at com.esotericsoftware.kryo`,
    /// no location): that frame line, left out of the frames because its class and method
    /// cannot be read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cut_at: Option<Span>,
}

impl Trace {
    /// Indices of the cause chain: the top-level throwable, then each `Caused by:` in turn.
    pub fn cause_chain(&self) -> Vec<usize> {
        let mut chain = Vec::new();
        let mut seen = vec![false; self.throwables.len()];
        let mut next = Some(0);
        while let Some(i) = next {
            if i >= self.throwables.len() || seen[i] {
                break;
            }
            seen[i] = true;
            chain.push(i);
            next = self.throwables[i].cause;
        }
        chain
    }

    /// Indices of all throwables in the order rules search them and the page shows them: the
    /// cause chain from the root cause up, then the others (suppressed and their causes) in
    /// print order.
    pub fn search_order(&self) -> Vec<usize> {
        let mut order: Vec<usize> = self.cause_chain().into_iter().rev().collect();
        let mut listed = vec![false; self.throwables.len()];
        for &i in &order {
            listed[i] = true;
        }
        order.extend((0..self.throwables.len()).filter(|&i| !listed[i]));
        order
    }

    /// Index of the root cause: the last throwable of the cause chain.
    pub fn root_cause(&self) -> usize {
        self.cause_chain().last().copied().unwrap_or(0)
    }
}
