//! Arbitrary bytes, read as the CLI reads a file (lossy UTF-8, BOM and UTF-16 handled), through
//! the whole pipeline: parse, diagnose, the report (text, Markdown, JSON), the page model in both
//! languages and the replies (long and short, plain, Markdown, JIRA). Nothing may panic, and
//! every span must slice the input on char boundaries.

#![no_main]

use libfuzzer_sys::fuzz_target;
use trace_doctor::lang::Lang;
use trace_doctor::{decode, diagnose, digest, parse, report, view};

#[path = "spans.rs"]
mod spans;
use spans::{check, check_parsed, check_trace};

fuzz_target!(|data: &[u8]| {
    let input = decode::bytes_to_text(data);
    let input = input.as_str();

    check_parsed(input, &parse::parse(input));

    let d = diagnose(input);
    for td in &d.traces {
        check_trace(input, &td.trace);
        for f in &td.findings {
            for h in &f.highlights {
                check(input, h.span, "highlight");
            }
        }
    }
    for p in &d.problems {
        check(input, p.span, "problem");
    }
    for &s in &d.deadlocks {
        check(input, s, "deadlock");
    }

    let r = report::build(input, &d);
    let _ = report::render_text(&r);
    let _ = report::render_markdown(&r);
    let _ = serde_json::to_string(&r).expect("the report serializes");
    let _ = view::build(input, &d);
    let _ = view::build_lang(input, &d, "", Lang::Zh);
    let zh = report::build_in(input, &d, Lang::Zh);
    for r in [&r, &zh] {
        let told = digest::digest(r, Some("https://x.example/#/s/1.x"));
        let _ = digest::plain_text_of(&told);
        let _ = digest::markdown_of(&told);
        let _ = digest::short_plain_text_of(&told);
        let _ = digest::short_markdown_of(&told);
        let _ = digest::short_jira_of(&told);
    }
});
