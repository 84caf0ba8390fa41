//! The plain-text digest, for a mail reply: prose wrapped at [`WIDTH`](super::WIDTH) columns with `textwrap`,
//! quoted trace lines indented by four spaces and never broken (nor are URLs).

use super::{context_facts, Digest, Text, TraceDigest};
use crate::lang::Lang;
use std::fmt::Write;

/// Renders `d` as plain text (see [`super::plain_text`]), ending with `d.link` when set.
pub fn plain_text_of(d: &Digest) -> String {
    let mut out = String::new();
    if let Some(opening) = d.opening() {
        fill(&mut out, &opening, "", "");
    }
    for (k, t) in d.traces.iter().enumerate() {
        if k > 0 {
            out.push_str("\n----\n\n");
        }
        trace(&mut out, t, d.several, d.lang);
    }
    for sentence in d.also_holds().into_iter().chain(d.deadlock_sentences()) {
        out.push('\n');
        fill(&mut out, &sentence, "", "");
    }
    if let Some(link) = &d.link {
        let _ = writeln!(
            out,
            "\n{}{}",
            d.lang.msgs().reply_full_link,
            d.lang.msgs().colon.trim_end()
        );
        out.push_str(link.trim());
        out.push('\n');
        if let Some(note) = &d.link_note {
            fill(&mut out, note, "", "");
        }
    }
    out
}

fn trace(out: &mut String, t: &TraceDigest, several: bool, lang: Lang) {
    let m = lang.msgs();
    let colon = m.colon;
    if several {
        let heading = lang.digest_trace_heading(t.number, t.lines, t.occurrences);
        let under = "=".repeat(super::display_width(&heading));
        let _ = writeln!(out, "{heading}\n{under}\n");
    } else if t.occurrences > 1 {
        let _ = writeln!(out, "{}\n", lang.appears_times(t.occurrences));
    }
    if let Some((cut, _)) = &t.cut {
        fill(out, &cut.replace("**", ""), "", "");
        out.push('\n');
    }
    match &t.finding {
        Some(f) => {
            fill(out, &format!("{}{}", m.reply_diagnosis, f.title), "", "");
            out.push('\n');
            prose(out, &f.summary, "", "");
            if let Some(c) = &f.culprit {
                out.push('\n');
                fill(out, &c.replace("**", ""), "", "");
            }
            for m in f.platform_assumed.iter().chain(&f.version_mismatch) {
                out.push('\n');
                fill(
                    out,
                    &format!("{}{m}", lang.msgs().digest_note),
                    "",
                    "      ",
                );
            }
        }
        None => fill(out, m.reply_no_rule, "", ""),
    }
    out.push('\n');
    let root = match t.cut {
        Some((_, true)) => m.digest_last_printed,
        _ => m.digest_root_cause,
    };
    fill(out, &format!("{root}{colon}{}", t.root_cause), "", "  ");
    let version = m.digest_version;
    match &t.flink_version {
        Some(v) => fill(out, &format!("{version}{colon}{v}"), "", "  "),
        None if t.flink => fill(
            out,
            &format!("{version}{colon}{}", m.digest_version_unknown),
            "",
            "  ",
        ),
        None => {}
    }
    let facts = context_facts(
        &t.context,
        &|s| s.to_owned(),
        &|s| s.to_owned(),
        " -> ",
        lang,
    );
    if !facts.is_empty() {
        let sep = if lang == Lang::Zh { "，" } else { ", " };
        fill(
            out,
            &format!("{}{colon}{}", m.digest_context, facts.join(sep)),
            "",
            "  ",
        );
    }
    if !t.quote.is_empty() {
        let marks = if t.marks.is_empty() {
            ""
        } else {
            m.digest_marks_below
        };
        let _ = write!(
            out,
            "\n{}{marks}{}\n\n",
            m.digest_decisive,
            colon.trim_end()
        );
        out.push_str(&t.quote_text("    "));
        if !t.marks.is_empty() {
            out.push('\n');
            for (k, role) in t.marks.iter().enumerate() {
                let mark = format!("[{}] ", k + 1);
                let rest = " ".repeat(mark.len());
                fill(out, role, &mark, &rest);
            }
        }
    }
    if let Some(f) = &t.finding {
        if !f.fixes.is_empty() {
            let _ = writeln!(out, "\n{}{}", m.digest_fixes, colon.trim_end());
            for (k, fix) in f.fixes.iter().enumerate() {
                out.push('\n');
                let mark = format!("{}. ", k + 1);
                prose(out, fix, &mark, &" ".repeat(mark.len()));
            }
        }
        if !f.not_fixes.is_empty() {
            let _ = writeln!(out, "\n{}{}\n", m.digest_not_fixes, colon.trim_end());
            for nf in &f.not_fixes {
                prose(out, nf, "- ", "  ");
            }
        }
        if !f.also.is_empty() {
            out.push('\n');
            let also: Vec<String> = f
                .also
                .iter()
                .map(|(id, title)| format!("{title} ({id})"))
                .collect();
            fill(out, &lang.other_rules(&also.join("; ")), "", "");
        }
        if !f.references.is_empty() {
            let _ = writeln!(out, "\n{}{}\n", m.digest_references, colon.trim_end());
            for r in &f.references {
                fill(out, &r.title, "- ", "  ");
                let _ = writeln!(out, "  {}", r.url);
            }
        }
    }
    for sentence in &t.answer {
        out.push('\n');
        fill(out, &sentence.replace("**", ""), "", "");
    }
    if let Some(terms) = &t.search_terms {
        let _ = writeln!(out, "\n{}{}\n", m.digest_search, colon.trim_end());
        let _ = writeln!(out, "    {terms}");
    }
    if let Some(sentence) = t.same_diagnosis_sentence(lang) {
        out.push('\n');
        fill(out, &sentence, "", "");
    }
}

/// Appends `text` wrapped at [`WIDTH`](super::WIDTH): the first line starts with `first`, the others with
/// `rest`. Words are never broken (a URL longer than the width gets a line of its own).
fn fill(out: &mut String, text: &str, first: &str, rest: &str) {
    super::wrap_into(out, text, first, rest, false);
}

/// Appends rule prose (`Text::text`, the shape of `Prose::text`) wrapped at [`WIDTH`](super::WIDTH): its first
/// line after `first`, the rest indented by `rest`; list items keep their markers with their
/// continuation lines under the item's text; code lines (tab after the indentation) are kept
/// whole, indented by four spaces.
fn prose(out: &mut String, text: &Text, first: &str, rest: &str) {
    for (k, line) in text.text.lines().enumerate() {
        let lead = if k == 0 { first } else { rest };
        let body = line.trim_start_matches(' ');
        let spaces = &line[..line.len() - body.len()];
        if let Some(code) = body.strip_prefix('\t') {
            let _ = writeln!(out, "{rest}{spaces}    {code}");
            continue;
        }
        if body.is_empty() {
            out.push('\n');
            continue;
        }
        let marker_len = list_marker_len(body);
        let (marker, words) = body.split_at(marker_len);
        let first_prefix = format!("{lead}{spaces}{marker}");
        let rest_prefix = format!("{rest}{spaces}{}", " ".repeat(marker.len()));
        fill(out, words, &first_prefix, &rest_prefix);
    }
}

/// Byte length of a list marker (`- `, `12. `) at the start of `s`, or 0.
fn list_marker_len(s: &str) -> usize {
    if s.starts_with("- ") {
        return 2;
    }
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    if digits > 0 && s[digits..].starts_with(". ") {
        digits + 2
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prose_wraps_and_keeps_markers_and_code() {
        let text = Text {
            md: String::new(),
            text: format!(
                "{}\n\n- {}\n12. x\n\n\tcode line that is long {}",
                "word ".repeat(30).trim_end(),
                "item ".repeat(20).trim_end(),
                "z".repeat(80)
            ),
        };
        let mut out = String::new();
        prose(&mut out, &text, "1. ", "   ");
        for line in out.lines() {
            assert!(
                line.chars().count() <= super::super::WIDTH || line.contains("code line"),
                "{line:?}"
            );
        }
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines[0].starts_with("1. word word"));
        assert!(lines[1].starts_with("   word"));
        assert!(lines.iter().any(|l| l.starts_with("   - item")));
        assert!(lines.iter().any(|l| l.starts_with("     item")));
        assert!(lines.contains(&"   12. x"));
        assert!(lines.iter().any(|l| l.starts_with("       code line")));
    }

    #[test]
    fn long_urls_are_not_broken() {
        let url = format!("https://example.org/{}", "a-b".repeat(40));
        let mut out = String::new();
        fill(&mut out, &format!("see {url} now"), "", "");
        assert!(out.lines().any(|l| l == url));
    }

    #[test]
    fn list_markers() {
        assert_eq!(list_marker_len("- a"), 2);
        assert_eq!(list_marker_len("10. a"), 4);
        assert_eq!(list_marker_len("10.a"), 0);
        assert_eq!(list_marker_len("ab"), 0);
    }
}
