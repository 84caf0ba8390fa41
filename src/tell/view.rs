//! The page's view model: everything the UI shows, computed from a [`Diagnosis`] without any
//! UI library, so it is tested natively. The Yew components only render these structs.

use crate::diagnose::{Diagnosis, TraceDiagnosis};
use crate::frames::{group_of, FrameGroup};
use crate::lang::Lang;
use crate::model::{Frame, Location, Relation};
use crate::rules;
use crate::span::LineIndex;

/// Runs of fewer frames than this are shown, not folded.
pub const MIN_FOLD: usize = 3;

/// How many distinct traces the page renders in full; the rest are counted.
pub const MAX_TRACES_SHOWN: usize = 10;

/// A trace with more throwables than this shows only some of them in full (see
/// [`CHAIN_HEAD`] and [`CHAIN_TAIL`]); the others are listed one line each, on demand.
pub const MAX_CHAIN_SHOWN: usize = 24;

/// How many throwables of a long trace are shown in full from the root cause up (in display
/// order: the root cause, what wraps it, and so on).
pub const CHAIN_HEAD: usize = 16;

/// How many of the outermost throwables of a long cause chain are shown in full (the
/// top-level throwable and the ones right below it, which often say what failed).
pub const CHAIN_TAIL: usize = 4;

/// How many throwables left out of a long trace are listed (one line each) at most.
pub const MAX_SKIPPED_LISTED: usize = 500;

/// A fold holds at most this many frames; a longer run is split into several folds, so that
/// opening one never builds more than a few thousand elements.
pub const MAX_FOLD_FRAMES: usize = 250;

/// A run of frames shown one by one (your code) longer than this keeps its first
/// [`SHOWN_RUN_HEAD`] and last [`SHOWN_RUN_TAIL`] frames shown and folds the others (deep
/// recursion, a `StackOverflowError`).
pub const MAX_SHOWN_RUN: usize = 24;

/// Frames a long shown run keeps at its start.
pub const SHOWN_RUN_HEAD: usize = 12;

/// Frames a long shown run keeps at its end.
pub const SHOWN_RUN_TAIL: usize = 4;

/// A throwable shows at most this many frames one by one (those a finding points at always);
/// the others past them fold together.
pub const MAX_SHOWN_FRAMES: usize = 40;

/// A trace shows at most this many frames one by one over all its throwables (those a finding
/// points at, and the first frame of each throwable, always).
pub const MAX_SHOWN_FRAMES_PER_TRACE: usize = 120;

/// A throwable's frames make at most about this many blocks (shown runs and folds); the frames
/// past them fold together, except those a finding points at.
pub const MAX_BLOCKS: usize = 60;

/// A trace makes at most about this many blocks over all its throwables (each fold is a
/// component of the page: a few thousand of them take seconds to build).
pub const MAX_BLOCKS_PER_TRACE: usize = 120;

/// The message block of a throwable shows at most this many characters (and
/// [`MAX_MESSAGE_LINES`] lines); the rest is counted (`… 98,000 more characters`).
pub const MAX_MESSAGE_CHARS: usize = 2000;

/// The message block of a throwable shows at most this many lines (and [`MAX_MESSAGE_CHARS`]
/// characters).
pub const MAX_MESSAGE_LINES: usize = 40;

/// A cut message also shows its last lines, after what was left out, up to this many lines and
/// [`MESSAGE_TAIL_CHARS`] characters (whole lines only): the planner prints the reason after
/// the plan, a factory error its list of identifiers.
pub const MESSAGE_TAIL_LINES: usize = 8;

/// See [`MESSAGE_TAIL_LINES`].
pub const MESSAGE_TAIL_CHARS: usize = 800;

/// The root cause line of the "no known diagnosis" card shows at most this many characters of
/// the message's first line.
pub const MAX_ROOT_CAUSE_CHARS: usize = 300;

/// The whole result area.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PageModel {
    /// Traces to show, in input order.
    pub traces: Vec<TraceView>,
    /// Distinct traces found but not shown (past [`MAX_TRACES_SHOWN`]).
    pub hidden_traces: usize,
    /// What the parser could not read: (1-based line, message).
    pub problems: Vec<(usize, String)>,
    /// Size of the input in bytes.
    pub input_bytes: usize,
    /// Distinct traces found (shown or not).
    pub total_traces: usize,
    /// Distinct traces with at least one finding (shown or not).
    pub diagnosed_traces: usize,
    /// 1-based lines where jstack reports a Java-level deadlock.
    pub deadlocks: Vec<usize>,
    /// One row per distinct trace (at most [`MAX_INDEX_ROWS`]), in order of interest.
    pub index: Vec<TraceRow>,
    /// Threads of thread dumps in the text (identical stacks counted once each).
    pub threads: usize,
}

/// How many rows the list of traces holds at most.
pub const MAX_INDEX_ROWS: usize = 200;

/// A line of the list of traces.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TraceRow {
    /// Input-order number (the card's DOM id is `t{number}`).
    pub number: usize,
    /// The root cause's class, or `thread "name"` for a thread.
    pub what: String,
    /// Times it appears.
    pub occurrences: usize,
    /// The most specific finding's title, if any.
    pub diagnosis: Option<String>,
    /// First 1-based input line.
    pub line: usize,
    /// Whether its card is on the page.
    pub shown: bool,
}

/// One distinct trace.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct TraceView {
    /// DOM id of the trace's card (`t3`, or prefixed, see [`build_in`]).
    pub dom_id: String,
    /// 1-based position among the traces.
    pub number: usize,
    /// Times this trace appears in the input.
    pub occurrences: usize,
    /// First and last 1-based input line.
    pub lines: (usize, usize),
    /// Facts read from the text, in display order.
    pub facts: Vec<Fact>,
    /// Why the version is what it is.
    pub version_reasons: Vec<String>,
    /// Findings, most specific first.
    pub findings: Vec<FindingView>,
    /// The cause chain, root cause first, then suppressed throwables.
    pub chain: Vec<ExceptionView>,
    /// True when the trace shows Flink code.
    pub flink: bool,
    /// Class and first message line of the root cause, for the "no known diagnosis" note.
    pub root_cause: String,
    /// For a thread of a thread dump: its name and state.
    pub thread: Option<(String, Option<String>)>,
    /// True when the line numbers of the input mean something for this trace: it spans more
    /// than one line and its frames sit on lines of their own, most of them (false for a trace
    /// on one line, such as REST JSON with escaped newlines, where every number would be the
    /// same). The page then hides the gutter and the heading's line range.
    pub numbered: bool,
    /// When no rule explains the trace: what to search the archives and JIRA for.
    pub search_terms: Option<String>,
    /// When no rule explains the trace: those terms as searches to click, `(label, URL)`: the
    /// user@ and user-zh@ archives (lists.apache.org), Flink's JIRA, and the tracker of the
    /// component that threw when it is another project's.
    pub searches: Vec<(String, String)>,
    /// When no rule explains the trace: the no-rule answer in words (Markdown paragraphs with
    /// code spans), and the component's id.
    pub answer: Option<(String, Vec<String>)>,
    /// What shows the trace is Flink's, in words with the input line.
    pub flink_evidence: Vec<String>,
    /// When the text stops before the root cause (`crate::cut`): what to say first, one
    /// Markdown paragraph (a bold lead, then code spans).
    pub cut: Option<String>,
    /// True when the text certainly stops before the root cause: the last exception printed is
    /// then not called the root cause.
    pub cut_certain: bool,
}

/// A fact such as "checkpoint 575".
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Fact {
    /// Stable key (`checkpoint`, `operators`, `subtask`, `attempt`, `time`, `version`).
    pub key: String,
    /// Label (`Checkpoint`).
    pub label: String,
    /// Value as shown (`575`).
    pub value: String,
}

/// A finding, ready to render. HTML fields come from the rule files (rendered at build time).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct FindingView {
    /// Rule id.
    pub rule: String,
    /// Title.
    pub title: String,
    /// `error`, `warning` or `info`.
    pub severity: String,
    /// Summary (HTML).
    pub summary_html: String,
    /// The rule's explanation.
    pub explanation: ExplanationView,
    /// Why the rule matched.
    pub evidence: Vec<String>,
    /// What each matched frame means, read bottom-up (outermost first), HTML.
    pub reading_html: Vec<String>,
    /// Versions the rule applies to.
    pub versions: String,
    /// Set when the rule's version bounds exclude the version the trace shows (one sentence).
    pub version_mismatch: Option<String>,
    /// Set when nothing in the text shows it is Flink's and the finding assumes so (one
    /// sentence; [`crate::matcher::Finding::platform_assumed`]).
    pub platform_assumed: Option<String>,
    /// The class the finding blames and whose it is (one sentence, Markdown).
    pub culprit: Option<String>,
    /// The frames it points at: (role, `Class.method`, 1-based input line, DOM id of the frame).
    pub highlights: Vec<(String, String, usize, String)>,
    /// The rule's picture of the failure, filled in for this trace.
    pub diagram: Option<crate::diagram::DiagramView>,
}

/// A rule's explanation, rendered to HTML at build time from the rule file.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ExplanationView {
    /// "Why it happens" (HTML).
    pub why_html: String,
    /// Further sections: (heading, HTML).
    pub sections: Vec<(String, String)>,
    /// Fixes, best first (HTML).
    pub fixes_html: Vec<String>,
    /// What does not help (HTML).
    pub not_fixes_html: Vec<String>,
    /// Known false alarms (HTML).
    pub false_alarms_html: Option<String>,
    /// References: (title, URL).
    pub references: Vec<(String, String)>,
    /// The rule's prose could not be loaded (the page fetches it per rule; a file missing from
    /// a copy of the page, a connection gone): everything above is empty, the page says so.
    #[serde(default)]
    pub missing: bool,
}

impl ExplanationView {
    /// The explanation of `rule`.
    pub fn of(rule: &crate::rules::Rule) -> ExplanationView {
        Self::of_in(rule, Lang::En)
    }

    /// The explanation of `rule` in `lang` (English when the rule has no translation).
    pub fn of_in(rule: &crate::rules::Rule, lang: Lang) -> ExplanationView {
        let text = crate::lang::rule_text(rule, lang);
        let e = text.explanation;
        ExplanationView {
            why_html: e.why.html.clone(),
            sections: e
                .sections
                .iter()
                .map(|s| (s.heading.clone(), s.body.html.clone()))
                .collect(),
            fixes_html: e.fixes.iter().map(|p| p.html.clone()).collect(),
            not_fixes_html: e.not_fixes.iter().map(|p| p.html.clone()).collect(),
            false_alarms_html: e.false_alarms.as_ref().map(|p| p.html.clone()),
            references: text
                .references
                .iter()
                .map(|r| (r.title.clone(), r.url.clone()))
                .collect(),
            missing: !text.loaded,
        }
    }
}

/// One throwable.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ExceptionView {
    /// DOM id (`t1-e2`).
    pub id: String,
    /// `root cause`, `wrapped by`, `suppressed`.
    pub relation: String,
    /// For a suppressed throwable: the simple class of the one that suppressed it.
    pub parent: Option<String>,
    /// Nesting depth: 0 for the cause chain, +1 per `Suppressed:` level.
    pub depth: usize,
    /// Fully qualified class (empty: frames without a header).
    pub class: String,
    /// For a log line read when the text holds no exception: `WARN log line of
    /// org.apache.kafka.clients.ClientUtils` (level and logger), shown in place of the class.
    #[serde(default)]
    pub logged: Option<String>,
    /// Message, or empty; a long one is cut after [`MAX_MESSAGE_CHARS`] characters or
    /// [`MAX_MESSAGE_LINES`] lines (see `message_more`).
    pub message: String,
    /// When the message was cut: what was left out and where to read it
    /// (`… 98,000 more characters (see the input, line 1)`).
    pub message_more: Option<String>,
    /// The input lines `message_more` points at (`None` when the message was not cut, or is
    /// on one line of a one-line input).
    #[serde(default)]
    pub message_more_lines: Option<LineRange>,
    /// The last lines of a cut message, shown after `message_more` (empty when there are none
    /// to show: a message cut inside its last line).
    #[serde(default)]
    pub message_tail: String,
    /// 1-based input line of the header.
    pub line: usize,
    /// Input lines the header covers (more than one when its message runs over several lines).
    pub header_lines: LineRange,
    /// Role labels on the header.
    pub roles: Vec<String>,
    /// Frames, grouped for folding.
    pub blocks: Vec<FrameBlock>,
    /// Frames restored from `... N more` (N), when any.
    pub restored: usize,
    /// Open by default (the root cause and any throwable with highlights).
    pub open: bool,
    /// Throwables of a long trace not shown in full, listed right after this one.
    pub skipped_after: Option<SkippedCauses>,
}

impl TraceView {
    /// The card's heading in `lang`: `Trace 1 · lines 2–61` (no line range for a trace on one
    /// line of the input, such as REST JSON: it would read `1–1`), `Thread 3`, `×4`.
    pub fn heading(&self, lang: Lang) -> String {
        lang.trace_heading(
            self.number,
            self.thread.is_some(),
            self.numbered.then_some(self.lines),
            (self.occurrences, self.thread.is_some()),
        )
    }
}

impl ExceptionView {
    /// What the throwable's header says in `lang`: its class (or what stands for it: a thread's
    /// stack, frames without a header, a log line), its relation to the others (`wrapped by`,
    /// `suppressed in IOException`), and its message on one line, cut after 140 characters, so
    /// that a closed throwable still says what it is about.
    pub fn header(&self, lang: Lang) -> (String, String, String) {
        let m = lang.msgs();
        let class = match (self.class.is_empty(), self.relation.as_str()) {
            (true, "thread") => m.thread_stack.to_owned(),
            (true, _) if self.message.is_empty() => m.no_header_frames.to_owned(),
            (true, _) => match &self.logged {
                Some(l) => format!("({l})"),
                None => m.no_header_message.to_owned(),
            },
            _ => self.class.clone(),
        };
        let relation = match &self.parent {
            Some(p) => lang.suppressed_in(p),
            None => lang.relation(&self.relation).to_owned(),
        };
        let preview: String = self
            .message
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let preview = if preview.chars().count() > 140 {
            format!("{}…", preview.chars().take(140).collect::<String>())
        } else {
            preview
        };
        (class, relation, preview)
    }
}

/// The facts a committer checks first, shown in the one-line strip above a trace's findings.
pub const STRIP_FACTS: [&str; 4] = ["checkpoint", "operators", "subtask", "version"];

/// A fact's value for the one-line strip: at most 60 characters (an operator chain can name
/// dozens of operators; the facts card below shows it whole).
pub fn strip_value(v: &str) -> String {
    match v.char_indices().nth(60) {
        Some((i, _)) => format!("{}…", &v[..i]),
        None => v.to_owned(),
    }
}

/// Throwables of a long trace that are not shown in full (past [`MAX_CHAIN_SHOWN`]): a line
/// that counts them, which opens to a list of one line each.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SkippedCauses {
    /// DOM id of the list's `details` (`t1-e40-more`).
    pub id: String,
    /// `478 more causes, not shown in full`.
    pub label: String,
    /// How many throwables are left out.
    pub count: usize,
    /// Input lines they cover, first to last.
    pub lines: LineRange,
    /// One line each, in display order (at most [`MAX_SKIPPED_LISTED`]).
    pub listed: Vec<SkippedCause>,
}

/// One throwable left out of a long trace, as listed: `wrapped by java.lang.RuntimeException:
/// level 12`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SkippedCause {
    /// `wrapped by`, `suppressed`.
    pub relation: String,
    /// Fully qualified class (empty: frames without a header).
    pub class: String,
    /// The message's first line, cut after 140 characters.
    pub message: String,
    /// 1-based input line of the header.
    pub line: usize,
}

/// A run of frames: shown one by one, or folded under a label.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum FrameBlock {
    /// Frames always shown (highlighted, or user code).
    Shown(Vec<FrameView>),
    /// Frames folded under "12 Flink runtime frames".
    Folded {
        /// Label of the fold.
        label: String,
        /// The frames inside.
        frames: Vec<FrameView>,
        /// Input lines of the frames inside, first to last (for frames restored from
        /// `... N more`: the lines of the enclosing exception's frames they repeat).
        lines: LineRange,
    },
}

/// A range of 1-based input lines, `first..=last`, for the line-number gutter of the annotated
/// trace.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct LineRange {
    /// First line (1-based).
    pub first: usize,
    /// Last line (1-based), at least `first`.
    pub last: usize,
}

impl LineRange {
    /// The range from `first` to `last` (swapped when given the wrong way round).
    pub fn new(first: usize, last: usize) -> LineRange {
        LineRange {
            first: first.min(last),
            last: first.max(last),
        }
    }

    /// The lines a span of bytes covers: the line of its first byte to the line of its last.
    pub fn of_span(index: &LineIndex, span: crate::span::Span) -> LineRange {
        LineRange::new(
            index.line_of(span.start),
            index.line_of(span.end.saturating_sub(1).max(span.start)),
        )
    }

    /// As shown in the gutter: `42`, or `45–56` for several lines.
    pub fn label(self) -> String {
        if self.first == self.last {
            self.first.to_string()
        } else {
            format!("{}–{}", self.first, self.last)
        }
    }

    /// As read out: `line 42`, or `lines 45 to 56`.
    pub fn spoken(self) -> String {
        if self.first == self.last {
            format!("line {}", self.first)
        } else {
            format!("lines {} to {}", self.first, self.last)
        }
    }
}

/// One frame.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct FrameView {
    /// DOM id (`t1-e2-f5`).
    pub id: String,
    /// Package prefix (`org.apache.flink.runtime.state.`), shown dimmed.
    pub package: String,
    /// Simple class and method (`PartitionableListState.<init>`).
    pub name: String,
    /// Location (`PartitionableListState.java:64`).
    pub location: String,
    /// 1-based input line.
    pub line: usize,
    /// Who wrote the code.
    pub group: FrameGroup,
    /// Restored from `... N more`.
    pub restored: bool,
    /// Role labels from the findings (empty: not highlighted).
    pub roles: Vec<String>,
}

/// Builds the page model of `diagnosis` over `input`.
///
/// Traces are shown in order of interest: those with a diagnosis first, then the most frequent,
/// then in input order; each keeps its input-order number.
pub fn build(input: &str, diagnosis: &Diagnosis) -> PageModel {
    build_in(input, diagnosis, "")
}

/// [`build`], with every DOM id (`t1`, `t1-e2-f5`) prefixed by `dom_prefix`, so that a second
/// diagnosis on the same page (a rule's live example) has ids of its own.
pub fn build_in(input: &str, diagnosis: &Diagnosis, dom_prefix: &str) -> PageModel {
    build_lang(input, diagnosis, dom_prefix, Lang::En)
}

/// [`build_in`] in `lang`: the rules' prose where a rule has a translation, the roles, the
/// readings, the facts' labels and the cut note.
#[inline(never)]
pub fn build_lang(input: &str, diagnosis: &Diagnosis, dom_prefix: &str, lang: Lang) -> PageModel {
    let index = LineIndex::new(input);
    let order = diagnosis.order_of_interest();
    let traces = order
        .iter()
        .take(MAX_TRACES_SHOWN)
        .map(|&i| trace_view(i + 1, &diagnosis.traces[i], &index, dom_prefix, lang))
        .collect();
    let rows = order
        .iter()
        .take(MAX_INDEX_ROWS)
        .enumerate()
        .map(|(rank, &i)| {
            let d = &diagnosis.traces[i];
            let what = match &d.trace.thread {
                Some(th) => format!("thread \"{}\"", th.name),
                None => d.trace.throwables[d.root_cause].class.clone(),
            };
            TraceRow {
                number: i + 1,
                what,
                occurrences: d.occurrences,
                diagnosis: d
                    .findings
                    .first()
                    .and_then(|f| rules::by_id(&f.rule))
                    .map(|r| crate::lang::rule_text(r, lang).title.to_owned()),
                line: index.line_of(d.trace.span.start),
                shown: rank < MAX_TRACES_SHOWN,
            }
        })
        .collect();
    PageModel {
        total_traces: diagnosis.traces.len(),
        deadlocks: diagnosis
            .deadlocks
            .iter()
            .map(|s| index.line_of(s.start))
            .collect(),
        index: rows,
        threads: diagnosis
            .traces
            .iter()
            .filter(|d| d.trace.thread.is_some())
            .map(|d| d.occurrences)
            .sum(),
        diagnosed_traces: diagnosis
            .traces
            .iter()
            .filter(|d| !d.findings.is_empty())
            .count(),
        traces,
        hidden_traces: diagnosis.traces.len().saturating_sub(MAX_TRACES_SHOWN),
        problems: diagnosis
            .problems
            .iter()
            .map(|p| (index.line_of(p.span.start), lang.problem(p)))
            .collect(),
        input_bytes: input.len(),
    }
}

fn trace_view(
    number: usize,
    d: &TraceDiagnosis,
    index: &LineIndex,
    prefix: &str,
    lang: Lang,
) -> TraceView {
    let m = lang.msgs();
    let t = &d.trace;
    let line = |offset: usize| index.line_of(offset);
    // Role labels per (throwable, frame) from every finding.
    let decisive = crate::frames::decisive_frame(t);
    let roles_at = |ti: usize, fi: Option<usize>| -> Vec<String> {
        let mut roles: Vec<String> = Vec::new();
        for f in &d.findings {
            for h in f
                .highlights
                .iter()
                .filter(|h| h.throwable == ti && h.frame == fi)
            {
                let role = crate::lang::role(rules::by_id(&f.rule), &h.role, lang);
                if !roles.iter().any(|r| r == role) {
                    roles.push(role.to_owned());
                }
            }
        }
        // No rule explains it: point at the frame to look at first.
        if d.findings.is_empty()
            && t.thread.is_none()
            && ti == d.root_cause
            && fi.is_some()
            && fi == decisive
        {
            let f = fi.and_then(|k| t.throwables[ti].frames.get(k));
            roles.push(
                if f.is_some_and(|f| group_of(&f.class) == FrameGroup::User) {
                    m.innermost_own_frame.to_owned()
                } else {
                    m.mark_thrown.to_owned()
                },
            );
        }
        roles
    };
    let order = t.search_order();
    let depths = depths(t);
    let root = d.root_cause;
    // A text that stops before its root cause: the last throwable printed is not called the
    // root cause.
    let root_name = if d.cut.as_ref().is_some_and(|c| c.certain()) {
        "last printed"
    } else {
        "root cause"
    };
    // Frames the trace may still show one by one (see MAX_SHOWN_FRAMES_PER_TRACE).
    let budget = std::cell::Cell::new(MAX_SHOWN_FRAMES_PER_TRACE);
    // Blocks the trace may still make (see MAX_BLOCKS_PER_TRACE).
    let block_budget = std::cell::Cell::new(MAX_BLOCKS_PER_TRACE);
    let exception_view = |ti: usize| -> ExceptionView {
        let th = &t.throwables[ti];
        let id = format!("{prefix}t{number}-e{ti}");
        let frames: Vec<FrameView> = th
            .frames
            .iter()
            .enumerate()
            .map(|(fi, f)| frame_view(&id, fi, f, line(f.span.start), roles_at(ti, Some(fi))))
            .collect();
        let any_roles = frames.iter().any(|f| !f.roles.is_empty());
        let header_lines = LineRange::of_span(index, th.header_span);
        let clipped = clip_message_parts(th.message.as_deref().unwrap_or(""));
        let at_line = |offset: usize| (header_lines.first + offset).min(header_lines.last);
        let left_out_lines = clipped
            .left_out
            .map(|cut| LineRange::new(at_line(cut.first), at_line(cut.last)));
        ExceptionView {
            parent: match th.relation {
                Relation::SuppressedBy(p) => Some(t.throwables[p].simple_class().to_owned()),
                _ => None,
            },
            depth: depths[ti],
            relation: relation_of(t, ti, root, root_name).to_owned(),
            class: th.class.clone(),
            logged: th
                .logged
                .as_ref()
                .map(|l| lang.logged_line(&l.level, &l.logger)),
            message: clipped.head.into_owned(),
            message_more: clipped.left_out.zip(left_out_lines).map(|(cut, range)| {
                lang.chars_left_out(
                    cut.chars,
                    &range.label(),
                    range.first < range.last,
                    !clipped.tail.is_empty(),
                )
            }),
            message_tail: clipped.tail.to_owned(),
            message_more_lines: left_out_lines,
            line: line(th.header_span.start),
            header_lines,
            roles: roles_at(ti, None),
            restored: th
                .frames
                .iter()
                .filter(|f| f.expanded_from.is_some())
                .count(),
            open: ti == root || any_roles,
            blocks: {
                let b = blocks_with(
                    lang,
                    frames,
                    budget.get().min(MAX_SHOWN_FRAMES),
                    block_budget.get().min(MAX_BLOCKS),
                );
                block_budget.set(block_budget.get().saturating_sub(b.len()));
                let shown: usize = b
                    .iter()
                    .map(|b| match b {
                        FrameBlock::Shown(f) => f.len(),
                        FrameBlock::Folded { .. } => 0,
                    })
                    .sum();
                budget.set(budget.get().saturating_sub(shown));
                b
            },
            skipped_after: None,
            id,
        }
    };
    // Throwables a finding points at are always shown in full.
    let mut pointed = vec![false; t.throwables.len()];
    for h in d.findings.iter().flat_map(|f| &f.highlights) {
        if let Some(p) = pointed.get_mut(h.throwable) {
            *p = true;
        }
    }
    let keep = shown_positions(&order, t.cause_chain().len(), &pointed);
    let mut chain: Vec<ExceptionView> = Vec::new();
    let mut gap: Vec<usize> = Vec::new();
    for (&ti, &kept) in order.iter().zip(&keep) {
        if !kept {
            gap.push(ti);
            continue;
        }
        if let Some(last) = chain.last_mut() {
            if !gap.is_empty() {
                last.skipped_after = Some(skipped_causes(
                    t, &gap, &last.id, index, root, root_name, lang,
                ));
                gap.clear();
            }
        }
        chain.push(exception_view(ti));
    }
    if let Some(last) = chain.last_mut() {
        if !gap.is_empty() {
            last.skipped_after = Some(skipped_causes(
                t, &gap, &last.id, index, root, root_name, lang,
            ));
        }
    }
    let mut facts = Vec::new();
    if let Some(id) = d.context.checkpoint_id {
        facts.push(Fact {
            key: "checkpoint".into(),
            label: m.fact_checkpoint.into(),
            value: id.to_string(),
        });
    }
    if let Some(task) = &d.context.task {
        facts.push(Fact {
            key: "operators".into(),
            label: m.fact_operators.into(),
            value: crate::wording::cap_name(
                &task.operators.join(" → "),
                crate::wording::MAX_NAME_CHARS,
            ),
        });
        facts.push(Fact {
            key: "subtask".into(),
            label: m.fact_subtask.into(),
            value: format!("{}{}{}", task.subtask, m.fact_subtask_of, task.parallelism),
        });
        if let Some(a) = task.attempt {
            facts.push(Fact {
                key: "attempt".into(),
                label: m.fact_attempt.into(),
                value: a.to_string(),
            });
        }
    }
    if let Some(time) = &d.context.time {
        facts.push(Fact {
            key: "time".into(),
            label: m.fact_time.into(),
            value: time.clone(),
        });
    }
    if d.flink {
        facts.push(Fact {
            key: "version".into(),
            label: m.fact_version.into(),
            value: crate::lang::version_summary(&d.flink_version.summary, lang),
        });
    }
    let findings = d
        .findings
        .iter()
        .filter_map(|f| {
            let rule = rules::by_id(&f.rule)?;
            let text = crate::lang::rule_text(rule, lang);
            let notes = crate::lang::finding_notes(f, d, lang);
            Some(FindingView {
                rule: f.rule.clone(),
                title: text.title.to_owned(),
                severity: rule.def.severity.clone(),
                summary_html: text.summary.html.clone(),
                explanation: {
                    // Flink's docs for the release the trace shows, where the page is there.
                    let mut e = ExplanationView::of_in(rule, lang);
                    let minor = crate::docs::release_minor(&d.flink_version);
                    for (_, url) in &mut e.references {
                        *url = crate::docs::for_release(url, minor);
                    }
                    e
                },
                evidence: f.evidence.clone(),
                reading_html: f
                    .notes
                    .iter()
                    .rev()
                    .map(|n| {
                        crate::lang::step_note(Some(rule), &n.step, &n.frame, lang)
                            .map_or_else(|| n.html.clone(), |(_, html)| html)
                    })
                    .collect(),
                versions: text.versions.to_owned(),
                version_mismatch: notes.version_mismatch,
                platform_assumed: notes.platform_assumed,
                culprit: notes.culprit,
                diagram: text.diagram.map(|def| crate::diagram::build(def, d)),
                highlights: f
                    .highlights
                    .iter()
                    .map(|h| {
                        let th = &t.throwables[h.throwable];
                        let (name, dom) =
                            match h.frame.and_then(|k| th.frames.get(k).map(|fr| (k, fr))) {
                                Some((k, fr)) => (
                                    format!("{}.{}", fr.simple_class(), fr.method),
                                    format!("{prefix}t{number}-e{}-f{k}", h.throwable),
                                ),
                                None => (
                                    th.label(true),
                                    format!("{prefix}t{number}-e{}", h.throwable),
                                ),
                            };
                        let role = crate::lang::role(Some(rule), &h.role, lang);
                        (role.to_owned(), name, line(h.span.start), dom)
                    })
                    .collect(),
            })
        })
        .collect();
    // What to search for when no rule explains the trace (read once: the card and its links).
    let search_terms = (d.findings.is_empty() && t.thread.is_none())
        .then(|| crate::frames::search_terms(t))
        .filter(|s| !s.trim().is_empty());
    TraceView {
        dom_id: format!("{prefix}t{number}"),
        number,
        occurrences: d.occurrences,
        lines: (
            line(t.span.start),
            line(t.span.end.saturating_sub(1).max(t.span.start)),
        ),
        facts,
        version_reasons: d.flink_version.reasons.clone(),
        findings,
        chain,
        flink: d.flink,
        thread: t
            .thread
            .as_ref()
            .map(|th| (th.name.clone(), th.state.clone())),
        numbered: numbered(t, index),
        searches: search_terms
            .as_deref()
            .map(|terms| {
                searches_in(
                    terms,
                    d.answer
                        .as_ref()
                        .and_then(|a| a.component.tracker.as_deref()),
                    // A trace of another platform (Spark's) is not asked about on Flink's lists.
                    d.flink || crate::evidence::other_platform(t).is_none(),
                    lang,
                )
            })
            .unwrap_or_default(),
        search_terms,
        answer: d.answer.as_ref().map(|a| {
            (
                a.component.id.clone(),
                crate::lang::no_rule_sentences(a, t, lang),
            )
        }),
        flink_evidence: d
            .evidence
            .iter()
            .map(|e| crate::lang::evidence_at(e, index, lang))
            .collect(),
        cut: d
            .cut
            .as_ref()
            .map(|c| crate::lang::cut_sentence(c, t, lang)),
        cut_certain: d.cut.as_ref().is_some_and(|c| c.certain()),
        root_cause: {
            let root = &t.throwables[d.root_cause];
            let first = |m: &str| clip_chars(first_line(m), MAX_ROOT_CAUSE_CHARS).into_owned();
            match (&root.message, root.class.is_empty(), &root.logged) {
                (Some(m), false, _) => format!("{}: {}", root.class, first(m)),
                (None, false, _) => root.class.clone(),
                // No class: what stands in its place, as in the cause chain.
                (Some(m), true, Some(l)) => {
                    format!("({}) {}", lang.logged_line(&l.level, &l.logger), first(m))
                }
                (Some(m), true, None) => format!("{} {}", lang.msgs().no_header_message, first(m)),
                (None, true, _) if !root.frames.is_empty() => {
                    lang.msgs().no_header_frames.to_owned()
                }
                (None, true, _) => lang.msgs().nothing_readable.to_owned(),
            }
        },
    }
}

/// Flink's JIRA project page, as the component table names it.
const FLINK_JIRA_PROJECT: &str = "https://issues.apache.org/jira/projects/FLINK";

/// `terms` (quoted phrases, `"IOException" "Could not perform checkpoint"`) as searches:
/// lists.apache.org's archives of user@ and user-zh@ (`list?<list>:lte=<age>:<query>`), and a
/// JIRA project or GitHub repository's issues for `tracker` (Flink's JIRA when it is none or
/// Flink's). Empty terms give no searches.
pub fn searches(terms: &str, tracker: Option<&str>) -> Vec<(String, String)> {
    searches_in(terms, tracker, true, Lang::En)
}

/// [`searches`] with their labels in `lang`; Flink's archives and JIRA only when `flinks` (a
/// trace of another platform is searched for in its own tracker alone).
pub fn searches_in(
    terms: &str,
    tracker: Option<&str>,
    flinks: bool,
    lang: Lang,
) -> Vec<(String, String)> {
    let zh = lang == Lang::Zh;
    if terms.trim().is_empty() {
        return Vec::new();
    }
    let q = percent_encode(terms);
    let words = percent_encode(
        &terms
            .replace('"', " ")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" "),
    );
    let jira = |key: &str| {
        format!(
            "https://issues.apache.org/jira/issues/?jql=project%20%3D%20{key}%20AND%20text%20~%20%22{words}%22"
        )
    };
    let mut out = Vec::new();
    if flinks {
        out.extend([
            (
                if zh {
                    "user@flink.apache.org 邮件归档"
                } else {
                    "the user@flink.apache.org archive"
                }
                .to_owned(),
                format!("https://lists.apache.org/list?user@flink.apache.org:lte=120M:{q}"),
            ),
            (
                if zh {
                    "user-zh@flink.apache.org 邮件归档"
                } else {
                    "the user-zh@flink.apache.org archive"
                }
                .to_owned(),
                format!("https://lists.apache.org/list?user-zh@flink.apache.org:lte=120M:{q}"),
            ),
            (
                if zh { "Flink 的 JIRA" } else { "Flink's JIRA" }.to_owned(),
                jira("FLINK"),
            ),
        ]);
    }
    match tracker {
        Some(t) if t != FLINK_JIRA_PROJECT => {
            if let Some(rest) = t.strip_prefix("https://issues.apache.org/jira/projects/") {
                // `FLINK (component Flink CDC)`: the project key is the first word.
                let key = rest.split([' ', '/']).next().unwrap_or(rest);
                if key != "FLINK" && !key.is_empty() {
                    let label = if zh {
                        format!("{key} 的 JIRA")
                    } else {
                        format!("the {key} JIRA")
                    };
                    out.push((label, jira(key)));
                }
            } else if let Some(repo) = t
                .strip_prefix("https://github.com/")
                .and_then(|r| r.strip_suffix("/issues"))
            {
                let label = if zh {
                    format!("{repo} 的 GitHub issues")
                } else {
                    format!("{repo}'s GitHub issues")
                };
                out.push((label, format!("{t}?q={q}")));
            }
        }
        _ => {}
    }
    out
}

/// `s` with every byte but the URL's unreserved characters (`A-Z a-z 0-9 - . _ ~`)
/// percent-encoded, for a query value.
fn percent_encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Threads of a thread dump by interest: blocked ones first, then Flink task threads, then
/// other threads with a stack, then those without; exception traces rank with the first.
fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or("")
}

/// `s` cut after `max` characters, with `…` when cut.
fn clip_chars(s: &str, max: usize) -> std::borrow::Cow<'_, str> {
    match s.char_indices().nth(max) {
        Some((at, _)) => format!("{}…", &s[..at]).into(),
        None => s.into(),
    }
}

/// A message cut for the message block by [`clip_message_parts`].
#[derive(Debug, PartialEq)]
pub struct ClippedMessage<'a> {
    /// The beginning (all of it when nothing was left out); ends with `…` when cut inside a line.
    pub head: std::borrow::Cow<'a, str>,
    /// What was left out after `head`, if anything.
    pub left_out: Option<LeftOut>,
    /// The last whole lines, after what was left out (empty when nothing was, or when the last
    /// line alone is over [`MESSAGE_TAIL_CHARS`]).
    pub tail: &'a str,
}

/// The part of a message the message block leaves out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LeftOut {
    /// Characters left out.
    pub chars: usize,
    /// Where it starts and ends, in line breaks of the message before it (0: the header line).
    pub first: usize,
    /// See `first`.
    pub last: usize,
}

/// A message as the message block shows it: whole when it has at most [`MAX_MESSAGE_CHARS`]
/// characters and [`MAX_MESSAGE_LINES`] lines; else its beginning, what was left out, and its
/// last lines ([`MESSAGE_TAIL_LINES`], [`MESSAGE_TAIL_CHARS`]), all within those limits.
pub fn clip_message_parts(message: &str) -> ClippedMessage<'_> {
    let (head, more) = clip_message(message);
    if more.is_none() {
        return ClippedMessage {
            head,
            left_out: None,
            tail: "",
        };
    }
    // Whole lines from the end, within the tail's limits.
    let (mut tail_start, mut end, mut tail_chars, mut tail_lines) = (None, message.len(), 0, 0);
    for (nl, _) in message.rmatch_indices('\n') {
        let chars = message[nl + 1..end]
            .chars()
            .take(MESSAGE_TAIL_CHARS + 1)
            .count();
        if tail_lines == MESSAGE_TAIL_LINES || tail_chars + chars > MESSAGE_TAIL_CHARS {
            break;
        }
        (tail_start, end, tail_chars, tail_lines) =
            (Some(nl + 1), nl, tail_chars + chars, tail_lines + 1);
    }
    let Some(tail_start) = tail_start else {
        let left_out = more.map(|(chars, below)| LeftOut {
            chars,
            first: below,
            last: message.matches('\n').count(),
        });
        return ClippedMessage {
            head,
            left_out,
            tail: "",
        };
    };
    let body = &message[..tail_start - 1];
    let (head, more) = clip_message_to(
        body,
        MAX_MESSAGE_CHARS.saturating_sub(tail_chars).max(1),
        MAX_MESSAGE_LINES.saturating_sub(tail_lines).max(1),
    );
    match more {
        Some((chars, below)) => ClippedMessage {
            head,
            left_out: Some(LeftOut {
                chars,
                first: below,
                last: body.matches('\n').count(),
            }),
            tail: &message[tail_start..],
        },
        None => ClippedMessage {
            head: message.into(),
            left_out: None,
            tail: "",
        },
    }
}

/// A message as the message block shows it: at most [`MAX_MESSAGE_CHARS`] characters and
/// [`MAX_MESSAGE_LINES`] lines (cut inside a line, it ends with `…`), and when cut, how many
/// characters were left out and how many line breaks the kept part holds (the rest starts that
/// many lines below the header).
pub fn clip_message(message: &str) -> (std::borrow::Cow<'_, str>, Option<(usize, usize)>) {
    clip_message_to(message, MAX_MESSAGE_CHARS, MAX_MESSAGE_LINES)
}

/// [`clip_message`] to at most `max_chars` characters and `max_lines` lines.
fn clip_message_to(
    message: &str,
    max_chars: usize,
    max_lines: usize,
) -> (std::borrow::Cow<'_, str>, Option<(usize, usize)>) {
    let mut breaks = 0;
    let mut cut = None;
    for (chars, (at, c)) in message.char_indices().enumerate() {
        if chars == max_chars {
            cut = Some(at);
            break;
        }
        if c == '\n' {
            breaks += 1;
            if breaks == max_lines {
                cut = Some(at);
                break;
            }
        }
    }
    let Some(at) = cut else {
        return (message.into(), None);
    };
    let (kept, rest) = message.split_at(at);
    let (rest, at_a_break) = match rest.strip_prefix('\n') {
        Some(r) => (r, true),
        None => (rest, false),
    };
    let more = rest.chars().count();
    if more == 0 {
        return (kept.into(), None);
    }
    let below = kept.matches('\n').count() + usize::from(at_a_break);
    let shown = if at_a_break {
        kept.into()
    } else {
        format!("{kept}…").into()
    };
    (shown, Some((more, below)))
}

/// Whether the input's line numbers mean something for `t`: it spans more than one line, and its
/// frames (as printed, not restored from `... N more`) sit on lines of their own, at least most
/// of them (a frame or two run together by a mail client still leave the numbers useful; a
/// trace printed one throwable a line does not).
fn numbered(t: &crate::model::Trace, index: &LineIndex) -> bool {
    let first = index.line_of(t.span.start);
    let last = index.line_of(t.span.end.saturating_sub(1).max(t.span.start));
    if first == last {
        return false;
    }
    let mut lines: Vec<usize> = t
        .throwables
        .iter()
        .flat_map(|th| &th.frames)
        .filter(|f| f.expanded_from.is_none())
        .map(|f| index.line_of(f.span.start))
        .collect();
    let n = lines.len();
    lines.sort_unstable();
    lines.dedup();
    lines.len() * 2 > n || n == 0
}

/// How the page names throwable `ti` of `t` (`root cause`, `wrapped by`, `suppressed`); the
/// root cause (index `root`) is named `root_name` (`last printed` when the text stops before
/// the real one).
fn relation_of(
    t: &crate::model::Trace,
    ti: usize,
    root: usize,
    root_name: &'static str,
) -> &'static str {
    match t.throwables[ti].relation {
        _ if t.thread.is_some() => "thread",
        _ if ti == root => root_name,
        Relation::SuppressedBy(_) => "suppressed",
        _ => "wrapped by",
    }
}

/// Which positions of `order` (the display order: the cause chain from the root cause up, its
/// first `chain_len` entries, then the others) are shown in full: all when there are at most
/// [`MAX_CHAIN_SHOWN`]; else the first [`CHAIN_HEAD`], the [`CHAIN_TAIL`] outermost of the
/// cause chain, and every throwable `pointed` marks (a finding points at it).
fn shown_positions(order: &[usize], chain_len: usize, pointed: &[bool]) -> Vec<bool> {
    if order.len() <= MAX_CHAIN_SHOWN {
        return vec![true; order.len()];
    }
    let chain_len = chain_len.min(order.len());
    order
        .iter()
        .enumerate()
        .map(|(pos, &ti)| {
            pos < CHAIN_HEAD
                || (pos < chain_len && pos + CHAIN_TAIL >= chain_len)
                || pointed.get(ti).copied().unwrap_or(false)
        })
        .collect()
}

/// The line that stands for the throwables `gap` of `t` (left out of a long trace), listed
/// after the throwable whose DOM id is `after`.
fn skipped_causes(
    t: &crate::model::Trace,
    gap: &[usize],
    after: &str,
    index: &LineIndex,
    root: usize,
    root_name: &'static str,
    lang: Lang,
) -> SkippedCauses {
    let mut first = usize::MAX;
    let mut last = 0;
    for &ti in gap {
        let th = &t.throwables[ti];
        let mut end = th.header_span.end;
        if let Some(f) = th.frames.iter().rfind(|f| f.expanded_from.is_none()) {
            end = end.max(f.span.end);
        }
        let r = LineRange::new(
            index.line_of(th.header_span.start),
            index.line_of(end.saturating_sub(1).max(th.header_span.start)),
        );
        first = first.min(r.first);
        last = last.max(r.last);
    }
    let in_chain = gap
        .iter()
        .all(|&ti| matches!(t.throwables[ti].relation, Relation::CauseOf(_)));
    let suppressed = gap
        .iter()
        .all(|&ti| matches!(t.throwables[ti].relation, Relation::SuppressedBy(_)));
    let n = gap.len();
    let kind = match (in_chain, suppressed) {
        (true, _) => "cause",
        (_, true) => "suppressed",
        _ => "throwable",
    };
    SkippedCauses {
        id: format!("{after}-more"),
        label: lang.more_throwables(n, kind),
        count: n,
        lines: LineRange::new(first.min(last), last),
        listed: gap
            .iter()
            .take(MAX_SKIPPED_LISTED)
            .map(|&ti| {
                let th = &t.throwables[ti];
                SkippedCause {
                    relation: relation_of(t, ti, root, root_name).to_owned(),
                    class: th.class.clone(),
                    message: th
                        .message
                        .as_deref()
                        .map(|m| clip_chars(first_line(m), 140).into_owned())
                        .unwrap_or_default(),
                    line: index.line_of(th.header_span.start),
                }
            })
            .collect(),
    }
}

/// How many `Suppressed:` levels hold each throwable, in one pass (a parent always has a
/// smaller index than its cause or suppressed throwable).
fn depths(t: &crate::model::Trace) -> Vec<usize> {
    let mut d = vec![0; t.throwables.len()];
    for i in 0..t.throwables.len() {
        d[i] = match t.throwables[i].relation {
            Relation::SuppressedBy(p) if p < i => d[p] + 1,
            Relation::CauseOf(p) if p < i => d[p],
            _ => 0,
        };
    }
    d
}

fn frame_view(prefix: &str, fi: usize, f: &Frame, line: usize, roles: Vec<String>) -> FrameView {
    let simple = f.simple_class();
    let package = f.class[..f.class.len() - simple.len()].to_owned();
    FrameView {
        id: format!("{prefix}-f{fi}"),
        package,
        name: format!("{simple}.{}", f.method),
        location: match &f.location {
            Location::Source {
                file,
                line: Some(l),
            } => format!("{file}:{l}"),
            Location::Source { file, line: None } => file.clone(),
            Location::Native => "Native Method".into(),
            Location::Unknown => "Unknown Source".into(),
        },
        line,
        group: group_of(&f.class),
        restored: f.expanded_from.is_some(),
        roles,
    }
}

/// Why frames fold together while [`blocks`] groups them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FoldKey {
    /// Printed frames of one group (JDK, Flink runtime, …).
    Group(FrameGroup),
    /// Frames restored from `... N more`, whatever their group.
    Restored,
    /// The middle of a long run of shown frames.
    Long,
    /// Frames past [`MAX_BLOCKS`].
    Rest,
}

/// A run of frames while [`blocks`] groups them: shown (`None`) or folded.
struct Run {
    fold: Option<FoldKey>,
    frames: Vec<FrameView>,
}

/// Appends `f` to the last run when it has the same `fold`, else starts a run.
fn push_frame(runs: &mut Vec<Run>, fold: Option<FoldKey>, f: FrameView) {
    match runs.last_mut() {
        Some(r) if r.fold == fold => r.frames.push(f),
        _ => runs.push(Run {
            fold,
            frames: vec![f],
        }),
    }
}

/// Shows the folds shorter than [`MIN_FOLD`] and merges neighbouring shown runs.
fn settle(runs: Vec<Run>) -> Vec<Run> {
    let mut out: Vec<Run> = Vec::new();
    for mut r in runs {
        if r.frames.len() < MIN_FOLD {
            r.fold = None;
        }
        match out.last_mut() {
            Some(last) if last.fold.is_none() && r.fold.is_none() => last.frames.extend(r.frames),
            _ => out.push(r),
        }
    }
    out
}

/// Groups frames: highlighted and user-code frames are shown; runs of other frames of one group
/// fold under a label, and so do the frames restored from `... N more` (all of them, whatever
/// their group: they repeat the enclosing throwable's frames).
///
/// The first frame (where the throwable was thrown) is always shown, and runs shorter than
/// [`MIN_FOLD`] are shown rather than folded. To keep the page small whatever the input, a run
/// of shown frames longer than [`MAX_SHOWN_RUN`] folds its middle, the frames past
/// [`MAX_BLOCKS`] blocks fold together, and a fold holds at most [`MAX_FOLD_FRAMES`] frames;
/// highlighted frames are never folded.
pub fn blocks(frames: Vec<FrameView>) -> Vec<FrameBlock> {
    blocks_with(Lang::En, frames, MAX_SHOWN_FRAMES, MAX_BLOCKS)
}

/// [`blocks`], showing at most `max_shown` frames one by one (besides the first frame and the
/// highlighted ones) in at most about `max_blocks` blocks; the trace passes what is left of
/// [`MAX_SHOWN_FRAMES_PER_TRACE`] and [`MAX_BLOCKS_PER_TRACE`].
pub fn blocks_with(
    lang: Lang,
    frames: Vec<FrameView>,
    max_shown: usize,
    max_blocks: usize,
) -> Vec<FrameBlock> {
    let max_blocks = max_blocks.max(2);
    let mut runs: Vec<Run> = Vec::new();
    for (k, f) in frames.into_iter().enumerate() {
        let fold = if k == 0 || !f.roles.is_empty() {
            None
        } else if f.restored {
            Some(FoldKey::Restored)
        } else if f.group == FrameGroup::User {
            None
        } else {
            Some(FoldKey::Group(f.group))
        };
        push_frame(&mut runs, fold, f);
    }
    let runs = settle(runs);
    // Long shown runs keep their ends (the first frame of the throwable is in the head).
    let mut trimmed: Vec<Run> = Vec::new();
    for r in runs {
        let n = r.frames.len();
        if r.fold.is_some() || n <= MAX_SHOWN_RUN {
            trimmed.push(r);
            continue;
        }
        for (i, f) in r.frames.into_iter().enumerate() {
            let keep = i < SHOWN_RUN_HEAD || i + SHOWN_RUN_TAIL >= n || !f.roles.is_empty();
            push_frame(&mut trimmed, (!keep).then_some(FoldKey::Long), f);
        }
    }
    // Past the budget of shown frames, the rest fold (the first frame and highlighted ones stay).
    let mut capped: Vec<Run> = Vec::new();
    let mut shown = 0;
    for r in settle(trimmed) {
        if r.fold.is_some() {
            capped.push(r);
            continue;
        }
        for f in r.frames {
            let keep = shown < max_shown.max(1) || !f.roles.is_empty();
            if keep {
                shown += 1;
            }
            push_frame(&mut capped, (!keep).then_some(FoldKey::Rest), f);
        }
    }
    let mut runs = settle(capped);
    if runs.len() > max_blocks {
        let rest = runs.split_off(max_blocks - 1);
        for f in rest.into_iter().flat_map(|r| r.frames) {
            let fold = f.roles.is_empty().then_some(FoldKey::Rest);
            push_frame(&mut runs, fold, f);
        }
        runs = settle(runs);
    }
    let mut out = Vec::new();
    for r in runs {
        if r.fold.is_none() {
            out.push(FrameBlock::Shown(r.frames));
            continue;
        }
        let parts = r.frames.len().div_ceil(MAX_FOLD_FRAMES);
        let size = r.frames.len().div_ceil(parts.max(1)).max(1);
        // Front to back, each frame moved once (splitting the tail off again and again moved
        // the rest of the run each time: quadratic in the frames of one long fold).
        let mut frames = r.frames.into_iter().peekable();
        while frames.peek().is_some() {
            out.push(folded(lang, frames.by_ref().take(size).collect()));
        }
    }
    out
}

/// A fold of `frames` (not empty), with its label and its input lines.
fn folded(lang: Lang, frames: Vec<FrameView>) -> FrameBlock {
    let mut lines = LineRange::new(frames[0].line, frames[0].line);
    for f in &frames {
        lines = LineRange::new(lines.first.min(f.line), lines.last.max(f.line));
    }
    let group = frames[0].group;
    let label = lang.fold_label(
        frames.len(),
        frames.iter().all(|f| f.group == group).then_some(group),
        frames.iter().all(|f| f.restored),
    );
    FrameBlock::Folded {
        label,
        frames,
        lines,
    }
}

#[cfg(test)]
mod cut_tests {
    #[test]
    fn the_last_throwable_of_a_cut_text_is_not_called_the_root_cause() {
        let text = "org.apache.flink.runtime.JobException: Recovery is suppressed by NoRestartBackoffTimeStrategy\n\tat org.apache.flink.runtime.executiongraph.failover.flip1.ExecutionFailureHandler.handleFailure(ExecutionFailureHandler.java:138)\n";
        let page = super::build(text, &crate::diagnose(text));
        assert_eq!(page.traces[0].chain[0].relation, "last printed");
        assert!(page.traces[0].cut_certain);
        let whole = "java.util.ConcurrentModificationException\n\tat java.util.HashMap$HashIterator.nextNode(HashMap.java:1445)\n";
        let page = super::build(whole, &crate::diagnose(whole));
        assert_eq!(page.traces[0].chain[0].relation, "root cause");
    }
}

#[cfg(test)]
mod search_tests {
    use super::*;

    #[test]
    fn searches_go_to_the_archives_flinks_jira_and_the_components_tracker() {
        let s = searches(
            "\"IOException\" \"Could not connect\"",
            Some("https://github.com/apache/flink-cdc/issues"),
        );
        let urls: Vec<&str> = s.iter().map(|(_, u)| u.as_str()).collect();
        assert_eq!(
            urls[0],
            "https://lists.apache.org/list?user@flink.apache.org:lte=120M:%22IOException%22%20%22Could%20not%20connect%22"
        );
        assert!(urls[2].starts_with("https://issues.apache.org/jira/issues/?jql=project%20%3D%20FLINK%20AND%20text%20~%20%22IOException%20Could%20not%20connect%22"));
        assert_eq!(
            urls[3],
            "https://github.com/apache/flink-cdc/issues?q=%22IOException%22%20%22Could%20not%20connect%22"
        );
        assert_eq!(searches("  ", None), Vec::new());
        let kafka = searches(
            "\"X\"",
            Some("https://issues.apache.org/jira/projects/KAFKA"),
        );
        assert!(kafka[3].1.contains("project%20%3D%20KAFKA"), "{kafka:?}");
        assert_eq!(searches("\"X\"", Some(FLINK_JIRA_PROJECT)).len(), 3);
        let cdc = "https://issues.apache.org/jira/projects/FLINK (component Flink CDC)";
        assert_eq!(searches("\"X\"", Some(cdc)).len(), 3);
    }

    #[test]
    fn a_trace_of_another_platform_is_searched_for_there_not_on_flinks_lists() {
        // A helper's try-out: a Spark executor's error (a real post, tests/corpus/control) was
        // sent to user@flink.apache.org and Flink's JIRA, its thrower "the library in
        // `org.apache.spark`".
        let input = include_str!(
            "../../tests/corpus/control/d-spark-k8s-executor-heartbeater-error-sending.txt"
        );
        let model = build(input, &crate::diagnose::diagnose(input));
        let spark = model
            .traces
            .iter()
            .find(|t| t.root_cause.starts_with("org.apache.spark.SparkException"))
            .expect("the Spark trace");
        let urls: Vec<&str> = spark.searches.iter().map(|(_, u)| u.as_str()).collect();
        assert!(!urls.is_empty());
        assert!(
            urls.iter().all(|u| !u.contains("flink.apache.org")
                && !u.contains("project%20%3D%20FLINK%20")),
            "{urls:?}"
        );
        assert!(
            urls.iter().any(|u| u.contains("project%20%3D%20SPARK")),
            "{urls:?}"
        );
        assert_eq!(
            spark.answer.as_ref().map(|(id, _)| id.as_str()),
            Some("spark")
        );
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_trace_shows_a_bounded_number_of_frames_whatever_its_shape() {
        // Runs of 25 frames of the person's own code, each followed by 3 reflection frames, in a
        // chain of 20 throwables: every run would otherwise keep 16 frames on the page.
        let mut text = String::new();
        for t in 0..20 {
            if t == 0 {
                text.push_str("java.lang.IllegalStateException: outer\n");
            } else {
                text.push_str(&format!(
                    "Caused by: java.lang.RuntimeException: level {t}\n"
                ));
            }
            for run in 0..10 {
                for k in 0..25 {
                    text.push_str(&format!(
                        "\tat com.acme.app.Service{t}.step{run}x{k}(Service.java:{})\n",
                        10 + k
                    ));
                }
                for _ in 0..3 {
                    text.push_str("\tat jdk.internal.reflect.GeneratedMethodAccessor1.invoke(Unknown Source)\n");
                }
            }
        }
        let page = build(&text, &crate::diagnose(&text));
        let t = &page.traces[0];
        let shown: usize = t
            .chain
            .iter()
            .flat_map(|e| &e.blocks)
            .map(|b| match b {
                FrameBlock::Shown(f) => f.len(),
                FrameBlock::Folded { .. } => 0,
            })
            .sum();
        assert!(
            shown <= MAX_SHOWN_FRAMES_PER_TRACE + t.chain.len(),
            "{shown} frames shown one by one"
        );
        let blocks: usize = t.chain.iter().map(|e| e.blocks.len()).sum();
        // Each throwable past the budget still makes a few (its first frame, a fold, the
        // highlighted frames).
        assert!(
            blocks <= MAX_BLOCKS_PER_TRACE + 4 * t.chain.len(),
            "{blocks} blocks"
        );
    }

    use super::*;

    #[test]
    fn the_page_model_in_chinese_uses_the_chinese_texts() {
        let input = crate::FLAGSHIP_EXAMPLE;
        let d = crate::diagnose(input);
        let zh = build_lang(input, &d, "", Lang::Zh);
        let en = build(input, &d);
        let (t, e) = (&zh.traces[0], &en.traces[0]);
        let f = &t.findings[0];
        assert_eq!(f.rule, "async-wait-inflight-cme");
        assert!(f.title.contains("在途记录"), "{}", f.title);
        assert!(f.summary_html.contains("<code>ResultFuture</code>"));
        assert!(f.explanation.fixes_html[0].contains("task 线程"));
        assert_eq!(f.explanation.sections[0].0, "为什么只是偶尔失败");
        assert!(
            f.reading_html.iter().any(|r| r.contains("同步阶段")),
            "{:?}",
            f.reading_html
        );
        assert!(f.highlights.iter().any(|h| h.0 == "正在被迭代的 map"));
        let diagram = f.diagram.as_ref().expect("a diagram");
        assert!(diagram.title.contains("两个线程"), "{}", diagram.title);
        let labels: Vec<&str> = t.facts.iter().map(|x| x.label.as_str()).collect();
        assert!(
            labels.contains(&"算子链") && labels.contains(&"子任务"),
            "{labels:?}"
        );
        assert!(t.facts.iter().any(|x| x.value == "18 / 60"));
        assert_eq!(zh.index.len(), en.index.len());
        // The same model otherwise: the chain, its ids and relations are language-free keys.
        assert_eq!(t.chain.len(), e.chain.len());
        assert_eq!(t.chain[0].relation, "root cause");
        assert_eq!(
            e.findings[0].title,
            crate::rules::by_id(&f.rule).expect("rule").def.title
        );
        // A cut text says so in Chinese.
        let cut = "java.io.IOException: Could not perform checkpoint 5 for operator x (1/1)#0.\n\tat org.apache.flink.streaming.runtime.tasks.StreamTask.triggerCheckpointOnBarrier(StreamTask.java:1045)\n";
        let page = build_lang(cut, &crate::diagnose(cut), "", Lang::Zh);
        let note = page.traces[0].cut.as_deref().unwrap_or_default();
        assert!(
            note.starts_with("**这段文本在根本原因之前就结束了**"),
            "{note}"
        );
    }

    #[test]
    fn flagship_view_has_root_cause_first_facts_and_roles() {
        let input = crate::FLAGSHIP_EXAMPLE;
        let page = build(input, &crate::diagnose(input));
        assert_eq!(page.traces.len(), 1);
        let t = &page.traces[0];
        assert_eq!(
            t.chain[0].class,
            "java.util.ConcurrentModificationException"
        );
        assert_eq!(t.chain[0].relation, "root cause");
        assert_eq!(t.chain[2].class, "java.io.IOException");
        let fact = |k: &str| t.facts.iter().find(|f| f.key == k).map(|f| f.value.clone());
        assert_eq!(fact("checkpoint").as_deref(), Some("575"));
        assert_eq!(fact("subtask").as_deref(), Some("18 of 60"));
        assert_eq!(
            fact("operators").as_deref(),
            Some("ual_transform_UserLogBlackUidJudger → ual_transform_IpLabel")
        );
        assert_eq!(t.findings[0].rule, "async-wait-inflight-cme");
        assert!(
            t.findings[0].explanation.why_html.contains("<code>"),
            "Markdown was rendered at build time"
        );
        let roles: Vec<&str> = t
            .chain
            .iter()
            .flat_map(|e| &e.blocks)
            .flat_map(|b| match b {
                FrameBlock::Shown(v) => v
                    .iter()
                    .flat_map(|f| f.roles.iter().map(String::as_str))
                    .collect::<Vec<_>>(),
                FrameBlock::Folded { .. } => vec![],
            })
            .collect();
        for want in [
            "the map being iterated",
            "Kryo copying a generic-typed POJO field",
            "the async operator's in-flight records (operator list state)",
            "synchronous phase of the operator-state snapshot",
            "checkpoint barrier arrived here",
        ] {
            assert!(roles.contains(&want), "{want} missing from {roles:?}");
        }
    }

    /// Every header, frame and fold of `page` against the input lines it claims to show.
    fn check_gutter(input: &str, page: &PageModel) -> usize {
        let lines: Vec<&str> = input.lines().collect();
        let at = |n: usize| lines.get(n.wrapping_sub(1)).copied().unwrap_or("");
        let mut checked = 0;
        let mut check_frame = |f: &FrameView| {
            let (class, method) = f.name.rsplit_once('.').unwrap_or_default();
            let want = format!("{}{class}.{method}(", f.package);
            assert!(
                at(f.line).contains(&want),
                "line {}: {:?} lacks {want}",
                f.line,
                at(f.line)
            );
            checked += 1;
        };
        for t in &page.traces {
            for e in &t.chain {
                assert_eq!(e.line, e.header_lines.first);
                assert!(
                    at(e.line).contains(e.class.rsplit('.').next().unwrap_or_default()),
                    "header line {}: {:?} lacks {}",
                    e.line,
                    at(e.line),
                    e.class
                );
                for b in &e.blocks {
                    match b {
                        FrameBlock::Shown(v) => v.iter().for_each(&mut check_frame),
                        FrameBlock::Folded { frames, lines, .. } => {
                            frames.iter().for_each(&mut check_frame);
                            let min = frames.iter().map(|f| f.line).min();
                            let max = frames.iter().map(|f| f.line).max();
                            assert_eq!((Some(lines.first), Some(lines.last)), (min, max));
                        }
                    }
                }
            }
        }
        checked
    }

    #[test]
    fn gutter_line_numbers_are_the_lines_of_the_pasted_text() {
        let input = crate::FLAGSHIP_EXAMPLE;
        let page = build(input, &crate::diagnose(input));
        let chain = &page.traces[0].chain;
        // `Caused by:` lines of tests/cases/seed.txt (1-based), root cause first.
        assert_eq!(chain[0].header_lines, LineRange::new(42, 42));
        assert_eq!(chain[1].line, 26);
        assert_eq!(
            chain[2].header_lines,
            LineRange::new(2, 4),
            "the IOException's message runs over lines 2-4"
        );
        assert_eq!(chain[2].header_lines.label(), "2–4");
        assert_eq!(chain[2].header_lines.spoken(), "lines 2 to 4");
        assert_eq!(chain[0].header_lines.spoken(), "line 42");
        let folds: Vec<LineRange> = chain
            .iter()
            .flat_map(|e| &e.blocks)
            .filter_map(|b| match b {
                FrameBlock::Folded { lines, .. } => Some(*lines),
                FrameBlock::Shown(_) => None,
            })
            .collect();
        assert!(!folds.is_empty());
        assert!(folds.iter().all(|r| r.first < r.last), "{folds:?}");
        assert!(check_gutter(input, &page) > 40);
        // The same text with CRLF line ends, behind a mail quote and a line of prose: the
        // numbers move with it.
        let quoted = format!(
            "Hi all, we see this:\r\n{}",
            input
                .lines()
                .map(|l| format!("> {l}\r\n"))
                .collect::<String>()
        );
        let page = build(&quoted, &crate::diagnose(&quoted));
        assert_eq!(page.traces[0].chain[0].line, 43);
        assert!(check_gutter(&quoted, &page) > 40);
    }

    #[test]
    fn runs_of_runtime_frames_fold_and_user_frames_show() {
        let input = "java.lang.RuntimeException: x\n\tat com.acme.Job.run(Job.java:3)\n\tat org.apache.flink.A.a(A.java:1)\n\tat org.apache.flink.B.b(B.java:2)\n\tat org.apache.flink.C.c(C.java:2)\n\tat java.lang.Thread.run(Thread.java:748)\n";
        let page = build(input, &crate::diagnose(input));
        let blocks = &page.traces[0].chain[0].blocks;
        assert_eq!(blocks.len(), 3, "{blocks:?}");
        assert!(matches!(&blocks[0], FrameBlock::Shown(v) if v[0].name == "Job.run"));
        assert!(
            matches!(&blocks[1], FrameBlock::Folded { label, .. } if label == "3 Flink runtime frames")
        );
        assert!(
            matches!(&blocks[2], FrameBlock::Shown(v) if v.len() == 1 && v[0].name == "Thread.run")
        );
    }

    #[test]
    fn the_first_frame_is_shown_even_when_it_is_runtime_code() {
        let input = "java.lang.IllegalStateException: x\n\tat java.util.A.a(A.java:1)\n\tat java.util.B.b(B.java:1)\n\tat java.util.C.c(C.java:1)\n\tat java.util.D.d(D.java:1)\n";
        let page = build(input, &crate::diagnose(input));
        let blocks = &page.traces[0].chain[0].blocks;
        assert!(matches!(&blocks[0], FrameBlock::Shown(v) if v.len() == 1 && v[0].name == "A.a"));
        assert!(matches!(&blocks[1], FrameBlock::Folded { label, .. } if label == "3 JDK frames"));
        assert!(!page.traces[0].flink, "no Flink frames");
        assert!(
            page.traces[0].facts.iter().all(|f| f.key != "version"),
            "no Flink version for non-Flink traces"
        );
    }

    /// The tester's `nested500.txt` (issue 6, D3): `levels` nested `Caused by:`, level i with
    /// one frame and `... i+1 more`, under a JobExecutionException, over a CME.
    fn nested(levels: usize) -> String {
        let mut s = String::from("org.apache.flink.runtime.client.JobExecutionException: Job execution failed.\n\tat org.apache.flink.runtime.jobmaster.JobResult.toJobExecutionResult(JobResult.java:144)\n");
        for i in 0..levels {
            s += &format!(
                "Caused by: java.lang.RuntimeException: level {i}\n\tat com.acme.L{i}.call(L{i}.java:{})\n\t... {} more\n",
                i + 1,
                i + 1
            );
        }
        s + "Caused by: java.util.ConcurrentModificationException\n\tat java.util.HashMap$HashIterator.nextNode(HashMap.java:1445)\n"
    }

    fn frames_in(e: &ExceptionView) -> usize {
        e.blocks
            .iter()
            .map(|b| match b {
                FrameBlock::Shown(v) => v.len(),
                FrameBlock::Folded { frames, .. } => frames.len(),
            })
            .sum()
    }

    #[test]
    fn nested_500_causes_show_a_bounded_chain_and_list_the_others() {
        let input = nested(500);
        let page = build(&input, &crate::diagnose(&input));
        let t = &page.traces[0];
        let chain = &t.chain;
        assert_eq!(chain[0].class, "java.util.ConcurrentModificationException");
        assert_eq!(chain[0].relation, "root cause");
        assert_eq!(
            chain.len(),
            CHAIN_HEAD + CHAIN_TAIL,
            "no finding points elsewhere"
        );
        // The innermost causes, then one line for the others, then the outermost throwables.
        assert_eq!(chain[1].message, "level 499");
        let gaps: Vec<&SkippedCauses> = chain
            .iter()
            .filter_map(|e| e.skipped_after.as_ref())
            .collect();
        assert_eq!(gaps.len(), 1);
        let gap = gaps[0];
        assert_eq!(gap.count + chain.len(), 502);
        assert_eq!(gap.label, "482 more causes, not shown in full");
        assert_eq!(gap.listed.len(), 482);
        assert_eq!(gap.listed[0].relation, "wrapped by");
        assert_eq!(gap.listed[0].message, "level 484");
        assert_eq!(gap.listed[0].class, "java.lang.RuntimeException");
        // Each listed line is the header's line of the input.
        let lines: Vec<&str> = input.lines().collect();
        for c in &gap.listed {
            assert!(
                lines[c.line - 1].ends_with(&format!(": {}", c.message)),
                "{c:?}"
            );
        }
        assert_eq!(gap.lines.first, gap.listed.last().map_or(0, |c| c.line));
        assert!(chain[CHAIN_HEAD - 1].skipped_after.is_some());
        assert_eq!(
            chain.last().map(|e| e.class.as_str()),
            Some("org.apache.flink.runtime.client.JobExecutionException")
        );
        assert_eq!(chain[chain.len() - 2].message, "level 0");
        // Restored frames fold, in parts of at most MAX_FOLD_FRAMES: level 499 shows its own
        // frame and folds the 500 it repeats.
        let l499 = &chain[1];
        assert_eq!(l499.restored, 500);
        assert_eq!(frames_in(l499), 501);
        assert!(matches!(&l499.blocks[0], FrameBlock::Shown(v) if v.len() == 1 && !v[0].restored));
        let folds: Vec<(&String, usize)> = l499.blocks[1..]
            .iter()
            .map(|b| match b {
                FrameBlock::Folded { label, frames, .. } => (label, frames.len()),
                FrameBlock::Shown(v) => panic!("restored frames shown: {v:?}"),
            })
            .collect();
        assert_eq!(folds.len(), 2);
        assert_eq!(folds[0].1, 250);
        assert!(
            folds[0]
                .0
                .ends_with("shared with the enclosing exception (\"... more\")"),
            "{folds:?}"
        );
        // The model stays linear in the input: the 125,000 restored frames are not all in it.
        let total: usize = chain.iter().map(frames_in).sum();
        assert!(total < 10_000, "{total} frames in the model");
        assert!(check_gutter(&input, &page) > 1000);
    }

    #[test]
    fn a_short_chain_is_shown_whole() {
        let input = nested(MAX_CHAIN_SHOWN - 2);
        let page = build(&input, &crate::diagnose(&input));
        let chain = &page.traces[0].chain;
        assert_eq!(chain.len(), MAX_CHAIN_SHOWN);
        assert!(chain.iter().all(|e| e.skipped_after.is_none()));
    }

    #[test]
    fn a_throwable_a_finding_points_at_is_shown_even_in_a_long_chain() {
        let input = nested(100);
        let mut d = crate::diagnose(&input);
        let trace = &mut d.traces[0];
        // A finding that points at level 50 (throwable 51: the top-level is 0).
        let span = trace.trace.throwables[51].frames[0].span;
        trace.findings = vec![crate::matcher::Finding {
            rule: "user-code-cme".into(),
            highlights: vec![crate::matcher::Highlight {
                throwable: 51,
                frame: Some(0),
                role: "here".into(),
                span,
            }],
            evidence: vec![],
            specificity: 1,
            notes: vec![],
            version_mismatch: None,
            platform_assumed: None,
            culprit: None,
        }];
        let page = build(&input, &d);
        let chain = &page.traces[0].chain;
        let at = chain.iter().position(|e| e.message == "level 50");
        let at = at.unwrap_or_else(|| panic!("level 50 not shown"));
        assert!(chain[at].open);
        assert!(chain[at - 1].skipped_after.is_some() && chain[at].skipped_after.is_some());
        let left_out: usize = chain
            .iter()
            .filter_map(|e| e.skipped_after.as_ref())
            .map(|g| g.count)
            .sum();
        assert_eq!(left_out + chain.len(), 102);
    }

    fn frame(k: usize, group: FrameGroup, restored: bool, roles: &[&str]) -> FrameView {
        FrameView {
            id: format!("e0-f{k}"),
            package: "p.".into(),
            name: format!("C.m{k}"),
            location: "C.java:1".into(),
            line: k + 1,
            group,
            restored,
            roles: roles.iter().map(|r| r.to_string()).collect(),
        }
    }

    fn shape(blocks: &[FrameBlock]) -> Vec<(bool, usize)> {
        blocks
            .iter()
            .map(|b| match b {
                FrameBlock::Shown(v) => (true, v.len()),
                FrameBlock::Folded { frames, .. } => (false, frames.len()),
            })
            .collect()
    }

    #[test]
    fn restored_frames_fold_together_whatever_their_group() {
        let mut frames = vec![frame(0, FrameGroup::User, false, &[])];
        for k in 1..7 {
            let g = if k % 2 == 0 {
                FrameGroup::User
            } else {
                FrameGroup::Flink
            };
            frames.push(frame(k, g, true, &[]));
        }
        let b = blocks(frames);
        assert_eq!(shape(&b), vec![(true, 1), (false, 6)]);
        assert!(matches!(&b[1], FrameBlock::Folded { label, .. }
            if label == "6 frames shared with the enclosing exception (\"... more\")"));
    }

    #[test]
    fn a_long_run_of_your_frames_keeps_its_ends_and_folds_the_middle() {
        let mut frames: Vec<FrameView> = (0..5000)
            .map(|k| frame(k, FrameGroup::User, false, &[]))
            .collect();
        frames[2000].roles.push("here".into());
        let b = blocks(frames);
        let s = shape(&b);
        assert_eq!(s[0], (true, SHOWN_RUN_HEAD));
        assert_eq!(s[s.len() - 1], (true, SHOWN_RUN_TAIL));
        assert!(
            s.contains(&(true, 1)),
            "the highlighted frame is shown: {s:?}"
        );
        assert!(
            s.iter().all(|&(shown, n)| shown || n <= MAX_FOLD_FRAMES),
            "{s:?}"
        );
        assert_eq!(s.iter().map(|&(_, n)| n).sum::<usize>(), 5000);
        assert!(b.len() < 30, "{} blocks", b.len());
        assert!(matches!(&b[1], FrameBlock::Folded { label, lines, .. }
            if label.ends_with(" user code frames") && lines.first == SHOWN_RUN_HEAD + 1));
    }

    #[test]
    fn frames_past_the_block_budget_fold_together() {
        // One of your frames, then three JDK frames, over and over: a block each.
        let frames: Vec<FrameView> = (0..4000)
            .map(|k| {
                let g = if k % 4 == 0 {
                    FrameGroup::User
                } else {
                    FrameGroup::Jdk
                };
                frame(k, g, false, if k == 3001 { &["here"] } else { &[] })
            })
            .collect();
        let b = blocks(frames);
        let s = shape(&b);
        assert_eq!(s.iter().map(|&(_, n)| n).sum::<usize>(), 4000);
        assert!(b.len() < MAX_BLOCKS + 25, "{} blocks", b.len());
        assert!(
            s.iter().all(|&(shown, n)| shown || n <= MAX_FOLD_FRAMES),
            "{s:?}"
        );
        let shown: Vec<&FrameView> = b
            .iter()
            .flat_map(|b| match b {
                FrameBlock::Shown(v) => v.iter().collect(),
                FrameBlock::Folded { .. } => vec![],
            })
            .collect();
        assert!(
            shown.iter().any(|f| f.name == "C.m3001"),
            "the highlighted frame is shown"
        );
        assert!(
            matches!(b.last(), Some(FrameBlock::Folded { label, .. }) if label.ends_with(" frames") && !label.contains("JDK"))
        );
    }

    #[test]
    fn a_100k_message_is_cut_in_the_view_with_what_was_left_out() {
        // The tester's line100k-nospace.txt (issue 6, D5).
        let input = format!(
            "java.lang.IllegalArgumentException: {}\n\tat com.acme.A.b(A.java:1)\n",
            "x".repeat(102_400)
        );
        let page = build(&input, &crate::diagnose(&input));
        let t = &page.traces[0];
        let root = &t.chain[0];
        assert_eq!(root.message.chars().count(), MAX_MESSAGE_CHARS + 1);
        assert!(root.message.ends_with("x…"));
        assert_eq!(
            root.message_more.as_deref(),
            Some("… 100,400 more characters (see the input, line 1)")
        );
        assert_eq!(
            t.root_cause.chars().count(),
            "java.lang.IllegalArgumentException: ".len() + MAX_ROOT_CAUSE_CHARS + 1
        );
        assert!(t.root_cause.ends_with('…'));
    }

    #[test]
    fn clip_message_cuts_by_characters_or_lines_and_says_where_the_rest_starts() {
        assert_eq!(clip_message("short"), ("short".into(), None));
        let exact = "é".repeat(MAX_MESSAGE_CHARS);
        assert_eq!(clip_message(&exact), (exact.as_str().into(), None));
        // Multi-byte characters are counted as characters, and cut on a boundary.
        let long = "é".repeat(MAX_MESSAGE_CHARS + 7);
        let (kept, more) = clip_message(&long);
        assert_eq!(kept.chars().count(), MAX_MESSAGE_CHARS + 1);
        assert_eq!(more, Some((7, 0)));
        // 100 lines: the first 40 are kept, the rest starts 40 lines below the header.
        let lines: Vec<String> = (1..=100).map(|i| format!("line {i}")).collect();
        let text = lines.join("\n");
        let (kept, more) = clip_message(&text);
        assert_eq!(kept, lines[..MAX_MESSAGE_LINES].join("\n"));
        let rest = lines[MAX_MESSAGE_LINES..].join("\n");
        assert_eq!(more, Some((rest.chars().count(), MAX_MESSAGE_LINES)));
        // Cut inside the third line: the rest starts on that line.
        let text = format!("a\nb\n{}", "c".repeat(3000));
        let (kept, more) = clip_message(&text);
        assert!(kept.starts_with("a\nb\nccc") && kept.ends_with('…'));
        assert_eq!(more, Some((3000 - (MAX_MESSAGE_CHARS - 4), 2)));
        // Cut right before a line break: no "…", the rest starts on the next line.
        let text = format!("{}\nrest", "d".repeat(MAX_MESSAGE_CHARS));
        assert_eq!(
            clip_message(&text),
            ("d".repeat(MAX_MESSAGE_CHARS).into(), Some((4, 1)))
        );
        assert_eq!(crate::wording::thousands(100_400), "100,400");
        assert_eq!(crate::wording::thousands(999), "999");
        assert_eq!(crate::wording::thousands(1_000_000), "1,000,000");
    }

    #[test]
    fn a_cut_message_keeps_its_last_lines() {
        // Short: whole.
        let short = clip_message_parts("a\nb");
        assert_eq!(
            (short.head.as_ref(), short.left_out, short.tail),
            ("a\nb", None, "")
        );
        // The planner's message: 300 lines of plan, then the reason on the last lines.
        let mut lines: Vec<String> = (0..300).map(|k| format!("  +- Node{k}")).collect();
        lines.push(String::new());
        lines.push("Rowtime attributes must not be in the input rows of a regular join.".into());
        lines.push(
            "Please check the documentation for the set of currently supported SQL features."
                .into(),
        );
        let message = lines.join("\n");
        let cut = clip_message_parts(&message);
        assert_eq!(
            cut.tail,
            lines[lines.len() - MESSAGE_TAIL_LINES..].join("\n")
        );
        let head_lines = MAX_MESSAGE_LINES - MESSAGE_TAIL_LINES;
        assert_eq!(cut.head, lines[..head_lines].join("\n"));
        let left_out = lines[head_lines..lines.len() - MESSAGE_TAIL_LINES].join("\n");
        assert_eq!(
            cut.left_out,
            Some(LeftOut {
                chars: left_out.chars().count(),
                first: head_lines,
                last: lines.len() - MESSAGE_TAIL_LINES - 1,
            })
        );
        // Head, left out and tail are the whole message.
        assert_eq!(format!("{}\n{left_out}\n{}", cut.head, cut.tail), message);
        // A last line over the tail's limit: no tail, the rest is left out.
        let long_last = format!("a\n{}", "x".repeat(5_000));
        let cut = clip_message_parts(&long_last);
        assert_eq!(cut.tail, "");
        assert_eq!(cut.left_out.map(|l| (l.first, l.last)), Some((1, 1)));
        // The page says where to read what was left out: the input lines it came from.
        let input = format!("java.lang.RuntimeException: plan\n{message}\n\tat a.B.c(B.java:1)\n");
        let page = build(&input, &crate::diagnose(&input));
        let e = &page.traces[0].chain[0];
        let full = format!("plan\n{message}");
        let cut = clip_message_parts(&full);
        assert_eq!(e.message_tail, cut.tail);
        let l = cut.left_out.expect("cut");
        let input_lines: Vec<&str> = input.lines().collect();
        let full_lines: Vec<&str> = full.lines().collect();
        assert_eq!(input_lines[l.first], full_lines[l.first]);
        assert_eq!(input_lines[l.last], full_lines[l.last]);
        assert_eq!(
            e.message_more.as_deref(),
            Some(
                format!(
                    "… {} characters left out here (see the input, lines {}–{})",
                    crate::wording::thousands(l.chars),
                    l.first + 1,
                    l.last + 1
                )
                .as_str()
            )
        );
    }

    #[test]
    fn one_line_inputs_get_no_line_numbers() {
        // REST JSON: the trace is one line with escaped newlines (issue 6, D8).
        let input = include_str!("../../tests/cases/seed-rest.json");
        let page = build(input, &crate::diagnose(input));
        assert!(page.traces.iter().all(|t| !t.numbered));
        let one = "java.lang.IllegalStateException: boom at com.acme.A.b(A.java:1) at com.acme.A.c(A.java:2)";
        let page = build(one, &crate::diagnose(one));
        assert!(!page.traces[0].numbered);
        // Multi-line traces whose frames have lines of their own keep them.
        let page = build(
            crate::FLAGSHIP_EXAMPLE,
            &crate::diagnose(crate::FLAGSHIP_EXAMPLE),
        );
        assert!(page.traces[0].numbered);
        let input = nested(3);
        let page = build(&input, &crate::diagnose(&input));
        assert!(
            page.traces[0].numbered,
            "restored frames repeat lines, printed ones do not"
        );
        let joined = "java.lang.IllegalStateException: boom\n\tat com.acme.A.b(A.java:1)\n\tat com.acme.A.c(A.java:2) at com.acme.A.d(A.java:3)\n\tat com.acme.A.e(A.java:4)\n";
        let page = build(joined, &crate::diagnose(joined));
        assert_eq!(page.traces[0].chain[0].blocks.len(), 1);
        assert!(page.traces[0].numbered, "two frames run together");
    }
}
