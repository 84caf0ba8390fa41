//! Whether a trace's text stops before its root cause: what a committer says first when a
//! paste ends at a wrapper ("the real cause is not in this text, send the rest").
//!
//! Three signs, strongest first:
//! - the last printed throwable's message names an exception class that the text does not
//!   print (`new RuntimeException(cause)` takes `cause.toString()` as its message, and Java
//!   prints that cause below as `Caused by:`);
//! - the last printed throwable is one of Flink's wrappers that Flink only ever throws with a
//!   cause ([`WRAPPERS`], each message checked in the flink-dist jars of 1.13.6, 1.17.2, 1.20.3,
//!   2.0.1 and 2.3.0);
//! - the text ends in the middle of a frame line ([`Trace::cut_at`]): whatever followed is
//!   missing, which may or may not include further causes;
//! - the last `Caused by:` has no frames while the throwables above it have some: Java prints
//!   every cause's frames (or `... N more`), so either the text ends right after that line or
//!   the JVM threw it without a stack (HotSpot's `OmitStackTraceInFastThrow`).

use crate::model::Trace;
use crate::span::Span;
use serde::Serialize;

/// Flink's wrappers that are always constructed with the failure that caused them:
/// (class, start of the message). Each message is a string constant of flink-dist (and
/// flink-table / flink-sql-client for the SQL one) in 1.13.6, 1.17.2, 1.20.3, 2.0.1 and 2.3.0
/// (`/root/.cache/trace-doctor-lab/strings/<release>.tsv`, made by `scripts/jar-strings.py`);
/// the constructors pass the cause (`ExecutionFailureHandler`, `JobResult`,
/// `StreamTask.triggerCheckpointOnBarrier`, `StreamOperatorStateHandler.snapshotState`,
/// `SplitFetcherManager.checkErrors`, `SplitFetcher`, `ProgramInvocationException` from
/// `PackagedProgram.callMainMethod`, `StreamTaskStateInitializerImpl`,
/// `RocksDBOperationUtils.openDB`).
pub const WRAPPERS: &[(&str, &str)] = &[
    (
        "org.apache.flink.runtime.JobException",
        "Recovery is suppressed by ",
    ),
    (
        "org.apache.flink.runtime.client.JobExecutionException",
        "Job execution failed.",
    ),
    ("java.io.IOException", "Could not perform checkpoint "),
    (
        "org.apache.flink.runtime.checkpoint.CheckpointException",
        "Could not complete snapshot ",
    ),
    (
        "java.lang.RuntimeException",
        "One or more fetchers have encountered exception",
    ),
    ("java.lang.RuntimeException", "SplitFetcher thread "),
    (
        "org.apache.flink.client.program.ProgramInvocationException",
        "The main method caused an error",
    ),
    (
        "java.lang.Exception",
        "Exception while creating StreamOperatorStateContext.",
    ),
    (
        "java.io.IOException",
        "Error while opening RocksDB instance.",
    ),
    (
        "org.apache.flink.streaming.runtime.tasks.AsynchronousException",
        "Caught exception while processing timer.",
    ),
    (
        "org.apache.flink.util.FlinkException",
        "Global failure triggered by OperatorCoordinator for",
    ),
];

/// Why a trace is taken to stop before its root cause.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum CutKind {
    /// The last printed throwable's message starts with this exception class, which the text
    /// does not print as a throwable.
    CauseNamed {
        /// Fully qualified class name, as the message writes it.
        class: String,
    },
    /// The last printed throwable is a Flink wrapper always thrown with a cause
    /// ([`WRAPPERS`]).
    Wrapper,
    /// The text ends in the middle of a frame line.
    MidFrame,
    /// The last printed throwable is a `Caused by:` without any frame, under throwables with
    /// frames: the text may end right after its line, or the JVM omitted its stack.
    FramelessCause,
}

/// A trace whose text stops before its root cause.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Cut {
    /// Why.
    #[serde(flatten)]
    pub kind: CutKind,
    /// Index into `trace.throwables` of the last printed throwable of the cause chain (what
    /// would otherwise be called the root cause).
    pub last_printed: usize,
    /// Byte span of the cut frame line ([`CutKind::MidFrame`]), else of the last printed
    /// throwable's header.
    pub span: Span,
}

impl Cut {
    /// True when the text certainly stops before the root cause (not only mid-frame).
    pub fn certain(&self) -> bool {
        !matches!(self.kind, CutKind::MidFrame | CutKind::FramelessCause)
    }
}

impl Cut {
    /// The names [`Cut::sentence`] quotes: the last printed throwable's simple class name, and
    /// the start of its message (60 chars, spaces collapsed, `…` when cut) for a
    /// [`CutKind::Wrapper`]. For the sentence in another language.
    pub fn names(&self, trace: &Trace) -> (String, String) {
        let last = trace.throwables.get(self.last_printed);
        let simple = last
            .map(|t| t.class.rsplit('.').next().unwrap_or(&t.class))
            .unwrap_or("");
        // Spaces collapsed: a code span holds no line break.
        let message = last
            .and_then(|t| t.message.as_deref())
            .unwrap_or("")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        // The first 60 characters, back to the last word's end when that keeps most of them.
        let mut start: String = message.chars().take(60).collect();
        if start.len() < message.len() {
            if let Some(i) = start.rfind(' ').filter(|&i| i >= 30) {
                start.truncate(i);
            }
            start.push('…');
        }
        (simple.to_owned(), start)
    }

    /// What the person is told, first: one Markdown paragraph with code spans. `trace` is the
    /// trace the cut was detected on.
    pub fn sentence(&self, trace: &Trace) -> String {
        const REST: &str = "Paste the rest of the trace, down to its last `Caused by:` (the \
            JobManager or TaskManager log holds it whole).";
        let (simple, start) = self.names(trace);
        match &self.kind {
            CutKind::CauseNamed { class } => format!(
                "**This text stops before the root cause.** The last exception printed, \
                 `{simple}`, was thrown because of `{class}` (its message names it), but the \
                 `Caused by: {class}` part is not in the text. {REST}"
            ),
            CutKind::Wrapper => format!(
                "**This text stops before the root cause.** Flink throws \
                 `{simple}: {start}` only together with the failure that caused it, \
                 printed below it as `Caused by:`, and that part is not in the text. {REST}"
            ),
            CutKind::MidFrame => "**The text ends in the middle of a frame line.** Whatever \
                was printed after it is missing: if more `Caused by:` lines followed, the real \
                cause is among them. If the trace went on, paste the rest."
                .to_owned(),
            CutKind::FramelessCause => format!(
                "**The last `Caused by:` has no frames.** Java prints every cause with its \
                 frames, so either the text ends right after `{simple}` (paste what followed \
                 it), or the JVM threw it without a stack trace: after many identical \
                 `NullPointerException`s, `ClassCastException`s or \
                 `ArrayIndexOutOfBoundsException`s, HotSpot's JIT throws them without frames \
                 (`OmitStackTraceInFastThrow`). An earlier occurrence in the log has the frames; \
                 or start the TaskManagers with `-XX:-OmitStackTraceInFastThrow` \
                 (`env.java.opts.taskmanager`)."
            ),
        }
    }
}

/// How `trace`'s text stops before its root cause, if it does. `root` is the index of the
/// last throwable of the cause chain ([`Trace::root_cause`]).
pub fn detect(trace: &Trace, root: usize) -> Option<Cut> {
    let last = trace.throwables.get(root)?;
    if trace.thread.is_some() || last.class.is_empty() {
        return None;
    }
    let message = last.message.as_deref().unwrap_or("");
    let header = |kind| {
        Some(Cut {
            kind,
            last_printed: root,
            span: last.header_span,
        })
    };
    if let Some(class) = named_exception(message).filter(|c| {
        !trace
            .throwables
            .iter()
            .any(|t| t.class == *c || t.printed_as.as_deref() == Some(c))
    }) {
        if !names_a_class_by_design(&last.class) {
            return header(CutKind::CauseNamed {
                class: class.to_owned(),
            });
        }
    }
    if WRAPPERS
        .iter()
        .any(|(class, start)| last.class == *class && message.starts_with(start))
    {
        return header(CutKind::Wrapper);
    }
    if let Some(span) = trace.cut_at {
        return Some(Cut {
            kind: CutKind::MidFrame,
            last_printed: root,
            span,
        });
    }
    let is_cause = matches!(last.relation, crate::model::Relation::CauseOf(_));
    if is_cause && last.frames.is_empty() && trace.throwables.iter().any(|t| !t.frames.is_empty()) {
        return header(CutKind::FramelessCause);
    }
    None
}

/// Throwables whose message is a class name by design (the class that could not be loaded,
/// linked or initialised), not the `toString()` of a cause.
fn names_a_class_by_design(class: &str) -> bool {
    let simple = class.rsplit('.').next().unwrap_or(class);
    matches!(
        simple,
        "ClassNotFoundException"
            | "NoClassDefFoundError"
            | "NoSuchMethodError"
            | "NoSuchFieldError"
            | "IncompatibleClassChangeError"
            | "LinkageError"
            | "TypeNotPresentException"
            | "SerializedThrowable"
    )
}

/// The exception class a message starts with (`java.io.IOException: x` → `java.io.IOException`),
/// when the message is the `toString()` of a throwable: a qualified name whose last segment
/// ends in `Exception`, `Error` or `Throwable`, followed by `:` or the end of the message.
fn named_exception(message: &str) -> Option<&str> {
    let end = message
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '_' || c == '$'))
        .unwrap_or(message.len());
    let name = &message[..end];
    let rest = &message[end..];
    if !(rest.is_empty() || rest.starts_with(':')) {
        return None;
    }
    let (package, simple) = name.rsplit_once('.')?;
    let qualified = package
        .split('.')
        .all(|p| p.starts_with(|c: char| c.is_ascii_lowercase()));
    let throwable = ["Exception", "Error", "Throwable"]
        .iter()
        .any(|s| simple.ends_with(s))
        && simple.starts_with(|c: char| c.is_ascii_uppercase());
    (qualified && throwable).then_some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cut(text: &str) -> Option<Cut> {
        let t = crate::parse::parse(text).traces.into_iter().next()?;
        let root = t.root_cause();
        detect(&t, root)
    }

    #[test]
    fn a_message_that_names_a_cause_the_text_lacks_is_cut() {
        let c = cut(
            "java.lang.RuntimeException: java.io.IOException: disk full\n\tat a.B.c(B.java:1)\n",
        )
        .expect("cut");
        assert_eq!(
            c.kind,
            CutKind::CauseNamed {
                class: "java.io.IOException".into()
            }
        );
        assert!(c.certain());
    }

    #[test]
    fn a_named_cause_printed_below_is_not_a_cut() {
        let text = "java.lang.RuntimeException: java.io.IOException: disk full\n\tat a.B.c(B.java:1)\nCaused by: java.io.IOException: disk full\n\tat a.B.d(B.java:2)\n\t... 1 more\n";
        assert_eq!(cut(text), None);
    }

    #[test]
    fn a_flink_wrapper_without_its_cause_is_cut() {
        let text = "org.apache.flink.runtime.JobException: Recovery is suppressed by NoRestartBackoffTimeStrategy\n\tat org.apache.flink.runtime.executiongraph.failover.flip1.ExecutionFailureHandler.handleFailure(ExecutionFailureHandler.java:138)\n";
        assert_eq!(cut(text).map(|c| c.kind), Some(CutKind::Wrapper));
    }

    #[test]
    fn a_root_cause_with_its_frames_is_not_cut() {
        let text = "java.util.ConcurrentModificationException\n\tat java.util.HashMap$HashIterator.nextNode(HashMap.java:1445)\n";
        assert_eq!(cut(text), None);
        // A class name as the message by design.
        let text = "java.lang.ClassNotFoundException: org.apache.flink.FooException\n\tat java.net.URLClassLoader.findClass(URLClassLoader.java:382)\n";
        assert_eq!(cut(text), None);
        // Prose after a class-like word is not a cause's toString().
        let text = "java.lang.IllegalStateException: java.lang.Exception is not allowed here\n\tat a.B.c(B.java:1)\n";
        assert_eq!(cut(text), None);
    }

    #[test]
    fn a_text_ending_mid_frame_may_be_cut() {
        let text = "java.lang.IllegalStateException: boom\n\tat a.B.c(B.java:1)\n\tat com.esotericsoftware.kryo";
        let c = cut(text).expect("cut");
        assert_eq!(c.kind, CutKind::MidFrame);
        assert!(!c.certain());
    }

    #[test]
    fn a_last_cause_without_frames_may_be_cut_or_fast_thrown() {
        let text = "java.lang.RuntimeException: boom\n\tat a.B.c(B.java:1)\nCaused by: java.lang.NullPointerException\n";
        let c = cut(text).expect("cut");
        assert_eq!(c.kind, CutKind::FramelessCause);
        assert!(!c.certain());
        // With its frames, or a one-line paste with no frames at all: no such note.
        let whole = "java.lang.RuntimeException: boom\n\tat a.B.c(B.java:1)\nCaused by: java.lang.NullPointerException\n\tat a.B.d(B.java:2)\n\t... 1 more\n";
        assert_eq!(cut(whole), None);
        assert_eq!(cut("Caused by: java.lang.NullPointerException\n"), None);
    }

    #[test]
    fn names_of_exceptions_are_read_from_the_start_of_a_message() {
        assert_eq!(
            named_exception("java.io.IOException: x"),
            Some("java.io.IOException")
        );
        assert_eq!(
            named_exception("org.apache.kafka.common.errors.TimeoutException"),
            Some("org.apache.kafka.common.errors.TimeoutException")
        );
        assert_eq!(named_exception("IOException: x"), None);
        assert_eq!(named_exception("java.io.File: x"), None);
        assert_eq!(named_exception("Could not perform checkpoint 3"), None);
    }
}
