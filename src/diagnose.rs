//! The whole pipeline on one input: parse, merge identical traces, read context and version,
//! apply the rules.

use crate::answer::{self, NoRuleAnswer};
use crate::context::{self, Context};
use crate::evidence::{self, Evidence};
use crate::matcher::{self, Finding};
use crate::model::Trace;
use crate::parse::{self, Problem};
use crate::rules;
use crate::version::{self, FlinkVersion};
use serde::Serialize;
use std::collections::hash_map::DefaultHasher;
use std::collections::HashMap;
use std::hash::{Hash, Hasher};

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
    /// True when the trace shows Flink: any [`TraceDiagnosis::evidence`].
    pub flink: bool,
    /// What shows the trace is Flink's, from the trace and the log lines around it.
    pub evidence: Vec<Evidence>,
    /// When no rule fired: the no-rule answer (which component threw, in which phase).
    pub answer: Option<NoRuleAnswer>,
    /// When the text stops before the root cause: how it shows (said first, before any
    /// finding).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cut: Option<crate::cut::Cut>,
}

/// Everything found in one input.
#[derive(Clone, Debug, Serialize)]
pub struct Diagnosis {
    /// Distinct traces in input order.
    pub traces: Vec<TraceDiagnosis>,
    /// What the parser could not read.
    pub problems: Vec<Problem>,
    /// jstack deadlock reports found in the input.
    pub deadlocks: Vec<crate::span::Span>,
}

impl Diagnosis {
    /// The rule ids of the findings, every trace's in input order, each once: the rules whose
    /// prose the page shows for this text.
    pub fn finding_rules(&self) -> Vec<&str> {
        let mut out: Vec<&str> = Vec::new();
        for f in self.traces.iter().flat_map(|t| &t.findings) {
            if !out.contains(&f.rule.as_str()) {
                out.push(&f.rule);
            }
        }
        out
    }

    /// Indices into [`Diagnosis::traces`] in the order the page shows them and replies and the
    /// corpus evaluation take them: traces with a diagnosis first (an `error` finding before a
    /// `warning` or `info` one: a TaskManager lost before a checkpoint aborted because its tasks
    /// were not running), then traces with frames
    /// before exception lines read without any, then (in a thread dump) blocked threads and
    /// Flink task threads, then the most frequent, then input order.
    pub fn order_of_interest(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.traces.len()).collect();
        order.sort_by_key(|&i| {
            let d = &self.traces[i];
            (
                d.findings.is_empty(),
                severity_rank(d),
                d.trace.thread.is_none() && d.trace.throwables.iter().all(|t| t.frames.is_empty()),
                thread_rank(d),
                std::cmp::Reverse(d.occurrences),
                i,
            )
        });
        order
    }
}

/// The most severe of a trace's findings: 0 for `error`, 1 for `warning`, 2 otherwise (or
/// none).
fn severity_rank(d: &TraceDiagnosis) -> u8 {
    d.findings
        .iter()
        .filter_map(|f| rules::by_id(&f.rule))
        .map(|r| match r.def.severity.as_str() {
            "error" => 0,
            "warning" => 1,
            _ => 2,
        })
        .min()
        .unwrap_or(2)
}

/// Threads of a dump by interest: blocked first, then Flink task threads, then others with
/// frames, then those without.
fn thread_rank(d: &TraceDiagnosis) -> u8 {
    let Some(th) = &d.trace.thread else {
        return 0;
    };
    if th
        .state
        .as_deref()
        .is_some_and(|s| s.starts_with("BLOCKED"))
    {
        0
    } else if d.context.task.is_some() {
        1
    } else if d.trace.throwables[0].frames.is_empty() {
        3
    } else {
        2
    }
}

/// Where a diagnosis stands, for progress reports on long inputs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// The parser is reading the text (no finer progress is known).
    Reading,
    /// `done` of `total` traces are matched against the rules.
    Matching {
        /// Traces handled so far.
        done: usize,
        /// Traces the parser found (before identical ones are merged).
        total: usize,
    },
    /// Building what is shown (called by the page after this module is done).
    Building,
}

/// Parses `input` and diagnoses each distinct trace. Never fails.
pub fn diagnose(input: &str) -> Diagnosis {
    diagnose_with_progress(input, &mut |_| {})
}

/// For each trace, in order, the byte offset where the text above it begins: the largest end
/// of another trace's span at or before its start (0 when none). The lines above a trace are
/// read from there, so that one trace's log line or frames are never another's context.
fn above_floors(traces: &[Trace]) -> Vec<usize> {
    let mut ends: Vec<usize> = traces.iter().map(|t| t.span.end).collect();
    ends.sort_unstable();
    traces
        .iter()
        .map(|t| {
            let n = ends.partition_point(|&e| e <= t.span.start);
            n.checked_sub(1).map_or(0, |i| ends[i])
        })
        .collect()
}

/// [`diagnose`], calling `progress` before the parser runs, before each trace is matched
/// (`done` counts the traces handled), and once all are.
#[inline(never)]
pub fn diagnose_with_progress(input: &str, progress: &mut dyn FnMut(Stage)) -> Diagnosis {
    progress(Stage::Reading);
    let mut parsed = parse::parse(input);
    if parsed.traces.is_empty() {
        parsed.traces = message_lines(input, rules::catalogue());
    }
    if parsed.traces.is_empty() {
        // No exception at all: the warning or error the log shows still names a component.
        parsed.traces.extend(crate::logline::telling_line(input));
    }
    let total = parsed.traces.len();
    let floors = above_floors(&parsed.traces);
    let mut traces: Vec<TraceDiagnosis> = Vec::new();
    // Computed once, for the first trace that shows nothing of Flink.
    let mut other_software: Option<Option<&'static str>> = None;
    // Identical traces are merged: candidates are found by a hash of what `same_trace` compares.
    let mut by_signature: HashMap<u64, Vec<usize>> = HashMap::new();
    for (done, mut trace) in parsed.traces.into_iter().enumerate() {
        progress(Stage::Matching { done, total });
        let sig = signature(&trace);
        let candidates = by_signature.entry(sig).or_default();
        if let Some(&k) = candidates
            .iter()
            .find(|&&k| same_trace(&traces[k].trace, &trace))
        {
            traces[k].occurrences += 1;
            continue;
        }
        candidates.push(traces.len());
        let above_from = floors.get(done).copied().unwrap_or(0);
        let context = context::read(input, &trace, above_from);
        let flink_version = version::infer(&trace, context.time.as_deref());
        let evidence = evidence::gather(input, &trace, above_from);
        // Evidence from the lines around the trace opens the platform gate too.
        trace.flink_context |= !evidence.is_empty();
        let flink = matcher::is_flink(&trace);
        // A trace that shows nothing of Flink, in a text that shows nothing of other JVM
        // software either (a one-line paste, a connector's frames alone): whose it is is
        // unknown, and the Flink rules apply to it, each finding saying it assumes Flink. A
        // mark of other software anywhere in the text keeps them off.
        let assumed = !flink
            && evidence::could_be_flinks(input, &trace)
            && other_software
                .get_or_insert_with(|| evidence::other_software_in(input))
                .is_none();
        trace.flink_context |= assumed;
        // Only the rules that may fire on it are compiled (the page's first diagnosis).
        let rules = rules::candidates(&rules::TraceClasses::of(&trace));
        let mut findings = matcher::diagnose(&trace, &rules);
        // Only for matching: the trace itself still shows nothing of Flink.
        trace.flink_context &= !assumed;
        for f in &mut findings {
            if rules::by_id(&f.rule).is_none_or(|r| r.def.platform != "flink") {
                continue;
            }
            if let Some(e) = evidence.first() {
                f.evidence
                    .push(format!("The trace is Flink's: {}.", e.describe()));
            } else if assumed {
                f.platform_assumed = Some(PLATFORM_ASSUMED.to_owned());
                f.evidence.push(PLATFORM_ASSUMED.to_owned());
            }
        }
        let answer = if findings.is_empty() {
            answer::answer(
                &trace,
                flink,
                context.task.as_ref().map(|t| t.name.as_str()),
            )
        } else {
            None
        };
        let root_cause = trace.root_cause();
        traces.push(TraceDiagnosis {
            flink,
            evidence,
            answer,
            cut: crate::cut::detect(&trace, root_cause),
            root_cause,
            trace,
            occurrences: 1,
            context,
            flink_version,
            findings,
        });
    }
    progress(Stage::Matching { done: total, total });
    // A trace split by lines printed into it (a JVM warning between two frames) reads as a cut
    // trace followed by frames without an exception line, or by the cause it names: not cut.
    for k in 0..traces.len() {
        let Some(cut) = &traces[k].cut else { continue };
        let named = match &cut.kind {
            crate::cut::CutKind::CauseNamed { class } => Some(class.clone()),
            _ => None,
        };
        let end = traces[k].trace.span.end;
        let continued = traces.iter().any(|o| {
            o.trace.span.start >= end
                && (o
                    .trace
                    .throwables
                    .first()
                    .is_some_and(|t| t.class.is_empty() && !t.frames.is_empty())
                    || named
                        .as_ref()
                        .is_some_and(|c| o.trace.throwables.iter().any(|t| &t.class == c)))
        });
        if continued {
            traces[k].cut = None;
        }
    }
    // Traces pasted together come from one deployment: a version that one trace's jars name
    // applies to the others that reveal none.
    if let Some((v, jar_reason)) = traces.iter().find_map(|d| {
        let exact = d.flink_version.exact.clone()?;
        Some((
            exact,
            d.flink_version.reasons.first().cloned().unwrap_or_default(),
        ))
    }) {
        for d in traces
            .iter_mut()
            .filter(|d| d.flink && d.flink_version.exact.is_none())
        {
            d.flink_version.exact = Some(v.clone());
            d.flink_version.summary = v.clone();
            d.flink_version.reasons.insert(
                0,
                format!("{jar_reason} (in another trace of the same text)"),
            );
        }
    }
    for d in &mut traces {
        mark_version_mismatches(d);
    }
    Diagnosis {
        traces,
        problems: parsed.problems,
        deadlocks: parsed.deadlocks,
    }
}

/// What a Flink rule's finding says when nothing in the text shows whose the trace is.
pub const PLATFORM_ASSUMED: &str =
    "Nothing in this text shows which software printed it (no Flink \
frame, class, log line or message, and nothing of other JVM software): this finding assumes it \
comes from a Flink job. If it does not, the finding does not apply.";

/// Lines read at most for messages printed without any exception class.
const MAX_MESSAGE_LINES_SCANNED: usize = 5_000;
/// Message-only traces read at most.
const MAX_MESSAGE_TRACES: usize = 20;

/// When a text holds no exception at all: its lines that carry a message a rule decides on
/// (a decisive pattern: [`crate::pattern::MessagePattern::is_decisive`]) or a message only Flink
/// prints ([`crate::evidence::FLINK_MESSAGES`], for the no-rule answer)
/// (Flink's `Ask timed out on [Actor[akka://flink/user/dispatcher…`, YARN's `Container … is
/// running beyond physical memory limits`), each read as a throwable with that message and no
/// class. The matcher matches such a throwable by its message alone; the platform gate still
/// needs evidence that the text is Flink's. Spans are the lines' (without their line break and
/// leading quote marks or white space).
#[inline(never)]
fn message_lines(input: &str, rules: &[&rules::Rule]) -> Vec<Trace> {
    let patterns: Vec<&crate::pattern::MessagePattern> = rules
        .iter()
        .flat_map(|r| r.all_conditions())
        .filter_map(|c| match c {
            rules::Compiled::Throwable {
                message: Some(m), ..
            } if m.is_decisive() => Some(&**m),
            _ => None,
        })
        .collect();
    let mut out = Vec::new();
    let mut at = 0;
    for line in input.split_inclusive('\n').take(MAX_MESSAGE_LINES_SCANNED) {
        let start = at;
        at += line.len();
        let body = line.trim_end_matches(['\n', '\r']);
        let lead =
            body.trim_start_matches(|c: char| c.is_whitespace() || matches!(c, '>' | '`' | '*'));
        let trimmed = lead.trim_end_matches(|c: char| c.is_whitespace() || matches!(c, '`' | '*'));
        let decisive = patterns.iter().any(|p| p.is_match(trimmed))
            || crate::evidence::FLINK_MESSAGES
                .iter()
                .any(|m| trimmed.contains(m));
        if trimmed.is_empty() || !decisive {
            continue;
        }
        let from = start + (body.len() - lead.len());
        let span = crate::span::Span::new(from, from + trimmed.len());
        let mut throwable = parse::empty_throwable(span, crate::model::Relation::Top);
        throwable.message = Some(trimmed.to_owned());
        throwable.class_span = crate::span::Span::new(from, from);
        out.push(Trace {
            throwables: vec![throwable],
            span,
            container: crate::decode::Container::Plain,
            thread: None,
            flink_context: false,
            cut_at: None,
        });
        if out.len() >= MAX_MESSAGE_TRACES {
            break;
        }
    }
    out
}

/// Notes findings whose rule cannot apply to the trace's Flink version and moves them after the
/// others (keeping the order within each group).
fn mark_version_mismatches(d: &mut TraceDiagnosis) {
    for f in &mut d.findings {
        if let Some(rule) = rules::by_id(&f.rule) {
            f.version_mismatch = version::mismatch(
                rule.def.since.as_deref(),
                &rule.def.fixed_in,
                &d.flink_version,
            );
        }
    }
    d.findings.sort_by_key(|f| f.version_mismatch.is_some());
}

/// A hash of the parts [`same_trace`] compares.
fn signature(t: &Trace) -> u64 {
    let mut h = DefaultHasher::new();
    t.throwables.len().hash(&mut h);
    t.thread.as_ref().map(|th| &th.state).hash(&mut h);
    for x in &t.throwables {
        x.class.hash(&mut h);
        x.relation.hash(&mut h);
        if let Some(m) = &x.message {
            m.split_whitespace().for_each(|w| w.hash(&mut h));
        }
        x.frames.len().hash(&mut h);
        for f in &x.frames {
            f.class.hash(&mut h);
            f.method.hash(&mut h);
            f.line().hash(&mut h);
        }
    }
    h.finish()
}

/// Same throwables, messages (ignoring how they were wrapped) and frames; for threads of a
/// thread dump, also the same state (the names differ).
fn same_trace(a: &Trace, b: &Trace) -> bool {
    a.thread.as_ref().map(|t| &t.state) == b.thread.as_ref().map(|t| &t.state)
        && a.throwables.len() == b.throwables.len()
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The NodeManager's line as posted in apache/hudi#9339 (tests/corpus/memory).
    const NM: &str = "Container [pid=8296,containerID=container_e07_1669378398064_0904_01_000002] is running beyond virtual memory limits. Current usage: 2.0 GB of 6 GB physical memory used; 39.9 GB of 12.6 GB virtual memory used. Killing container.\n";

    fn first_finding(input: &str) -> Option<Finding> {
        diagnose(input)
            .traces
            .into_iter()
            .find_map(|t| t.findings.into_iter().next())
    }

    #[test]
    fn a_text_that_shows_no_software_gets_the_flink_rules_saying_they_assume_flink() {
        let f = first_finding(NM).expect("a finding");
        assert_eq!(f.rule, "yarn-container-memory-exceeded");
        assert_eq!(f.platform_assumed.as_deref(), Some(PLATFORM_ASSUMED));
        assert!(f.evidence.iter().any(|e| e == PLATFORM_ASSUMED));
    }

    #[test]
    fn a_mark_of_other_software_anywhere_keeps_the_flink_rules_off() {
        let spark = format!("23/01/01 12:00:00 WARN YarnAllocator: spark executor lost\n\n{NM}");
        assert!(first_finding(&spark).is_none());
        let tomcat = format!(
            "{NM}\n31-Mar-2017 SEVERE [main] org.apache.catalina.startup.Catalina.start x\n"
        );
        assert!(first_finding(&tomcat).is_none());
    }

    #[test]
    fn a_programs_main_thread_or_unknown_frames_are_not_taken_for_flink() {
        let consumer = "org.apache.kafka.clients.consumer.NoOffsetForPartitionException: Undefined offset with no reset policy for partitions: [t-0]\n\tat org.apache.kafka.clients.consumer.internals.SubscriptionState.resetMissingPositions(SubscriptionState.java:631)\n\tat org.apache.kafka.clients.consumer.KafkaConsumer.poll(KafkaConsumer.java:1164)\n";
        // Library frames alone: whose it is is unknown, the Flink rule applies with its note.
        let f = first_finding(consumer).expect("a finding");
        assert!(f.platform_assumed.is_some());
        // The same trace as a program's uncaught exception in `main`.
        let main = format!("Exception in thread \"main\" {consumer}");
        assert!(first_finding(&main).is_none());
        // With a frame of code no table knows (another application, or a job's own).
        let app = format!(
            "{consumer}\tat com.example.signups.SignupConsumer.run(SignupConsumer.java:41)\n"
        );
        assert!(first_finding(&app).is_none());
    }

    #[test]
    fn a_trace_that_shows_flink_has_no_assumption() {
        let flink = format!(
            "2023-01-01 10:00:00,000 INFO  org.apache.flink.yarn.YarnResourceManagerDriver [] - Worker container_1 is terminated. Diagnostics: {NM}"
        );
        let f = first_finding(&flink).expect("a finding");
        assert_eq!(f.platform_assumed, None);
    }
}
