//! The first answer as static HTML: the page's diagnoser with a text and its diagnosis, written
//! from the same [`PageModel`] the Yew components render, with the same elements and classes,
//! so that the page can show a share link's or a kept text's diagnosis before the app's module
//! has loaded (issue 13: `src/bin/first.rs`, a module without Yew, writes it; the app takes its
//! place once it has rendered the same diagnosis, `src/app/mod.rs`).
//!
//! What needs the app is left out or disabled here: the Share panel, the buttons (shown
//! disabled, so that nothing moves when the app takes over), the rule links' routing (plain
//! links to the rule page, which the app opens), a fold's lazy building (a fold holds its frames).
//! The HTML fields of the model (`*_html`) come from our own rule files, rendered at build time,
//! and are written as they are, as the app does; every other text is escaped.

use crate::diagram::{label_baseline, DiagramView, BOX_W, COL_W, LABEL_W, LINE_H, PAD, TOP};
use crate::lang::Lang;
use crate::number::Coord;
use crate::view::{
    ExceptionView, ExplanationView, FindingView, FrameBlock, FrameView, LineRange, PageModel,
    SkippedCause, SkippedCauses, TraceView, STRIP_FACTS,
};
use std::fmt::Write;

/// Escapes `s` for an element's content or a double-quoted attribute value.
pub fn escape(out: &mut String, s: &str) {
    let mut last = 0;
    for (i, b) in s.bytes().enumerate() {
        let rep = match b {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            b'"' => "&quot;",
            _ => continue,
        };
        out.push_str(&s[last..i]);
        out.push_str(rep);
        last = i + 1;
    }
    out.push_str(&s[last..]);
}

/// The static markup being written: elements, escaped text and attributes.
struct Out {
    s: String,
}

impl Out {
    /// Escaped text.
    fn t(&mut self, text: &str) -> &mut Self {
        escape(&mut self.s, text);
        self
    }

    /// Markup written as it is (our own tags, or HTML rendered at build time from rule files).
    fn m(&mut self, markup: &str) -> &mut Self {
        self.s.push_str(markup);
        self
    }

    /// ` name="value"`, the value escaped.
    fn a(&mut self, name: &str, value: &str) -> &mut Self {
        self.s.push(' ');
        self.s.push_str(name);
        self.s.push_str("=\"");
        escape(&mut self.s, value);
        self.s.push('"');
        self
    }

    /// Text with its `` `code` `` spans as `<code>` (as `crate::app::code_spans`).
    fn code_spans(&mut self, text: &str) -> &mut Self {
        for (i, piece) in text.split('`').enumerate() {
            if i % 2 == 1 {
                self.m("<code>").t(piece).m("</code>");
            } else {
                self.t(piece);
            }
        }
        self
    }
}

/// Texts of this many bytes or more get no first view: the app diagnoses them in a worker (its
/// `WORKER_MIN_BYTES` is this value: `src/app/mod.rs`), and so the page's thread never spends long on one here.
pub const MAX_BYTES: usize = 200_000;

/// The text a first view shows: a share link's (`link`: the page's fragment, `#/s/1.…`) when
/// one is given, else the `kept` text. `None` when there is nothing to show, when the text is
/// [`MAX_BYTES`] or more, and when the link cannot be read whole (the app then says what was
/// left out, with the diagnosis of what it could restore).
#[inline(never)]
pub fn text_to_show(link: &str, kept: &str) -> Option<String> {
    let text = if link.is_empty() {
        kept.to_owned()
    } else {
        let state = crate::share::link::decode(link).ok()?;
        if !state.left_out.is_empty() {
            return None;
        }
        state.text
    };
    (!text.trim().is_empty() && text.len() < MAX_BYTES).then_some(text)
}

/// The diagnoser as the app renders it for `text` and its `model` (`diagnose_ms`: the time the
/// diagnosis took, in milliseconds, for the status line; `from_link`: the text came with a share
/// link, which the page says): the header, the input panel holding the text (read-only until the
/// app takes over), the status and the results, the footer. One HTML string, to put in an
/// element of `index.html`'s body.
#[inline(never)]
pub fn diagnoser(
    text: &str,
    model: &PageModel,
    diagnose_ms: f64,
    from_link: bool,
    lang: Lang,
) -> String {
    let m = lang.msgs();
    let mut o = Out {
        s: String::with_capacity(text.len() + 16 * 1024),
    };
    o.m("<header class=\"top\"><h1><span class=\"logo\" aria-hidden=\"true\">⚕</span> Trace Doctor</h1>")
        .m("<nav class=\"site-nav\"")
        .a("aria-label", m.nav_label)
        .m(if from_link {
            "><a href=\"#/\">"
        } else {
            "><a href=\"#/\" class=\"current\">"
        })
        .t(m.nav_diagnose)
        .m("</a><a href=\"#/rules\">")
        .t(&lang.nav_rules(crate::rules::COUNT))
        .m("</a></nav><button type=\"button\" id=\"first-shortcuts\" class=\"link-button\" disabled>")
        .t(m.shortcuts_title)
        .m(" <kbd>?</kbd></button><div class=\"lang-switch\" role=\"group\"")
        .a("aria-label", m.lang_switch_label)
        .m("><button type=\"button\" lang=\"zh-CN\" disabled")
        .a("aria-pressed", if lang == Lang::Zh { "true" } else { "false" })
        .m(">中文</button><span aria-hidden=\"true\"> / </span><button type=\"button\" lang=\"en\" disabled")
        .a("aria-pressed", if lang == Lang::En { "true" } else { "false" })
        .m(">English</button></div><p class=\"tagline\">")
        .t(m.tagline)
        .m("</p></header>");
    o.m("<main class=\"layout\"><section class=\"input\"")
        .a("aria-label", m.input_section)
        .m("><label for=\"first-input\" class=\"input-label\">")
        .t(m.input_label)
        .m("</label><div class=\"input-area\"><textarea id=\"first-input\" readonly spellcheck=\"false\">")
        .t(text)
        .m("</textarea></div><div class=\"actions\"><button type=\"button\" class=\"primary\" disabled>")
        .t(m.try_example)
        .m("</button><button type=\"button\" disabled>")
        .t(m.clear)
        .m("</button><button type=\"button\" disabled>")
        .t(m.open_file)
        .m("</button><span class=\"hint\">")
        .t(m.example_hint)
        .m("</span></div>");
    // The app says a kept text is kept; a link's text it keeps after its diagnosis, and says so
    // then (the note comes a moment after the takeover, as it does without a first view).
    if !from_link {
        o.m("<p class=\"kept hint\" data-kept=\"yes\">")
            .t(m.kept_yes)
            .m("</p>");
    }
    o.m("</section><section class=\"result\"")
        .a("aria-label", m.result_label)
        .m(">");
    if from_link {
        o.m("<div class=\"link-notice\" role=\"status\"><p>")
            .t(m.link_opened)
            .m("</p><button type=\"button\" disabled>")
            .t(m.dismiss)
            .m("</button></div>");
    }
    o.m("<p class=\"status done\" role=\"status\">");
    let stacks = model
        .index
        .iter()
        .filter(|r| r.what.starts_with("thread "))
        .count();
    let status = if model.traces.is_empty() {
        m.status_no_trace.to_owned()
    } else if model.threads > 0 && stacks == model.total_traces {
        lang.done_thread_dump(model.threads, model.total_traces, diagnose_ms)
    } else {
        lang.done(model.total_traces, model.diagnosed_traces, diagnose_ms)
    };
    o.t(&status).m("</p><div class=\"results\">");
    results(&mut o, model, lang);
    o.m("</div></section></main><footer class=\"foot\"><p>")
        .t(m.footer)
        .m("</p></footer>");
    o.s
}

/// The result area (as the app's `Results`, without the Share panel).
fn results(o: &mut Out, model: &PageModel, lang: Lang) {
    let m = lang.msgs();
    if model.traces.is_empty() {
        o.m("<div class=\"no-trace\" role=\"note\"><h2>")
            .t(m.no_trace_heading)
            .m("</h2><p>")
            .t(m.no_trace_looks_for)
            .m("<code>at org.apache.flink.runtime.taskmanager.Task.run(Task.java:566)</code>")
            .t(m.no_trace_under)
            .m("<code>java.io.IOException: …</code>")
            .t(m.full_stop)
            .m("</p><p>")
            .t(m.no_trace_paste)
            .m("</p></div>");
        return;
    }
    for line in &model.deadlocks {
        o.m("<p class=\"deadlock\" role=\"alert\">")
            .t(&lang.deadlock(*line))
            .m("</p>");
    }
    if model.index.len() > 1 {
        o.m("<details class=\"trace-index\"")
            .m(if model.index.len() <= 12 { " open" } else { "" })
            .m("><summary>")
            .t(&lang.index_summary(
                model.total_traces,
                model.index.iter().all(|r| r.what.starts_with("thread ")),
            ))
            .m("</summary><ol>");
        for r in &model.index {
            o.m("<li>");
            if r.shown {
                o.m("<a").a("href", &format!("#t{}", r.number)).m("><code>");
                o.t(&r.what).m("</code></a>");
            } else {
                o.m("<code>").t(&r.what).m("</code>");
            }
            o.m("<span class=\"line\">")
                .t(&lang.line_no(r.line))
                .m("</span>");
            if r.occurrences > 1 {
                o.m("<span class=\"count\"> ×")
                    .t(&r.occurrences.to_string())
                    .m("</span>");
            }
            if let Some(d) = &r.diagnosis {
                o.m("<span class=\"row-diag\"> — ").t(d).m("</span>");
            }
            o.m("</li>");
        }
        o.m("</ol>");
        if model.total_traces > model.index.len() {
            o.m("<p class=\"hidden-traces\">")
                .t(&lang.index_not_listed(model.total_traces - model.index.len()))
                .m("</p>");
        }
        if model.hidden_traces > 0 {
            o.m("<p class=\"hidden-traces\">")
                .t(&lang.index_first_shown(model.traces.len()))
                .m("</p>");
        }
        o.m("</details>");
    }
    for (i, t) in model.traces.iter().enumerate() {
        trace(o, t, i == 0, lang);
    }
    if !model.problems.is_empty() {
        o.m("<details class=\"problems\"><summary>")
            .t(&lang.problems(model.problems.len()))
            .m("</summary><ul>");
        for (line, msg) in model.problems.iter().take(100) {
            o.m("<li>").t(&format!("line {line}: {msg}")).m("</li>");
        }
        o.m("</ul></details>");
    }
}

/// A paragraph `**Lead.** rest`: the lead in bold, code spans in the rest.
fn bold_lead(o: &mut Out, s: &str) {
    match s.strip_prefix("**").and_then(|r| r.split_once("**")) {
        Some((lead, rest)) => {
            o.m("<strong>").t(lead).m("</strong>").code_spans(rest);
        }
        None => {
            o.code_spans(s);
        }
    }
}

/// The no-rule answer's paragraphs, if any.
fn no_rule_answer(o: &mut Out, answer: Option<&(String, Vec<String>)>, label: &str) {
    let Some((_, sentences)) = answer else {
        return;
    };
    o.m("<div class=\"no-rule-answer\"")
        .a("aria-label", label)
        .m(">");
    for s in sentences {
        o.m("<p>").code_spans(&s.replace("**", "")).m("</p>");
    }
    o.m("</div>");
}

/// One trace card (as the app's `TraceCard`); the first (`has_share`) holds the Share panel's
/// place, closed, after its findings.
fn trace(o: &mut Out, t: &TraceView, has_share: bool, lang: Lang) {
    let m = lang.msgs();
    let heading = t.heading(lang);
    o.m("<article class=\"trace\"")
        .a("id", &t.dom_id)
        .a("aria-label", &lang.trace_label(t.number))
        .m("><h2 class=\"trace-head\">")
        .t(&heading)
        .m("</h2>");
    let strip: Vec<_> = t
        .facts
        .iter()
        .filter(|f| STRIP_FACTS.contains(&f.key.as_str()))
        .collect();
    // The app's strip also holds the Share button (first trace): kept as a disabled button.
    if !strip.is_empty() || has_share {
        o.m("<p class=\"facts-strip\"")
            .a("aria-label", m.facts_label)
            .m(">");
        for (k, f) in strip.iter().enumerate() {
            o.m("<span class=\"strip-fact\"")
                .a("data-fact", &f.key)
                .m(">")
                .t(if k > 0 { "· " } else { "" })
                .t(&f.label)
                .m(" <strong")
                .a("title", &f.value)
                .m(">")
                .t(&crate::view::strip_value(&f.value))
                .m("</strong></span>");
        }
        if has_share {
            o.m("<button type=\"button\" class=\"to-share\" disabled>")
                .t(m.to_share)
                .m("</button>");
        }
        o.m("</p>");
    }
    if let Some(cut) = &t.cut {
        o.m(if t.cut_certain {
            "<p class=\"cut-note certain\" role=\"note\">"
        } else {
            "<p class=\"cut-note\" role=\"note\">"
        });
        bold_lead(o, cut);
        o.m("</p>");
    }
    if let Some((name, state)) = &t.thread {
        o.m("<section class=\"finding none thread\"><h3>")
            .t(&lang.thread_heading(name))
            .m("</h3><p>")
            .t(&lang.thread_state(state.as_deref()))
            .m("</p>");
        no_rule_answer(o, t.answer.as_ref(), m.no_rule_answer_label);
        o.m("</section>");
    } else if t.findings.is_empty() {
        o.m("<section class=\"finding none\"");
        if let Some((id, _)) = &t.answer {
            o.a("data-answer", id);
        }
        o.m("><h3>")
            .t(m.no_known_diagnosis)
            .m("</h3><p>")
            .t(if t.cut_certain {
                m.last_printed_label
            } else {
                m.root_cause_label
            })
            .m("<code>")
            .t(&t.root_cause)
            .m("</code></p>");
        no_rule_answer(o, t.answer.as_ref(), m.no_rule_answer_label);
        if let Some(terms) = &t.search_terms {
            o.m("<p class=\"search-terms\">")
                .t(m.search_for)
                .m("<code>")
                .t(terms)
                .m("</code>")
                .t(m.search_in);
            for (k, (label, url)) in t.searches.iter().enumerate() {
                o.t(if k > 0 { ", " } else { "" })
                    .m("<a")
                    .a("href", url)
                    .m(" target=\"_blank\" rel=\"noopener noreferrer\">")
                    .t(label)
                    .m("</a>");
            }
            o.m("</p><details class=\"what-to-send\"><summary>")
                .t(m.settles_summary)
                .m("</summary><ul><li>")
                .t(m.settles_versions)
                .m("</li><li>")
                .t(m.settles_logs)
                .m("</li><li>")
                .t(m.settles_job)
                .m("</li></ul></details>");
        }
        if !t.flink && t.answer.is_none() {
            o.m("<p>").t(m.not_flink).m("</p>");
        }
        if let Some(e) = t.flink_evidence.first() {
            o.m("<p class=\"evidence\">")
                .t(m.read_as_flink)
                .code_spans(e)
                .m("</p>");
        }
        o.m("</section>");
    }
    for (i, f) in t.findings.iter().enumerate() {
        finding(o, f, i == 0, &format!("{}-f{i}", t.dom_id), lang);
    }
    if has_share {
        o.m("<details class=\"share\"><summary>")
            .t(m.share_summary)
            .m("</summary></details>");
    }
    if !t.facts.is_empty() {
        o.m("<section class=\"facts\"")
            .a("aria-label", m.facts_label)
            .m("><dl class=\"context\">");
        for f in &t.facts {
            o.m("<div class=\"fact\"")
                .a("data-fact", &f.key)
                .m("><dt>")
                .t(&f.label)
                .m("</dt><dd>")
                .t(&f.value)
                .m("</dd></div>");
        }
        o.m("</dl>");
        if !t.version_reasons.is_empty() {
            o.m("<details class=\"version-reasons\"><summary>")
                .t(m.version_how)
                .m("</summary><ul>");
            for r in &t.version_reasons {
                o.m("<li>").t(r).m("</li>");
            }
            o.m("</ul></details>");
        }
        o.m("</section>");
    }
    chain(o, &t.chain, t.lines.1, t.numbered, lang);
    o.m("</article>");
}

/// One finding (as the app's `FindingCard`); `dom`: its DOM id prefix (`t1-f0`).
fn finding(o: &mut Out, f: &FindingView, primary: bool, dom: &str, lang: Lang) {
    let m = lang.msgs();
    o.m("<section class=\"finding ")
        .t(&f.severity)
        .m(if primary { " primary\"" } else { "\"" })
        .a("data-rule", &f.rule)
        .m(">");
    if !primary {
        o.m("<p class=\"also\">").t(m.also_consistent).m("</p>");
    }
    o.m("<h3 class=\"finding-title\">").t(&f.title).m("</h3>");
    if let Some(s) = &f.platform_assumed {
        o.m("<p class=\"platform-assumed\" role=\"note\">")
            .t(s)
            .m("</p>");
    }
    if let Some(s) = &f.version_mismatch {
        o.m("<p class=\"version-mismatch\" role=\"note\">")
            .t(s)
            .m("</p>");
    }
    o.m("<div class=\"summary\">")
        .m(&f.summary_html)
        .m("</div>");
    if let Some(c) = &f.culprit {
        o.m("<p class=\"culprit\">")
            .code_spans(&c.replace("**", ""))
            .m("</p>");
    }
    o.m("<h4>")
        .t(m.frames_that_matter)
        .m("</h4><ol class=\"highlights\">");
    for (role, name, line, id) in &f.highlights {
        o.m("<li><a")
            .a("href", &format!("#{id}"))
            .m("><code>")
            .t(name)
            .m("</code></a><span class=\"line\">")
            .t(&lang.line_no(*line))
            .m("</span><span class=\"hl-role\"> — ")
            .code_spans(role)
            .m("</span></li>");
    }
    o.m("</ol>");
    if let Some(d) = &f.diagram {
        diagram(o, d, &format!("dg-{dom}"), lang);
    }
    explanation(o, &f.explanation, &f.reading_html, primary, lang);
    o.m("<details class=\"evidence\"><summary>")
        .t(&lang.why_matched(&f.rule))
        .m("</summary><ul>");
    for x in &f.evidence {
        o.m("<li>").t(x).m("</li>");
    }
    o.m("</ul><p>")
        .t(m.versions_label)
        .code_spans(f.versions.trim_end_matches('.'))
        .m(".</p></details><p class=\"rule-link\"><a")
        .a("href", &format!("#/rules/{}", f.rule))
        .m(">")
        .t(&lang.about_rule(&f.rule))
        .m("</a></p></section>");
}

/// A rule's explanation (as the app's `Explanation`).
fn explanation(o: &mut Out, e: &ExplanationView, reading: &[String], open: bool, lang: Lang) {
    let m = lang.msgs();
    if e.missing {
        o.m("<p class=\"prose-missing\" role=\"alert\">")
            .t(m.prose_missing)
            .m("</p>");
        return;
    }
    o.m(if open {
        "<details class=\"explanation\" open><summary>"
    } else {
        "<details class=\"explanation\"><summary>"
    })
    .t(m.why_it_happens)
    .m("</summary>");
    if !reading.is_empty() {
        o.m("<h4>")
            .t(m.reading_bottom_up)
            .m("</h4><ul class=\"reading\">");
        for x in reading {
            o.m("<li>").m(x).m("</li>");
        }
        o.m("</ul><h4>").t(m.mechanism).m("</h4>");
    }
    o.m(&e.why_html);
    for (h, body) in &e.sections {
        o.m("<h4>").t(h).m("</h4>").m(body);
    }
    o.m("</details><h4>")
        .t(m.fixes_best_first)
        .m("</h4><ol class=\"fixes\">");
    for x in &e.fixes_html {
        o.m("<li>").m(x).m("</li>");
    }
    o.m("</ol>");
    if !e.not_fixes_html.is_empty() {
        o.m("<details class=\"not-fixes\"><summary>")
            .t(m.not_help)
            .m("</summary><ul>");
        for x in &e.not_fixes_html {
            o.m("<li>").m(x).m("</li>");
        }
        o.m("</ul></details>");
    }
    if let Some(fa) = &e.false_alarms_html {
        o.m("<details class=\"false-alarms\"><summary>")
            .t(m.may_be_wrong)
            .m("</summary>")
            .m(fa)
            .m("</details>");
    }
    o.m("<h4>")
        .t(m.references)
        .m("</h4><ul class=\"references\">");
    for (title, url) in &e.references {
        o.m("<li><a")
            .a("href", url)
            .m(" rel=\"noopener noreferrer\" target=\"_blank\">")
            .t(title)
            .m("</a></li>");
    }
    o.m("</ul>");
}

/// A finding's diagram as inline SVG (as the app's `DiagramSvg`); `id`: a DOM id prefix.
fn diagram(o: &mut Out, d: &DiagramView, id: &str, lang: Lang) {
    let m = lang.msgs();
    let crate::diagram::Layout {
        tops,
        heights,
        width,
        height,
    } = d.layout();
    o.m("<figure class=\"diagram\"><h4 aria-hidden=\"true\">")
        .t(&d.title)
        .m("</h4><p class=\"dg-hint\" aria-hidden=\"true\">")
        .t(m.diagram_scroll_hint)
        .m("</p><div class=\"dg-scroll\" tabindex=\"0\"")
        .a("aria-label", m.diagram_label)
        .m("><svg xmlns=\"http://www.w3.org/2000/svg\" role=\"img\"")
        .a(
            "viewBox",
            &format!("0 0 {} {}", Coord(width), Coord(height)),
        )
        .a("aria-labelledby", &format!("{id}-title"))
        .a("aria-describedby", &format!("{id}-desc"))
        .m(" preserveAspectRatio=\"xMinYMin meet\"><title")
        .a("id", &format!("{id}-title"))
        .m(">")
        .t(&d.title)
        .m("</title><desc")
        .a("id", &format!("{id}-desc"))
        .m(">")
        .t(&d.description)
        .m("</desc><defs><marker")
        .a("id", &format!("{id}-arrow"))
        .m(" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M 0 0 L 10 5 L 0 10 z\" class=\"dg-arrowhead\"></path></marker></defs><text x=\"4\" y=\"16\" class=\"dg-time\">")
        .t(m.diagram_time)
        .m("</text>");
    let s = &mut o.s;
    if let Some(c) = d.lanes.iter().find_map(|l| l.throws_at) {
        let x = Coord(LABEL_W + c as f64 * COL_W + BOX_W / 2.0);
        let _ = write!(
            s,
            "<line class=\"dg-clash\" x1=\"{x}\" y1=\"{}\" x2=\"{x}\" y2=\"{}\"></line>",
            Coord(TOP - 6.0),
            Coord(height - 4.0)
        );
    }
    for (li, lane) in d.lanes.iter().enumerate() {
        let (top, h) = (tops[li], heights[li]);
        let mid = Coord(top + h / 2.0);
        let _ = write!(
            s,
            "<g class=\"dg-lane\"><line class=\"dg-axis\" x1=\"{}\" y1=\"{mid}\" x2=\"{}\" y2=\"{mid}\" marker-end=\"url(#{id}-arrow)\"></line>",
            Coord(LABEL_W),
            Coord(width - 6.0)
        );
        let first = Coord(label_baseline(lane.thread_lines.len(), top, h));
        let _ = write!(s, "<text class=\"dg-thread\" x=\"4\" y=\"{first}\">");
        tspans(s, &lane.thread_lines, 4.0);
        s.push_str("</text>");
        for (ci, lines) in lane.steps.iter().enumerate().filter(|(_, l)| !l.is_empty()) {
            let x = LABEL_W + ci as f64 * COL_W;
            let class = if lane.throws_at == Some(ci) {
                "dg-step dg-throws"
            } else {
                "dg-step"
            };
            let _ = write!(
                s,
                "<g class=\"{class}\"><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"6\"></rect><text x=\"{}\" y=\"{}\">",
                Coord(x),
                Coord(top),
                Coord(BOX_W),
                Coord(h),
                Coord(x + PAD),
                Coord(top + PAD + LINE_H - 3.0)
            );
            tspans(s, lines, x + PAD);
            s.push_str("</text></g>");
        }
        s.push_str("</g>");
    }
    o.m("</svg></div><figcaption>")
        .t(&d.caption)
        .m("</figcaption></figure>");
}

/// An SVG text's lines, one `tspan` each, at `x`.
fn tspans(s: &mut String, lines: &[String], x: f64) {
    for (k, line) in lines.iter().enumerate() {
        let dy = Coord(if k == 0 { 0.0 } else { LINE_H });
        let _ = write!(s, "<tspan x=\"{}\" dy=\"{dy}\">", Coord(x));
        escape(s, line);
        s.push_str("</tspan>");
    }
}

/// The gutter cell (as the app's chain: the numbers drawn by CSS from `data-ln`).
fn gutter(o: &mut Out, lines: LineRange, numbered: bool) {
    o.m("<span class=\"ln\" aria-hidden=\"true\"")
        .a(
            "data-ln",
            &if numbered {
                lines.label()
            } else {
                String::new()
            },
        )
        .m("></span>");
}

/// What a title says of its lines to screen readers, when they mean something.
fn spoken(o: &mut Out, lines: LineRange, numbered: bool, lang: Lang) {
    if numbered {
        o.m("<span class=\"sr-only\">")
            .t(&lang.spoken_lines(lines.first, lines.last))
            .m("</span>");
    }
}

/// The cause chain (as the app's `Chain`); `last_line` sizes the gutter.
fn chain(o: &mut Out, chain: &[ExceptionView], last_line: usize, numbered: bool, lang: Lang) {
    let m = lang.msgs();
    let heading = match chain.first().map(|e| e.relation.as_str()) {
        Some("thread") => m.chain_stack,
        Some("last printed") => m.chain_cut,
        _ => m.chain_root_first,
    };
    let digits = last_line.max(1).to_string().len();
    let width = if numbered {
        (2 * digits + 1) * 73 / 10 + 1
    } else {
        0
    };
    o.m("<section class=\"chain\"")
        .a("aria-label", heading)
        .a("style", &format!("--ln-w: {width}px"))
        .m("><h3>")
        .t(heading)
        .m("</h3>");
    for e in chain {
        exception(o, e, numbered, lang);
        if let Some(more) = &e.skipped_after {
            skipped(o, more, numbered, lang);
        }
    }
    o.m("</section>");
}

/// One throwable: a `details` with its header, message and frames.
fn exception(o: &mut Out, e: &ExceptionView, numbered: bool, lang: Lang) {
    let (class, relation, preview) = e.header(lang);
    o.m(if e.relation == "root cause" {
        "<details class=\"exception root\""
    } else {
        "<details class=\"exception\""
    })
    .a("id", &e.id)
    .a("data-class", &e.class)
    .m(if e.open { " open" } else { "" })
    .a("data-default-open", if e.open { "true" } else { "false" });
    if e.depth > 0 {
        o.a("style", &format!("--indent: {}em", e.depth.min(8) * 2));
    }
    o.m("><summary>");
    gutter(o, e.header_lines, numbered);
    o.m("<span class=\"head\"><span class=\"relation\">")
        .t(&relation)
        .m("</span><span class=\"ex-class\">");
    let mut parts = class.split_inclusive('.').peekable();
    while let Some(p) = parts.next() {
        o.t(p);
        if parts.peek().is_some() {
            o.m("<wbr>");
        }
    }
    o.m("</span>");
    spoken(o, e.header_lines, numbered, lang);
    for r in &e.roles {
        o.m("<span class=\"role header-role\">")
            .code_spans(r)
            .m("</span>");
    }
    if !preview.is_empty() {
        o.m("<span class=\"preview\">").t(&preview).m("</span>");
    }
    o.m("</span></summary>");
    if !e.message.is_empty() {
        o.m("<pre class=\"message\">").t(&e.message).m("</pre>");
    }
    if let Some(more) = &e.message_more {
        o.m("<p class=\"message-more\">").t(more).m("</p>");
    }
    if !e.message_tail.is_empty() {
        o.m("<pre class=\"message message-tail\">")
            .t(&e.message_tail)
            .m("</pre>");
    }
    o.m("<ol class=\"frames\">");
    for b in &e.blocks {
        match b {
            FrameBlock::Shown(frames) => {
                for f in frames {
                    frame(o, f, numbered, lang);
                }
            }
            FrameBlock::Folded {
                label,
                frames,
                lines,
            } => {
                let Some(first) = frames.first() else {
                    continue;
                };
                o.m("<li class=\"fold\"><details")
                    .a("id", &format!("{}-fold", first.id))
                    .m(" data-default-open=\"false\"><summary")
                    .a(
                        "class",
                        &format!("fold-label g-{:?}", first.group).to_lowercase(),
                    )
                    .m(">");
                gutter(o, *lines, numbered);
                o.m("<span class=\"fold-text\">").t(label).m("</span>");
                spoken(o, *lines, numbered, lang);
                o.m("</summary><ol class=\"frames\">");
                for f in frames {
                    frame(o, f, numbered, lang);
                }
                o.m("</ol></details></li>");
            }
        }
    }
    o.m("</ol>");
    if e.restored > 0 {
        o.m("<p class=\"restored-note\">")
            .t(&lang.restored_note(e.restored))
            .m("</p>");
    }
    o.m("</details>");
}

/// The throwables a long trace does not show in full, listed one line each.
fn skipped(o: &mut Out, more: &SkippedCauses, numbered: bool, lang: Lang) {
    o.m("<div class=\"fold skipped-causes\"><details")
        .a("id", &more.id)
        .m(" data-default-open=\"false\"><summary class=\"fold-label\">");
    gutter(o, more.lines, numbered);
    o.m("<span class=\"fold-text\">")
        .t(&more.label)
        .m("</span>");
    spoken(o, more.lines, numbered, lang);
    o.m("</summary><ol class=\"causes\">");
    for c in &more.listed {
        cause_line(o, c, numbered, lang);
    }
    o.m("</ol>");
    if more.count > more.listed.len() {
        o.m("<p class=\"restored-note\">")
            .t(&lang.and_more_in_input(more.count - more.listed.len()))
            .m("</p>");
    }
    o.m("</details></div>");
}

/// One throwable left out of a long trace.
fn cause_line(o: &mut Out, c: &SkippedCause, numbered: bool, lang: Lang) {
    o.m("<li class=\"cause-line\">");
    gutter(o, LineRange::new(c.line, c.line), numbered);
    o.m("<span class=\"relation\">")
        .t(lang.relation(&c.relation))
        .m("</span><code>")
        .t(&c.class);
    if !c.message.is_empty() {
        o.t(": ").t(&c.message);
    }
    o.m("</code></li>");
}

/// One frame, highlighted with its roles when a finding points at it.
fn frame(o: &mut Out, f: &FrameView, numbered: bool, lang: Lang) {
    let mut class = String::from("frame");
    if !f.roles.is_empty() {
        class.push_str(" highlighted");
    }
    if f.restored {
        class.push_str(" restored");
    }
    class.push_str(&format!(" g-{:?}", f.group).to_lowercase());
    o.m("<li")
        .a("id", &f.id)
        .m(" tabindex=\"-1\"")
        .a("class", &class)
        .m(">");
    gutter(o, LineRange::new(f.line, f.line), numbered);
    o.m("<code class=\"frame-text\"><span class=\"at\">at </span><span class=\"pkg\">")
        .t(&f.package)
        .m("</span><span class=\"name\">")
        .t(&f.name)
        .m("</span><span class=\"loc\">(")
        .t(&f.location)
        .m(")</span>");
    if f.restored {
        o.m("<span class=\"badge\"")
            .a("title", lang.msgs().restored_badge)
            .m("> ↻</span>");
    }
    o.m("</code>");
    for r in &f.roles {
        o.m("<span class=\"role\">").code_spans(r).m("</span>");
    }
    o.m("</li>");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(text: &str, lang: Lang) -> String {
        let d = crate::diagnose(text);
        let model = crate::view::build_lang(text, &d, "", lang);
        diagnoser(text, &model, 1.0, false, lang)
    }

    #[test]
    fn a_kept_text_is_shown_unless_empty_or_too_big() {
        assert_eq!(text_to_show("", "x\n").as_deref(), Some("x\n"));
        assert_eq!(text_to_show("", " \n\t"), None);
        assert_eq!(text_to_show("", &"a".repeat(MAX_BYTES)), None);
        assert!(text_to_show("", &"a".repeat(MAX_BYTES - 1)).is_some());
    }

    #[test]
    fn a_link_is_shown_when_it_reads_whole() {
        let state = crate::share::link::SharedState {
            text: crate::FLAGSHIP_EXAMPLE.to_owned(),
            ..Default::default()
        };
        let link = crate::share::link::link("https://example.org/", &state);
        let fragment = &link[link.find('#').expect("a fragment")..];
        assert_eq!(
            text_to_show(fragment, "kept").as_deref(),
            Some(crate::FLAGSHIP_EXAMPLE)
        );
        // A cut link: the app says what it could restore.
        assert_eq!(text_to_show(&fragment[..fragment.len() / 2], "kept"), None);
        assert_eq!(text_to_show("#/s/", "kept"), None);
    }

    #[test]
    fn escapes_what_it_is_given() {
        let mut s = String::new();
        escape(&mut s, "a<b>&\"c\" 'd'");
        assert_eq!(s, "a&lt;b&gt;&amp;&quot;c&quot; 'd'");
    }

    #[test]
    fn the_flagship_shows_its_finding_its_fix_and_its_frames() {
        let text = crate::FLAGSHIP_EXAMPLE;
        let d = crate::diagnose(text);
        let model = crate::view::build(text, &d);
        let html = diagnoser(text, &model, 1.0, true, Lang::En);
        assert!(html.contains(Lang::En.msgs().link_opened));
        let t = &model.traces[0];
        let f = &t.findings[0];
        assert!(html.contains(&format!("data-rule=\"{}\"", f.rule)));
        let mut title = String::new();
        escape(&mut title, &f.title);
        assert!(html.contains(&title), "the title");
        // Every highlighted frame of the model is a highlighted element with its DOM id.
        let highlighted: Vec<_> = t
            .chain
            .iter()
            .flat_map(|e| &e.blocks)
            .flat_map(|b| match b {
                FrameBlock::Shown(f) | FrameBlock::Folded { frames: f, .. } => f.iter(),
            })
            .filter(|f| !f.roles.is_empty())
            .collect();
        assert!(!highlighted.is_empty());
        for fr in highlighted {
            assert!(html.contains(&format!(
                "id=\"{}\" tabindex=\"-1\" class=\"frame highlighted",
                fr.id
            )));
        }
        // The text is in the input, escaped.
        assert!(html.contains("<textarea id=\"first-input\" readonly"));
        assert_eq!(html.matches("<textarea").count(), 1);
        assert!(f.diagram.is_some() == html.contains("<figure class=\"diagram\">"));
    }

    #[test]
    fn the_text_cannot_add_markup() {
        let text = "java.lang.IllegalStateException: </textarea><script>alert(1)</script><b x=\"y\">\n\tat a.B.c(B.java:1)\n";
        let html = page(text, Lang::En);
        assert!(!html.contains("<script"));
        assert!(!html.contains("<b x"));
        assert_eq!(html.matches("</textarea>").count(), 1);
    }

    #[test]
    fn a_text_without_a_trace_says_so() {
        let html = page("nothing to see here", Lang::Zh);
        assert!(html.contains("class=\"no-trace\""));
        assert!(html.contains(Lang::Zh.msgs().no_trace_heading));
    }

    #[test]
    fn tags_are_balanced_on_the_corpus_and_the_cases() {
        // Every element opened is closed, in order (void elements aside): a mistake here breaks
        // the page's layout until the app takes over. The real traces of the corpus, the lab's
        // and the hand cases.
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files = Vec::new();
        let mut dirs = vec![
            root.join("tests/corpus"),
            root.join("tests/cases"),
            root.join("lab"),
        ];
        while let Some(dir) = dirs.pop() {
            for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
                let path = entry.path();
                if path.is_dir() {
                    dirs.push(path);
                } else if path.extension().is_some_and(|e| e == "txt") {
                    files.push(path);
                }
            }
        }
        for path in &files {
            let text = std::fs::read_to_string(path).unwrap_or_default();
            for lang in [Lang::En, Lang::Zh] {
                if let Err(e) = balanced(&page(&text, lang)) {
                    panic!("{}: {e}", path.display());
                }
            }
        }
        assert!(files.len() >= 100, "only {} texts", files.len());
    }

    /// Checks that the tags of `html` nest (void elements and comments aside).
    fn balanced(html: &str) -> Result<(), String> {
        const VOID: [&str; 3] = ["wbr", "br", "hr"];
        let mut open: Vec<&str> = Vec::new();
        let mut rest = html;
        while let Some(i) = rest.find('<') {
            rest = &rest[i + 1..];
            let end = rest.find('>').ok_or("a tag never ends")?;
            let tag = &rest[..end];
            rest = &rest[end + 1..];
            if let Some(name) = tag.strip_prefix('/') {
                match open.pop() {
                    Some(o) if o == name => {}
                    other => return Err(format!("</{name}> closes {other:?}")),
                }
            } else {
                let name = tag.split([' ', '/']).next().unwrap_or_default();
                if !VOID.contains(&name) && !tag.ends_with('/') {
                    open.push(name);
                }
            }
        }
        if open.is_empty() {
            Ok(())
        } else {
            Err(format!("left open: {open:?}"))
        }
    }
}
