//! The trace lab's committed outputs (`lab/out/<scenario>/<release>/`, written by
//! `scripts/lab.sh` from runs on real Flink releases; see `lab/README.md`) checked against the
//! catalogue, without running Flink:
//!
//! - a scenario that expects its rule (`expect = "match"`) has that rule leading on the client's
//!   output (`client.txt`) and firing on the JobManager/TaskManager log (`log.txt`, when it holds
//!   an exception: a failure on the client leaves none there), on every release it ran on;
//! - a scenario that expects anything else (a look-alike, a run that must not fail) never gets
//!   its rule;
//! - on every output, the release that printed it is inside the Flink version range inferred
//!   from the text (an unknown range contains every release).
//!
//! The matrix of scenario × release with the finding that led is printed (`--nocapture`).

use std::path::{Path, PathBuf};
use trace_doctor::diagnose;

fn lab_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("lab")
}

/// A scenario's `key` (`rule`, `expect`) on `release`: the value of the first `<key>_by_release`
/// pattern that matches it (`"2.*"`: a trailing `*` matches any rest, as `fnmatch` does in
/// `lab/tools/labtool.py` for these patterns), else `key` itself (`expect`: `match`, `no-match`,
/// `no-failure`).
fn by_release(def: &toml::Table, key: &str, release: &str) -> String {
    let by_release = def
        .get(&format!("{key}_by_release"))
        .and_then(|v| v.as_table());
    by_release
        .into_iter()
        .flatten()
        .find(|(pattern, _)| match pattern.strip_suffix('*') {
            Some(prefix) => release.starts_with(prefix),
            None => release == pattern.as_str(),
        })
        .and_then(|(_, v)| v.as_str())
        .or_else(|| def.get(key).and_then(|v| v.as_str()))
        .unwrap_or_else(|| panic!("scenario.toml has `{key}`"))
        .to_owned()
}

/// `1.13.6` → `[1, 13, 6]`; a missing part is `fill` (`1.18` as a lower bound is `1.18.0`, as an
/// upper bound every 1.18 release).
fn parts(v: &str, fill: u32) -> [u32; 3] {
    let mut out = [fill; 3];
    for (i, p) in v.split('.').take(3).enumerate() {
        let digits: String = p.chars().take_while(char::is_ascii_digit).collect();
        match digits.parse() {
            Ok(n) => out[i] = n,
            Err(_) => break,
        }
    }
    out
}

struct Run {
    scenario: String,
    release: String,
    rule: String,
    expect: String,
    dir: PathBuf,
}

fn runs() -> Vec<Run> {
    let mut out = Vec::new();
    let mut scenarios: Vec<_> = std::fs::read_dir(lab_dir().join("out"))
        .expect("lab/out exists")
        .map(|e| e.expect("readable").path())
        .filter(|p| p.is_dir())
        .collect();
    scenarios.sort();
    for s in scenarios {
        let scenario = s.file_name().unwrap().to_string_lossy().into_owned();
        let def = std::fs::read_to_string(
            lab_dir()
                .join("scenarios")
                .join(&scenario)
                .join("scenario.toml"),
        )
        .unwrap_or_else(|_| panic!("lab/out/{scenario} has a scenario in lab/scenarios"));
        let def: toml::Table = def
            .parse()
            .unwrap_or_else(|e| panic!("lab/scenarios/{scenario}/scenario.toml: {e}"));
        let mut releases: Vec<_> = std::fs::read_dir(&s)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.join("provenance.toml").is_file())
            .collect();
        releases.sort();
        for dir in releases {
            let release = dir.file_name().unwrap().to_string_lossy().into_owned();
            out.push(Run {
                scenario: scenario.clone(),
                expect: by_release(&def, "expect", &release),
                rule: by_release(&def, "rule", &release),
                release,
                dir,
            });
        }
    }
    out
}

#[test]
fn lab_outputs_get_their_rule_and_their_release_is_inside_the_inferred_range() {
    let runs = runs();
    assert!(runs.len() >= 80, "the lab's outputs are committed");
    let mut failures = Vec::new();
    let mut matrix = Vec::new();
    let mut releases = std::collections::BTreeSet::new();
    // Outputs read; the release inferred exactly (named by a jar, or the only release left by
    // the lines and hints); else its minor line (min and max inside it).
    let (mut outputs, mut exact, mut by_jar, mut minor) = (0, 0, 0, 0);
    for run in &runs {
        releases.insert(run.release.clone());
        let provenance: toml::Table = std::fs::read_to_string(run.dir.join("provenance.toml"))
            .unwrap()
            .parse()
            .unwrap_or_else(|e| panic!("{}/provenance.toml: {e}", run.dir.display()));
        assert_eq!(
            provenance.get("release").and_then(|v| v.as_str()),
            Some(run.release.as_str()),
            "{}: the folder names the release that ran",
            run.dir.display()
        );
        let mut led = Vec::new();
        for file in ["client.txt", "log.txt"] {
            let path = run.dir.join(file);
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            let d = diagnose(&text);
            let order = d.order_of_interest();
            let first = order
                .first()
                .and_then(|&i| d.traces[i].findings.first())
                .map_or("-".to_owned(), |f| f.rule.clone());
            let fired = d
                .traces
                .iter()
                .any(|t| t.findings.iter().any(|f| f.rule == run.rule));
            let at = format!("{}/{}/{file}", run.scenario, run.release);
            match (run.expect.as_str(), file) {
                ("match", "client.txt") if first != run.rule => {
                    failures.push(format!("{at}: {} should lead, {first} did", run.rule))
                }
                // A failure on the client (the job never ran, or the client's call failed) leaves
                // the log without an exception: only lines read for their message, if any.
                ("match", _)
                    if !fired
                        && d.traces
                            .iter()
                            .any(|t| t.trace.throwables.iter().any(|th| !th.class.is_empty())) =>
                {
                    failures.push(format!("{at}: {} should fire", run.rule))
                }
                (e, _) if e != "match" && fired => {
                    failures.push(format!("{at}: {} fired on a look-alike", run.rule))
                }
                _ => {}
            }
            let truth = parts(&run.release, 0);
            outputs += usize::from(!d.traces.is_empty());
            let lead = order.first().map(|&i| &d.traces[i].flink_version);
            let release = Some(run.release.as_str());
            if lead.is_some_and(|v| v.exact.as_deref() == release) {
                exact += 1;
                by_jar += 1;
            } else if lead
                .is_some_and(|v| v.min.as_deref() == release && v.max.as_deref() == release)
            {
                exact += 1;
            } else if lead.is_some_and(|v| {
                let (lo, hi) = (v.min.as_deref(), v.max.as_deref());
                lo.zip(hi).is_some_and(|(lo, hi)| {
                    parts(lo, 0)[..2] == truth[..2] && parts(hi, 0)[..2] == truth[..2]
                })
            }) {
                minor += 1;
            }
            for t in &d.traces {
                let v = &t.flink_version;
                let lo = v.min.as_deref().or(v.exact.as_deref()).map(|m| parts(m, 0));
                let hi = v
                    .max
                    .as_deref()
                    .or(v.exact.as_deref())
                    .map(|m| parts(m, u32::MAX));
                if lo.is_some_and(|lo| truth < lo) || hi.is_some_and(|hi| truth > hi) {
                    failures.push(format!(
                        "{at}: release {} outside the inferred range {}",
                        run.release, v.summary
                    ));
                }
            }
            led.push(first);
        }
        matrix.push(format!(
            "{:<44} {:<7} {:<9} {}",
            run.scenario,
            run.release,
            run.expect,
            led.join(" | ")
        ));
    }
    println!("scenario × release: the finding that led on client.txt | log.txt");
    for row in &matrix {
        println!("{row}");
    }
    println!(
        "version inferred on the leading trace: exact release {exact}/{outputs} ({by_jar} named by a jar, {} by the lines), else its minor line {minor}/{outputs}",
        exact - by_jar
    );
    assert!(
        releases.len() >= 5,
        "lab traces from at least 5 releases: {releases:?}"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
