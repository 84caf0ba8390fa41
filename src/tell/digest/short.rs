//! The short reply: what a committer writes on the mailing list, in 10–25 lines. The diagnosis
//! in a sentence, at most [`MAX_SHORT_QUOTED`] quoted lines shortened to fit [`WIDTH`] columns,
//! the best fix, one docs link, the Flink version marked as read from the trace, a
//! question that confirms the diagnosis, when it may be wrong, and the link alone on its line.
//! Three renderings of one [`ShortReply`]: plain text (mail), Markdown (GitHub) and JIRA wiki
//! markup (Apache's JIRA renders its own markup, not Markdown).
//!
//! Only the first told trace is told (a text with several says how many more there are); the
//! long reply ([`super::plain_text_of`], [`super::markdown_of`]) tells everything.

use super::{Digest, QuoteKind, TraceDigest, WIDTH};

/// The most quoted trace lines in a short reply.
pub const MAX_SHORT_QUOTED: usize = 5;

/// Most quoted lines of a short reply: [`MAX_SHORT_QUOTED`] quoted lines, one of whose headers
/// may take a second line for a message that does not fit on its first.
pub const MAX_SHORT_QUOTED_LINES: usize = MAX_SHORT_QUOTED + 1;

/// Indentation of quoted lines in the plain-text reply; a quoted line fits `WIDTH` with it.
const QUOTE_INDENT: &str = "    ";

/// What a short reply says, before rendering. Prose is Markdown (code spans, bold) and is
/// converted per rendering.
struct ShortReply {
    /// The text stops before the root cause (said first).
    cut: Option<String>,
    /// `Diagnosis: …` or the no-rule sentence.
    lead: String,
    /// One or two sentences of the summary, or of the no-rule answer.
    gist: Option<String>,
    /// Quoted lines, each within `WIDTH - QUOTE_INDENT` chars.
    quote: Vec<String>,
    /// The best fix, a sentence or two.
    fixes: Vec<String>,
    /// One docs page or issue: (title, url).
    docs: Option<(String, String)>,
    /// `Flink version 1.13.0 – 1.13.2, as read from the trace (please confirm).`
    version: Option<String>,
    /// The question that confirms the diagnosis, or asks for what would settle it.
    question: String,
    /// When the diagnosis may be wrong.
    wrong_if: Option<String>,
    /// Other traces and threads not told.
    others: Option<String>,
    /// The link to the full diagnosis.
    link: Option<String>,
}

fn build(d: &Digest) -> ShortReply {
    let lang = d.lang;
    let m = lang.msgs();
    let Some(t) = d.traces.first() else {
        return ShortReply {
            cut: None,
            lead: d.opening().unwrap_or_else(|| m.reply_no_trace.to_owned()),
            gist: None,
            quote: Vec::new(),
            fixes: Vec::new(),
            docs: None,
            version: None,
            question: m.reply_ask_trace.to_owned(),
            wrong_if: None,
            others: None,
            link: d.link.clone(),
        };
    };
    let untold = d.traces.len() - 1 + d.other_traces;
    let others = (untold > 0).then(|| lang.reply_others(untold));
    let version = t.flink_version.as_ref().map(|v| lang.reply_version(v));
    let cut = t.cut.as_ref().map(|(c, _)| c.clone());
    // A wrapper's finding on a text cut before the cause it wraps has nothing to fix yet.
    let wrapper_only = cut.is_some()
        && t.finding
            .as_ref()
            .is_some_and(|f| crate::rules::by_id(&f.rule).is_some_and(|r| r.def.wrapper));
    match &t.finding {
        Some(f) => ShortReply {
            cut: cut.clone(),
            lead: format!(
                "{}{}{}",
                if f.platform_assumed.is_some() {
                    m.reply_diagnosis_assumed
                } else {
                    m.reply_diagnosis
                },
                f.title.trim_end_matches(['.', '。']),
                lang.stop_after(&f.title)
            ),
            gist: Some(first_sentences(&f.summary.md, 80)),
            quote: quote(t),
            fixes: f
                .fixes
                .iter()
                .take(usize::from(!wrapper_only))
                .map(|x| first_sentences(&x.md, 60))
                .collect(),
            // Flink's docs only for a trace that is Flink's (or assumed to be): a JVM rule on
            // another program's trace links its other references, or none.
            docs: f
                .references
                .iter()
                .find(|r| t.flink || f.platform_assumed.is_some() || !is_flink_docs(&r.url))
                .map(|r| (r.title.clone(), r.url.clone())),
            version,
            question: if cut.is_some() {
                m.reply_ask_rest.to_owned()
            } else {
                f.confirm
                    .clone()
                    .unwrap_or_else(|| m.reply_confirm.to_owned())
            },
            wrong_if: f
                .false_alarm
                .as_ref()
                .map(|x| first_sentences(&x.md, 60))
                .filter(|s| !s.is_empty()),
            others,
            link: d.link.clone(),
        },
        None => ShortReply {
            lead: m.reply_no_rule.to_owned(),
            gist: t
                .answer
                .first()
                .map(|s| first_sentences(s, 80))
                .or_else(|| {
                    Some(format!(
                        "{}`{}`{}",
                        m.root_cause_label, t.root_cause, m.reply_stop
                    ))
                }),
            quote: quote(t),
            fixes: Vec::new(),
            docs: None,
            question: if cut.is_some() {
                m.reply_ask_rest_versions.to_owned()
            } else {
                m.reply_ask_logs.to_owned()
            },
            cut,
            wrong_if: None,
            version,
            others,
            link: d.link.clone(),
        },
    }
}

/// Whether `url` is a page of Flink's documentation (its docs, or a Flink subproject's).
fn is_flink_docs(url: &str) -> bool {
    url.contains("nightlies.apache.org/flink/") || url.contains("flink.apache.org")
}

/// The quoted lines: those the diagnosis points at, each under the nearest exception header
/// above it; at most [`MAX_SHORT_QUOTED`], each shortened to fit.
fn quote(t: &TraceDigest) -> Vec<String> {
    let lines = &t.quote;
    let mut keep = vec![false; lines.len()];
    for (k, l) in lines.iter().enumerate() {
        if l.mark.is_some() {
            keep[k] = true;
        }
    }
    if !keep.iter().any(|&k| k) {
        // Nothing marked: the root cause's header and its first frame.
        if let Some(h) = lines.iter().rposition(|l| l.kind == QuoteKind::Header) {
            keep[h] = true;
            if lines.get(h + 1).is_some_and(|l| l.kind == QuoteKind::Frame) {
                keep[h + 1] = true;
            }
        }
    }
    // Each kept frame's header.
    for k in 0..lines.len() {
        if keep[k] && lines[k].kind == QuoteKind::Frame {
            if let Some(h) = lines[..k].iter().rposition(|l| l.kind == QuoteKind::Header) {
                keep[h] = true;
            }
        }
    }
    let mut chosen: Vec<usize> = (0..lines.len()).filter(|&k| keep[k]).collect();
    // Over the budget: frames under the wrappers go first (where the root cause was thrown
    // matters most), then the root cause's own frames from the outermost; a wrapper's header
    // left without frames goes too, except the top-level one (it names the checkpoint or task).
    let root = lines
        .iter()
        .rposition(|l| l.kind == QuoteKind::Header)
        .unwrap_or(0);
    while chosen.len() > MAX_SHORT_QUOTED {
        let frame = |k: usize| lines[k].kind == QuoteKind::Frame;
        let drop = chosen
            .iter()
            .rposition(|&k| frame(k) && k < root)
            .or_else(|| {
                chosen.iter().enumerate().rev().find_map(|(p, &k)| {
                    let bare = !frame(k)
                        && k != root
                        && p > 0
                        && !chosen.get(p + 1).is_some_and(|&n| frame(n));
                    bare.then_some(p)
                })
            })
            .or_else(|| chosen.iter().rposition(|&k| frame(k)));
        match drop {
            Some(p) => {
                chosen.remove(p);
            }
            None => break,
        }
    }
    let width = WIDTH - QUOTE_INDENT.len();
    // A header whose message does not fit may take a second line while the quote stays within
    // MAX_SHORT_QUOTED_LINES: the root cause's header first (its message is the clue), then
    // the others from the top.
    let mut spare = MAX_SHORT_QUOTED_LINES.saturating_sub(chosen.len());
    let mut two_lines = vec![false; lines.len()];
    let headers = chosen
        .iter()
        .copied()
        .filter(|&k| lines[k].kind == QuoteKind::Header);
    let mut by_need: Vec<usize> = headers.clone().filter(|&k| k == root).collect();
    by_need.extend(headers.filter(|&k| k != root));
    for k in by_need {
        if spare > 0 && fit_header(&lines[k].text, width).1.is_some() {
            two_lines[k] = true;
            spare -= 1;
        }
    }
    let mut out = Vec::new();
    for k in chosen {
        let l = &lines[k];
        match l.kind {
            QuoteKind::Frame => out.push(format!("  {}", fit_frame(&l.text, width - 2))),
            QuoteKind::Header => {
                let (first, rest) = fit_header(&l.text, width);
                match rest {
                    Some(rest) if two_lines[k] => {
                        out.push(first);
                        out.push(rest);
                    }
                    Some(_) => out.push(clip(&abbreviate_classes(&l.text), width)),
                    None => out.push(first),
                }
            }
            _ => out.push(clip(&l.text, width)),
        }
    }
    out
}

/// An exception header within `width` columns, on one line or two: as printed when it fits,
/// else with its class names' packages abbreviated (`o.a.f.u.FlinkRuntimeException: …`),
/// else broken at a space onto a second line (indented by four, cut with `…` if still too
/// long). The second part is `None` when one line is enough.
fn fit_header(text: &str, width: usize) -> (String, Option<String>) {
    if super::display_width(text) <= width {
        return (text.to_owned(), None);
    }
    let short = abbreviate_classes(text);
    if super::display_width(&short) <= width {
        return (short, None);
    }
    // The last space that leaves the first line within `width`.
    let mut used = 0;
    let mut cut = None;
    for (i, c) in short.char_indices() {
        used += unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
        if used > width {
            break;
        }
        if c == ' ' && i > width / 3 {
            cut = Some(i);
        }
    }
    match cut {
        Some(i) => (
            short[..i].to_owned(),
            Some(clip_middle(
                &format!("    {}", short[i + 1..].trim_start()),
                width,
            )),
        ),
        None => (clip(&short, width), None),
    }
}

/// `s` within `width` columns: cut in the middle when it ends with a task's subtask
/// (`… (18/60)#0.`: which subtask failed), else at its end; `…` where the cut is.
fn clip_middle(s: &str, width: usize) -> String {
    const TAIL: usize = 14;
    let subtask = s
        .trim_end_matches('.')
        .rsplit_once(" (")
        .is_some_and(|(_, t)| t.contains('/') && t.starts_with(|c: char| c.is_ascii_digit()));
    if !subtask || super::display_width(s) <= width || width <= TAIL + 8 {
        return clip(s, width);
    }
    let chars: Vec<char> = s.chars().collect();
    let tail: String = chars[chars.len().saturating_sub(TAIL)..].iter().collect();
    let head = clip(s, width - super::display_width(&tail));
    format!("{head}{tail}")
}

/// Fully qualified class names in `text` with their packages cut to first letters:
/// `Caused by: java.util.concurrent.CompletionException: java.lang.RuntimeException: x` →
/// `Caused by: j.u.c.CompletionException: j.l.RuntimeException: x`. Words that are not class
/// names (no upper-case segment after lower-case ones: `flink.version`, `1.2.3`) stay.
fn abbreviate_classes(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (k, word) in text.split(' ').enumerate() {
        if k > 0 {
            out.push(' ');
        }
        let core = word.trim_end_matches([':', ',', ';', ')', '.']);
        let tail = &word[core.len()..];
        let segments: Vec<&str> = core.split('.').collect();
        let class_at = segments
            .iter()
            .position(|s| s.starts_with(|c: char| c.is_ascii_uppercase()));
        let is_class = match class_at {
            Some(c) if c >= 2 => segments[..c].iter().all(|s| {
                s.starts_with(|c: char| c.is_ascii_lowercase())
                    && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            }),
            _ => false,
        };
        match class_at {
            Some(c) if is_class => {
                for s in &segments[..c] {
                    out.extend(s.chars().next());
                    out.push('.');
                }
                out.push_str(&segments[c..].join("."));
                out.push_str(tail);
            }
            _ => out.push_str(word),
        }
    }
    out
}

/// `at org.apache.flink.streaming.runtime.tasks.StreamTask.invoke(StreamTask.java:623)` within
/// `width` chars: package segments abbreviated to their first letter
/// (`at o.a.f.s.r.t.StreamTask.invoke(StreamTask.java:623)`), then the file name left out
/// (`(…:623)`), then cut with `…`.
fn fit_frame(text: &str, width: usize) -> String {
    if super::display_width(text) <= width {
        return text.to_owned();
    }
    let (at, call) = text.split_at(if text.starts_with("at ") { 3 } else { 0 });
    let (name, rest) = call.split_at(call.find('(').unwrap_or(call.len()));
    let segments: Vec<&str> = name.split('.').collect();
    let class_at = segments
        .iter()
        .position(|s| s.starts_with(|c: char| c.is_ascii_uppercase()))
        .unwrap_or(segments.len().saturating_sub(2));
    let short_name: Vec<String> = segments
        .iter()
        .enumerate()
        .map(|(k, s)| {
            if k < class_at {
                s.chars().next().map(String::from).unwrap_or_default()
            } else {
                (*s).to_owned()
            }
        })
        .collect();
    let mut out = format!("{at}{}{rest}", short_name.join("."));
    if super::display_width(&out) > width {
        if let Some((_, line)) = rest.rsplit_once(':') {
            out = format!("{at}{}(…:{line}", short_name.join("."));
        }
    }
    if super::display_width(&out) > width {
        // The class and method say more than the line number.
        out = format!("{at}{}", short_name.join("."));
    }
    clip(&out, width)
}

/// `s` cut to `width` display columns (a CJK character takes two), ending with `…` when cut.
fn clip(s: &str, width: usize) -> String {
    if super::display_width(s) <= width {
        return s.to_owned();
    }
    let mut out = String::new();
    let mut used = 0;
    for c in s.chars() {
        let w = unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
        if used + w > width.saturating_sub(1) {
            break;
        }
        used += w;
        out.push(c);
    }
    out.push('…');
    out
}

/// The first sentences of Markdown prose `md`, at least `min` chars of them when there are:
/// a sentence ends at `. ` (or the end of a line) outside code spans. The first paragraph
/// only.
fn first_sentences(md: &str, min: usize) -> String {
    let para = md.split("\n\n").next().unwrap_or("").replace('\n', " ");
    let mut in_code = false;
    let chars: Vec<(usize, char)> = para.char_indices().collect();
    for (i, &(at, c)) in chars.iter().enumerate() {
        match c {
            '`' => in_code = !in_code,
            // A Chinese full stop ends a sentence with no space after it.
            '。' | '？' | '！' if !in_code && at >= min => {
                return para[..at + c.len_utf8()].trim().to_owned();
            }
            '.' | '?' | '!' if !in_code && at >= min => {
                let next = chars.get(i + 1).map(|&(_, c)| c);
                let closing = matches!(next, Some('*'));
                let end = if closing {
                    // `**Bold sentence.**`: keep the closing marks.
                    chars[i + 1..]
                        .iter()
                        .find(|&&(_, c)| c != '*')
                        .map_or(para.len(), |&(a, _)| a)
                } else {
                    at + c.len_utf8()
                };
                let after = para[end..].chars().next();
                // Not an abbreviation (`e.g.`, `i.e.`, `etc.` inside a sentence, `vs.`).
                let word = para[..at]
                    .rsplit(|c: char| c.is_whitespace() || c == '(')
                    .next()
                    .unwrap_or("");
                let abbreviation = matches!(word, "e.g" | "i.e" | "vs" | "etc" | "cf" | "approx")
                    || (word.len() == 1 && word.chars().all(|c| c.is_ascii_lowercase()));
                if after.is_none_or(char::is_whitespace) && !abbreviation {
                    return para[..end].trim().to_owned();
                }
            }
            _ => {}
        }
    }
    para.trim().to_owned()
}

/// Markdown prose as plain text: no `**`, code spans without backticks.
fn plain(md: &str) -> String {
    // Backticks and emphasis marks (`**`, `*`) go; a `*` inside a code span is text
    // (`taskmanager.memory.*`).
    let mut out = String::with_capacity(md.len());
    let mut in_code = false;
    for c in md.chars() {
        match c {
            '`' => in_code = !in_code,
            '*' if !in_code => {}
            _ => out.push(c),
        }
    }
    out
}

/// Markdown prose in JIRA wiki markup: `**b**` → `*b*`, `` `c` `` → `{{c}}`.
fn jira(md: &str) -> String {
    let bold = md.replace("**", "\u{0}");
    let mut out = String::new();
    let mut in_code = false;
    for c in bold.chars() {
        match c {
            '`' => {
                out.push_str(if in_code { "}}" } else { "{{" });
                in_code = !in_code;
            }
            '\u{0}' => out.push('*'),
            c => out.push(c),
        }
    }
    if in_code {
        out.push_str("}}");
    }
    out
}

/// Appends `text` wrapped at [`WIDTH`], the first line after `first`, the others after `rest`.
/// A word longer than the width (a long code span) is broken: the short reply keeps to the
/// width; links are not filled, they have lines of their own.
fn fill(out: &mut String, text: &str, first: &str, rest: &str) {
    super::wrap_into(out, text, first, rest, true);
}

/// The short reply as plain text for a mail: prose wrapped at [`WIDTH`] columns, quoted lines
/// within it, the link alone on its line (the only line that may be longer).
pub fn short_plain_text_of(d: &Digest) -> String {
    render_plain(d, &fitted(d))
}

/// Lines a short reply takes at most (plain text; the Markdown and JIRA forms drop the same
/// parts).
pub const MAX_SHORT_LINES: usize = 25;

/// The short reply, with its least needed parts dropped until the plain text takes at most
/// [`MAX_SHORT_LINES`] lines: first when it may not apply, then the note on other traces, then
/// quoted lines from the end (never below two), then the summary's gist. The lead, the cut
/// note, the fix, the version, the question and the link always stay.
fn fitted(d: &Digest) -> ShortReply {
    let mut r = build(d);
    loop {
        if render_plain(d, &r).lines().count() <= MAX_SHORT_LINES {
            return r;
        }
        if r.wrong_if.take().is_some() || r.others.take().is_some() {
            continue;
        }
        if r.quote.len() > 2 {
            r.quote.pop();
            continue;
        }
        if r.gist.take().is_some() {
            continue;
        }
        return r;
    }
}

fn render_plain(d: &Digest, r: &ShortReply) -> String {
    let mut out = String::new();
    if let Some(cut) = &r.cut {
        fill(&mut out, &plain(cut), "", "");
        out.push('\n');
    }
    fill(&mut out, &r.lead, "", "");
    if let Some(g) = &r.gist {
        fill(&mut out, &plain(g), "", "");
    }
    if !r.quote.is_empty() {
        out.push('\n');
        for l in &r.quote {
            out.push_str(QUOTE_INDENT);
            out.push_str(l);
            out.push('\n');
        }
    }
    out.push('\n');
    let m = d.lang.msgs();
    for (k, f) in r.fixes.iter().enumerate() {
        let label = if k == 0 { m.reply_fix } else { m.reply_also };
        fill(&mut out, &format!("{label}{}", plain(f)), "", "");
    }
    if let Some((_, url)) = &r.docs {
        // A link line: never wrapped, the URL whole after its label.
        out.push_str(&format!("{}{url}\n", m.reply_docs));
    }
    if let Some(v) = &r.version {
        fill(&mut out, v, "", "");
    }
    fill(&mut out, &plain(&r.question), "", "");
    if let Some(w) = &r.wrong_if {
        fill(
            &mut out,
            &format!("{}{}", m.reply_may_not_apply, plain(w)),
            "",
            "",
        );
    }
    if let Some(o) = &r.others {
        fill(&mut out, o, "", "");
    }
    if let Some(link) = &r.link {
        out.push_str(&format!("\n{}{}\n", m.reply_full, link.trim()));
        if let Some(note) = &d.link_note {
            fill(&mut out, note, "", "");
        }
    }
    out
}

/// The short reply as Markdown (GitHub): the quoted lines in a fenced block, the link last.
pub fn short_markdown_of(d: &Digest) -> String {
    let r = fitted(d);
    let m = d.lang.msgs();
    let mut out = String::new();
    if let Some(cut) = &r.cut {
        out.push_str(cut);
        out.push_str("\n\n");
    }
    out.push_str(&format!("**{}**", r.lead));
    if let Some(g) = &r.gist {
        out.push(' ');
        out.push_str(g);
    }
    out.push('\n');
    if !r.quote.is_empty() {
        let fence = if r.quote.iter().any(|l| l.contains("```")) {
            "~~~~"
        } else {
            "```"
        };
        out.push_str(&format!("\n{fence}text\n"));
        for l in &r.quote {
            out.push_str(l);
            out.push('\n');
        }
        out.push_str(fence);
        out.push('\n');
    }
    out.push('\n');
    for (k, f) in r.fixes.iter().enumerate() {
        let label = if k == 0 { m.reply_fix } else { m.reply_also };
        out.push_str(&format!("**{}** ", label.trim_end()));
        out.push_str(f);
        out.push_str("\n\n");
    }
    if let Some((title, url)) = &r.docs {
        out.push_str(&format!(
            "**{}** [{title}]({url})\n\n",
            m.reply_docs.trim_end()
        ));
    }
    if let Some(v) = &r.version {
        out.push_str(v);
        out.push(' ');
    }
    out.push_str(&r.question);
    out.push('\n');
    if let Some(w) = &r.wrong_if {
        out.push_str(&format!("\n*{}* {w}\n", m.reply_may_not_apply.trim_end()));
    }
    if let Some(o) = &r.others {
        out.push_str(&format!("\n{o}\n"));
    }
    if let Some(link) = &r.link {
        out.push_str(&format!("\n[{}]({})\n", m.reply_full_link, link.trim()));
        if let Some(note) = &d.link_note {
            out.push_str(&format!("{note}\n"));
        }
    }
    out
}

/// The short reply in JIRA wiki markup (Apache's JIRA): `*bold*`, `{{code}}`, `{noformat}`
/// for the quoted lines, `[title|url]` links.
pub fn short_jira_of(d: &Digest) -> String {
    let r = fitted(d);
    let m = d.lang.msgs();
    let mut out = String::new();
    if let Some(cut) = &r.cut {
        out.push_str(&jira(cut));
        out.push_str("\n\n");
    }
    out.push_str(&format!("*{}*", r.lead));
    if let Some(g) = &r.gist {
        out.push(' ');
        out.push_str(&jira(g));
    }
    out.push('\n');
    if !r.quote.is_empty() {
        out.push_str("\n{noformat}\n");
        for l in &r.quote {
            out.push_str(&l.replace("{noformat}", "{ noformat}"));
            out.push('\n');
        }
        out.push_str("{noformat}\n");
    }
    out.push('\n');
    for (k, f) in r.fixes.iter().enumerate() {
        let label = if k == 0 { m.reply_fix } else { m.reply_also };
        out.push_str(&format!("*{}* ", label.trim_end()));
        out.push_str(&jira(f));
        out.push_str("\n\n");
    }
    if let Some((title, url)) = &r.docs {
        out.push_str(&format!(
            "*{}* [{}|{url}]\n\n",
            m.reply_docs.trim_end(),
            title.replace(['[', ']', '|'], " ")
        ));
    }
    if let Some(v) = &r.version {
        out.push_str(v);
        out.push(' ');
    }
    out.push_str(&jira(&r.question));
    out.push('\n');
    if let Some(w) = &r.wrong_if {
        out.push_str(&format!(
            "\n_{}_ {}\n",
            m.reply_may_not_apply.trim_end(),
            jira(w)
        ));
    }
    if let Some(o) = &r.others {
        out.push_str(&format!("\n{o}\n"));
    }
    if let Some(link) = &r.link {
        out.push_str(&format!("\n[{}|{}]\n", m.reply_full_link, link.trim()));
        if let Some(note) = &d.link_note {
            out.push_str(&format!("{note}\n"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::display_width;
    use super::*;

    #[test]
    fn frames_are_abbreviated_to_fit() {
        let f = "at org.apache.flink.streaming.api.operators.async.AsyncWaitOperator.snapshotState(AsyncWaitOperator.java:283)";
        let s = fit_frame(f, 66);
        assert!(s.chars().count() <= 66, "{s}");
        assert!(
            s.starts_with("at o.a.f.s.a.o.a.AsyncWaitOperator.snapshotState("),
            "{s}"
        );
        assert!(s.ends_with(":283)"), "{s}");
        assert_eq!(fit_frame("at a.B.c(B.java:1)", 66), "at a.B.c(B.java:1)");
    }

    #[test]
    fn a_long_method_keeps_its_name_before_its_line_number() {
        // tests/corpus/checkpoint/a-iceberg-bounded-savepoint-tasks-not-running.txt: the plan
        // calculator's method is what says which check failed.
        let f = "at org.apache.flink.runtime.checkpoint.DefaultCheckpointPlanCalculator.checkTasksStarted(DefaultCheckpointPlanCalculator.java:143)";
        let s = fit_frame(f, 62);
        assert_eq!(
            s,
            "at o.a.f.r.c.DefaultCheckpointPlanCalculator.checkTasksStarted"
        );
    }

    #[test]
    fn a_long_header_keeps_its_message_on_a_second_line() {
        // A header of tests/corpus (the no-resources cases): the message names what failed.
        let h = "Caused by: java.util.concurrent.CompletionException: org.apache.flink.runtime.jobmanager.scheduler.NoResourceAvailableException: No pooled slot available and request to ResourceManager for new slot failed";
        let (first, rest) = fit_header(h, 68);
        assert!(
            first.starts_with("Caused by: j.u.c.CompletionException:"),
            "{first}"
        );
        assert!(display_width(&first) <= 68, "{first}");
        let rest = rest.expect("a second line");
        assert!(
            rest.starts_with("    ") && display_width(&rest) <= 68,
            "{rest}"
        );
        assert!(
            format!("{first} {rest}").contains("No pooled slot"),
            "{first} / {rest}"
        );
        let (one, none) = fit_header(
            "Caused by: java.util.concurrent.CompletionException: java.lang.RuntimeException: boom",
            68,
        );
        assert_eq!(
            one,
            "Caused by: j.u.c.CompletionException: j.l.RuntimeException: boom"
        );
        assert!(none.is_none());
        // Words that are not class names stay.
        assert_eq!(
            abbreviate_classes("set flink.version to 1.17.2, see e.g. org.Foo"),
            "set flink.version to 1.17.2, see e.g. org.Foo"
        );
    }

    #[test]
    fn a_header_s_second_line_keeps_the_subtask_at_its_end() {
        // The seed (tests/cases/seed.txt): the subtask and attempt end the header.
        let h = "java.io.IOException: Could not perform checkpoint 575 for operator ual_transform_UserLogBlackUidJudger -> ual_transform_IpLabel (18/60)#0.";
        let (_, rest) = fit_header(h, 68);
        let rest = rest.expect("a second line");
        assert!(rest.ends_with("(18/60)#0."), "{rest}");
        assert!(rest.contains('…') && display_width(&rest) <= 68, "{rest}");
    }

    #[test]
    fn first_sentences_stop_outside_code_and_keep_bold() {
        let md = "**Never mutate the input record off the task thread.** Complete the `ResultFuture` with a **new** object. Or copy it.";
        assert_eq!(
            first_sentences(md, 10),
            "**Never mutate the input record off the task thread.**"
        );
        assert_eq!(
            first_sentences(md, 60),
            "**Never mutate the input record off the task thread.** Complete the `ResultFuture` with a **new** object."
        );
        assert_eq!(
            first_sentences("Use `a.b.C.d()`. Then x.", 1),
            "Use `a.b.C.d()`."
        );
        assert_eq!(
            first_sentences(
                "Raise the limit (in the config, e.g. 900000). Then restart.",
                1
            ),
            "Raise the limit (in the config, e.g. 900000)."
        );
    }

    #[test]
    fn plain_text_drops_emphasis_but_keeps_stars_in_code() {
        assert_eq!(
            plain("its *Serialization trace* and **bold**, keys `taskmanager.memory.*`"),
            "its Serialization trace and bold, keys taskmanager.memory.*"
        );
    }

    #[test]
    fn jira_markup_has_its_own_bold_and_code() {
        assert_eq!(jira("**Stop** the `job` now"), "*Stop* the {{job}} now");
    }
}
