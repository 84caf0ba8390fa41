//! The Markdown digest (GitHub-flavoured): bold labels, the quoted trace in a fenced code block
//! whose fence is longer than any run of backticks in it, the user's names in code spans, links
//! as Markdown links.

use super::{context_facts, Digest, Text, TraceDigest};
use crate::lang::Lang;
use std::fmt::Write;

/// Renders `d` as Markdown (see [`super::markdown`]), ending with `d.link` when set.
pub fn markdown_of(d: &Digest) -> String {
    let mut out = String::new();
    if let Some(opening) = d.opening() {
        let _ = writeln!(out, "{opening}");
    }
    for (k, t) in d.traces.iter().enumerate() {
        if k > 0 {
            out.push_str("\n---\n\n");
        }
        trace(&mut out, t, d.several, d.lang);
    }
    for sentence in d.also_holds().into_iter().chain(d.deadlock_sentences()) {
        let _ = writeln!(out, "\n{sentence}");
    }
    if let Some(link) = &d.link {
        let _ = writeln!(
            out,
            "\n[{}]({})",
            d.lang.msgs().reply_full_link,
            link_destination(link)
        );
        if let Some(note) = &d.link_note {
            let _ = writeln!(out, "\n{note}");
        }
    }
    out
}

fn trace(out: &mut String, t: &TraceDigest, several: bool, lang: Lang) {
    let m = lang.msgs();
    let colon = m.colon.trim_end();
    if several && lang == Lang::En {
        let times = if t.occurrences > 1 {
            format!(" (seen {} times)", t.occurrences)
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "### Trace {} — lines {}–{}{times}\n",
            t.number, t.lines[0], t.lines[1]
        );
    } else if several {
        let heading = lang.digest_trace_heading(t.number, t.lines, t.occurrences);
        let _ = writeln!(out, "### {heading}\n");
    } else if t.occurrences > 1 {
        let _ = writeln!(out, "{}\n", lang.appears_times(t.occurrences));
    }
    if let Some((cut, _)) = &t.cut {
        let _ = writeln!(out, "{cut}\n");
    }
    match &t.finding {
        Some(f) => {
            let _ = writeln!(out, "**{}{}**\n", m.reply_diagnosis, f.title);
            let _ = writeln!(out, "{}", f.summary.md);
            if let Some(c) = &f.culprit {
                let _ = writeln!(out, "\n{c}");
            }
            for m in f.platform_assumed.iter().chain(&f.version_mismatch) {
                let _ = writeln!(out, "\n> **{}** {m}", lang.msgs().digest_note.trim_end());
            }
        }
        None if lang == Lang::En => {
            out.push_str("**No known diagnosis:** no rule of Trace Doctor matches this trace.\n")
        }
        None => {
            let _ = writeln!(out, "**{}**", m.reply_no_rule);
        }
    }
    out.push('\n');
    let root = match t.cut {
        Some((_, true)) => m.digest_last_printed,
        _ => m.digest_root_cause,
    };
    let _ = writeln!(out, "- **{root}{colon}** {}", code(&t.root_cause));
    let version = m.digest_version;
    match &t.flink_version {
        Some(v) => {
            let _ = writeln!(out, "- **{version}{colon}** {v}");
        }
        None if t.flink => {
            let _ = writeln!(out, "- **{version}{colon}** {}", m.digest_version_unknown);
        }
        None => {}
    }
    let facts = context_facts(&t.context, &|s| code(s), &|s| escape(s), " → ", lang);
    if !facts.is_empty() {
        let sep = if lang == Lang::Zh { "，" } else { ", " };
        let _ = writeln!(out, "- **{}{colon}** {}", m.digest_context, facts.join(sep));
    }
    if !t.quote.is_empty() {
        match (lang, t.marks.is_empty()) {
            (_, true) => {
                let _ = write!(out, "\n**{}{colon}**\n\n", m.digest_decisive);
            }
            (Lang::En, false) => out
                .push_str("\n**The decisive lines of the trace** (`[n]` is explained below):\n\n"),
            (_, false) => {
                let _ = write!(
                    out,
                    "\n**{}**{}{colon}\n\n",
                    m.digest_decisive, m.digest_marks_below
                );
            }
        }
        let block = t.quote_text("");
        let fence = fence_for(&block);
        let _ = write!(out, "{fence}text\n{block}{fence}\n");
        if !t.marks.is_empty() {
            out.push('\n');
            for (k, role) in t.marks.iter().enumerate() {
                let _ = writeln!(out, "- `[{}]` {}", k + 1, escape(role));
            }
        }
    }
    if let Some(f) = &t.finding {
        if !f.fixes.is_empty() {
            let _ = write!(out, "\n**{}{colon}**\n\n", m.digest_fixes);
            for (k, fix) in f.fixes.iter().enumerate() {
                let mark = format!("{}. ", k + 1);
                item(out, &mark, fix);
            }
        }
        if !f.not_fixes.is_empty() {
            let _ = write!(out, "\n**{}{colon}**\n\n", m.digest_not_fixes);
            for nf in &f.not_fixes {
                item(out, "- ", nf);
            }
        }
        if !f.also.is_empty() {
            let also: Vec<String> = f
                .also
                .iter()
                .map(|(id, title)| format!("{title} ({})", code(id)))
                .collect();
            if lang == Lang::En {
                let _ = writeln!(
                    out,
                    "\n**Other rules that match too:** {}.",
                    also.join("; ")
                );
            } else {
                let _ = writeln!(out, "\n{}", lang.other_rules(&also.join("; ")));
            }
        }
        if !f.references.is_empty() {
            let _ = write!(out, "\n**{}{colon}**\n\n", m.digest_references);
            for r in &f.references {
                let _ = writeln!(out, "- [{}]({})", r.title, link_destination(&r.url));
            }
        }
    }
    for sentence in &t.answer {
        let _ = writeln!(out, "\n{sentence}");
    }
    if let Some(terms) = &t.search_terms {
        let _ = writeln!(out, "\n**{}{colon}** {}", m.digest_search, code(terms));
    }
    if let Some(sentence) = t.same_diagnosis_sentence(lang) {
        let _ = writeln!(out, "\n{sentence}");
    }
}

/// A list item whose Markdown may span several lines: the further lines are indented under the
/// item's text so they stay inside it.
fn item(out: &mut String, marker: &str, text: &Text) {
    let pad = " ".repeat(marker.len());
    for (k, line) in text.md.lines().enumerate() {
        if k == 0 {
            let _ = writeln!(out, "{marker}{line}");
        } else if line.is_empty() {
            out.push('\n');
        } else {
            let _ = writeln!(out, "{pad}{line}");
        }
    }
}

/// `s` as a code span: delimited by one more backtick than its longest run of backticks,
/// padded with a space when it starts or ends with one. Newlines become spaces.
pub(super) fn code(s: &str) -> String {
    let s = s.replace(['\n', '\r'], " ");
    let ticks = "`".repeat(longest_run(&s, '`') + 1);
    let pad = if s.starts_with('`') || s.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{ticks}{pad}{s}{pad}{ticks}")
}

/// A code fence longer than any run of backticks in `block` (at least three).
fn fence_for(block: &str) -> String {
    "`".repeat((longest_run(block, '`') + 1).max(3))
}

fn longest_run(s: &str, c: char) -> usize {
    let (mut longest, mut run) = (0, 0);
    for x in s.chars() {
        if x == c {
            run += 1;
            longest = longest.max(run);
        } else {
            run = 0;
        }
    }
    longest
}

/// Backslash-escapes the characters that would start Markdown or HTML markup in `s`.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if matches!(
            c,
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '#' | '|' | '!'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// A link destination that survives Markdown: the characters that would end or break it
/// (spaces, parentheses, angle brackets) percent-encoded.
fn link_destination(url: &str) -> String {
    let mut out = String::with_capacity(url.len());
    for c in url.trim().chars() {
        match c {
            ' ' => out.push_str("%20"),
            '(' => out.push_str("%28"),
            ')' => out.push_str("%29"),
            '<' => out.push_str("%3C"),
            '>' => out.push_str("%3E"),
            '\n' | '\r' | '\t' => {}
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_spans_survive_backticks() {
        assert_eq!(code("a"), "`a`");
        assert_eq!(code("a`b"), "``a`b``");
        assert_eq!(code("`x"), "`` `x ``");
    }

    #[test]
    fn fences_outgrow_the_block() {
        assert_eq!(fence_for("plain"), "```");
        assert_eq!(fence_for("a ```` b"), "`````");
    }

    #[test]
    fn link_destinations_are_encoded() {
        assert_eq!(
            link_destination("https://x.test/a b(c)<d>"),
            "https://x.test/a%20b%28c%29%3Cd%3E"
        );
    }

    #[test]
    fn escape_markup() {
        assert_eq!(escape("a *b* <c>"), "a \\*b\\* \\<c\\>");
    }
}
