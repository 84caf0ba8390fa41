//! Every `tests/cases/*.expect.json` (copied from `../shared/cases/`) is a test: root cause,
//! chain length, rules that must and must not fire, context and Flink version.

use serde_json::Value;
use std::path::{Path, PathBuf};
use trace_doctor::{diagnose, report};

fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases")
}

fn expectations() -> Vec<(String, Value)> {
    let mut out: Vec<(String, Value)> = std::fs::read_dir(cases_dir())
        .expect("tests/cases exists")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().ends_with(".expect.json"))
        .map(|p| {
            let text = std::fs::read_to_string(&p).expect("readable");
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                serde_json::from_str(&text).expect("valid JSON"),
            )
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

fn check_case(name: &str, expect: &Value) -> Vec<String> {
    let mut failures = Vec::new();
    let input_name = expect["input"].as_str().expect("input");
    let input = std::fs::read_to_string(cases_dir().join(input_name)).expect("input readable");
    let diagnosis = diagnose(&input);
    let report = report::build(&input, &diagnosis);
    let mut fail = |m: String| failures.push(format!("{name}: {m}"));
    if report.traces.is_empty() {
        fail("no trace found".into());
        return failures;
    }
    // Every distinct trace of the input must agree with the expectation.
    for (i, t) in report.traces.iter().enumerate() {
        let root = &t.exceptions[t.root_cause].class;
        if root != expect["root_exception"].as_str().unwrap() {
            fail(format!("trace {i}: root cause {root}"));
        }
        let want_len = expect["chain_length"].as_u64().unwrap() as usize;
        if t.cause_chain.len() != want_len {
            fail(format!(
                "trace {i}: chain length {} (want {want_len})",
                t.cause_chain.len()
            ));
        }
        let fired: Vec<&str> = t.findings.iter().map(|f| f.rule.as_str()).collect();
        for r in expect["must_fire"].as_array().unwrap() {
            if !fired.contains(&r.as_str().unwrap()) {
                fail(format!("trace {i}: {r} did not fire (fired: {fired:?})"));
            }
        }
        for r in expect["must_not_fire"].as_array().unwrap() {
            if fired.contains(&r.as_str().unwrap()) {
                fail(format!("trace {i}: {r} fired"));
            }
        }
        if expect["must_not_fire_any_flink_rule"].as_bool() == Some(true) {
            for f in &t.findings {
                let rule = trace_doctor::rules::by_id(&f.rule).unwrap();
                if rule.def.platform == "flink" {
                    fail(format!(
                        "trace {i}: Flink rule {} fired on non-Flink input",
                        f.rule
                    ));
                }
            }
        }
        if let Some(ctx) = expect.get("context") {
            let c = &t.context;
            if c.checkpoint_id != ctx["checkpoint_id"].as_u64() {
                fail(format!("trace {i}: checkpoint {:?}", c.checkpoint_id));
            }
            let ops: Vec<String> = ctx["operators"]
                .as_array()
                .unwrap()
                .iter()
                .map(|o| o.as_str().unwrap().to_owned())
                .collect();
            if c.operators.as_ref() != Some(&ops) {
                fail(format!("trace {i}: operators {:?}", c.operators));
            }
            for (key, got) in [
                ("subtask", c.subtask),
                ("parallelism", c.parallelism),
                ("attempt", c.attempt),
            ] {
                if got.map(u64::from) != ctx[key].as_u64() {
                    fail(format!("trace {i}: {key} {got:?}"));
                }
            }
        }
        if let Some(v) = expect.get("flink_version").and_then(Value::as_str) {
            if c_exact(t) != Some(v) {
                fail(format!(
                    "trace {i}: flink version {:?}",
                    t.context.flink_version
                ));
            }
        }
    }
    failures
}

fn c_exact(t: &report::TraceReport) -> Option<&str> {
    t.context.flink_version.exact.as_deref()
}

#[test]
fn every_shared_case_meets_its_expectations() {
    let cases = expectations();
    assert!(
        cases.len() >= 10,
        "the shared cases are here ({} found)",
        cases.len()
    );
    let failures: Vec<String> = cases.iter().flat_map(|(n, e)| check_case(n, e)).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn all_seed_forms_parse_to_the_same_chain() {
    let chain_of = |file: &str| {
        let input = std::fs::read_to_string(cases_dir().join(file)).unwrap();
        let d = diagnose(&input);
        assert_eq!(d.traces.len(), 1, "{file}: one distinct trace");
        let t = &d.traces[0].trace;
        t.throwables
            .iter()
            .map(|th| {
                let frames: Vec<String> = th
                    .frames
                    .iter()
                    .map(|f| format!("{}:{:?}", f.qualified_method(), f.line()))
                    .collect();
                let msg = th
                    .message
                    .as_deref()
                    .map(|m| m.split_whitespace().collect::<Vec<_>>().join(" "));
                (th.class.clone(), msg, frames)
            })
            .collect::<Vec<_>>()
    };
    let seed = chain_of("seed.txt");
    assert_eq!(
        seed[2].2.len(),
        48,
        "18 printed + 30 restored frames in the root cause"
    );
    for other in [
        "seed-crlf.txt",
        "seed-html.txt",
        "seed-quoted.txt",
        "seed-log4j.txt",
        "seed-rest.json",
    ] {
        assert_eq!(chain_of(other), seed, "{other} parses to the seed's chain");
    }
}

#[test]
fn the_rest_json_trace_is_merged_with_its_duplicate() {
    let input = std::fs::read_to_string(cases_dir().join("seed-rest.json")).unwrap();
    let d = diagnose(&input);
    assert_eq!(d.traces.len(), 1);
    assert_eq!(
        d.traces[0].occurrences, 2,
        "root-exception and the history entry"
    );
}

#[test]
fn the_copies_match_the_shared_cases() {
    // CI lays ../shared beside the project; when it is there, the copies must not drift.
    let shared = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/cases");
    let Ok(entries) = std::fs::read_dir(&shared) else {
        return;
    };
    for e in entries.filter_map(Result::ok) {
        let name = e.file_name();
        let ours = std::fs::read(cases_dir().join(&name)).unwrap_or_default();
        assert_eq!(
            ours,
            std::fs::read(e.path()).unwrap(),
            "tests/cases/{} differs from shared/cases",
            name.to_string_lossy()
        );
    }
}

/// The seed as a Chinese mail shows it (issue 14: the flagship came from user-zh): frames
/// indented with U+3000 (ideographic space), `Caused by：` with a full-width colon, and the
/// parentheses a Chinese input method writes (`（StreamTask.java：1045）`, `（18/60）#0`). Made
/// from `tests/cases/seed.txt` by those substitutions only; it must read as the seed does: the
/// same chain, finding and context.
#[test]
fn the_seed_in_a_chinese_mail_reads_as_the_seed() {
    let seed = std::fs::read_to_string(cases_dir().join("seed.txt")).expect("seed");
    let zh = seed
        .replace("    at ", "\u{3000}\u{3000}at ")
        .replace("Caused by: ", "Caused by：")
        .replace('(', "（")
        .replace(')', "）")
        .replace(".java:", ".java：");
    assert!(
        zh.contains("\u{3000}\u{3000}at org.apache.flink"),
        "the substitution applies"
    );
    let (a, b) = (diagnose(&seed), diagnose(&zh));
    assert_eq!(b.traces.len(), 1, "one trace");
    let (a, b) = (&a.traces[0], &b.traces[0]);
    let classes = |t: &trace_doctor::diagnose::TraceDiagnosis| {
        t.trace
            .cause_chain()
            .iter()
            .map(|&i| t.trace.throwables[i].class.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(classes(a), classes(b));
    let frames = |t: &trace_doctor::diagnose::TraceDiagnosis| {
        t.trace
            .throwables
            .iter()
            .flat_map(|th| {
                th.frames
                    .iter()
                    .map(|f| (f.class.clone(), f.method.clone(), f.location.clone()))
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(frames(a), frames(b), "frames, files and line numbers");
    let rules = |t: &trace_doctor::diagnose::TraceDiagnosis| {
        t.findings
            .iter()
            .map(|f| f.rule.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(rules(a), rules(b));
    assert_eq!(
        rules(b).first().map(String::as_str),
        Some("async-wait-inflight-cme")
    );
    assert_eq!(b.context.checkpoint_id, Some(575));
    let task = b.context.task.as_ref().expect("the task is read");
    assert_eq!((task.subtask, task.parallelism), (18, 60));
    assert_eq!(
        task.operators,
        a.context.task.as_ref().expect("seed task").operators
    );
}
