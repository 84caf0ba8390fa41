//! Redaction keeps what a diagnosis needs and hides the rest.
//!
//! - On every shared case, form fixture and rule fixture, the redacted text diagnoses the same:
//!   the same traces, the same throwable classes in the same order, the same frames (class,
//!   method, line), the same rule ids.
//! - Redacting a redacted text finds nothing more (the placeholders never look like real values).
//! - No input makes it panic; its spans are sorted, disjoint, on `char` boundaries and never span
//!   a line break (property tests).
//! - Its time is linear: a generated log and adversarial inputs at n and 4n (the method of
//!   `tests/pathological.rs`; `--nocapture` prints the times).

#[path = "support/flink_log.rs"]
mod flink_log;

use proptest::prelude::*;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use trace_doctor::diagnose;
use trace_doctor::redact::{self, Kind};

fn fixtures() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    let mut add = |dir: PathBuf| {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            panic!("{} is readable", dir.display());
        };
        for e in entries.flatten() {
            let p = e.path();
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            if (name.ends_with(".txt") || name.ends_with(".json"))
                && !name.ends_with(".expect.json")
            {
                files.push(p);
            }
        }
    };
    add(root.join("tests/cases"));
    add(root.join("tests/forms"));
    add(root.join("tests/non-flink"));
    for rule in std::fs::read_dir(root.join("rules"))
        .into_iter()
        .flatten()
        .flatten()
    {
        if rule.path().is_dir() {
            add(rule.path());
        }
    }
    files.sort();
    files
}

/// What a diagnosis must keep: per trace, the classes, frames and rule ids.
#[derive(Debug, PartialEq)]
struct Shape {
    classes: Vec<String>,
    root: String,
    frames: Vec<(String, String, Option<u32>)>,
    rules: Vec<String>,
    occurrences: usize,
}

fn shape(text: &str) -> Vec<Shape> {
    diagnose(text)
        .traces
        .iter()
        .map(|t| Shape {
            classes: t.trace.throwables.iter().map(|x| x.class.clone()).collect(),
            root: t.trace.throwables[t.root_cause].class.clone(),
            frames: t
                .trace
                .throwables
                .iter()
                .flat_map(|x| &x.frames)
                .map(|f| (f.class.clone(), f.method.clone(), f.line()))
                .collect(),
            rules: t.findings.iter().map(|f| f.rule.clone()).collect(),
            occurrences: t.occurrences,
        })
        .collect()
}

#[test]
fn every_fixture_diagnoses_the_same_after_redaction() {
    let files = fixtures();
    assert!(files.len() > 60, "fixtures found: {}", files.len());
    let mut redacted_somewhere = 0;
    let mut fails = Vec::new();
    for path in &files {
        let bytes = std::fs::read(path).unwrap_or_default();
        let text = trace_doctor::decode::bytes_to_text(&bytes);
        let redactions = redact::find(&text);
        redacted_somewhere += usize::from(!redactions.is_empty());
        let out = redact::apply(&text, &redactions);
        let (before, after) = (shape(&text), shape(&out));
        if before.len() != after.len() {
            fails.push(format!(
                "{}: {} traces, {} after redaction",
                path.display(),
                before.len(),
                after.len()
            ));
            continue;
        }
        for (i, (b, a)) in before.iter().zip(&after).enumerate() {
            if b != a {
                fails.push(format!("{} trace {i}:\n  {b:?}\n  {a:?}", path.display()));
            }
        }
        // Nothing is left to find in the redacted text.
        let again = redact::find(&out);
        if !again.is_empty() {
            fails.push(format!(
                "{}: redacting again finds {:?}",
                path.display(),
                redact::preview(&out, &again)
            ));
        }
    }
    assert!(fails.is_empty(), "{}", fails.join("\n"));
    assert!(
        redacted_somewhere >= 20,
        "the fixtures hold ids, IPs and hosts: {redacted_somewhere} files redacted"
    );
}

#[test]
fn the_flagship_keeps_its_diagnosis_and_context() {
    let text = trace_doctor::FLAGSHIP_EXAMPLE;
    let out = redact::redact(text);
    let (b, a) = (diagnose(text), diagnose(&out));
    assert_eq!(b.traces[0].findings[0].rule, "async-wait-inflight-cme");
    assert_eq!(a.traces[0].findings[0].rule, "async-wait-inflight-cme");
    let (cb, ca) = (&b.traces[0].context, &a.traces[0].context);
    assert_eq!(cb.checkpoint_id, ca.checkpoint_id);
    assert_eq!(
        serde_json::to_string(&cb.task).ok(),
        serde_json::to_string(&ca.task).ok()
    );
    assert_eq!(
        b.traces[0].flink_version.summary,
        a.traces[0].flink_version.summary
    );
}

/// Pieces of text that look sensitive, look like it but are not, or sit at the edges.
fn piece() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("kafka-1.prod.acme.com/10.1.2.3:9092".to_owned()),
        Just("bob@corp.com".to_owned()),
        Just("jdbc:mysql://bob:pw@db.corp.com:3306/x?password=pw".to_owned()),
        Just("pekko.tcp://flink@10.0.0.12:6123/user/rpc/taskmanager_0".to_owned()),
        Just("container_e12_1612345678901_0042_01_000002".to_owned()),
        Just("a1b2c3d4e5f60718293a4b5c6d7e8f90".to_owned()),
        Just("/home/alice/".to_owned()),
        Just("C:\\Users\\alice\\".to_owned()),
        Just("password=\"s3\"".to_owned()),
        Just("token: x".to_owned()),
        Just("Bearer abcdefghijkl".to_owned()),
        Just("fe80::1:2".to_owned()),
        Just("host-1.example".to_owned()),
        Just("192.0.2.1".to_owned()),
        Just("user1@example.com".to_owned()),
        Just("flink-jobmanager-7d9f8b6c5d-x2x7k".to_owned()),
        Just("bootstrap.servers = [kafka-0:9092, ".to_owned()),
        Just("\tat org.apache.flink.runtime.taskmanager.Task.run(Task.java:566)".to_owned()),
        Just("java.io.IOException: x".to_owned()),
        Just("://".to_owned()),
        Just("@".to_owned()),
        Just(".".to_owned()),
        Just(":".to_owned()),
        Just("=".to_owned()),
        Just("\"".to_owned()),
        Just("\\".to_owned()),
        Just("-".to_owned()),
        Just("\n".to_owned()),
        Just(" ".to_owned()),
        "[a-z0-9]{1,6}",
        "[ -~]{0,20}",
        "\\PC{0,8}",
    ]
}

/// Spans are sorted, disjoint, non-empty, slice the text and never cross a line break; preview
/// and summary accept them.
fn check_spans(text: &str) -> String {
    let rs = redact::find(text);
    let mut end = 0;
    for r in &rs {
        assert!(r.span.start >= end, "sorted and disjoint: {rs:?}");
        assert!(!r.span.is_empty(), "non-empty");
        let original = text.get(r.span.range()).expect("span slices the text");
        assert!(
            !original.contains(['\n', '\r']),
            "no line break: {original:?}"
        );
        end = r.span.end;
    }
    let _ = redact::preview(text, &rs);
    let _ = redact::summary(text, &rs);
    redact::apply(text, &rs)
}

/// Redacting the redacted text finds nothing new of the kinds whose placeholders keep the
/// shape of a value.
fn check_idempotent(text: &str) {
    let out = check_spans(text);
    let again: Vec<_> = redact::find(&out)
        .into_iter()
        .filter(|r| matches!(r.kind, Kind::Host | Kind::Ip | Kind::Email))
        .collect();
    assert!(
        again.is_empty(),
        "redacting {out:?} again finds {:?}",
        redact::preview(&out, &again)
    );
}

fn separator() -> impl Strategy<Value = &'static str> {
    prop_oneof![
        Just(" "),
        Just("\n"),
        Just(", "),
        Just("; "),
        Just("\t"),
        Just(" (")
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1024, ..ProptestConfig::default() })]

    /// Pieces glued together in any order: no panic, sound spans.
    #[test]
    fn never_panics_and_spans_are_sound(pieces in prop::collection::vec(piece(), 0..40)) {
        check_spans(&pieces.concat());
    }

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,300}") {
        check_spans(&text);
    }

    /// Pieces apart (as values stand in real text): redaction is idempotent. Glued pieces are
    /// not always: a host glued after a frame's `)` in one text may be read as part of the frame
    /// in the other, and a value glued to a secret is hidden with it.
    #[test]
    fn redaction_is_idempotent(pieces in prop::collection::vec((piece(), separator()), 0..40)) {
        let text: String = pieces.iter().map(|(p, s)| format!("{p}{s}")).collect();
        check_idempotent(&text);
    }
}

// ---- Linear time.

const MAX_RATIO: f64 = 12.0;
const NOISE: Duration = Duration::from_millis(40);

fn time_redact(text: &str) -> Duration {
    let t = Instant::now();
    let rs = redact::find(text);
    let out = redact::apply(text, &rs);
    let elapsed = t.elapsed();
    assert!(out.len() + 1 >= rs.len());
    elapsed
}

fn check_linear(name: &str, n: usize, gen: impl Fn(usize) -> String) {
    let _ = redact::find("warm-up 10.0.0.1");
    let mut last = String::new();
    for _ in 0..2 {
        let small = gen(n);
        let ts = time_redact(&small);
        let big = gen(4 * n);
        let tb = time_redact(&big);
        let ratio = tb.as_secs_f64() / ts.as_secs_f64().max(1e-4);
        eprintln!(
            "{name:<24} {:>7.2} MB {ts:>10.2?} | 4n {:>7.2} MB {tb:>10.2?} | ratio {ratio:.1}",
            small.len() as f64 / 1048576.0,
            big.len() as f64 / 1048576.0
        );
        if tb <= NOISE || ratio <= MAX_RATIO {
            return;
        }
        last = format!("{ts:.2?} -> {tb:.2?} (x{ratio:.1})");
    }
    panic!("{name}: super-linear twice: {last}");
}

fn repeat_to(unit: &str, bytes: usize) -> String {
    unit.repeat(bytes / unit.len().max(1) + 1)
}

/// A Flink log with traces, and lines full of values to hide (each distinct, so the
/// placeholder tables grow with the input).
fn sensitive_log(bytes: usize) -> String {
    let (mut log, _) = flink_log::flink_log(bytes / 2, 7);
    let mut i = 0u32;
    while log.len() < bytes {
        let (a, b) = (i % 250, (i / 250) % 250);
        log.push_str(&format!(
            "2024-01-01 00:00:00,000 WARN  o.a.k.c.NetworkClient [] - Connection to node {i} \
             (kafka-{i}.prod.acme.com/10.{b}.{a}.7:9092) could not be established; job \
             {i:032x} container_e01_1612345678901_{i:04}_01_000002 by user{i}x@corp.com \
             from /home/u{i}/jobs password=p{i}\n"
        ));
        i += 1;
    }
    log
}

#[test]
fn redaction_is_linear_in_the_input() {
    // Debug builds of regex-lite are slow: a smaller input there (the ratio is what counts).
    let mb = if cfg!(debug_assertions) {
        1 << 18
    } else {
        4 << 20
    };
    check_linear("sensitive log", mb, sensitive_log);
    check_linear("flink log", mb, |n| flink_log::flink_log(n, 11).0);
    for (name, unit) in [
        ("dotted run", "a."),
        ("scheme run", "x://"),
        ("at run", "a@b."),
        ("colon run", "a:"),
        ("hex run", "0123456789abcdef"),
        ("key run", "password="),
        ("quoted key run", "password=\""),
        ("home run", "/home/"),
        ("user path run", "/user/"),
        ("dash run", "ab-"),
        ("ip run", "1.2.3.4."),
        ("host list run", "bootstrap.servers=a,"),
        ("bearer run", "Bearer "),
        ("pem run", "-----BEGIN PRIVATE KEY-----\n"),
    ] {
        check_linear(name, mb / 4, |n| repeat_to(unit, n));
    }
}

/// Found by `redaction_is_idempotent`: a message line printed without a class right above a
/// frame is read as a throwable whose span is that message; it was protected like a class
/// name, so the first pass left `token: x` and the host in it, and the second pass hid them.
#[test]
fn a_message_read_without_a_class_is_redacted_on_the_first_pass() {
    let text = "token: x, bootstrap.servers = [kafka-0:9092, ,  \npassword=\"s3\", \tat org.apache.flink.runtime.taskmanager.Task.run(Task.java:566) ";
    check_idempotent(text);
    let once = redact::apply(text, &redact::find(text));
    assert!(
        !once.contains("kafka-0") && !once.contains("token: x"),
        "{once}"
    );
}
