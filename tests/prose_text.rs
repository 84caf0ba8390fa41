//! `build.rs`'s Markdown-to-plain-text rendering (the `text` of a rule's prose), tested directly,
//! and on the bundled rules.

#[path = "../build/prose_text.rs"]
mod prose_text;

use prose_text::to_text;

#[test]
fn inline_markup_is_dropped_and_code_keeps_its_text() {
    assert_eq!(
        to_text("Your `AsyncFunction` changes the **input record** _on another thread_."),
        "Your AsyncFunction changes the input record on another thread."
    );
}

#[test]
fn soft_breaks_join_a_paragraph_and_paragraphs_are_separated_by_a_blank_line() {
    assert_eq!(
        to_text("one\ntwo\n\nthree  \nfour"),
        "one two\n\nthree\nfour"
    );
}

#[test]
fn links_keep_their_url() {
    assert_eq!(
        to_text("See [the docs](https://flink.apache.org/x) and <https://example.org/y>."),
        "See the docs (https://flink.apache.org/x) and https://example.org/y."
    );
}

#[test]
fn lists_become_marker_lines() {
    assert_eq!(
        to_text("Intro:\n\n- a `b`\n- c\n  - nested\n\n1. first\n2. second\n\n   more\n\nEnd."),
        "Intro:\n\n- a b\n- c\n  - nested\n\n1. first\n2. second\n\n   more\n\nEnd."
    );
}

#[test]
fn code_blocks_are_tab_indented_lines() {
    assert_eq!(
        to_text("Set:\n\n```yaml\na: 1\nb: 2\n```\n\nDone."),
        "Set:\n\n\ta: 1\n\tb: 2\n\nDone."
    );
}

#[test]
fn html_is_dropped() {
    assert_eq!(to_text("a <b>bold</b> word"), "a bold word");
}

#[test]
fn every_bundled_rule_has_plain_text_without_markdown_syntax() {
    for rule in trace_doctor::rules::catalogue() {
        let e = &rule.def.explanation;
        let prose = std::iter::once(&rule.def.summary)
            .chain(std::iter::once(&e.why))
            .chain(e.sections.iter().map(|s| &s.body))
            .chain(&e.fixes)
            .chain(&e.not_fixes)
            .chain(&e.false_alarms);
        for p in prose {
            assert!(
                !p.text.is_empty(),
                "{}: empty text for {:?}",
                rule.def.id,
                p.md
            );
            // Code spans keep their text (SQL identifiers may hold backticks), their delimiters go.
            let code: Vec<String> = pulldown_cmark::Parser::new(&p.md)
                .filter_map(|e| match e {
                    pulldown_cmark::Event::Code(c) => Some(c.to_string()),
                    _ => None,
                })
                .collect();
            for c in &code {
                assert!(p.text.contains(c.as_str()), "{}: {c:?} lost", rule.def.id);
            }
            let ticks = |s: &str| s.matches('`').count();
            assert_eq!(
                ticks(&p.text),
                code.iter().map(|c| ticks(c)).sum::<usize>(),
                "{}: code-span delimiters left in {:?}",
                rule.def.id,
                p.text
            );
            assert!(
                !p.text.contains("**") && !p.text.contains("]("),
                "{}: Markdown left in {:?}",
                rule.def.id,
                p.text
            );
        }
    }
}
