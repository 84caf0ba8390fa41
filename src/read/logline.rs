//! Log lines of a text that holds no exception at all: the one line that tells most.
//!
//! People often paste only what their log said at `WARN` or `ERROR` (`grep WARN taskexecutor.log`,
//! a console excerpt that ends before the stack trace). No throwable is printed, yet the line
//! names the logger — usually the class that logged, so the component — and a message a
//! committer reads first. This module picks that line: the first `ERROR` (or `FATAL`) whose
//! message says something (four words or more; what follows the first error is often its
//! consequence or the shutdown); when the errors say nothing (`Uncaught exception`), the last
//! warning before the first of them; else the first warning that says something.

use crate::model::{Logged, Relation, Trace};
use crate::span::Span;
use regex::Regex;
use std::sync::OnceLock;

/// Lines read at most.
const MAX_LINES_SCANNED: usize = 5_000;
/// Fewest words of a message that says something on its own.
const INFORMATIVE_WORDS: usize = 4;

/// A log line at `ERROR`, `FATAL`, `WARN` or `WARNING`: the level, the logger (a qualified name
/// of three parts or more, maybe followed by `[]` or a thread in brackets), then ` - ` or `: `
/// and the message. Log4j's and Logback's default layouts, Flink's `log4j` pattern among them.
fn pattern() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        Regex::new(
            r"(?:^|[\s\]|])(ERROR|FATAL|WARN|WARNING)\s+(?:\[[^\]]*\]\s+)?((?:[A-Za-z_$][\w$]*\.){2,}[A-Za-z_$][\w$]*)\s*(?:\[[^\]]*\]\s*)?(?:-|:)\s+(\S.*)$",
        )
        .expect("the log line pattern compiles")
    })
}

/// The log line of `input` that tells most, as a trace of one class-less throwable whose
/// message is the line's message and whose [`crate::model::Throwable::logged`] holds the level
/// and logger; `None` when no line is an `ERROR`/`WARN` log line. The throwable's header span is
/// the message's (byte offsets into `input`).
#[inline(never)]
pub fn telling_line(input: &str) -> Option<Trace> {
    let re = pattern();
    // Every log line at ERROR/FATAL/WARN: (is an error, says something, logged, message span).
    let mut lines: Vec<(bool, bool, Logged, Span)> = Vec::new();
    let mut at = 0;
    for line in input.split_inclusive('\n').take(MAX_LINES_SCANNED) {
        let start = at;
        at += line.len();
        let body = line.trim_end_matches(['\n', '\r']);
        let Some(c) = re.captures(body) else {
            continue;
        };
        let (Some(level), Some(logger), Some(message)) = (c.get(1), c.get(2), c.get(3)) else {
            continue;
        };
        // A logger names a class (its last part capitalised), not a host (`db.prod.internal:`).
        if !logger
            .as_str()
            .rsplit('.')
            .next()
            .is_some_and(|last| last.starts_with(|ch: char| ch.is_ascii_uppercase()))
        {
            continue;
        }
        let text = message.as_str().trim_end();
        let error = matches!(level.as_str(), "ERROR" | "FATAL");
        let informative = text.split_whitespace().count() >= INFORMATIVE_WORDS;
        let span = Span::new(
            start + message.start(),
            start + message.start() + text.len(),
        );
        let logged = Logged {
            level: level.as_str().to_owned(),
            logger: logger.as_str().to_owned(),
        };
        lines.push((error, informative, logged, span));
    }
    let first_error = lines.iter().position(|l| l.0);
    let pick = lines
        .iter()
        .position(|l| l.0 && l.1)
        .or_else(|| first_error.and_then(|e| lines[..e].iter().rposition(|l| !l.0 && l.1)))
        .or_else(|| lines.iter().position(|l| l.1))
        .or(first_error)
        .or((!lines.is_empty()).then_some(0))?;
    let (_, _, logged, span) = lines.swap_remove(pick);
    let mut throwable = crate::parse::empty_throwable(span, Relation::Top);
    throwable.message = Some(input[span.start..span.end].to_owned());
    throwable.class_span = Span::new(span.start, span.start);
    throwable.logged = Some(logged);
    Some(Trace {
        throwables: vec![throwable],
        span,
        container: crate::decode::Container::Plain,
        thread: None,
        flink_context: false,
        cut_at: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn logged(input: &str) -> Option<(String, String, String)> {
        let t = telling_line(input)?;
        let th = &t.throwables[0];
        let l = th.logged.clone()?;
        Some((l.level, l.logger, th.message.clone().unwrap_or_default()))
    }

    #[test]
    fn reads_level_logger_and_message_of_common_layouts() {
        let flink = "2018-11-09 07:46:11,579 WARN  org.apache.flink.streaming.connectors.kinesis.proxy.KinesisProxy  - Got recoverable SdkClientException. Backing off\n";
        assert_eq!(
            logged(flink),
            Some((
                "WARN".into(),
                "org.apache.flink.streaming.connectors.kinesis.proxy.KinesisProxy".into(),
                "Got recoverable SdkClientException. Backing off".into()
            ))
        );
        let with_marker = " ERROR io.debezium.connector.mysql.MySqlStreamingChangeEventSource  [] - Encountered change event for table test.src whose schema isn't known\n";
        assert_eq!(
            logged(with_marker).map(|l| l.1),
            Some("io.debezium.connector.mysql.MySqlStreamingChangeEventSource".into())
        );
        let thread_first = "2026-05-20 06:15:47,709 [SourceCoordinator-Source: x[1]] WARN  org.apache.kafka.clients.ClientUtils - Couldn't resolve server broker:9092 from bootstrap.servers\n";
        assert_eq!(
            logged(thread_first).map(|l| l.1),
            Some("org.apache.kafka.clients.ClientUtils".into())
        );
    }

    #[test]
    fn prefers_the_first_error_that_says_something_else_the_warning_before_it() {
        let text = "\
10:00:01 WARN  org.apache.flink.runtime.webmonitor.WebMonitorUtils - Log file environment variable 'log.file' is not set.
10:00:02 WARN  org.apache.kafka.clients.ClientUtils - Couldn't resolve server broker:9092 from bootstrap.servers
10:00:02 ERROR org.apache.flink.runtime.source.coordinator.SourceCoordinator - Uncaught exception
";
        assert_eq!(
            logged(text).map(|l| l.1),
            Some("org.apache.kafka.clients.ClientUtils".into()),
            "an ERROR that says nothing yields to the warning before it"
        );
        let text = "\
10:00:01 ERROR com.acme.Job - The sink failed to write its batch to the database
10:00:02 WARN  com.acme.Other - Something later happened that is less severe here
10:00:03 ERROR com.acme.Shutdown - Failed to clean up the blob store directory on shutdown.
";
        assert_eq!(
            logged(text).map(|l| l.1),
            Some("com.acme.Job".into()),
            "the first error that says something, not what followed it"
        );
        assert!(
            telling_line(
                "10:00:01 ERROR db.prod.internal: connection refused by the remote host\n"
            )
            .is_none(),
            "a host name is not a logger"
        );
    }

    #[test]
    fn ignores_other_lines() {
        assert!(
            telling_line("INFO org.apache.flink.runtime.Foo - started fine and well\n").is_none()
        );
        assert!(telling_line("a WARN in prose: nothing more\n").is_none());
        assert!(telling_line("").is_none());
    }
}
