//! The real-world corpus (`tests/corpus/`, see its README) holds the floor recorded in
//! `tests/corpus/floor.json`: the product may not read fewer root causes right, put the
//! expected finding first on fewer traces, or give a Flink finding on any control. Raise the
//! floor as the numbers improve (`trace-doctor eval tests/corpus` prints them); never lower it
//! to pass.

use std::path::Path;
use trace_doctor::eval::{self, Expect};

#[derive(serde::Deserialize)]
struct Floor {
    root_cause_right: usize,
    finding_first: usize,
    finding_present: usize,
    controls_with_flink_finding_max: usize,
}

fn corpus() -> Vec<eval::Case> {
    eval::load_dir(Path::new("tests/corpus")).expect("the corpus reads")
}

#[test]
fn the_corpus_holds_its_floor() {
    let floor: Floor = serde_json::from_str(
        &std::fs::read_to_string("tests/corpus/floor.json").expect("floor.json"),
    )
    .expect("floor.json is {root_cause_right, finding_first, finding_present, controls_with_flink_finding_max}");
    let e = eval::evaluate(&corpus());
    let t = &e.totals;
    println!("{}", eval::render_table(&e));
    assert!(
        t.root_cause_right >= floor.root_cause_right,
        "root cause right on {} cases, floor {}\n{}",
        t.root_cause_right,
        floor.root_cause_right,
        eval::render_misses(&e)
    );
    assert!(
        t.finding_first >= floor.finding_first,
        "expected finding first on {} cases, floor {}\n{}",
        t.finding_first,
        floor.finding_first,
        eval::render_misses(&e)
    );
    assert!(
        t.finding_present >= floor.finding_present,
        "expected finding present on {} cases, floor {}",
        t.finding_present,
        floor.finding_present
    );
    assert!(
        t.controls_with_flink_finding <= floor.controls_with_flink_finding_max,
        "{} controls got a Flink finding\n{}",
        t.controls_with_flink_finding,
        eval::render_misses(&e)
    );
}

#[test]
fn the_corpus_is_what_the_issue_asks_for() {
    let cases = corpus();
    let controls = cases
        .iter()
        .filter(|c| c.meta.expect == Expect::NotFlink)
        .count();
    assert!(cases.len() >= 150, "{} cases", cases.len());
    assert!(controls >= 30, "{controls} controls");
    for c in &cases {
        assert!(
            c.meta.source.starts_with("https://") || c.meta.source.starts_with("http://"),
            "{}/{}: a source URL",
            c.kind,
            c.slug
        );
        if let Expect::Rule { rule, .. } = &c.meta.expect {
            assert!(
                trace_doctor::rules::by_id(rule).is_some(),
                "{}/{}: no rule {rule}",
                c.kind,
                c.slug
            );
        }
        if let Some(root) = &c.meta.root_cause {
            let simple = root.rsplit('.').next().unwrap_or(root);
            assert!(
                c.text.contains(simple),
                "{}/{}: the root cause {root} is not in the text",
                c.kind,
                c.slug
            );
        }
    }
}

/// A trace from other software gets no Flink talk, not even in the no-rule answer's words
/// (tester round 1: "check its version against your Flink version" on Spark traces).
#[test]
fn controls_get_no_flink_words() {
    for c in corpus()
        .iter()
        .filter(|c| c.meta.expect == Expect::NotFlink)
    {
        let d = trace_doctor::diagnose(&c.text);
        for t in &d.traces {
            if let Some(a) = &t.answer {
                for s in trace_doctor::answer::sentences(a, &t.trace) {
                    assert!(
                        !s.contains("Flink"),
                        "{}/{}: the answer says \"{s}\"",
                        c.kind,
                        c.slug
                    );
                }
            }
        }
    }
}
