//! Pathological inputs, built in memory: huge logs, huge lines, deep nesting, huge counts.
//! Each must be read without a panic or a stack overflow, and in time linear in its size.
//!
//! Linear time is checked without absolute numbers: each generator is run at size n and 4n and
//! the ratio of the times must stay under [`MAX_RATIO`] (linear gives ~4, quadratic ~16).
//! Each stage is timed on its own (parse, diagnose, report = `report::build` + `render_text` +
//! the JSON + both reply digests, page model = `view::build`), so a failure names the stage.
//!
//! The biggest sizes (100 MB of log, 10 MB lines, a million `Caused by:`, a million frames) run
//! in release builds only: `cargo test --release --test pathological -- --nocapture`. A debug
//! `cargo test` runs every generator at a tenth of the size (10 MB of log, 1 MB lines, …) so the
//! file stays well under a minute. `--nocapture` prints the timings.
//!
//! `Suppressed:` nesting, each level one tab deeper, grows as depth² bytes: 100 000 levels would
//! be ~5 GB of tabs, so it runs 7 000 and 14 000 deep in release (~24 and ~94 MB), 2 000 and
//! 4 000 in debug.
//!
//! A stage fails only when it is over the ratio in two measurements in a row (a busy machine
//! can slow one run down). The tests take a lock so that they run one at a time: timings of
//! parallel tests would disturb each other.

#[path = "support/flink_log.rs"]
mod flink_log;

use std::sync::Mutex;
use std::time::{Duration, Instant};
use trace_doctor::{diagnose, digest, parse::parse, report, view};

/// Time(4n) / time(n) must stay under this (linear ~4, quadratic ~16; the margin absorbs noise).
const MAX_RATIO: f64 = 12.0;
/// Below this the 4n run is too short to tell anything (timer and allocator noise).
const NOISE: Duration = Duration::from_millis(40);
const MB: usize = 1 << 20;

static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// The release size, or a tenth of it in debug builds.
fn size(release: usize) -> usize {
    if cfg!(debug_assertions) {
        release / 10
    } else {
        release
    }
}

#[derive(Clone, Copy, Debug, Default)]
struct Times {
    parse: Duration,
    diagnose: Duration,
    report: Duration,
    view: Duration,
}

impl Times {
    fn stages(self) -> [(&'static str, Duration); 4] {
        [
            ("parse", self.parse),
            ("diagnose", self.diagnose),
            ("report", self.report),
            ("view", self.view),
        ]
    }
}

/// Every span the parser and the diagnosis return slices `input` on char boundaries.
fn check_spans(input: &str, parsed: &trace_doctor::parse::Parsed, d: &trace_doctor::Diagnosis) {
    let ok = |s: trace_doctor::span::Span| input.get(s.range()).is_some();
    let traces = parsed
        .traces
        .iter()
        .chain(d.traces.iter().map(|t| &t.trace));
    for t in traces {
        assert!(ok(t.span), "trace span {:?}", t.span);
        if let Some(thread) = &t.thread {
            assert!(ok(thread.header_span), "thread span");
        }
        for th in &t.throwables {
            assert!(ok(th.header_span) && ok(th.class_span), "throwable span");
            if let Some((_, s)) = th.omitted {
                assert!(ok(s), "omitted span {s:?}");
            }
            assert!(th.frames.iter().all(|f| ok(f.span)), "frame span");
        }
    }
    assert!(parsed.problems.iter().all(|p| ok(p.span)), "problem span");
    assert!(d.problems.iter().all(|p| ok(p.span)), "problem span");
    assert!(parsed.deadlocks.iter().all(|&s| ok(s)), "deadlock span");
    for t in &d.traces {
        for f in &t.findings {
            assert!(f.highlights.iter().all(|h| ok(h.span)), "highlight span");
        }
    }
}

/// Runs every stage on `input`, timing each; checks the spans (untimed).
fn run(input: &str, with_view: bool) -> Times {
    let t = Instant::now();
    let parsed = parse(input);
    let parse_t = t.elapsed();
    let t = Instant::now();
    let d = diagnose(input);
    let diagnose_t = t.elapsed();
    let t = Instant::now();
    let built = report::build(input, &d);
    let text = report::render_text(&built);
    let json = serde_json::to_string(&built).expect("the report serializes");
    let plain = digest::plain_text(&built, Some("https://x.test/#s"));
    let md = digest::markdown(&built, None);
    let report_t = t.elapsed();
    assert!(!text.is_empty() && !json.is_empty());
    // A digest tells a few traces with clipped lines: small whatever the input.
    assert!(
        plain.len() < 64 * 1024 && md.len() < 64 * 1024,
        "digest of {} bytes: {} / {} bytes",
        input.len(),
        plain.len(),
        md.len()
    );
    let view_t = if with_view {
        let t = Instant::now();
        let page = view::build(input, &d);
        let elapsed = t.elapsed();
        assert_eq!(page.total_traces, d.traces.len());
        elapsed
    } else {
        Duration::ZERO
    };
    check_spans(input, &parsed, &d);
    Times {
        parse: parse_t,
        diagnose: diagnose_t,
        report: report_t,
        view: view_t,
    }
}

/// Runs `gen` at `n` and `4n`, prints the times and asserts each stage grows less than
/// [`MAX_RATIO`] times. `n` is whatever unit the generator takes (bytes, lines, depth).
fn check_linear(name: &str, n: usize, gen: impl Fn(usize) -> String) {
    check_linear_with(name, n, 4, true, gen)
}

fn check_linear_with(
    name: &str,
    n: usize,
    factor: usize,
    with_view: bool,
    gen: impl Fn(usize) -> String,
) {
    let _guard = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let _ = diagnose("warm-up: compiles the rule catalogue\n\tat a.B.c(B.java:1)");
    // A stage fails only when it is super-linear in two measurements in a row: one slow run
    // (another process, a page-fault storm) is not enough.
    let mut failures = Vec::new();
    for attempt in 1..=2 {
        failures = measure(name, n, factor, with_view, &gen, attempt);
        if failures.is_empty() {
            return;
        }
    }
    panic!(
        "{name}: super-linear from n={n} to {factor}n (twice): {}",
        failures.join(", ")
    );
}

/// One measurement at n and factor·n; returns the stages over [`MAX_RATIO`].
fn measure(
    name: &str,
    n: usize,
    factor: usize,
    with_view: bool,
    gen: &impl Fn(usize) -> String,
    attempt: usize,
) -> Vec<String> {
    let small = gen(n);
    let small_mb = small.len() as f64 / MB as f64;
    // One run each: both sides then pay the same first-touch cost for fresh memory (a warm
    // second run of the small input would make the ratio look worse than it is).
    let ts = run(&small, with_view);
    drop(small);
    let big = gen(n * factor);
    let tb = run(&big, with_view);
    let big_mb = big.len() as f64 / MB as f64;
    drop(big);
    let mut failures = Vec::new();
    for ((stage, s), (_, b)) in ts.stages().into_iter().zip(tb.stages()) {
        if !with_view && stage == "view" {
            continue;
        }
        let ratio = b.as_secs_f64() / s.as_secs_f64().max(1e-4);
        eprintln!(
            "{name:<28} {stage:<8} n={n:<9} {small_mb:>8.2} MB {s:>12.2?} | {factor}n {big_mb:>8.2} MB {b:>12.2?} | ratio {ratio:>6.1}{}",
            if attempt > 1 { "  (again)" } else { "" }
        );
        if b > NOISE && ratio > MAX_RATIO {
            failures.push(format!("{stage}: {s:.2?} -> {b:.2?} (x{ratio:.1})"));
        }
    }
    failures
}

fn repeat_to(mut s: String, unit: &str, bytes: usize) -> String {
    s.reserve(bytes + unit.len());
    while s.len() < bytes {
        s.push_str(unit);
    }
    s
}

// ---------------------------------------------------------------------------------------------
// Generators. Each takes its size and returns the whole input.

/// A TaskManager log with traces sprinkled (2–5 % of lines), `bytes` long.
fn log(bytes: usize) -> String {
    flink_log::flink_log(bytes, 7).0
}

/// One log line of `bytes` (prose with dotted names, exception-like words, non-ASCII), then the
/// trace starting mid-line after "with failure cause: ".
fn long_line(bytes: usize) -> String {
    let mut s = String::from(
        "2021-08-18 06:18:37,402 WARN  org.apache.flink.runtime.taskmanager.Task [] - ",
    );
    const WORDS: &[&str] = &[
        "record ",
        "org.apache.flink.api.common.Foo ",
        "a.b.C: ",
        "java.lang.String ",
        "SomeException ",
        "x.y.NotAnExceptionName ",
        "(18/60)#0 ",
        "é ",
        "at ",
        "...",
        "a.b.CException;",
        "\u{a0}",
    ];
    s.reserve(bytes + 200);
    let mut k = 0;
    while s.len() < bytes {
        s.push_str(WORDS[k % WORDS.len()]);
        k += 1;
    }
    s.push_str(" with failure cause: java.lang.IllegalStateException: boom\n\tat a.b.C.d(C.java:1)\n\tat a.b.C.e(C.java:2)\n");
    s
}

/// `count` times: `Caused by: java.lang.Exception: c`, one frame, `... 1 more`.
fn caused_by(count: usize) -> String {
    let unit = "Caused by: java.lang.Exception: c\n\tat a.b.C.d(C.java:1)\n\t... 1 more\n";
    let mut s = String::with_capacity(count * unit.len());
    for _ in 0..count {
        s.push_str(unit);
    }
    s
}

/// `Suppressed:` nested `depth` deep, each one tab deeper than the one it is in (input size
/// grows as depth²: depth 14 000 is ~100 MB).
fn suppressed_nesting(depth: usize) -> String {
    let mut s = String::from("java.lang.Exception: top\n\tat a.b.C.d(C.java:1)\n");
    s.reserve(depth * depth / 2 + depth * 40);
    let mut tabs = String::from("\t");
    for _ in 0..depth {
        s.push_str(&tabs);
        s.push_str("Suppressed: java.lang.Exception: s\n");
        tabs.push('\t');
    }
    s.push_str(&tabs);
    s.push_str("at a.b.C.d(C.java:1)\n");
    s.push_str(&tabs);
    s.push_str("... 1 more\n");
    s
}

/// One throwable with `count` frames.
fn many_frames(count: usize) -> String {
    let mut s = String::from("java.lang.Exception: big\n");
    s.reserve(count * 26);
    for k in 0..count {
        use std::fmt::Write;
        let _ = writeln!(s, "\tat a.b.C.d(C.java:{})", k % 10_000);
    }
    s
}

/// One frame line of `bytes`: `at a.b.C.d(` repeated (never closed).
fn at_line(bytes: usize) -> String {
    let mut s = repeat_to("java.lang.Exception: x\n\t".into(), "at a.b.C.d(", bytes);
    s.push('\n');
    s
}

/// A header whose message is `&lt;` repeated over `bytes`, then a frame.
fn html_lt(bytes: usize) -> String {
    let mut s = repeat_to("java.lang.Exception: ".into(), "&lt;", bytes);
    s.push_str("\n\tat a.b.C.d(C.java:1)\n");
    s
}

/// A JSON string literal holding a trace, then `\"\\n\\tat` (escaped quote, escaped backslash,
/// n, escaped backslash, tat) repeated over `bytes`.
fn json_escapes(bytes: usize) -> String {
    let mut s = repeat_to(
        r#"{"root-exception":"java.lang.Exception: x\n\tat a.b.C.d(C.java:1)"#.into(),
        r#"\"\\n\\tat"#,
        bytes,
    );
    s.push_str("\"}");
    s
}

/// A JSON string literal holding one trace with `\n\tat a.b.C.d(C.java:1)` escaped frames over
/// `bytes`.
fn json_frames(bytes: usize) -> String {
    let mut s = repeat_to(
        r#"{"root-exception":"java.lang.Exception: x"#.into(),
        r"\n\tat a.b.C.d(C.java:1)",
        bytes,
    );
    s.push_str("\"}");
    s
}

/// One line of `> ` quote markers over `bytes / 2`, then lines quoted 1000 deep over the rest,
/// holding a trace.
fn quotes(bytes: usize) -> String {
    let mut s = repeat_to(String::new(), "> ", bytes / 2);
    s.push_str("java.lang.Exception: q\n");
    let deep = "> ".repeat(1000);
    let lines = [
        "\tat a.b.C.d(C.java:1)",
        "Caused by: x.Y: z",
        "\t... 1 more",
    ];
    let mut k = 0;
    while s.len() < bytes {
        s.push_str(&deep);
        s.push_str(lines[k % 3]);
        s.push('\n');
        k += 1;
    }
    s
}

/// A whole trace collapsed onto one log line of `bytes` (newlines lost: frames separated by a
/// space), then the same glued with no separator at all (`…(C.java:1)at a.b.C.d(…`).
fn collapsed(bytes: usize) -> String {
    let mut s = repeat_to(
        "2021-08-18 06:18:37,402 ERROR x [] - java.lang.IllegalStateException: boom".into(),
        " at a.b.C.d(C.java:1)",
        bytes / 4,
    );
    s = repeat_to(
        s + " Caused by: java.io.IOException: x",
        " at a.b.C.e(C.java:2)",
        bytes / 2,
    );
    s.push_str(" ... 5 more\n");
    s = repeat_to(
        s + "java.lang.IllegalStateException: glued",
        "at a.b.C.d(C.java:1)",
        bytes,
    );
    s.push('\n');
    s
}

/// A JSON log (one object per line, logstash style): `count` string literals each holding a
/// small trace.
fn json_lines(count: usize) -> String {
    let mut s = String::with_capacity(count * 120);
    for k in 0..count {
        use std::fmt::Write;
        let _ = writeln!(
            s,
            r#"{{"level":"ERROR","message":"failed","stack_trace":"java.lang.Exception: e{k}\n\tat a.b.C.d(C.java:1)\n"}}"#
        );
    }
    s
}

/// HTML line-break tags that never close (`<br ` repeated), after an escape that turns HTML
/// decoding on.
fn unclosed_tags(bytes: usize) -> String {
    repeat_to("&lt;init&gt;\n".into(), "<br ", bytes)
}

/// `count` small traces that all differ (the message), separated by log lines.
fn distinct_traces(count: usize) -> String {
    let mut s = String::with_capacity(count * 120);
    for k in 0..count {
        use std::fmt::Write;
        let _ = writeln!(
            s,
            "2021-08-18 06:18:37,402 INFO  x [] - tick\njava.lang.IllegalStateException: state {k}\n\tat a.b.C.d(C.java:1)\n\tat a.b.C.e(C.java:2)"
        );
    }
    s
}

// ---------------------------------------------------------------------------------------------
// Tests (release sizes; a tenth in debug).

#[test]
fn log_100_mb() {
    let (text, stats) = flink_log::flink_log(4 * MB, 7);
    let share = stats.trace_lines as f64 / stats.lines as f64;
    assert!(
        (0.02..=0.05).contains(&share),
        "the log is 2-5 % trace lines ({share:.3})"
    );
    assert!(parse(&text).traces.len() >= stats.traces / 2);
    check_linear("log", size(25 * MB), log);
}

#[test]
fn one_10_mb_line() {
    check_linear("long line", size(10 * MB) / 4, long_line);
}

#[test]
fn a_million_caused_by() {
    // The page model is checked on its own below, at sizes a quadratic stage can still finish.
    check_linear_with("caused by", size(1_000_000) / 4, 4, false, caused_by);
}

#[test]
fn page_model_of_a_long_cause_chain() {
    let n = if cfg!(debug_assertions) {
        5_000
    } else {
        10_000
    };
    check_linear("caused by (page model)", n, caused_by);
}

#[test]
fn deep_suppressed_nesting() {
    // Size grows as depth²: depth and 2·depth give 4× the bytes.
    let depth = if cfg!(debug_assertions) { 2_000 } else { 7_000 };
    check_linear_with("suppressed nesting", depth, 2, true, suppressed_nesting);
}

#[test]
fn a_million_frames() {
    check_linear("frames", size(1_000_000) / 4, many_frames);
}

#[test]
fn a_10_mb_line_of_unclosed_frames() {
    check_linear("at a.b.C.d( line", size(10 * MB) / 4, at_line);
}

#[test]
fn a_10_mb_line_of_html_escapes() {
    check_linear("&lt; line", size(10 * MB) / 4, html_lt);
}

#[test]
fn a_10_mb_json_string_of_escapes() {
    check_linear("json \\\"\\\\n\\\\tat", size(10 * MB) / 4, json_escapes);
    check_linear("json escaped frames", size(10 * MB) / 4, json_frames);
}

#[test]
fn a_10_mb_collapsed_trace_line() {
    check_linear("collapsed one-line trace", size(10 * MB) / 4, collapsed);
}

#[test]
fn a_collapsed_line_with_non_ascii_does_not_panic() {
    // Found by the fuzzer (fuzz/artifacts/parse/crash-repair-lines-*): a line of 120 bytes or
    // more holding two inline frames is split by decode::repair_lines, which sliced it inside
    // a multi-byte character.
    for input in [
        format!("é at a.B.c(B.java:1) at a.B.c(B.java:1){}", "x".repeat(100)),
        format!("{} at a.B.c(B.java:1) at a.B.c(é.java:1)", "x".repeat(100)),
        format!(
            "java.lang.Exception: 失败 {} at a.B.c(B.java:1) at a.B.c(B.java:1)",
            "x".repeat(100)
        ),
    ] {
        let parsed = parse(&input);
        let d = diagnose(&input);
        check_spans(&input, &parsed, &d);
    }
}

#[test]
fn five_mb_of_quote_markers() {
    check_linear("> > > quotes", size(5 * MB) / 4, quotes);
}

#[test]
fn a_json_log_with_many_traces() {
    check_linear("json lines", size(40_000) / 4, json_lines);
}

#[test]
fn json_documents_reserve_memory_in_proportion_to_the_input() {
    let _guard = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    // One document per string literal: each should hold about its literal, not the whole input.
    let input = json_lines(size(20_000));
    let docs = trace_doctor::decode::documents(&input);
    assert!(docs.len() >= size(20_000));
    let reserved: usize = docs.iter().map(|d| d.text.capacity()).sum();
    assert!(
        reserved <= 4 * input.len(),
        "{} documents of a {} KB input reserve {} MB",
        docs.len(),
        input.len() >> 10,
        reserved >> 20
    );
}

#[test]
fn unclosed_html_tags() {
    // The same sizes in every build (256 KB and 1 MB): a quadratic decoder still finishes.
    check_linear("<br unclosed", 256 * 1024, unclosed_tags);
}

#[test]
fn many_distinct_traces() {
    check_linear("distinct traces", size(100_000) / 4, distinct_traces);
}
