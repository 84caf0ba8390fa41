//! The whole pipeline on one input: parse, merge identical traces, read context and version,
//! apply the rules.

use crate::context::{self, Context};
use crate::matcher::{self, Finding};
use crate::model::Trace;
use crate::parse::{self, Problem};
use crate::rules;
use crate::version::{self, FlinkVersion};
use serde::Serialize;

/// One distinct trace with everything found about it.
#[derive(Clone, Debug, Serialize)]
pub struct TraceDiagnosis {
    /// The parsed trace (spans point at its first occurrence).
    pub trace: Trace,
    /// How many times this same trace appears in the input (1 or more).
    pub occurrences: usize,
    /// Index of the root cause in `trace.throwables`.
    pub root_cause: usize,
    /// Facts read from the text.
    pub context: Context,
    /// The Flink version the text reveals.
    pub flink_version: FlinkVersion,
    /// Rules that fired, most specific first.
    pub findings: Vec<Finding>,
    /// True when the trace shows Flink frames or classes (`org.apache.flink.`).
    pub flink: bool,
}

/// Everything found in one input.
#[derive(Clone, Debug, Serialize)]
pub struct Diagnosis {
    /// Distinct traces in input order.
    pub traces: Vec<TraceDiagnosis>,
    /// What the parser could not read.
    pub problems: Vec<Problem>,
}

/// Parses `input` and diagnoses each distinct trace. Never fails.
pub fn diagnose(input: &str) -> Diagnosis {
    let parsed = parse::parse(input);
    let rules = rules::catalogue();
    let mut traces: Vec<TraceDiagnosis> = Vec::new();
    for trace in parsed.traces {
        if let Some(same) = traces.iter_mut().find(|d| same_trace(&d.trace, &trace)) {
            same.occurrences += 1;
            continue;
        }
        let context = context::read(input, &trace);
        let flink_version = version::infer(&trace, context.time.as_deref());
        let findings = matcher::diagnose(&trace, rules);
        traces.push(TraceDiagnosis {
            flink: matcher::is_flink(&trace),
            root_cause: trace.root_cause(),
            trace,
            occurrences: 1,
            context,
            flink_version,
            findings,
        });
    }
    Diagnosis {
        traces,
        problems: parsed.problems,
    }
}

/// Same throwables, messages (ignoring how they were wrapped) and frames.
fn same_trace(a: &Trace, b: &Trace) -> bool {
    a.throwables.len() == b.throwables.len()
        && a.throwables.iter().zip(&b.throwables).all(|(x, y)| {
            x.class == y.class
                && x.relation == y.relation
                && same_words(x.message.as_deref(), y.message.as_deref())
                && x.frames.len() == y.frames.len()
                && x.frames.iter().zip(&y.frames).all(|(f, g)| {
                    f.class == g.class && f.method == g.method && f.location == g.location
                })
        })
}

fn same_words(a: Option<&str>, b: Option<&str>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => a.split_whitespace().eq(b.split_whitespace()),
        (None, None) => true,
        _ => false,
    }
}
