//! No input makes the parser panic, and every span slices the input on char boundaries.

use proptest::prelude::*;
use trace_doctor::{diagnose, parse::parse, report};

/// Lines that look like parts of traces, mixed at random with noise.
fn trace_like_line() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("java.lang.IllegalStateException: boom".to_owned()),
        Just("Caused by: java.util.ConcurrentModificationException".to_owned()),
        Just("\tSuppressed: java.io.IOException: x".to_owned()),
        Just("\tat org.apache.flink.runtime.state.PartitionableListState.<init>(PartitionableListState.java:64)".to_owned()),
        Just("> \tat a.b.C.d(C.ja".to_owned()),
        Just("> va:12)".to_owned()),
        Just("\t... 3 more".to_owned()),
        Just("\t... 99999999999999999999 more".to_owned()),
        Just("&lt;init&gt; -&gt; <br>".to_owned()),
        Just("{\"root-exception\":\"x.Y: z\\n\\tat a.B.c(B.java:1)\\u00e9\\ud800\"".to_owned()),
        Just("\r".to_owned()),
        Just("".to_owned()),
        "[ -~]{0,40}",
        "\\PC{0,20}",
    ]
}

fn check_spans(input: &str) {
    let parsed = parse(input);
    for t in &parsed.traces {
        assert!(
            input.get(t.span.range()).is_some(),
            "trace span {:?}",
            t.span
        );
        for th in &t.throwables {
            assert!(input.get(th.header_span.range()).is_some());
            assert!(input.get(th.class_span.range()).is_some());
            for f in &th.frames {
                assert!(
                    input.get(f.span.range()).is_some(),
                    "frame span {:?} in {input:?}",
                    f.span
                );
            }
        }
    }
    for p in &parsed.problems {
        assert!(input.get(p.span.range()).is_some());
    }
    let d = diagnose(input);
    let _ = report::render_text(&report::build(input, &d));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn never_panics_and_spans_slice_the_input(lines in prop::collection::vec(trace_like_line(), 0..40)) {
        check_spans(&lines.join("\n"));
    }

    #[test]
    fn arbitrary_text_never_panics(s in "\\PC{0,400}") {
        check_spans(&s);
    }

    #[test]
    fn arbitrary_bytes_as_lossy_text_never_panic(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        check_spans(&String::from_utf8_lossy(&bytes));
    }
}

#[test]
fn frame_spans_slice_to_the_frame_text_in_every_seed_form() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases");
    for name in [
        "seed.txt",
        "seed-crlf.txt",
        "seed-log4j.txt",
        "seed-html.txt",
        "seed-quoted.txt",
        "seed-rest.json",
    ] {
        let input = std::fs::read_to_string(dir.join(name)).unwrap();
        let parsed = parse(&input);
        for t in &parsed.traces {
            for th in &t.throwables {
                let class_text = &input[th.class_span.range()];
                assert_eq!(class_text, th.class, "{name}: class span");
                for f in th.frames.iter().filter(|f| f.expanded_from.is_none()) {
                    let text = &input[f.span.range()];
                    assert!(
                        text.starts_with("at "),
                        "{name}: frame span starts at 'at': {text:?}"
                    );
                    // Unwrapped, unescaped forms show the method name as is.
                    if !name.contains("quoted") && !name.contains("html") {
                        assert!(
                            text.contains(&format!(".{}(", f.method)),
                            "{name}: {text:?} holds {}",
                            f.method
                        );
                    }
                }
            }
        }
    }
}

/// A tester's hostile text (2026-12-02): 20,000 nested causes, the k-th saying `... k more`.
/// Each restores from an enclosing throwable that restored its own: quadratic, hundreds of
/// millions of frames, which killed the page's worker. Restoring is bounded; the text is read
/// in time and says what it did not restore.
#[test]
fn nested_causes_each_restoring_more_frames_stay_bounded() {
    let mut s = String::from("java.lang.RuntimeException: top\n\tat a.B.c(B.java:1)\n");
    for k in 0..20_000 {
        s.push_str(&format!(
            "Caused by: java.lang.IllegalStateException: level {k}\n\tat a.B.c(B.java:{k})\n\t... {k} more\n"
        ));
    }
    let started = std::time::Instant::now();
    let d = diagnose(&s);
    assert!(
        started.elapsed().as_secs() < 20,
        "took {:?}",
        started.elapsed()
    );
    let frames: usize = d.traces[0]
        .trace
        .throwables
        .iter()
        .map(|t| t.frames.len())
        .sum();
    assert!(frames <= 20_001 + 200_000, "{frames} frames");
    assert!(d
        .problems
        .iter()
        .any(|p| p.message.contains("not restored")));
}

#[test]
fn deep_suppressed_nesting_and_long_chains_do_not_overflow() {
    let mut s = String::from("java.lang.Exception: top\n\tat a.B.c(B.java:1)\n");
    for depth in 1..2000 {
        s.push_str(&"\t".repeat(depth));
        s.push_str("Suppressed: java.lang.Exception: s\n");
    }
    for _ in 0..20000 {
        s.push_str("Caused by: java.lang.Exception: c\n\tat a.B.c(B.java:1)\n\t... 1 more\n");
    }
    let d = diagnose(&s);
    assert_eq!(d.traces.len(), 1);
    assert_eq!(d.traces[0].trace.cause_chain().len(), 20001);
}

#[test]
fn a_long_single_line_is_read_without_a_trace() {
    let s = "x".repeat(5_000_000);
    assert!(parse(&s).traces.is_empty());
}
