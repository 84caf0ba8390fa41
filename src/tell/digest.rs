//! Reply digests: what a Flink committer would write back on the mailing list or in an issue —
//! the diagnosis and its summary, the decisive lines of the trace quoted with the role of each,
//! the Flink version and context, the fixes best first, what does not help, the references and
//! a link to the full diagnosis. When no rule matched: the root cause, the frame to look at
//! first and the terms to search the archives for.
//!
//! [`digest`] selects what to tell from a [`Report`] into a [`Digest`], a view model that
//! round-trips through serde (a worker can build it and the page render it with the share link
//! it makes later: [`plain_text_of`], [`markdown_of`]); [`plain_text`] renders it for mail (prose wrapped at [`WIDTH`] columns, quoted trace
//! lines kept whole) and [`markdown`] as GitHub-flavoured Markdown (JIRA Cloud's editor takes
//! most of it when pasted; JIRA Server's wiki markup does not, so use the plain text there).
//!
//! Which traces are told: the diagnosed ones, one per leading rule (the first in input order,
//! with the numbers of the others that share its diagnosis); when none is diagnosed, the most
//! frequent trace (the first of equals). The rest is counted. Every piece of text taken from the
//! input is clipped ([`MAX_QUOTED_CHARS`]) and a long cause chain is shortened, so a digest stays
//! small and is built in time linear in the report, whatever was pasted.

mod markdown;
mod plain;
mod short;

pub use markdown::markdown_of;
pub use plain::plain_text_of;
pub use short::{
    short_jira_of, short_markdown_of, short_plain_text_of, MAX_SHORT_LINES, MAX_SHORT_QUOTED,
    MAX_SHORT_QUOTED_LINES,
};

use crate::frames::FrameGroup;
use crate::lang::{ContextFact, Lang};
use crate::report::{ContextReport, ExceptionReport, Report, TraceReport};
use crate::rules;
use serde::{Deserialize, Serialize};
use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// Columns the plain-text digest's prose is wrapped at (counted in chars). Quoted trace lines,
/// code and URLs are never broken, so they may be longer.
pub const WIDTH: usize = 72;

/// The most chars quoted from one line of the input (an exception header or a frame); longer
/// ones end with `…`.
pub const MAX_QUOTED_CHARS: usize = 300;

/// A cause chain longer than this is quoted with its top-level throwable and the innermost
/// [`KEPT_INNERMOST`] causes only (plus any throwable the diagnosis points at).
pub const MAX_CHAIN_QUOTED: usize = 8;

/// How many of the innermost causes a shortened cause chain keeps.
pub const KEPT_INNERMOST: usize = 3;

/// The plain-text digest of `report` for a mail reply, with `link` (the share link, or none)
/// at the end. Prose is wrapped at [`WIDTH`] columns; quoted trace lines are indented by four
/// spaces and kept whole. Ends with a newline.
pub fn plain_text(report: &Report, link: Option<&str>) -> String {
    plain_text_of(&digest(report, link))
}

/// The Markdown digest of `report` (GitHub-flavoured: a fenced code block for the quoted lines,
/// bold labels, Markdown links), with `link` (the share link, or none) at the end.
pub fn markdown(report: &Report, link: Option<&str>) -> String {
    markdown_of(&digest(report, link))
}

/// What a digest tells: the traces told in full, and counts of the others.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Digest {
    /// The traces told in full, in input order.
    pub traces: Vec<TraceDigest>,
    /// True when the report holds more than one distinct trace (each told trace then gets a
    /// heading with its number).
    pub several: bool,
    /// Distinct traces (not threads of a thread dump) neither told nor sharing a told trace's
    /// diagnosis: they have no known diagnosis.
    pub other_traces: usize,
    /// Threads of thread dumps not told (each thread counted, identical ones too).
    pub other_threads: usize,
    /// 1-based lines where a jstack thread dump reports a Java-level deadlock.
    pub deadlocks: Vec<usize>,
    /// The link to the full diagnosis, as given by the caller.
    pub link: Option<String>,
    /// One sentence the caller adds about the link (what a shortened link leaves out).
    #[serde(default)]
    pub link_note: Option<String>,
    /// The language of the fixed wording and, where a rule has a translation, of its prose.
    #[serde(default, skip_serializing_if = "Lang::is_en")]
    pub lang: Lang,
}

impl Digest {
    /// What is said before any trace when none is told: a thread dump without a diagnosis, or
    /// no trace at all. One sentence, or `None`.
    pub(crate) fn opening(&self) -> Option<String> {
        if !self.traces.is_empty() {
            None
        } else if self.other_threads > 0 {
            Some(self.lang.thread_dump_opening(self.other_threads))
        } else if self.other_traces == 0 {
            Some(self.lang.msgs().reply_no_trace.to_owned())
        } else {
            None
        }
    }

    /// The sentence about the traces and threads not told (`The text also holds 2 other
    /// traces without a known diagnosis.`), or `None`.
    pub(crate) fn also_holds(&self) -> Option<String> {
        let threads = if self.traces.is_empty() {
            0
        } else {
            self.other_threads
        };
        self.lang.also_holds(self.other_traces, threads)
    }

    /// One sentence per deadlock the thread dump reports.
    pub(crate) fn deadlock_sentences(&self) -> impl Iterator<Item = String> + '_ {
        self.deadlocks
            .iter()
            .map(|line| self.lang.deadlock_sentence(*line))
    }
}

/// One trace told in full.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraceDigest {
    /// 1-based number of the trace among the report's traces (input order).
    pub number: usize,
    /// When the text stops before the root cause: what is said first (Markdown: a bold lead,
    /// code spans), and whether that is certain (the root cause is then named "last exception
    /// printed").
    #[serde(default)]
    pub cut: Option<(String, bool)>,
    /// First and last 1-based input line of the trace.
    pub lines: [usize; 2],
    /// Times this trace appears in the input.
    pub occurrences: usize,
    /// Numbers (1-based) of the other traces whose leading diagnosis is the same rule.
    pub same_diagnosis: Vec<usize>,
    /// Fully qualified class of the root cause (or a placeholder for frames without a header).
    pub root_cause: String,
    /// The decisive lines, as printed (top-level throwable first), with gaps.
    pub quote: Vec<QuoteLine>,
    /// The role of each mark in `quote`: `marks[n - 1]` explains mark `n`.
    pub marks: Vec<String>,
    /// The Flink version the trace reveals (`1.13.0 – 1.13.2`), when it reveals one.
    pub flink_version: Option<String>,
    /// True when the trace shows Flink frames or classes (so a missing version is worth asking
    /// for).
    pub flink: bool,
    /// Facts read from the text.
    pub context: ContextDigest,
    /// The leading finding, when a rule matched.
    pub finding: Option<FindingDigest>,
    /// When no rule matched: what to search the mailing-list archives and JIRA for.
    pub search_terms: Option<String>,
    /// When no rule matched: the no-rule answer in words (Markdown paragraphs).
    pub answer: Vec<String>,
}

impl TraceDigest {
    /// "The same diagnosis applies to traces 2, 3 and 4." (at most 10 numbers, then "and N
    /// more"), when other traces share this one's diagnosis.
    pub(crate) fn same_diagnosis_sentence(&self, lang: Lang) -> Option<String> {
        let n = self.same_diagnosis.len();
        if n == 0 {
            return None;
        }
        let shown: Vec<String> = self
            .same_diagnosis
            .iter()
            .take(10)
            .map(|n| n.to_string())
            .collect();
        let more = n.saturating_sub(10);
        let list = if more > 0 {
            lang.and_n_more(&shown.join(", "), more)
        } else {
            shown.join(", ")
        };
        Some(lang.same_diagnosis(n, &list))
    }

    /// The quoted trace, one line each: headers at `indent`, frames and gaps four spaces
    /// further, each line the diagnosis points at followed by `  [n]`.
    pub(crate) fn quote_text(&self, indent: &str) -> String {
        let mut out = String::new();
        for line in &self.quote {
            let extra = match line.kind {
                QuoteKind::Header | QuoteKind::SkippedCauses => "",
                QuoteKind::Frame | QuoteKind::Gap => "    ",
            };
            out.push_str(indent);
            out.push_str(extra);
            out.push_str(&line.text);
            if let Some(n) = line.mark {
                out.push_str(&format!("  [{n}]"));
            }
            out.push('\n');
        }
        out
    }
}

/// What one quoted line is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum QuoteKind {
    /// An exception header (`Caused by: java.util.ConcurrentModificationException`).
    Header,
    /// A frame (`at java.util.HashMap$HashIterator.nextNode(HashMap.java:1445)`).
    Frame,
    /// Frames left out (`...`).
    Gap,
    /// Exceptions of a long cause chain left out (`... 12 more causes ...`).
    SkippedCauses,
}

/// One line of the quoted trace.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuoteLine {
    /// What the line is.
    pub kind: QuoteKind,
    /// The line without indentation (`at …` for a frame, `...` for a gap).
    pub text: String,
    /// 1-based mark number (see [`TraceDigest::marks`]), for a line the diagnosis points at.
    pub mark: Option<usize>,
}

/// Prose in both renderings.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Text {
    /// Markdown.
    pub md: String,
    /// Plain text, unwrapped (the shape of `Prose::text` in `rules::schema`).
    pub text: String,
}

impl From<&rules::schema::Prose> for Text {
    fn from(p: &rules::schema::Prose) -> Self {
        Text {
            md: p.md.clone(),
            text: if p.text.is_empty() {
                p.md.clone()
            } else {
                p.text.clone()
            },
        }
    }
}

/// Facts read from the text around a trace; `None` when unknown.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ContextDigest {
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
}

impl From<&ContextReport> for ContextDigest {
    fn from(c: &ContextReport) -> Self {
        ContextDigest {
            checkpoint_id: c.checkpoint_id,
            task: c.task.clone(),
            operators: c.operators.clone(),
            subtask: c.subtask,
            parallelism: c.parallelism,
            attempt: c.attempt,
            time: c.time.clone(),
        }
    }
}

/// A docs page or an issue.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reference {
    /// Link text.
    pub title: String,
    /// Absolute URL.
    pub url: String,
}

/// The leading finding of a told trace.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FindingDigest {
    /// Rule id.
    pub rule: String,
    /// Rule title.
    pub title: String,
    /// The root cause in a few sentences.
    pub summary: Text,
    /// Set when the rule's version bounds exclude the trace's Flink version.
    pub version_mismatch: Option<String>,
    /// Set when nothing in the text shows it is Flink's and the finding assumes so.
    pub platform_assumed: Option<String>,
    /// The class the finding blames and whose it is (one sentence, Markdown).
    pub culprit: Option<String>,
    /// Fixes, best first.
    pub fixes: Vec<Text>,
    /// What does not help.
    pub not_fixes: Vec<Text>,
    /// Docs pages and issues.
    pub references: Vec<Reference>,
    /// Further rules that matched the same trace: `(id, title)`, most specific first.
    pub also: Vec<(String, String)>,
    /// When the rule may fire wrongly (the rule's `false_alarms`).
    #[serde(default)]
    pub false_alarm: Option<Text>,
    /// The question that confirms the diagnosis (the rule's `confirm`).
    #[serde(default)]
    pub confirm: Option<String>,
}

/// Appends `text` wrapped at [`WIDTH`] columns, the first line after `first`, the others
/// after `rest`, each line ending in `\n`; a word longer than the width is broken only when
/// `break_words` (the plain-text renderings of both replies use this). A text with wide
/// characters (Chinese) is wrapped by display width ([`wrap_wide`]).
fn wrap_into(out: &mut String, text: &str, first: &str, rest: &str, break_words: bool) {
    if text.chars().any(|c| c.width().unwrap_or(0) > 1) {
        wrap_wide(out, text, first, rest, break_words);
        return;
    }
    let options = textwrap::Options::new(WIDTH)
        .initial_indent(first)
        .subsequent_indent(rest)
        .break_words(break_words)
        .word_splitter(textwrap::WordSplitter::NoHyphenation);
    for line in textwrap::wrap(text, &options) {
        out.push_str(line.trim_end());
        out.push('\n');
    }
}

/// The display width of `s` in columns: 2 for a wide (CJK) character, 0 for a combining one.
pub fn display_width(s: &str) -> usize {
    UnicodeWidthStr::width(s)
}

/// Wraps `text` at [`WIDTH`] display columns: a line may break at a space, or between two wide
/// characters (Chinese has no spaces between words), but never before closing punctuation
/// (`，。）` …) nor after opening punctuation; a run of narrow characters (a class name, a code
/// span) is a word. Such a word longer than the width is broken only when `break_words`.
fn wrap_wide(out: &mut String, text: &str, first: &str, rest: &str, break_words: bool) {
    // Pieces: a space, a wide character, or a run of other characters.
    let mut pieces: Vec<&str> = Vec::new();
    let mut at = 0;
    for (i, c) in text.char_indices() {
        let wide = c.width().unwrap_or(0) > 1;
        if c == ' ' || wide {
            if at < i {
                pieces.push(&text[at..i]);
            }
            pieces.push(&text[i..i + c.len_utf8()]);
            at = i + c.len_utf8();
        }
    }
    if at < text.len() {
        pieces.push(&text[at..]);
    }
    // Wide closing punctuation never starts a line; ASCII punctuation only when it stands alone
    // (`.setStartingOffsets(…)` after `：` is a word of code that may).
    let no_start = |p: &str| {
        p.starts_with(|c: char| "，。、；：！？）」』》〉】”’".contains(c))
            || (p.len() == 1 && ",.;:!?)".contains(p))
    };
    let no_end = |p: &str| p.ends_with(|c: char| "（「『《〈【“‘(".contains(c));
    let mut line = String::from(first);
    let mut width = display_width(first);
    let mut fresh = true;
    let mut k = 0;
    while k < pieces.len() {
        // A piece with what must stay with it: closing punctuation after it, and the piece
        // after an opening one.
        let mut end = k + 1;
        while end < pieces.len() && (no_start(pieces[end]) || no_end(pieces[end - 1])) {
            end += 1;
        }
        let unit: String = pieces[k..end].concat();
        let w = display_width(&unit);
        k = end;
        if unit == " " {
            if !fresh {
                line.push(' ');
                width += 1;
            }
            continue;
        }
        if !fresh && width + w > WIDTH {
            out.push_str(line.trim_end());
            out.push('\n');
            line = String::from(rest);
            width = display_width(rest);
        }
        if break_words && width + w > WIDTH {
            for c in unit.chars() {
                let cw = c.width().unwrap_or(0);
                if width + cw > WIDTH && width > display_width(rest) {
                    out.push_str(line.trim_end());
                    out.push('\n');
                    line = String::from(rest);
                    width = display_width(rest);
                }
                line.push(c);
                width += cw;
            }
        } else {
            line.push_str(&unit);
            width += w;
        }
        fresh = false;
    }
    if !fresh || !line.trim().is_empty() {
        out.push_str(line.trim_end());
        out.push('\n');
    }
}

/// Selects what to tell from `report`; `link` is the share link (or none). See the module
/// documentation for which traces are told.
pub fn digest(report: &Report, link: Option<&str>) -> Digest {
    digest_in(report, link, Lang::En)
}

/// [`digest`] in `lang`: the rules' prose where they have a translation (build `report` with
/// [`crate::report::build_in`] in the same language for the rest), and the fixed wording of
/// every rendering.
pub fn digest_in(report: &Report, link: Option<&str>, lang: Lang) -> Digest {
    // Diagnosed traces grouped by their leading rule, in input order of the first of each.
    let mut groups: Vec<(&str, usize, Vec<usize>)> = Vec::new();
    for (i, t) in report.traces.iter().enumerate() {
        let Some(f) = t.findings.first() else {
            continue;
        };
        match groups.iter_mut().find(|g| g.0 == f.rule) {
            Some(g) => g.2.push(i + 1),
            None => groups.push((&f.rule, i, Vec::new())),
        }
    }
    let told: Vec<(usize, Vec<usize>)> = if groups.is_empty() {
        // The most frequent trace that is not a thread of a dump; the first of equals.
        let mut best: Option<usize> = None;
        for (i, t) in report.traces.iter().enumerate() {
            if t.thread.is_none()
                && best.is_none_or(|b| t.occurrences > report.traces[b].occurrences)
            {
                best = Some(i);
            }
        }
        best.map(|i| (i, Vec::new())).into_iter().collect()
    } else {
        groups.into_iter().map(|(_, i, same)| (i, same)).collect()
    };
    let mut counted = vec![false; report.traces.len()];
    for (i, same) in &told {
        counted[*i] = true;
        for n in same {
            counted[n - 1] = true;
        }
    }
    let mut other_traces = 0;
    let mut other_threads = 0;
    for (t, _) in report.traces.iter().zip(&counted).filter(|(_, &c)| !c) {
        if t.thread.is_some() {
            other_threads += t.occurrences;
        } else {
            other_traces += 1;
        }
    }
    Digest {
        traces: told
            .into_iter()
            .map(|(i, same)| trace_digest(i + 1, &report.traces[i], same, lang))
            .collect(),
        several: report.traces.len() > 1,
        other_traces,
        other_threads,
        deadlocks: report.deadlocks.clone(),
        link: link.map(str::to_owned),
        link_note: None,
        lang,
    }
}

fn trace_digest(
    number: usize,
    t: &TraceReport,
    same_diagnosis: Vec<usize>,
    lang: Lang,
) -> TraceDigest {
    let m = lang.msgs();
    let root = t.root_cause;
    // (exception, frame) → role, in the order the diagnosis gives them.
    let mut roles: Vec<((usize, Option<usize>), String)> = Vec::new();
    let mut add =
        |at: (usize, Option<usize>), role: &str| match roles.iter_mut().find(|(k, _)| *k == at) {
            Some((_, r)) if !r.split("; ").any(|x| x == role) => {
                r.push_str("; ");
                r.push_str(role);
            }
            Some(_) => {}
            None => roles.push((at, role.to_owned())),
        };
    let lead = t.findings.first();
    match lead {
        Some(f) => {
            for h in &f.highlights {
                add((h.exception, h.frame), &h.role);
            }
        }
        None => {
            if let Some(ex) = t.exceptions.get(root) {
                add((root, None), m.mark_root_cause);
                let decisive = ex
                    .frames
                    .iter()
                    .position(|f| f.group == FrameGroup::User && !f.expanded);
                if !ex.frames.is_empty() {
                    add(
                        (root, Some(0)),
                        if decisive == Some(0) {
                            m.mark_thrown_own
                        } else {
                            m.mark_thrown
                        },
                    );
                }
                if let Some(k) = decisive.filter(|&k| k > 0) {
                    add((root, Some(k)), m.mark_own_frame);
                }
            }
        }
    }
    let (quote, marks) = quote(t, &roles);
    let version = &t.context.flink_version.summary;
    TraceDigest {
        number,
        cut: t.cut.clone().map(|c| (c, t.cut_certain)),
        lines: t.lines,
        occurrences: t.occurrences,
        same_diagnosis,
        root_cause: t
            .exceptions
            .get(root)
            .map(|e| crate::report::class_name(e).into_owned())
            .unwrap_or_default(),
        quote,
        marks,
        flink_version: (!version.is_empty() && version != crate::version::SUMMARY_UNKNOWN)
            .then(|| crate::lang::version_summary(version, lang)),
        flink: t.exceptions.iter().any(|e| {
            e.class.starts_with("org.apache.flink.")
                || e.frames.iter().any(|f| f.group == FrameGroup::Flink)
        }),
        context: ContextDigest::from(&t.context),
        finding: lead.map(|f| {
            let rule = rules::by_id(&f.rule).map(|r| crate::lang::rule_text(r, lang));
            let e = rule.map(|r| r.explanation);
            FindingDigest {
                rule: f.rule.clone(),
                title: rule.map_or_else(|| f.title.clone(), |r| r.title.to_owned()),
                summary: rule.map(|r| Text::from(r.summary)).unwrap_or(Text {
                    md: f.summary.clone(),
                    text: f.summary.clone(),
                }),
                version_mismatch: f.version_mismatch.clone(),
                platform_assumed: f.platform_assumed.clone(),
                culprit: f.culprit.clone(),
                fixes: e
                    .map(|e| e.fixes.iter().map(Text::from).collect())
                    .unwrap_or_default(),
                not_fixes: e
                    .map(|e| e.not_fixes.iter().map(Text::from).collect())
                    .unwrap_or_default(),
                references: f
                    .references
                    .iter()
                    .map(|r| Reference {
                        title: r.title.clone(),
                        url: r.url.clone(),
                    })
                    .collect(),
                also: t
                    .findings
                    .iter()
                    .skip(1)
                    .map(|g| (g.rule.clone(), g.title.clone()))
                    .collect(),
                false_alarm: e.and_then(|e| e.false_alarms.as_ref()).map(Text::from),
                confirm: rule.and_then(|r| r.confirm.map(str::to_owned)),
            }
        }),
        search_terms: t.search_terms.clone(),
        answer: t
            .answer
            .as_ref()
            .map(|a| a.sentences.clone())
            .unwrap_or_default(),
    }
}

/// At most `max` chars of `s` with runs of whitespace as one space, `…` when cut. Reads at most
/// a few times `max` bytes of `s`.
fn clip(s: &str, max: usize) -> String {
    let mut out = String::new();
    let mut chars = 0;
    for word in s.split_whitespace() {
        if chars > 0 {
            out.push(' ');
            chars += 1;
        }
        for c in word.chars() {
            if chars >= max {
                out.push('…');
                return out;
            }
            out.push(c);
            chars += 1;
        }
    }
    out
}

fn header_text(e: &ExceptionReport) -> String {
    let prefix = match e.relation {
        "cause" => "Caused by: ",
        "suppressed" => "Suppressed: ",
        _ => "",
    };
    // A long message is clipped before its whitespace is collapsed: never read it whole.
    let message = e.message.as_deref().map(|m| {
        let mut end = m.len().min(MAX_QUOTED_CHARS * 8);
        while !m.is_char_boundary(end) {
            end -= 1;
        }
        m.get(..end).unwrap_or_default()
    });
    // A quote shows what was printed: a message printed without a class is quoted alone, not
    // under the label the report gives it.
    let line = match message {
        Some(m) if e.class.is_empty() => format!("{prefix}{m}"),
        Some(m) => format!("{prefix}{}: {m}", crate::report::class_name(e)),
        None => format!("{prefix}{}", crate::report::class_name(e)),
    };
    clip(&line, MAX_QUOTED_CHARS)
}

fn frame_text(f: &crate::report::FrameReport) -> String {
    clip(
        &format!("at {}.{}({})", f.class, f.method, f.location),
        MAX_QUOTED_CHARS,
    )
}

/// The quoted lines of `t`: the headers of the cause chain (shortened when long) and of every
/// throwable `roles` points at, each followed by the frames `roles` points at, with a gap line
/// for frames left out. Marks are numbered in quote order.
fn quote(
    t: &TraceReport,
    roles: &[((usize, Option<usize>), String)],
) -> (Vec<QuoteLine>, Vec<String>) {
    let n = t.exceptions.len();
    let mut included = vec![false; n];
    let chain = &t.cause_chain; // root cause first
    let long = chain.len() > MAX_CHAIN_QUOTED;
    for (k, &e) in chain.iter().enumerate() {
        // A long chain keeps its top-level throwable (the last) and the innermost causes.
        if !long || k < KEPT_INNERMOST || k + 1 == chain.len() {
            if let Some(x) = included.get_mut(e) {
                *x = true;
            }
        }
    }
    for ((e, _), _) in roles {
        if let Some(x) = included.get_mut(*e) {
            *x = true;
        }
    }
    let mut in_chain = vec![false; n];
    for &e in chain {
        if let Some(x) = in_chain.get_mut(e) {
            *x = true;
        }
    }
    let mut lines = Vec::new();
    let mut marks = Vec::new();
    let mark_for = |at: (usize, Option<usize>), marks: &mut Vec<String>| {
        roles.iter().find(|(k, _)| *k == at).map(|(_, role)| {
            marks.push(role.clone());
            marks.len()
        })
    };
    let mut skipped_causes = 0;
    for (i, ex) in t.exceptions.iter().enumerate() {
        if !included[i] {
            if in_chain[i] {
                skipped_causes += 1;
            }
            continue;
        }
        if skipped_causes > 0 {
            lines.push(QuoteLine {
                kind: QuoteKind::SkippedCauses,
                text: format!("... {skipped_causes} more causes ..."),
                mark: None,
            });
            skipped_causes = 0;
        }
        lines.push(QuoteLine {
            kind: QuoteKind::Header,
            text: header_text(ex),
            mark: mark_for((i, None), &mut marks),
        });
        let mut frames: Vec<usize> = roles
            .iter()
            .filter_map(|((e, f), _)| if *e == i { *f } else { None })
            .filter(|&f| f < ex.frames.len())
            .collect();
        frames.sort_unstable();
        frames.dedup();
        let mut next = 0;
        for f in frames {
            if f > next {
                lines.push(gap());
            }
            lines.push(QuoteLine {
                kind: QuoteKind::Frame,
                text: frame_text(&ex.frames[f]),
                mark: mark_for((i, Some(f)), &mut marks),
            });
            next = f + 1;
        }
        if next < ex.frames.len() {
            lines.push(gap());
        }
    }
    if skipped_causes > 0 {
        lines.push(QuoteLine {
            kind: QuoteKind::SkippedCauses,
            text: format!("... {skipped_causes} more causes ..."),
            mark: None,
        });
    }
    (lines, marks)
}

fn gap() -> QuoteLine {
    QuoteLine {
        kind: QuoteKind::Gap,
        text: "...".to_owned(),
        mark: None,
    }
}

/// The context facts in words (`checkpoint 575`, `operator chain a -> b`, `subtask 18 of 60
/// (attempt 0)`, `logged at …`), operator and task names passed through `name` and the time
/// through `words` (plain text leaves both as they are; Markdown puts names in code spans and
/// escapes the time), operators joined by `arrow`.
fn context_facts(
    c: &ContextDigest,
    name: &dyn Fn(&str) -> String,
    words: &dyn Fn(&str) -> String,
    arrow: &str,
    lang: Lang,
) -> Vec<String> {
    let mut facts = Vec::new();
    if let Some(id) = c.checkpoint_id {
        facts.push(lang.context_fact(ContextFact::Checkpoint(id)));
    }
    match c.operators.as_deref() {
        Some([one]) => facts.push(lang.context_fact(ContextFact::Operator(&name(&clip(one, 120))))),
        Some(ops) if !ops.is_empty() => {
            let chain = ops
                .iter()
                .take(12)
                .map(|o| name(&clip(o, 120)))
                .collect::<Vec<_>>()
                .join(arrow)
                + if ops.len() > 12 { " …" } else { "" };
            facts.push(lang.context_fact(ContextFact::Chain(&chain)));
        }
        _ => {
            if let Some(task) = &c.task {
                facts.push(lang.context_fact(ContextFact::Task(&name(&clip(task, 200)))));
            }
        }
    }
    if let (Some(s), Some(p)) = (c.subtask, c.parallelism) {
        facts.push(lang.context_fact(ContextFact::Subtask(s, p, c.attempt)));
    }
    if let Some(time) = &c.time {
        facts.push(lang.context_fact(ContextFact::Logged(&words(&clip(time, 60)))));
    }
    facts
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(input: &str) -> Report {
        crate::report::build(input, &crate::diagnose(input))
    }

    #[test]
    fn clip_collapses_whitespace_and_cuts_on_chars() {
        assert_eq!(clip("a\n  b\tc", 10), "a b c");
        assert_eq!(clip("ääääää", 3), "äää…");
        assert_eq!(clip("", 3), "");
    }

    #[test]
    fn the_seed_tells_one_diagnosed_trace_with_marked_frames() {
        let d = digest(
            &report(crate::FLAGSHIP_EXAMPLE),
            Some("https://x.test/#s=1"),
        );
        assert_eq!(d.traces.len(), 1);
        let t = &d.traces[0];
        assert_eq!(t.root_cause, "java.util.ConcurrentModificationException");
        assert_eq!(
            t.finding.as_ref().map(|f| f.rule.as_str()),
            Some("async-wait-inflight-cme")
        );
        let headers: Vec<&str> = t
            .quote
            .iter()
            .filter(|l| l.kind == QuoteKind::Header)
            .map(|l| l.text.as_str())
            .collect();
        assert_eq!(headers.len(), 3);
        assert!(headers[0].starts_with("java.io.IOException: Could not perform checkpoint 575"));
        assert!(headers[2].starts_with("Caused by: java.util.ConcurrentModificationException"));
        // Every mark is explained, in quote order.
        let marked: Vec<usize> = t.quote.iter().filter_map(|l| l.mark).collect();
        assert_eq!(marked, (1..=t.marks.len()).collect::<Vec<_>>());
        assert!(t.marks.contains(&"the map being iterated".to_owned()));
        assert_eq!(t.flink_version.as_deref(), Some("1.13.0 – 1.13.2"));
        assert_eq!(d.link.as_deref(), Some("https://x.test/#s=1"));
    }

    #[test]
    fn an_undiagnosed_trace_points_at_the_innermost_user_frame() {
        let input = "java.lang.RuntimeException: wrapper\n\tat a.B.c(B.java:1)\nCaused by: java.lang.IllegalStateException: Buffer pool is destroyed 42\n\tat org.apache.flink.X.y(X.java:1)\n\tat com.acme.Job.map(Job.java:12)\n\tat org.apache.flink.Z.z(Z.java:3)\n";
        let d = digest(&report(input), None);
        let t = &d.traces[0];
        assert!(t.finding.is_none());
        assert!(t.search_terms.as_deref().unwrap_or("").contains("Job.map"));
        let texts: Vec<(&str, Option<usize>)> =
            t.quote.iter().map(|l| (l.text.as_str(), l.mark)).collect();
        assert_eq!(
            texts,
            [
                ("java.lang.RuntimeException: wrapper", None),
                ("...", None),
                (
                    "Caused by: java.lang.IllegalStateException: Buffer pool is destroyed 42",
                    Some(1)
                ),
                ("at org.apache.flink.X.y(X.java:1)", Some(2)),
                ("at com.acme.Job.map(Job.java:12)", Some(3)),
                ("...", None),
            ]
        );
        assert_eq!(t.marks[0], "the root cause");
        // A Flink trace that shows no version: the reply asks for it.
        assert!(t.flink && t.flink_version.is_none());
        assert!(plain_text_of(&d)
            .contains("\nFlink version: not shown by the trace (which one do you run?)\n"));
    }

    #[test]
    fn a_long_cause_chain_is_shortened() {
        let mut input = String::from("java.lang.RuntimeException: top\n\tat a.B.c(B.java:1)\n");
        for k in 0..50 {
            input.push_str(&format!(
                "Caused by: java.lang.IllegalStateException: level {k}\n\tat a.B.c(B.java:{k})\n"
            ));
        }
        let d = digest(&report(&input), None);
        let q = &d.traces[0].quote;
        let headers = q.iter().filter(|l| l.kind == QuoteKind::Header).count();
        assert_eq!(headers, 1 + KEPT_INNERMOST);
        assert!(q
            .iter()
            .any(|l| l.kind == QuoteKind::SkippedCauses && l.text == "... 47 more causes ..."));
    }

    #[test]
    fn several_traces_tell_the_diagnosed_and_count_the_others() {
        let other = "java.lang.IllegalStateException: boom\n\tat com.acme.Job.map(Job.java:12)\n";
        let input = format!("{other}\n{}\n{other}", crate::FLAGSHIP_EXAMPLE);
        let d = digest(&report(&input), None);
        assert!(d.several);
        assert_eq!(d.traces.len(), 1);
        assert_eq!(d.traces[0].number, 2);
        assert_eq!(d.other_traces, 1);
    }
}
