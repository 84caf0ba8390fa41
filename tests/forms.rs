//! Every form a trace arrives in (`tests/forms/*.expect.json`, see `tests/forms/README.md`):
//! the number of distinct traces, each root cause and chain length, the first frames of the
//! root cause, thread-dump threads, occurrences; and every span slices the original text.

use serde_json::Value;
use std::path::{Path, PathBuf};
use trace_doctor::{diagnose, parse::parse};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/forms")
}

fn check(name: &str, e: &Value) -> Vec<String> {
    let mut fails = Vec::new();
    let input_path = dir().join(e["input"].as_str().expect("input"));
    let bytes = std::fs::read(&input_path).expect("input readable");
    let input = trace_doctor::decode::bytes_to_text(&bytes);
    let d = diagnose(&input);
    let mut fail = |m: String| fails.push(format!("{name}: {m}"));
    // Threads of a thread dump are listed apart from exception traces.
    let exceptions: Vec<_> = d
        .traces
        .iter()
        .filter(|t| t.trace.thread.is_none())
        .collect();
    if let Some(n) = e["traces"].as_u64() {
        if exceptions.len() as u64 != n {
            fail(format!("{} distinct traces, want {n}", exceptions.len()));
        }
    }
    if let Some(roots) = e["root_exceptions"].as_array() {
        let got: Vec<&str> = exceptions
            .iter()
            .map(|t| t.trace.throwables[t.root_cause].class.as_str())
            .collect();
        let want: Vec<&str> = roots.iter().filter_map(Value::as_str).collect();
        if got != want {
            fail(format!("root causes {got:?}, want {want:?}"));
        }
    }
    if let Some(lens) = e["chain_lengths"].as_array() {
        let got: Vec<u64> = exceptions
            .iter()
            .map(|t| t.trace.cause_chain().len() as u64)
            .collect();
        let want: Vec<u64> = lens.iter().filter_map(Value::as_u64).collect();
        if got != want {
            fail(format!("chain lengths {got:?}, want {want:?}"));
        }
    }
    if let Some(first) = e["frames_first"].as_array() {
        for (k, want) in first.iter().enumerate() {
            let Some(t) = exceptions.get(k) else { break };
            let root = &t.trace.throwables[t.root_cause];
            let want: Vec<&str> = want
                .as_array()
                .map(|a| a.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            let got: Vec<String> = root
                .frames
                .iter()
                .take(want.len())
                .map(|f| f.qualified_method())
                .collect();
            if got != want {
                fail(format!("trace {k}: first frames {got:?}, want {want:?}"));
            }
        }
    }
    if let Some(occ) = e["occurrences"].as_array() {
        let got: Vec<u64> = exceptions.iter().map(|t| t.occurrences as u64).collect();
        let want: Vec<u64> = occ.iter().filter_map(Value::as_u64).collect();
        if got != want {
            fail(format!("occurrences {got:?}, want {want:?}"));
        }
    }
    if e["kind"].as_str() == Some("thread-dump") {
        let threads: usize = d
            .traces
            .iter()
            .filter(|t| t.trace.thread.is_some())
            .map(|t| t.occurrences)
            .sum();
        if let Some(n) = e["threads"].as_u64() {
            if threads as u64 != n {
                fail(format!("{threads} threads, want {n}"));
            }
        }
    }
    if let Some(n) = e["deadlocks"].as_u64() {
        // jstack prints its deadlock report; Flink's REST dump has none (read from "owned by").
        let jstack = e["input"].as_str().is_some_and(|i| i.ends_with(".txt"));
        if jstack && d.deadlocks.len() as u64 != n {
            fail(format!("{} deadlock reports, want {n}", d.deadlocks.len()));
        }
    }
    if let Some(ops) = e["operators"].as_array() {
        let want: Vec<&str> = ops.iter().filter_map(Value::as_str).collect();
        let got: Vec<String> = d
            .traces
            .first()
            .and_then(|t| t.context.task.as_ref())
            .map(|t| t.operators.clone())
            .unwrap_or_default();
        if got != want {
            fail(format!("operators {got:?}, want {want:?}"));
        }
    }
    if let Some(v) = e["flink_version"].as_str() {
        let got = d.traces.first().and_then(|t| t.flink_version.exact.clone());
        if got.as_deref() != Some(v) {
            fail(format!("flink version {got:?}, want {v}"));
        }
    }
    // Spans slice the original text.
    let parsed = parse(&input);
    for t in &parsed.traces {
        for th in &t.throwables {
            for f in &th.frames {
                match input.get(f.span.range()) {
                    None => fail(format!("frame span {:?} does not slice the input", f.span)),
                    // A printed frame's span starts at its `at` in the original text, whatever
                    // carried it (quotes, JSON or HTML escapes, prefixes, wraps).
                    Some(text) if f.expanded_from.is_none() && !text.starts_with("at") => {
                        fail(format!("frame span {:?} slices {text:?}", f.span))
                    }
                    Some(_) => {}
                }
            }
        }
    }
    fails
}

#[test]
fn every_form_reads_as_expected() {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir())
        .expect("tests/forms exists")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with(".expect.json"))
        .collect();
    entries.sort();
    assert!(entries.len() >= 10, "{} forms", entries.len());
    let mut fails = Vec::new();
    for p in &entries {
        let e: Value = serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap();
        fails.extend(check(&p.file_name().unwrap().to_string_lossy(), &e));
    }
    assert!(
        fails.is_empty(),
        "{} of {} forms fail:\n{}",
        fails.len(),
        entries.len(),
        fails.join("\n")
    );
}
