//! What every parsing target checks: a span slices the input on char boundaries.

use trace_doctor::model::Trace;
use trace_doctor::parse::Parsed;
use trace_doctor::span::Span;

/// Panics, naming `what`, when `span` does not slice `input`.
pub fn check(input: &str, span: Span, what: &str) {
    assert!(
        input.get(span.range()).is_some(),
        "{what} span {span:?} does not slice the input ({} bytes)",
        input.len()
    );
}

/// Every span of a parsed trace: the trace, its thread header, each throwable's header, class,
/// `... N more` and frames.
pub fn check_trace(input: &str, t: &Trace) {
    check(input, t.span, "trace");
    if let Some(thread) = &t.thread {
        check(input, thread.header_span, "thread header");
    }
    for th in &t.throwables {
        check(input, th.header_span, "throwable header");
        check(input, th.class_span, "throwable class");
        if let Some((_, s)) = th.omitted {
            check(input, s, "... N more");
        }
        for f in &th.frames {
            check(input, f.span, "frame");
        }
    }
}

/// Every span of a parse: its traces, problems and deadlocks.
pub fn check_parsed(input: &str, parsed: &Parsed) {
    for t in &parsed.traces {
        check_trace(input, t);
    }
    for p in &parsed.problems {
        check(input, p.span, "problem");
    }
    for &s in &parsed.deadlocks {
        check(input, s, "deadlock");
    }
}
