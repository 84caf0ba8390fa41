//! What people read: the documented JSON shape (see README, "JSON output") and the text and
//! Markdown renderings, all built from one [`Report`] view model.
//!
//! Line numbers here are 1-based lines of the original input, computed from spans.

use crate::diagnose::Diagnosis;
use crate::frames::group_of;
use crate::lang::Lang;
use crate::model::{Relation, Trace};
use crate::rules;
use crate::span::{LineIndex, Span};
use serde::Serialize;

/// The JSON document `trace-doctor diagnose --format json` prints.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// Distinct traces in input order.
    pub traces: Vec<TraceReport>,
    /// What could not be read.
    pub problems: Vec<ProblemReport>,
    /// 1-based lines where a jstack thread dump reports a Java-level deadlock.
    pub deadlocks: Vec<usize>,
}

/// One distinct trace.
#[derive(Clone, Debug, Serialize)]
pub struct TraceReport {
    /// Times this trace appears in the input.
    pub occurrences: usize,
    /// Throwables: the top-level one first, then in print order.
    pub exceptions: Vec<ExceptionReport>,
    /// Index into `exceptions` of the root cause (the last `Caused by:` of the top-level chain).
    pub root_cause: usize,
    /// Indices into `exceptions` of the cause chain, root cause first.
    pub cause_chain: Vec<usize>,
    /// Facts read from the text.
    pub context: ContextReport,
    /// Rules that fired, most specific first.
    pub findings: Vec<FindingReport>,
    /// First and last 1-based line of the trace in the input.
    pub lines: [usize; 2],
    /// For a thread of a jstack thread dump: its name and state (its frames are in
    /// `exceptions[0]`, whose class is empty).
    pub thread: Option<ThreadReport>,
    /// When no rule explains the trace: what to search the mailing-list archives and JIRA for.
    pub search_terms: Option<String>,
    /// When no rule explains the trace: the no-rule answer (which component threw, in which
    /// phase, what it implies, where to take it). Never a rule.
    pub answer: Option<AnswerReport>,
    /// What shows the trace is Flink's (from the trace and the log lines around it), with
    /// 1-based lines; empty when nothing does.
    pub flink_evidence: Vec<String>,
    /// When the text stops before the root cause (`crate::cut`): what to say first, one
    /// Markdown paragraph.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cut: Option<String>,
    /// True when the text certainly stops before the root cause: the last exception printed
    /// is then not called the root cause.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub cut_certain: bool,
}

/// The no-rule answer (`crate::answer`).
#[derive(Clone, Debug, Serialize)]
pub struct AnswerReport {
    /// Component id (`paimon`, `kafka-connector`, `user-code`, `flink`, `other:<package>`).
    pub component: String,
    /// The component's name in words.
    pub component_name: String,
    /// Where the component takes bug reports, when known.
    pub tracker: Option<String>,
    /// The phase id (`checkpoint-sync`, …), when the frames show it.
    pub phase: Option<&'static str>,
    /// 1-based input line of the frame that threw, when the trace has frames.
    pub thrower_line: Option<usize>,
    /// Set when the root cause is a consequence of an earlier failure.
    pub follow_on: Option<crate::answer::FollowOn>,
    /// The answer in words, one Markdown paragraph each: who threw and when, what it implies
    /// (or that it is a follow-on), where to take it.
    pub sentences: Vec<String>,
}

/// A thread of a thread dump.
#[derive(Clone, Debug, Serialize)]
pub struct ThreadReport {
    /// Thread name as printed.
    pub name: String,
    /// `java.lang.Thread.State` as printed, or null.
    pub state: Option<String>,
}

/// One throwable.
#[derive(Clone, Debug, Serialize)]
pub struct ExceptionReport {
    /// Fully qualified class; empty when the frames had no header.
    pub class: String,
    /// The class as printed when it differs (`org.apache.flink.util.SerializedThrowable`).
    pub printed_as: Option<String>,
    /// Message (wrapped lines joined with `\n`), or null.
    pub message: Option<String>,
    /// `top`, `cause` or `suppressed`.
    pub relation: &'static str,
    /// Index of the throwable this is the cause of, or that suppressed it.
    pub parent: Option<usize>,
    /// 1-based line of the header in the input.
    pub line: usize,
    /// Frames, innermost first, including those restored from `... N more`.
    pub frames: Vec<FrameReport>,
    /// For a log line read when the text holds no exception: its level and logger.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub logged: Option<crate::model::Logged>,
}

/// One frame.
#[derive(Clone, Debug, Serialize)]
pub struct FrameReport {
    /// Fully qualified class.
    pub class: String,
    /// Method name.
    pub method: String,
    /// Source file, or null (`Native Method`, `Unknown Source`).
    pub file: Option<String>,
    /// 1-based source line, or null.
    pub line: Option<u32>,
    /// The location as printed: `Task.java:566`, `Native Method`, `Unknown Source`.
    pub location: String,
    /// `jdk`, `flink`, `serialization`, `scala`, `library` or `user`.
    pub group: crate::frames::FrameGroup,
    /// True when restored from `... N more` (not printed at this place).
    pub expanded: bool,
    /// Byte span in the input (where printed; for restored frames, where the original is).
    pub span: Span,
}

/// Facts read from the text; null when unknown.
#[derive(Clone, Debug, Serialize)]
pub struct ContextReport {
    /// The checkpoint that failed.
    pub checkpoint_id: Option<u64>,
    /// Task name as printed (`a -> b`).
    pub task: Option<String>,
    /// Operators of the chain, in order.
    pub operators: Option<Vec<String>>,
    /// Subtask as printed, 1-based.
    pub subtask: Option<u32>,
    /// Parallelism.
    pub parallelism: Option<u32>,
    /// Execution attempt.
    pub attempt: Option<u32>,
    /// Time printed with the trace.
    pub time: Option<String>,
    /// Flink version: exact, or a range with reasons.
    pub flink_version: crate::version::FlinkVersion,
}

/// A rule that fired.
#[derive(Clone, Debug, Serialize)]
pub struct FindingReport {
    /// Rule id.
    pub rule: String,
    /// Rule title.
    pub title: String,
    /// One-paragraph summary (Markdown).
    pub summary: String,
    /// `error`, `warning` or `info`.
    pub severity: String,
    /// Highlighted frames and headers with their roles.
    pub highlights: Vec<HighlightReport>,
    /// Why the rule matched.
    pub evidence: Vec<String>,
    /// What each matched frame means, read bottom-up (outermost first), Markdown.
    pub reading: Vec<String>,
    /// The rule's explanation, Markdown.
    pub explanation: ExplanationReport,
    /// Docs pages and issues.
    pub references: Vec<ReferenceReport>,
    /// The Flink versions the rule applies to, in words.
    pub versions: String,
    /// Set when the rule's version bounds exclude the Flink version the trace reveals: one
    /// sentence saying so (the finding is then listed after the others).
    pub version_mismatch: Option<String>,
    /// Set when nothing in the text shows it is Flink's and the finding assumes so: one
    /// sentence.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub platform_assumed: Option<String>,
    /// The class the finding blames and whose it is: one sentence, Markdown.
    pub culprit: Option<String>,
}

/// A rule's explanation (Markdown).
#[derive(Clone, Debug, Default, Serialize)]
pub struct ExplanationReport {
    /// Why it happens.
    pub why: String,
    /// Further sections.
    pub sections: Vec<SectionReport>,
    /// Fixes, best first.
    pub fixes: Vec<String>,
    /// What does not help.
    pub not_fixes: Vec<String>,
    /// When the diagnosis may be wrong.
    pub false_alarms: Option<String>,
}

/// A titled section of an explanation.
#[derive(Clone, Debug, Serialize)]
pub struct SectionReport {
    /// Heading.
    pub heading: String,
    /// Body, Markdown.
    pub body: String,
}

/// A reference.
#[derive(Clone, Debug, Serialize)]
pub struct ReferenceReport {
    /// Link text.
    pub title: String,
    /// URL.
    pub url: String,
}

/// A highlighted frame or header.
#[derive(Clone, Debug, Serialize)]
pub struct HighlightReport {
    /// Index into `exceptions`.
    pub exception: usize,
    /// Index into that exception's `frames`, or null for its header.
    pub frame: Option<usize>,
    /// `class.method` of the frame, or the exception class for a header.
    pub name: String,
    /// The role label.
    pub role: String,
    /// 1-based line in the input.
    pub line: usize,
}

/// Something the parser could not read.
#[derive(Clone, Debug, Serialize)]
pub struct ProblemReport {
    /// 1-based line in the input.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

fn relation(r: Relation) -> (&'static str, Option<usize>) {
    match r {
        Relation::Top => ("top", None),
        Relation::CauseOf(p) => ("cause", Some(p)),
        Relation::SuppressedBy(p) => ("suppressed", Some(p)),
    }
}

/// Builds the report of `diagnosis` over `input` (the same text that was diagnosed).
pub fn build(input: &str, diagnosis: &Diagnosis) -> Report {
    build_in(input, diagnosis, Lang::En)
}

/// [`build`] with the rules' prose (title, summary, roles, readings, explanation) and the cut
/// note in `lang` where a rule has a translation.
pub fn build_in(input: &str, diagnosis: &Diagnosis, lang: Lang) -> Report {
    let index = LineIndex::new(input);
    let line = |s: Span| index.line_of(s.start);
    let traces = diagnosis
        .traces
        .iter()
        .map(|d| {
            let t = &d.trace;
            let exceptions = t
                .throwables
                .iter()
                .map(|th| {
                    let (rel, parent) = relation(th.relation);
                    ExceptionReport {
                        class: th.class.clone(),
                        printed_as: th.printed_as.clone(),
                        message: th.message.clone(),
                        logged: th.logged.clone(),
                        relation: rel,
                        parent,
                        line: line(th.header_span),
                        frames: th
                            .frames
                            .iter()
                            .map(|f| FrameReport {
                                class: f.class.clone(),
                                method: f.method.clone(),
                                file: f.file().map(str::to_owned),
                                line: f.line(),
                                location: f.location_text(),
                                group: group_of(&f.class),
                                expanded: f.expanded_from.is_some(),
                                span: f.span,
                            })
                            .collect(),
                    }
                })
                .collect();
            let findings = d
                .findings
                .iter()
                .map(|f| {
                    let rule = rules::by_id(&f.rule);
                    let text = rule.map(|r| crate::lang::rule_text(r, lang));
                    let notes = crate::lang::finding_notes(f, d, lang);
                    FindingReport {
                        rule: f.rule.clone(),
                        title: text.map(|r| r.title.to_owned()).unwrap_or_default(),
                        summary: text.map(|r| r.summary.md.clone()).unwrap_or_default(),
                        severity: rule.map(|r| r.def.severity.clone()).unwrap_or_default(),
                        highlights: f
                            .highlights
                            .iter()
                            .map(|h| HighlightReport {
                                exception: h.throwable,
                                frame: h.frame,
                                name: highlight_name(t, h.throwable, h.frame),
                                role: crate::lang::role(rule, &h.role, lang).to_owned(),
                                line: line(h.span),
                            })
                            .collect(),
                        evidence: f.evidence.clone(),
                        reading: f
                            .notes
                            .iter()
                            .rev()
                            .map(|n| {
                                crate::lang::step_note(rule, &n.step, &n.frame, lang)
                                    .map_or_else(|| n.md.clone(), |(md, _)| md)
                            })
                            .collect(),
                        explanation: text.map(|r| explanation(r.explanation)).unwrap_or_default(),
                        references: rule
                            .map(|r| {
                                crate::lang::rule_text(r, lang)
                                    .references
                                    .iter()
                                    .map(|x| ReferenceReport {
                                        title: x.title.clone(),
                                        url: crate::docs::for_release(
                                            &x.url,
                                            crate::docs::release_minor(&d.flink_version),
                                        ),
                                    })
                                    .collect()
                            })
                            .unwrap_or_default(),
                        versions: text.map(|r| r.versions.to_owned()).unwrap_or_default(),
                        version_mismatch: notes.version_mismatch,
                        platform_assumed: notes.platform_assumed,
                        culprit: notes.culprit,
                    }
                })
                .collect();
            let task = d.context.task.as_ref();
            TraceReport {
                occurrences: d.occurrences,
                exceptions,
                root_cause: d.root_cause,
                cause_chain: t.cause_chain().into_iter().rev().collect(),
                context: ContextReport {
                    checkpoint_id: d.context.checkpoint_id,
                    task: task.map(|t| t.name.clone()),
                    operators: task.map(|t| t.operators.clone()),
                    subtask: task.map(|t| t.subtask),
                    parallelism: task.map(|t| t.parallelism),
                    attempt: task.and_then(|t| t.attempt),
                    time: d.context.time.clone(),
                    flink_version: d.flink_version.clone(),
                },
                findings,
                search_terms: (d.findings.is_empty() && t.thread.is_none())
                    .then(|| crate::frames::search_terms(t))
                    .filter(|s| !s.trim().is_empty()),
                answer: d.answer.as_ref().map(|a| AnswerReport {
                    component: a.component.id.clone(),
                    component_name: a.component.name.clone(),
                    tracker: a.component.tracker.clone(),
                    phase: a.phase.as_ref().map(|p| p.phase.id()),
                    thrower_line: a.thrower.map(|(x, k)| line(t.throwables[x].frames[k].span)),
                    follow_on: a.follow_on,
                    sentences: crate::lang::no_rule_sentences(a, t, lang),
                }),
                flink_evidence: d.evidence.iter().map(|e| e.describe_at(&index)).collect(),
                cut: d
                    .cut
                    .as_ref()
                    .map(|c| crate::lang::cut_sentence(c, t, lang)),
                cut_certain: d.cut.as_ref().is_some_and(|c| c.certain()),
                thread: t.thread.as_ref().map(|th| ThreadReport {
                    name: th.name.clone(),
                    state: th.state.clone(),
                }),
                lines: [
                    line(t.span),
                    index.line_of(t.span.end.saturating_sub(1).max(t.span.start)),
                ],
            }
        })
        .collect();
    let problems = diagnosis
        .problems
        .iter()
        .map(|p| ProblemReport {
            line: line(p.span),
            message: p.message.clone(),
        })
        .collect();
    Report {
        traces,
        problems,
        deadlocks: diagnosis.deadlocks.iter().map(|s| line(*s)).collect(),
    }
}

/// The class as printed, or what stands in its place: frames without a header, or a message
/// printed without any class (a log line read for its message). The replies say the same.
pub(crate) fn class_name(e: &ExceptionReport) -> std::borrow::Cow<'_, str> {
    match (e.class.is_empty(), e.frames.is_empty(), &e.logged) {
        (false, ..) => e.class.as_str().into(),
        (true, false, _) if e.message.is_none() => "(frames without an exception line)".into(),
        (true, _, Some(l)) => {
            let an = if l.level.starts_with(['E', 'F']) {
                "an"
            } else {
                "a"
            };
            format!("({an} {} log line of {})", l.level, l.logger).into()
        }
        (true, _, None) => "(a message printed without an exception class)".into(),
    }
}

fn frame_text(f: &FrameReport) -> String {
    format!("{}.{}({})", f.class, f.method, f.location)
}

fn explanation(e: &crate::rules::schema::Explanation) -> ExplanationReport {
    ExplanationReport {
        why: e.why.md.clone(),
        sections: e
            .sections
            .iter()
            .map(|s| SectionReport {
                heading: s.heading.clone(),
                body: s.body.md.clone(),
            })
            .collect(),
        fixes: e.fixes.iter().map(|p| p.md.clone()).collect(),
        not_fixes: e.not_fixes.iter().map(|p| p.md.clone()).collect(),
        false_alarms: e.false_alarms.as_ref().map(|p| p.md.clone()),
    }
}

fn highlight_name(t: &Trace, throwable: usize, frame: Option<usize>) -> String {
    let th = &t.throwables[throwable];
    match frame.and_then(|k| th.frames.get(k)) {
        Some(f) => f.qualified_method(),
        None => th.label(false),
    }
}

/// Plain text for a terminal: per trace, the cause chain root first, the context, and each
/// finding with its highlighted frames, explanation and fixes (Markdown source as text).
pub fn render_text(report: &Report) -> String {
    render(report, false)
}

/// Markdown for GitHub, JIRA or a mailing-list reply.
pub fn render_markdown(report: &Report) -> String {
    render(report, true)
}

fn render(report: &Report, md: bool) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    let h = |level: usize, text: &str| {
        if md {
            format!("{} {text}\n\n", "#".repeat(level))
        } else {
            format!(
                "{text}\n{}\n\n",
                if level <= 2 { "=" } else { "-" }.repeat(text.chars().count().min(72))
            )
        }
    };
    let code = |s: &str| if md { format!("`{s}`") } else { s.to_owned() };
    if report.traces.is_empty() {
        out.push_str("No stack trace found (expected lines such as \"at pkg.Class.method(File.java:12)\").\n");
    }
    for (n, t) in report.traces.iter().enumerate() {
        let times = if t.occurrences > 1 {
            format!(" (seen {} times)", t.occurrences)
        } else {
            String::new()
        };
        out.push_str(&h(
            2,
            &format!(
                "Trace {} — lines {}–{}{times}",
                n + 1,
                t.lines[0],
                t.lines[1]
            ),
        ));
        if let Some(th) = &t.thread {
            let state = th
                .state
                .as_deref()
                .map(|s| format!(" ({s})"))
                .unwrap_or_default();
            let _ = writeln!(out, "Thread \"{}\"{state}\n", th.name);
        }
        if let Some(cut) = &t.cut {
            let _ = writeln!(out, "{cut}\n");
        }
        out.push_str(&h(
            3,
            if t.cut_certain {
                "Cause chain, last printed first"
            } else {
                "Cause chain, root cause first"
            },
        ));
        for (k, &e) in t.cause_chain.iter().enumerate() {
            let ex = &t.exceptions[e];
            let msg = ex
                .message
                .as_deref()
                .map(|m| m.split_whitespace().collect::<Vec<_>>().join(" "));
            let label = match k {
                0 if t.cut_certain => "last printed (the root cause is not in the text)",
                0 => "root cause",
                _ => "wrapped by",
            };
            let _ = writeln!(
                out,
                "{}. {label}: {}{} (line {})",
                k + 1,
                code(&class_name(ex)),
                msg.map(|m| format!(": {m}")).unwrap_or_default(),
                ex.line
            );
        }
        out.push('\n');
        let c = &t.context;
        let mut facts = Vec::new();
        if let Some(id) = c.checkpoint_id {
            facts.push(format!("checkpoint {id}"));
        }
        if let Some(ops) = &c.operators {
            facts.push(format!(
                "operator chain {}",
                ops.iter().map(|o| code(o)).collect::<Vec<_>>().join(" → ")
            ));
        }
        if let (Some(s), Some(p)) = (c.subtask, c.parallelism) {
            facts.push(format!("subtask {s} of {p}"));
        }
        if let Some(a) = c.attempt {
            facts.push(format!("attempt {a}"));
        }
        if let Some(time) = &c.time {
            facts.push(format!("time {time}"));
        }
        facts.push(format!("Flink version {}", c.flink_version.summary));
        out.push_str(&h(3, "Context"));
        for f in &facts {
            let _ = writeln!(out, "- {f}");
        }
        for r in &c.flink_version.reasons {
            let _ = writeln!(out, "  - {r}");
        }
        if let Some(e) = t.flink_evidence.first() {
            let _ = writeln!(out, "- read as Flink's: {e}");
        }
        out.push('\n');
        if t.findings.is_empty() {
            out.push_str(&h(3, "No known diagnosis"));
            let root = &t.exceptions[t.root_cause];
            let _ = writeln!(
                out,
                "No rule matched. {}: {}.\n",
                if t.cut_certain {
                    "Last exception printed"
                } else {
                    "Root cause"
                },
                code(&class_name(root))
            );
            if let Some(a) = &t.answer {
                for sentence in &a.sentences {
                    let _ = writeln!(out, "{sentence}\n");
                }
            }
            if !root.frames.is_empty() {
                out.push_str("Where it was thrown (innermost frames first):\n");
            }
            let user = root
                .frames
                .iter()
                .position(|f| f.group == crate::frames::FrameGroup::User);
            for (k, f) in root.frames.iter().enumerate() {
                if k < 5 || Some(k) == user {
                    let mark = if Some(k) == user {
                        "  <- the innermost frame of user code"
                    } else {
                        ""
                    };
                    let _ = writeln!(out, "- {}{mark}", code(&frame_text(f)));
                }
            }
            if !root.frames.is_empty() {
                out.push('\n');
            }
            if let Some(terms) = &t.search_terms {
                let _ = writeln!(
                    out,
                    "Search the mailing-list archives and JIRA for: {terms}\n"
                );
            }
        }
        for f in &t.findings {
            out.push_str(&h(3, &format!("Diagnosis: {} [{}]", f.title, f.rule)));
            for m in f.platform_assumed.iter().chain(&f.version_mismatch) {
                let _ = writeln!(out, "Note: {m}\n");
            }
            let _ = writeln!(out, "{}\n", f.summary);
            if let Some(c) = &f.culprit {
                let _ = writeln!(out, "{c}\n");
            }
            out.push_str("Frames that matter:\n");
            for hl in &f.highlights {
                let _ = writeln!(out, "- line {}: {} — {}", hl.line, code(&hl.name), hl.role);
            }
            out.push('\n');
            let e = &f.explanation;
            if !f.reading.is_empty() {
                out.push_str(&h(4, "Read the root cause bottom-up"));
                for n in &f.reading {
                    let _ = writeln!(out, "- {}", n.replace('\n', "\n  "));
                }
                out.push('\n');
            }
            out.push_str(&h(4, "Why it happens"));
            let _ = writeln!(out, "{}\n", e.why);
            for s in &e.sections {
                out.push_str(&h(4, &s.heading));
                let _ = writeln!(out, "{}\n", s.body);
            }
            out.push_str(&h(4, "Fixes, best first"));
            for (i, fix) in e.fixes.iter().enumerate() {
                let _ = writeln!(out, "{}. {}", i + 1, fix.replace('\n', "\n   "));
            }
            out.push('\n');
            if !e.not_fixes.is_empty() {
                out.push_str(&h(4, "What does not help"));
                for nf in &e.not_fixes {
                    let _ = writeln!(out, "- {}", nf.replace('\n', "\n  "));
                }
                out.push('\n');
            }
            out.push_str(&h(4, "References"));
            for r in &f.references {
                if md {
                    let _ = writeln!(out, "- [{}]({})", r.title, r.url);
                } else {
                    let _ = writeln!(out, "- {}: {}", r.title, r.url);
                }
            }
            out.push('\n');
        }
    }
    for line in &report.deadlocks {
        let _ = writeln!(
            out,
            "The thread dump reports a Java-level deadlock (line {line}).\n"
        );
    }
    if !report.problems.is_empty() {
        out.push_str(&h(3, "Not read"));
        for p in &report.problems {
            let _ = writeln!(out, "- line {}: {}", p.line, p.message);
        }
    }
    out
}
