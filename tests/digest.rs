//! The reply digests (`src/tell/digest.rs`): snapshots of the flagship case and of a trace no rule
//! explains (`tests/snapshots/`, reviewed with `cargo insta review` or by reading the `.snap`
//! files), and properties every digest must have: prose lines within 72 columns, the decisive
//! frames quoted, the link present when given, Markdown whose code fences balance.
//!
//! Snapshots are committed. In CI (`CI=true`) insta writes no new snapshot files and a digest
//! that differs from its snapshot fails the test; locally a difference also fails and leaves a
//! `.snap.new` beside the snapshot to review.

use pulldown_cmark::{CodeBlockKind, Event, Parser, Tag, TagEnd};
use trace_doctor::digest::{self, WIDTH};
use trace_doctor::report::{self, Report};

const LINK: &str =
    "https://trace-doctor.example/#v1.s=eNqrVkrOzytJzSvRUcpMUbJSMlTSUcrJTE4tSk1RsjK0MLQ0MTE";

fn report_of(input: &str) -> Report {
    report::build(input, &trace_doctor::diagnose(input))
}

fn fixture(path: &str) -> String {
    let full = format!("{}/tests/{path}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{full}: {e}"))
}

/// Every input the properties are checked on: the shared cases, the digest fixture, the
/// look-alikes from other software and every rule's example.
fn inputs() -> Vec<(String, String)> {
    let mut all = Vec::new();
    for dir in ["cases", "non-flink", "digest"] {
        let path = format!("{}/tests/{dir}", env!("CARGO_MANIFEST_DIR"));
        let mut names: Vec<String> = std::fs::read_dir(&path)
            .unwrap_or_else(|e| panic!("{path}: {e}"))
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|n| {
                (n.ends_with(".txt") || n.ends_with(".json")) && !n.ends_with(".expect.json")
            })
            .collect();
        names.sort();
        for n in names {
            let text = fixture(&format!("{dir}/{n}"));
            all.push((format!("{dir}/{n}"), text));
        }
    }
    for rule in trace_doctor::rules::catalogue() {
        if let Some(text) = trace_doctor::rules::example(&rule.def.id) {
            all.push((format!("example of {}", rule.def.id), text.to_owned()));
        }
    }
    all
}

#[test]
fn seed_plain_text() {
    let r = report_of(trace_doctor::FLAGSHIP_EXAMPLE);
    insta::assert_snapshot!("seed_plain_text", digest::plain_text(&r, Some(LINK)));
}

#[test]
fn seed_markdown() {
    let r = report_of(trace_doctor::FLAGSHIP_EXAMPLE);
    insta::assert_snapshot!("seed_markdown", digest::markdown(&r, Some(LINK)));
}

#[test]
fn undiagnosed_plain_text() {
    let r = report_of(&fixture("digest/undiagnosed-flink.txt"));
    insta::assert_snapshot!("undiagnosed_plain_text", digest::plain_text(&r, None));
}

#[test]
fn undiagnosed_markdown() {
    let r = report_of(&fixture("digest/undiagnosed-flink.txt"));
    insta::assert_snapshot!("undiagnosed_markdown", digest::markdown(&r, None));
}

/// A line may pass [`WIDTH`] display columns (a CJK character takes two, a combining mark
/// none) only when it is quoted (four spaces: trace lines, search terms, code) or is one
/// unbreakable word after its indentation and list marker (a URL).
fn assert_wrapped(name: &str, text: &str) {
    for line in text.lines() {
        if unicode_width::UnicodeWidthStr::width(line) <= WIDTH || line.starts_with("    ") {
            continue;
        }
        let body = line.trim_start().trim_start_matches("- ");
        assert!(
            !body.contains(' '),
            "{name}: prose line over {WIDTH} columns: {line:?}"
        );
    }
}

#[test]
fn plain_text_prose_is_wrapped_at_72_columns() {
    for (name, input) in inputs() {
        let r = report_of(&input);
        assert_wrapped(&name, &digest::plain_text(&r, Some(LINK)));
    }
}

#[test]
fn the_decisive_frames_are_quoted_whole_with_their_roles() {
    let r = report_of(trace_doctor::FLAGSHIP_EXAMPLE);
    let plain = digest::plain_text(&r, None);
    let md = digest::markdown(&r, None);
    let t = &r.traces[0];
    for h in &t.findings[0].highlights {
        let Some(k) = h.frame else { continue };
        let f = &t.exceptions[h.exception].frames[k];
        let at = format!(
            "at {}.{}({}:{})",
            f.class,
            f.method,
            f.file.as_deref().unwrap_or_default(),
            f.line.unwrap_or_default()
        );
        // Quoted as printed, on a line of its own, never broken.
        assert!(
            plain.lines().any(|l| l.trim_start().starts_with(&at)),
            "{at} not quoted in the plain text"
        );
        assert!(
            md.lines().any(|l| l.trim_start().starts_with(&at)),
            "{at} not quoted in the Markdown"
        );
        assert!(plain.contains(&h.role), "role {:?} missing", h.role);
    }
    // The headers of the cause chain, root cause last as printed.
    assert!(plain.contains("    java.io.IOException: Could not perform checkpoint 575"));
    assert!(
        plain.contains("    Caused by: org.apache.flink.runtime.checkpoint.CheckpointException")
    );
    assert!(plain.contains("    Caused by: java.util.ConcurrentModificationException  ["));
    // Left-out frames are shown as such.
    assert!(plain.lines().any(|l| l == "        ..."));
    // The diagnosis, fixes and context.
    assert!(plain.starts_with("Diagnosis: The async I/O operator's in-flight record"));
    assert!(plain.contains("\n1. Never mutate the input record off the task thread."));
    assert!(plain.contains("Flink version: 1.13.0 – 1.13.2"));
    assert!(plain.contains("checkpoint 575"));
    assert!(plain.contains("subtask\n  18 of 60") || plain.contains("subtask 18 of 60"));
    assert!(
        !plain.contains("**") && !plain.contains('`'),
        "Markdown left in the plain text"
    );
}

#[test]
fn an_undiagnosed_trace_gives_the_root_cause_decisive_frame_and_search_terms() {
    let r = report_of(&fixture("digest/undiagnosed-flink.txt"));
    let plain = digest::plain_text(&r, None);
    assert!(plain.contains("Root cause: java.lang.NumberFormatException"));
    assert!(plain.contains("        at com.example.clicks.ClickParser.map(ClickParser.java:41)  ["));
    assert!(plain.contains("innermost frame of your own code"));
    let terms = r.traces[0].search_terms.as_deref().unwrap_or_default();
    assert!(!terms.is_empty());
    assert!(plain.contains(&format!("\n    {terms}\n")));
    assert!(plain.contains("\nFlink version: 1.13"));
}

#[test]
fn the_link_appears_when_given_and_only_then() {
    for (name, input) in inputs() {
        let r = report_of(&input);
        let with = digest::plain_text(&r, Some(LINK));
        assert!(with.lines().any(|l| l == LINK), "{name}: link missing");
        assert!(!digest::plain_text(&r, None).contains("trace-doctor.example"));
        let md = digest::markdown(&r, Some(LINK));
        assert!(
            md.contains(&format!("]({LINK})")),
            "{name}: Markdown link missing"
        );
        assert!(!digest::markdown(&r, None).contains("Full diagnosis"));
    }
}

/// The Markdown's code blocks, parsed by a CommonMark parser: (fenced, text).
fn code_blocks(md: &str) -> (Vec<String>, bool) {
    let mut blocks = Vec::new();
    let mut open: Option<String> = None;
    let mut all_fenced = true;
    for event in Parser::new(md) {
        match event {
            Event::Start(Tag::CodeBlock(kind)) => {
                all_fenced &= matches!(kind, CodeBlockKind::Fenced(_));
                open = Some(String::new());
            }
            Event::Text(t) => {
                if let Some(b) = &mut open {
                    b.push_str(&t);
                }
            }
            Event::End(TagEnd::CodeBlock) => blocks.extend(open.take()),
            _ => {}
        }
    }
    (blocks, all_fenced)
}

#[test]
fn markdown_fences_balance_and_hold_exactly_the_quote() {
    for (name, input) in inputs() {
        let r = report_of(&input);
        let md = digest::markdown(&r, Some(LINK));
        let fence_lines = md.lines().filter(|l| l.starts_with("```")).count();
        assert_eq!(fence_lines % 2, 0, "{name}: unbalanced fences");
        let (blocks, fenced) = code_blocks(&md);
        assert!(fenced, "{name}: an indented code block slipped in");
        let told = digest::digest(&r, None).traces.len();
        assert_eq!(blocks.len(), told, "{name}: one code block per told trace");
        // Nothing after the quote is swallowed by it.
        for b in &blocks {
            assert!(!b.contains("**Fixes"), "{name}: fence left open");
        }
    }
}

#[test]
fn backticks_in_a_message_do_not_break_the_fence() {
    let input =
        "java.lang.IllegalStateException: bad ``` fence `x`\n\tat com.acme.Job.map(Job.java:12)\n";
    let r = report_of(input);
    let md = digest::markdown(&r, None);
    let (blocks, _) = code_blocks(&md);
    assert_eq!(blocks.len(), 1);
    assert!(blocks[0].contains("bad ``` fence `x`"));
    assert!(blocks[0].contains("at com.acme.Job.map(Job.java:12)"));
}

#[test]
fn several_traces_tell_the_diagnosed_then_count_the_others() {
    let other = fixture("digest/undiagnosed-flink.txt");
    let input = format!(
        "{other}\n{}\n{}\n",
        trace_doctor::FLAGSHIP_EXAMPLE,
        "java.lang.IllegalStateException: boom\n\tat com.acme.Job.map(Job.java:12)"
    );
    let r = report_of(&input);
    assert_eq!(r.traces.len(), 3);
    let plain = digest::plain_text(&r, None);
    assert!(plain.starts_with("Trace 2, lines "), "{plain}");
    assert!(plain.contains("The text also holds 2 other traces without a known diagnosis."));
    assert!(!plain.contains("NumberFormatException"));
    let md = digest::markdown(&r, None);
    assert!(md.starts_with("### Trace 2 — lines "));
    assert!(md.contains("2 other traces without a known diagnosis"));
}

#[test]
fn no_trace_says_so() {
    let r = report_of("just some words\nno frames here\n");
    assert_eq!(
        digest::plain_text(&r, None),
        "No stack trace found in the text.\n"
    );
    assert_eq!(
        digest::markdown(&r, None),
        "No stack trace found in the text.\n"
    );
}

#[test]
fn the_digest_model_round_trips_and_takes_its_link_late() {
    // A worker builds the model without the link; the page adds the share link and renders.
    let d = digest::digest(&report_of(trace_doctor::FLAGSHIP_EXAMPLE), None);
    let v = serde_json::to_value(&d).expect("serialises");
    assert_eq!(v["traces"][0]["finding"]["rule"], "async-wait-inflight-cme");
    assert_eq!(v["traces"][0]["quote"][0]["kind"], "header");
    assert_eq!(v["traces"][0]["context"]["checkpoint_id"], 575);
    let mut back: digest::Digest = serde_json::from_value(v).expect("deserialises");
    assert_eq!(back, d);
    back.link = Some(LINK.to_owned());
    let r = report_of(trace_doctor::FLAGSHIP_EXAMPLE);
    assert_eq!(
        digest::plain_text_of(&back),
        digest::plain_text(&r, Some(LINK))
    );
    assert_eq!(digest::markdown_of(&back), digest::markdown(&r, Some(LINK)));
}

#[test]
fn a_thread_dump_alone_is_counted() {
    let r = report_of(&fixture("forms/jstack-deadlock.txt"));
    let plain = digest::plain_text(&r, None);
    assert!(
        plain.starts_with("The text is a thread dump of "),
        "{plain}"
    );
    assert!(plain.contains("Java-level deadlock (line "));
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// Arbitrary edits of the seed (lines dropped, repeated, cut) never make a digest panic,
        /// and what comes out keeps its shape.
        #[test]
        fn mangled_seed_digests_keep_their_shape(
            drop in prop::collection::vec(any::<bool>(), 70),
            cut in 0usize..5000,
            noise in "\\PC{0,80}",
        ) {
            let lines: Vec<&str> = trace_doctor::FLAGSHIP_EXAMPLE
                .lines()
                .zip(drop.iter().chain(std::iter::repeat(&false)))
                .filter(|(_, d)| !**d)
                .map(|(l, _)| l)
                .collect();
            let mut input = lines.join("\n");
            let mut end = cut.min(input.len());
            while !input.is_char_boundary(end) {
                end -= 1;
            }
            input.truncate(end.max(input.len() / 2));
            input.push_str(&noise);
            let r = report_of(&input);
            let plain = digest::plain_text(&r, Some(LINK));
            assert_wrapped("mangled seed", &plain);
            let md = digest::markdown(&r, None);
            prop_assert_eq!(md.lines().filter(|l| l.starts_with("```")).count() % 2, 0);
        }

        #[test]
        fn arbitrary_text_never_panics(s in "\\PC{0,400}") {
            let r = report_of(&s);
            let _ = digest::plain_text(&r, Some(&s));
            let _ = digest::markdown(&r, Some(&s));
        }
    }
}

/// A real paste that stops at Flink's `Recovery is suppressed` wrapper (a PyFlink job of
/// 2021, `tests/corpus/pyflink/c-pyflink-worker-no-module-pyflink-jobexception.txt`, its source
/// in the `.json` beside it): both replies say first that the root cause is not in the text,
/// and do not call the wrapper the root cause.
#[test]
fn a_cut_trace_is_said_to_be_cut_first() {
    let input = fixture("corpus/pyflink/c-pyflink-worker-no-module-pyflink-jobexception.txt");
    let r = report_of(&input);
    let plain = digest::plain_text(&r, None);
    let md = digest::markdown(&r, None);
    let first_paragraph = plain.split("\n\n").next().unwrap_or("");
    assert!(
        first_paragraph.starts_with("This text stops before the root cause."),
        "{plain}"
    );
    assert!(plain.contains("Last exception printed: org.apache.flink.runtime.JobException"));
    assert!(!plain.contains("Root cause: org.apache.flink.runtime.JobException"));
    assert!(
        md.starts_with("**This text stops before the root cause.**"),
        "{md}"
    );
    // The flagship is whole: nothing said about a cut.
    let seed = report_of(trace_doctor::FLAGSHIP_EXAMPLE);
    assert!(!digest::plain_text(&seed, None).contains("stops before the root cause"));
}

/// The short reply (issue 14): the flagship's plain text in at most 25 lines; on every input,
/// every line within 72 columns except a line that holds a link; Markdown fences balanced;
/// JIRA's wiki markup, not Markdown.
#[test]
fn the_short_reply_fits_a_mail() {
    let seed = report_of(trace_doctor::FLAGSHIP_EXAMPLE);
    let told = digest::digest(&seed, Some(LINK));
    let plain = digest::short_plain_text_of(&told);
    assert!(plain.lines().count() <= 25, "{plain}");
    assert!(
        plain.starts_with("Diagnosis: The async I/O operator"),
        "{plain}"
    );
    assert!(plain.contains("(please confirm)"), "{plain}");
    assert!(plain.contains("ConcurrentModificationException"), "{plain}");
    assert!(
        plain.lines().any(|l| l.ends_with('?')),
        "a question: {plain}"
    );
    assert!(plain.lines().any(|l| l.contains(LINK)), "{plain}");
    for (name, input) in inputs() {
        let told = digest::digest(&report_of(&input), Some(LINK));
        let plain = digest::short_plain_text_of(&told);
        for line in plain.lines() {
            assert!(
                line.chars().count() <= WIDTH || line.contains("://"),
                "{name}: a line wider than {WIDTH}: {line:?}\n{plain}"
            );
        }
        let quoted = plain.lines().filter(|l| l.starts_with("    ")).count();
        assert!(quoted <= digest::MAX_SHORT_QUOTED_LINES, "{name}: {plain}");
        // A reply a committer sends as is: every rule's example, every case (the tester found
        // replies of 26–34 lines, 2026-12-02).
        assert!(
            plain.lines().count() <= digest::MAX_SHORT_LINES,
            "{name}: {} lines\n{plain}",
            plain.lines().count()
        );
        let md = digest::short_markdown_of(&told);
        assert_eq!(md.matches("```").count() % 2, 0, "{name}: {md}");
        let jira = digest::short_jira_of(&told);
        assert!(
            !jira.contains("```") && !jira.contains("**"),
            "{name}: {jira}"
        );
        assert_eq!(jira.matches("{noformat}").count() % 2, 0, "{name}: {jira}");
    }
}

/// Report and digest in Chinese, as `--lang zh` and the page in Chinese build them.
fn zh_digest(input: &str) -> digest::Digest {
    let lang = trace_doctor::lang::Lang::Zh;
    let report = trace_doctor::report::build_in(input, &trace_doctor::diagnose(input), lang);
    digest::digest_in(&report, Some(LINK), lang)
}

#[test]
fn the_chinese_short_reply_fits_a_mail_by_display_width() {
    let told = zh_digest(trace_doctor::FLAGSHIP_EXAMPLE);
    let plain = digest::short_plain_text_of(&told);
    assert!(plain.lines().count() <= 25, "{plain}");
    assert!(
        plain.starts_with("诊断：异步 I/O 算子的在途记录"),
        "{plain}"
    );
    assert!(plain.contains("（请确认）"), "{plain}");
    assert!(
        plain.contains("修复：不要在 task 线程之外修改输入记录"),
        "{plain}"
    );
    assert!(
        plain.contains("ResultFuture"),
        "the rule's question: {plain}"
    );
    assert!(
        plain.lines().any(|l| l.ends_with('？')),
        "a question: {plain}"
    );
    assert!(plain.contains(&format!("完整诊断：{LINK}")), "{plain}");
    for (name, input) in inputs() {
        let plain = digest::short_plain_text_of(&zh_digest(&input));
        for line in plain.lines() {
            assert!(
                digest::display_width(line) <= WIDTH || line.contains("://"),
                "{name}: a line wider than {WIDTH} columns: {line:?}\n{plain}"
            );
        }
        let long = digest::plain_text_of(&zh_digest(&input));
        // Words are not broken in the long reply (a long code span may overrun, as in English);
        // a line with Chinese in it is wrapped by display width.
        let chinese = |l: &&str| digest::display_width(l) > l.chars().count();
        // A word of code longer than a line (a run of narrow characters, unbreakable) may
        // overrun with the indentation and the punctuation around it.
        let code = |l: &str| {
            l.split(|c: char| {
                c.is_whitespace() || digest::display_width(c.encode_utf8(&mut [0; 4])) > 1
            })
            .map(digest::display_width)
            .max()
            .unwrap_or(0)
        };
        for line in long.lines().filter(chinese) {
            assert!(
                digest::display_width(line) <= WIDTH.max(code(line) + 8),
                "{name}: a prose line wider than {WIDTH} columns: {line:?}\n{long}"
            );
        }
    }
}

#[test]
fn the_chinese_long_reply_tells_the_flagship_in_chinese() {
    let told = zh_digest(trace_doctor::FLAGSHIP_EXAMPLE);
    let plain = digest::plain_text_of(&told);
    for want in [
        "诊断：",
        "根本原因：java.util.ConcurrentModificationException",
        "上下文：检查点 575",
        "子任务 18/60",
        "修复方法（按推荐程度排序）：",
        "没有用的做法：",
        "[3] 正在被迭代的 map",
    ] {
        assert!(plain.contains(want), "{want}: {plain}");
    }
    let md = digest::markdown_of(&told);
    assert!(md.contains("**诊断：异步 I/O 算子的在途记录"), "{md}");
    assert!(md.contains("`pipeline.object-reuse`"), "{md}");
    // The digest model keeps its language through serde (the page's worker sends it).
    let v = serde_json::to_value(&told).expect("serialises");
    assert_eq!(v["lang"], "zh");
    let back: digest::Digest = serde_json::from_value(v).expect("reads back");
    assert_eq!(back, told);
    let en = digest::digest(&report_of(trace_doctor::FLAGSHIP_EXAMPLE), None);
    assert!(serde_json::to_value(&en)
        .expect("serialises")
        .get("lang")
        .is_none());
}
