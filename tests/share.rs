//! Share links: round trips, cut and damaged links, and the shorter link on every fixture.

use proptest::prelude::*;
use std::collections::HashSet;
use trace_doctor::share::link::{self, LinkError, SharedState, ViewOptions};

const BASE: &str = "https://example.org/trace-doctor/";

/// Every text fixture: the shared cases and each rule's `match-*.txt`.
fn fixtures() -> Vec<(String, String)> {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut out = Vec::new();
    let mut add = |dir: std::path::PathBuf, keep: &dyn Fn(&str) -> bool| {
        let mut entries: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        entries.sort();
        for p in entries {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            if keep(&name) {
                let bytes = std::fs::read(&p).unwrap();
                out.push((
                    p.display().to_string(),
                    trace_doctor::decode::bytes_to_text(&bytes),
                ));
            }
        }
    };
    add(format!("{root}/tests/cases").into(), &|n| {
        (n.ends_with(".txt") || n.ends_with(".json")) && !n.ends_with(".expect.json")
    });
    let mut rules: Vec<_> = std::fs::read_dir(format!("{root}/rules"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    rules.sort();
    for dir in rules {
        add(dir, &|n| n.starts_with("match-") && n.ends_with(".txt"));
    }
    assert!(out.len() > 20, "{} fixtures", out.len());
    out
}

fn full_state(text: &str) -> SharedState {
    SharedState {
        text: text.to_owned(),
        finding: Some("async-wait-inflight-cme".to_owned()),
        trace: Some(1),
        options: ViewOptions {
            opened: vec!["t1-e0".to_owned()],
            closed: vec!["t1-e2".to_owned()],
            all_traces: false,
        },
        left_out: vec![],
        rules: vec![],
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn any_state_round_trips(
        text in "(?s)(.|\r\n|\u{0}|🦀|\u{feff}){0,300}",
        finding in proptest::option::of("[a-z-]{1,30}"),
        trace in proptest::option::of(0usize..1000),
        opened in proptest::collection::vec(".{0,10}", 0..3),
        all in any::<bool>(),
        rules in proptest::collection::vec("[a-z-]{1,30}", 0..3),
    ) {
        let s = SharedState {
            text,
            finding,
            trace,
            options: ViewOptions { opened, closed: vec![], all_traces: all },
            left_out: vec!["a\nb".to_owned()],
            rules,
        };
        let url = link::link(BASE, &s);
        prop_assert_eq!(link::decode(&url), Ok(s.clone()));
        prop_assert_eq!(link::decode(&link::encode(&s)), Ok(s));
    }

    #[test]
    fn any_input_to_decode_never_panics(input in "(?s).{0,200}") {
        let _ = link::decode(&input);
        let _ = link::decode(&format!("{BASE}#/s/1.{input}"));
    }

    #[test]
    fn damage_anywhere_is_reported_or_harmless(seed in any::<u64>(), count in 1usize..4) {
        let s = full_state(trace_doctor::FLAGSHIP_EXAMPLE);
        let url = link::link(BASE, &s);
        let mut bytes = url.clone().into_bytes();
        let mut x = seed | 1;
        for _ in 0..count {
            // xorshift: positions and replacement characters from the seed.
            x ^= x << 13; x ^= x >> 7; x ^= x << 17;
            let at = BASE.len() + 6 + (x as usize) % (bytes.len() - BASE.len() - 6);
            bytes[at] = b"AZaz09-_%. +/"[(x >> 32) as usize % 13];
        }
        let damaged = String::from_utf8(bytes).unwrap();
        match link::decode(&damaged) {
            // Unchanged, or only the unused bits of the last character changed.
            Ok(got) => prop_assert_eq!(got, s),
            Err(e) => {
                prop_assert!(!e.to_string().is_empty());
                if let Some(r) = e.recovered() {
                    prop_assert!(s.text.starts_with(&r.state.text), "{e}");
                    prop_assert_eq!(&r.state.finding, &s.finding);
                }
            }
        }
    }
}

#[test]
fn every_cut_of_a_real_link_restores_a_prefix_or_nothing() {
    let s = full_state(trace_doctor::FLAGSHIP_EXAMPLE);
    let url = link::link(BASE, &s);
    let mut restored = 0;
    let mut best = 0;
    for end in 0..url.len() {
        match link::decode(&url[..end]) {
            Ok(got) => assert_eq!(got, s, "cut at {end} read as whole"),
            Err(e) => {
                assert!(!e.to_string().is_empty());
                if let Some(r) = e.recovered() {
                    assert!(
                        s.text.starts_with(&r.state.text),
                        "cut at {end}: not a prefix"
                    );
                    assert_eq!(r.state.finding, s.finding);
                    assert_eq!(r.state.options, s.options);
                    assert_eq!(r.total_bytes, s.text.len());
                    assert!(r.bytes >= best, "cut at {end} restored less than before");
                    best = r.bytes;
                    restored += 1;
                }
                // Once the header is in, every longer cut restores it and some text.
                if restored > 0 {
                    assert!(
                        matches!(e, LinkError::Truncated { recovered: Some(_) }),
                        "cut at {end}: {e:?}"
                    );
                }
            }
        }
    }
    assert_eq!(link::decode(&url), Ok(s.clone()));
    assert!(
        restored > (url.len() - BASE.len()) * 3 / 4,
        "{restored} of {}",
        url.len()
    );
    // Cut just before the end, all but the last checksummed chunk (1 KiB) comes back.
    assert!(best + 1024 > s.text.len(), "{best} of {}", s.text.len());
}

#[test]
fn an_oversized_text_is_refused_with_what_fits() {
    let text = "java.lang.RuntimeException: x\n".repeat(link::MAX_TEXT_BYTES / 30 + 10_000);
    let payload = link::encode(&SharedState {
        text: text.clone(),
        ..SharedState::default()
    });
    let Err(e) = link::decode(&payload) else {
        panic!("a text over the limit was read whole")
    };
    let LinkError::TooLarge {
        recovered: Some(r), ..
    } = &e
    else {
        panic!("{e}")
    };
    assert!(text.starts_with(&r.state.text));
    assert!(r.bytes >= link::MAX_TEXT_BYTES, "{}", r.bytes);
    assert_eq!(r.total_bytes, text.len());
}

#[test]
fn the_header_survives_a_cut_inside_the_text_only() {
    let s = full_state("x\n");
    let payload = link::encode(&s);
    // Too short for the header: nothing is claimed.
    assert_eq!(
        link::decode(&payload[..6]),
        Err(LinkError::Truncated { recovered: None })
    );
}

/// `(class, method, location)` of every frame of every trace of `text`.
fn frames_of(text: &str) -> HashSet<String> {
    trace_doctor::parse::parse(text)
        .traces
        .iter()
        .flat_map(|t| &t.throwables)
        .flat_map(|t| &t.frames)
        .map(|f| format!("{}.{}({:?})", f.class, f.method, f.location))
        .collect()
}

#[test]
fn the_shorter_text_keeps_the_first_finding_and_invents_no_frame() {
    let mut shortened = 0;
    for (name, text) in fixtures() {
        let d = trace_doctor::diagnose(&text);
        let s = link::shorten(&text, &d);
        let chosen = s.trace.expect("every fixture has a trace");
        let want = d.traces[chosen].findings.first().map(|f| f.rule.clone());
        assert_eq!(s.finding, want, "{name}");
        let again = trace_doctor::diagnose(&s.text);
        // The trace the page shows first (a text kept as it is may hold a trace without a
        // finding above the one that has it, e.g. Py4J's Python exception line).
        let lead = again.order_of_interest()[0];
        assert_eq!(
            again.traces[lead].findings.first().map(|f| f.rule.clone()),
            want,
            "{name}: the shorter text leads with another finding:\n{}",
            s.text
        );
        let original = frames_of(&text);
        for f in frames_of(&s.text) {
            assert!(original.contains(&f), "{name}: invented frame {f}");
        }
        assert!(s.text.len() <= text.len(), "{name}");
        if s.text != text {
            shortened += 1;
            assert!(!s.left_out.is_empty(), "{name}: shortened but says nothing");
        } else {
            assert!(s.left_out.is_empty(), "{name}");
        }
    }
    assert!(shortened > 10, "only {shortened} fixtures were shortened");
}

#[test]
fn the_flagship_shortens_to_a_mail_safe_link_that_says_what_it_left_out() {
    let text = trace_doctor::FLAGSHIP_EXAMPLE;
    let d = trace_doctor::diagnose(text);
    let s = link::shorten(text, &d);
    assert_eq!(s.finding.as_deref(), Some("async-wait-inflight-cme"));
    assert!(
        s.left_out
            .iter()
            .any(|l| l.ends_with("frames of the root cause")),
        "{:?}",
        s.left_out
    );
    // The highlighted frames and the user's code are kept, the time above the trace too.
    for kept in [
        "java.util.HashMap$HashIterator.nextNode(HashMap.java:1445)",
        "2021-08-18 06:18:37",
        "java.util.ConcurrentModificationException",
    ] {
        assert!(s.text.contains(kept), "{kept} missing:\n{}", s.text);
    }
    let short = link::link(
        BASE,
        &SharedState {
            text: s.text.clone(),
            finding: s.finding.clone(),
            left_out: s.left_out.clone(),
            ..SharedState::default()
        },
    );
    assert!(short.len() <= link::MAIL_SAFE_LENGTH, "{}", short.len());
    assert_eq!(link::decode(&short).unwrap().left_out, s.left_out);
    // The context read from the text survives: checkpoint, task, time.
    let a = &d.traces[0].context;
    let b = &trace_doctor::diagnose(&s.text).traces[0].context;
    assert_eq!(a, b);
}

#[test]
fn many_traces_shorten_to_the_diagnosed_one() {
    let other = "java.lang.IllegalStateException: unrelated\n\tat com.acme.Foo.bar(Foo.java:3)\n";
    let text = format!(
        "{other}\nsome log line\n{}\n{other}",
        trace_doctor::FLAGSHIP_EXAMPLE
    );
    let d = trace_doctor::diagnose(&text);
    let s = link::shorten(&text, &d);
    assert_eq!(s.trace, Some(1));
    assert!(
        s.left_out.contains(&"1 other trace".to_owned()),
        "{:?}",
        s.left_out
    );
    assert!(
        s.left_out
            .contains(&"the log lines around the trace".to_owned()),
        "{:?}",
        s.left_out
    );
    assert!(!s.text.contains("unrelated"));
    // Asking for the other trace keeps that one.
    let s0 = link::shorten_trace(&text, &d, Some(0));
    assert_eq!(s0.trace, Some(0));
    assert!(s0.text.contains("unrelated"));
}

#[test]
fn a_text_without_traces_is_left_as_it_is() {
    let d = trace_doctor::diagnose("hello");
    let s = link::shorten("hello", &d);
    assert_eq!((s.text.as_str(), s.trace), ("hello", None));
    assert!(s.left_out.is_empty());
}

#[path = "support/flink_log.rs"]
mod flink_log;

/// Encode, decode and shorten a generated TaskManager log of `bytes`: the three times.
fn time_log(bytes: usize) -> [std::time::Duration; 3] {
    use std::time::Instant;
    let (log, _) = flink_log::flink_log(bytes, 7);
    // The flagship trace in the middle of the log.
    let mid = log[..log.len() / 2].rfind('\n').map_or(0, |i| i + 1);
    let text = format!(
        "{}{}{}",
        &log[..mid],
        trace_doctor::FLAGSHIP_EXAMPLE,
        &log[mid..]
    );
    let state = SharedState {
        text,
        ..SharedState::default()
    };
    let t = Instant::now();
    let payload = link::encode(&state);
    let encode = t.elapsed();
    let t = Instant::now();
    let back = link::decode(&payload);
    let decode = t.elapsed();
    assert!(back.as_ref().is_ok_and(|b| b.text == state.text));
    let d = trace_doctor::diagnose(&state.text);
    let t = Instant::now();
    let s = link::shorten(&state.text, &d);
    let shorten = t.elapsed();
    // The first diagnosed trace of the log (the flagship, or a generated one before it).
    assert!(s.finding.is_some());
    assert!(s.text.len() < 10_000, "{}", s.text.len());
    println!(
        "{:>5} KB of log: payload {} KB, encode {encode:?}, decode {decode:?}, shorten {shorten:?}",
        state.text.len() / 1024,
        payload.len() / 1024
    );
    [encode, decode, shorten]
}

/// A big paste (10 MB in release, 1 MB in debug, and 4 times that) is shared in linear time:
/// `cargo test --release --test share -- --nocapture big_paste` prints the times.
#[test]
fn a_big_paste_is_shared_in_linear_time() {
    let n: usize = if cfg!(debug_assertions) {
        1 << 20
    } else {
        10 << 20
    };
    let noise = std::time::Duration::from_millis(40);
    let mut last = Vec::new();
    for _attempt in 0..2 {
        let a = time_log(n / 4);
        let b = time_log(n);
        last = (0..3)
            .filter(|&i| b[i] > noise && b[i].as_secs_f64() / a[i].as_secs_f64() > 12.0)
            .collect();
        if last.is_empty() {
            return;
        }
    }
    panic!("stages {last:?} (encode, decode, shorten) grew faster than linear");
}
