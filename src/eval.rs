//! Scoring the product against a corpus of real traces (`tests/corpus/`, its README gives the
//! format): per case, whether the root cause was read right, whether the expected finding (a
//! rule, or the no-rule answer naming the component that threw) came first, is present or is
//! missing, and, on the controls (traces from other software), whether any Flink finding
//! appeared. `trace-doctor eval <dir>` prints it; `tests/corpus.rs` holds the floor.
//!
//! The expectations are written from each thread's conclusion, never from what the tool says.

use crate::diagnose::{Diagnosis, TraceDiagnosis};
use crate::rules;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// What the product must say about a case (`expect` in the case's JSON).
#[derive(Clone, Debug, Deserialize, Serialize, PartialEq, Eq)]
#[serde(tag = "finding", rename_all = "kebab-case")]
pub enum Expect {
    /// A rule covers the thread's conclusion: it must be the first finding. With `component`,
    /// the thread blames that project's class (a connector holding a non-serializable field),
    /// and the finding must name it too (its culprit, [`crate::matcher::Finding::culprit`]).
    Rule {
        /// The rule id.
        rule: String,
        /// A component id the finding must blame, where the thread blames one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        component: Option<String>,
    },
    /// No rule covers it: the no-rule answer must name this component (and this phase, where
    /// given).
    Component {
        /// A component id (`tests/corpus/README.md`), or `other:<package prefix>`.
        component: String,
        /// A phase id, where the thread makes it clear.
        #[serde(default)]
        phase: Option<String>,
    },
    /// A trace from other software: no Flink finding may appear.
    NotFlink,
    /// The thread reached no conclusion: only the root cause is scored.
    Unknown,
}

/// A case's metadata (`<slug>.json`).
#[derive(Clone, Debug, Deserialize, Serialize)]
pub struct CaseMeta {
    /// Where the text was taken from.
    pub source: String,
    /// `github-issue`, `jira`, `mailing-list`, …
    #[serde(default)]
    pub source_kind: Option<String>,
    /// The thread's title.
    #[serde(default)]
    pub title: Option<String>,
    /// The Flink release the thread names, when known.
    #[serde(default)]
    pub flink_version: Option<String>,
    /// The innermost throwable in the text as posted, as the text writes it; `None` when the
    /// text holds no throwable line.
    #[serde(default)]
    pub root_cause: Option<String>,
    /// The thread's conclusion, in our words.
    #[serde(default)]
    pub conclusion: Option<String>,
    /// What the product must say.
    pub expect: Expect,
    /// What was cut or replaced.
    #[serde(default)]
    pub notes: Option<String>,
}

/// One case as read from disk.
#[derive(Clone, Debug)]
pub struct Case {
    /// The kind: the case's folder under the corpus root (`checkpoint`, `control`, …).
    pub kind: String,
    /// The slug (file name without extension).
    pub slug: String,
    /// The text.
    pub text: String,
    /// The metadata.
    pub meta: CaseMeta,
}

/// Where the expected finding stood.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Placement {
    /// It was the first finding of the trace the page shows first.
    First,
    /// It appeared, but not first.
    Present,
    /// It did not appear.
    Missing,
}

/// The score of one case.
#[derive(Clone, Debug, Serialize)]
pub struct Outcome {
    /// The case's kind.
    pub kind: String,
    /// The case's slug.
    pub slug: String,
    /// The expectation.
    pub expect: Expect,
    /// `Some(right)` when the case names a root cause.
    pub root_cause_right: Option<bool>,
    /// The root cause the product read (of the trace it shows first), as a class name.
    pub root_cause_read: Option<String>,
    /// For `rule` and `component` expectations: where the expected finding stood.
    pub finding: Option<Placement>,
    /// What the product put first: a rule id, `component:<id>`, or `none`.
    pub first: String,
    /// For controls: a Flink finding appeared (a `platform = "flink"` rule, or a no-rule answer
    /// that calls the trace Flink's).
    pub flink_finding_on_control: Option<bool>,
}

/// The totals over a set of outcomes.
#[derive(Clone, Debug, Default, Serialize, PartialEq, Eq)]
pub struct Totals {
    /// Cases.
    pub cases: usize,
    /// Cases naming a root cause.
    pub with_root_cause: usize,
    /// Of those, read right.
    pub root_cause_right: usize,
    /// Flink cases whose thread reached a conclusion (`rule` or `component`).
    pub with_conclusion: usize,
    /// Of those, the expected finding first.
    pub finding_first: usize,
    /// Of those, the expected finding anywhere.
    pub finding_present: usize,
    /// Controls.
    pub controls: usize,
    /// Controls with a Flink finding (must be 0).
    pub controls_with_flink_finding: usize,
}

impl Totals {
    fn add(&mut self, o: &Outcome) {
        self.cases += 1;
        if let Some(right) = o.root_cause_right {
            self.with_root_cause += 1;
            self.root_cause_right += usize::from(right);
        }
        if let Some(p) = o.finding {
            self.with_conclusion += 1;
            self.finding_first += usize::from(p == Placement::First);
            self.finding_present += usize::from(p != Placement::Missing);
        }
        if let Some(bad) = o.flink_finding_on_control {
            self.controls += 1;
            self.controls_with_flink_finding += usize::from(bad);
        }
    }

    /// One line: `root cause 57/78 (73%) · finding first 7/54 (13%), present 9/54 · controls
    /// with a Flink finding 0/36`.
    pub fn line(&self) -> String {
        format!(
            "root cause {}/{} ({}) · finding first {}/{} ({}), present {}/{} · controls with a Flink finding {}/{}",
            self.root_cause_right,
            self.with_root_cause,
            percent(self.root_cause_right, self.with_root_cause),
            self.finding_first,
            self.with_conclusion,
            percent(self.finding_first, self.with_conclusion),
            self.finding_present,
            self.with_conclusion,
            self.controls_with_flink_finding,
            self.controls,
        )
    }
}

fn percent(n: usize, of: usize) -> String {
    (n * 100)
        .checked_div(of)
        .map_or_else(|| "–".to_owned(), |p| format!("{p}%"))
}

/// The result of a whole run.
#[derive(Clone, Debug, Serialize)]
pub struct Evaluation {
    /// Per case, in path order.
    pub outcomes: Vec<Outcome>,
    /// Per kind.
    pub by_kind: BTreeMap<String, Totals>,
    /// Over all cases.
    pub totals: Totals,
}

/// Reads every `<kind>/<slug>.txt` with its `<slug>.json` under `root` (one level of folders;
/// files directly under `root` get the kind `-`).
///
/// # Errors
/// A folder that cannot be read, a `.txt` without its `.json`, or metadata that is not of the
/// documented shape: the message names the file.
pub fn load_dir(root: &Path) -> Result<Vec<Case>, String> {
    let mut files: Vec<(String, PathBuf)> = Vec::new();
    let read = |p: &Path| std::fs::read_dir(p).map_err(|e| format!("{}: {e}", p.display()));
    for entry in read(root)? {
        let path = entry.map_err(|e| e.to_string())?.path();
        if path.is_dir() {
            let kind = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            for inner in read(&path)? {
                let p = inner.map_err(|e| e.to_string())?.path();
                files.push((kind.clone(), p));
            }
        } else {
            files.push(("-".to_owned(), path));
        }
    }
    files.sort();
    let mut cases = Vec::new();
    for (kind, path) in files {
        let hidden = path
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with('.'));
        if hidden || path.extension().and_then(|e| e.to_str()) != Some("txt") {
            continue;
        }
        let meta_path = path.with_extension("json");
        let meta_text = std::fs::read_to_string(&meta_path)
            .map_err(|e| format!("{}: {e} (each case needs its .json)", meta_path.display()))?;
        let meta: CaseMeta = serde_json::from_str(&meta_text)
            .map_err(|e| format!("{}: {e}", meta_path.display()))?;
        let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        cases.push(Case {
            kind,
            slug: path
                .file_stem()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
            text: crate::decode::bytes_to_text(&bytes),
            meta,
        });
    }
    Ok(cases)
}

/// Diagnoses every case and scores it.
pub fn evaluate(cases: &[Case]) -> Evaluation {
    let outcomes: Vec<Outcome> = cases
        .iter()
        .map(|c| score(c, &crate::diagnose(&c.text)))
        .collect();
    let mut by_kind: BTreeMap<String, Totals> = BTreeMap::new();
    let mut totals = Totals::default();
    for o in &outcomes {
        by_kind.entry(o.kind.clone()).or_default().add(o);
        totals.add(o);
    }
    Evaluation {
        outcomes,
        by_kind,
        totals,
    }
}

/// True when `read` (a class the product read, as it holds it) names the class the case
/// expects, `expected` as the text writes it: equal, or equal simple names where either side
/// was written without its package.
pub fn same_class(read: &str, expected: &str) -> bool {
    let expected = expected.trim().trim_end_matches(':');
    let simple = |s: &str| s.rsplit('.').next().unwrap_or(s).to_owned();
    read == expected
        || ((!read.contains('.') || !expected.contains('.')) && simple(read) == simple(expected))
}

fn root_class(d: &TraceDiagnosis) -> Vec<&str> {
    let t = &d.trace.throwables[d.root_cause];
    let mut names = vec![t.class.as_str()];
    if let Some(p) = &t.printed_as {
        names.push(p);
    }
    names
}

/// The no-rule answer's component id for a trace, when it gives one.
fn answer_component(d: &TraceDiagnosis) -> Option<&str> {
    d.answer.as_ref().map(|a| a.component.id.as_str())
}

/// Whether the no-rule answer's `component` is the `expected` one: the same id, or, for an
/// expectation `other:<package>` (a project without an id of its own in the corpus), a
/// component whose package is that package or inside it.
fn names_component(expected: &str, component: &crate::component::Component) -> bool {
    if component.id == expected {
        return true;
    }
    expected.strip_prefix("other:").is_some_and(|package| {
        let own = component.package.trim_end_matches('.');
        !own.is_empty() && (own == package || own.starts_with(&format!("{package}.")))
    })
}

/// Scores one case on its diagnosis.
pub fn score(case: &Case, diagnosis: &Diagnosis) -> Outcome {
    let order = diagnosis.order_of_interest();
    let lead = order.first().map(|&i| &diagnosis.traces[i]);
    let root_cause_right = case.meta.root_cause.as_deref().map(|expected| {
        // The trace shown first, or any trace of a text holding several.
        diagnosis
            .traces
            .iter()
            .any(|d| root_class(d).iter().any(|c| same_class(c, expected)))
    });
    let first = match lead {
        Some(d) => match (d.findings.first(), answer_component(d)) {
            (Some(f), _) => f.rule.clone(),
            (None, Some(c)) => format!("component:{c}"),
            (None, None) => "none".to_owned(),
        },
        None => "none".to_owned(),
    };
    let finding = match &case.meta.expect {
        Expect::Rule { rule, component } => {
            let blames = |f: &crate::matcher::Finding| {
                component.as_deref().is_none_or(|c| {
                    f.culprit
                        .as_ref()
                        .is_some_and(|k| names_component(c, &k.component))
                })
            };
            let lead_first = lead
                .and_then(|d| d.findings.first())
                .is_some_and(|f| f.rule == *rule && blames(f));
            Some(if lead_first {
                Placement::First
            } else if diagnosis
                .traces
                .iter()
                .any(|d| d.findings.iter().any(|f| f.rule == *rule && blames(f)))
            {
                Placement::Present
            } else {
                Placement::Missing
            })
        }
        Expect::Component { component, .. } => {
            let names = |d: &TraceDiagnosis| {
                d.answer
                    .as_ref()
                    .is_some_and(|a| names_component(component, &a.component))
            };
            let lead_names = lead.is_some_and(|d| d.findings.is_empty() && names(d));
            Some(if lead_names {
                Placement::First
            } else if diagnosis.traces.iter().any(names) {
                Placement::Present
            } else {
                Placement::Missing
            })
        }
        Expect::NotFlink | Expect::Unknown => None,
    };
    let flink_finding_on_control = (case.meta.expect == Expect::NotFlink).then(|| {
        diagnosis.traces.iter().any(|d| {
            d.findings
                .iter()
                .any(|f| rules::by_id(&f.rule).is_some_and(|r| r.def.platform == "flink"))
                || d.answer.as_ref().is_some_and(|a| a.flink)
        })
    });
    Outcome {
        kind: case.kind.clone(),
        slug: case.slug.clone(),
        expect: case.meta.expect.clone(),
        root_cause_right,
        root_cause_read: lead.map(|d| d.trace.throwables[d.root_cause].class.clone()),
        finding,
        first,
        flink_finding_on_control,
    }
}

/// The table `trace-doctor eval` prints: one row per kind, then the totals line last.
pub fn render_table(e: &Evaluation) -> String {
    let mut out = String::new();
    out.push_str(&format!(
        "{:<14} {:>5}  {:>14}  {:>14}  {:>8}  {:>9}\n",
        "kind", "cases", "root cause", "finding first", "present", "controls"
    ));
    let row = |name: &str, t: &Totals| {
        format!(
            "{:<14} {:>5}  {:>14}  {:>14}  {:>8}  {:>9}\n",
            name,
            t.cases,
            format!("{}/{}", t.root_cause_right, t.with_root_cause),
            format!("{}/{}", t.finding_first, t.with_conclusion),
            format!("{}/{}", t.finding_present, t.with_conclusion),
            if t.controls == 0 {
                "–".to_owned()
            } else {
                format!("{} bad/{}", t.controls_with_flink_finding, t.controls)
            },
        )
    };
    for (kind, t) in &e.by_kind {
        out.push_str(&row(kind, t));
    }
    out.push_str(&row("all", &e.totals));
    out.push_str(&format!("total: {}\n", e.totals.line()));
    out
}

/// One line per case that missed something: what was expected and what came first.
pub fn render_misses(e: &Evaluation) -> String {
    let mut out = String::new();
    for o in &e.outcomes {
        let mut what = Vec::new();
        if o.root_cause_right == Some(false) {
            what.push(format!(
                "root cause read as {}",
                o.root_cause_read.as_deref().unwrap_or("nothing")
            ));
        }
        match (&o.expect, o.finding) {
            (Expect::Rule { rule, .. }, Some(p)) if p != Placement::First => {
                what.push(format!("expected {rule} ({p:?}), first: {}", o.first))
            }
            (Expect::Component { component, .. }, Some(p)) if p != Placement::First => what.push(
                format!("expected component:{component} ({p:?}), first: {}", o.first),
            ),
            _ => {}
        }
        if o.flink_finding_on_control == Some(true) {
            what.push(format!("control with a Flink finding: {}", o.first));
        }
        if !what.is_empty() {
            out.push_str(&format!("{}/{}: {}\n", o.kind, o.slug, what.join("; ")));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_class_accepts_a_simple_name_on_either_side_only() {
        assert!(same_class("java.io.IOException", "java.io.IOException"));
        assert!(same_class(
            "java.util.concurrent.TimeoutException",
            "TimeoutException"
        ));
        assert!(same_class(
            "TimeoutException",
            "java.util.concurrent.TimeoutException"
        ));
        assert!(same_class("java.io.IOException", "java.io.IOException:"));
        assert!(!same_class(
            "org.apache.kafka.common.errors.TimeoutException",
            "java.util.concurrent.TimeoutException"
        ));
        assert!(!same_class("java.io.IOException", "IOError"));
    }

    #[test]
    fn expectations_read_from_the_documented_json() {
        let m: CaseMeta = serde_json::from_str(
            r#"{"source":"u","expect":{"finding":"component","component":"paimon","phase":"checkpoint-sync"}}"#,
        )
        .unwrap();
        assert_eq!(
            m.expect,
            Expect::Component {
                component: "paimon".into(),
                phase: Some("checkpoint-sync".into())
            }
        );
        let m: CaseMeta =
            serde_json::from_str(r#"{"source":"u","expect":{"finding":"not-flink"}}"#).unwrap();
        assert_eq!(m.expect, Expect::NotFlink);
    }

    fn case(text: &str, expect: Expect, root: Option<&str>) -> Case {
        Case {
            kind: "k".into(),
            slug: "s".into(),
            text: text.into(),
            meta: CaseMeta {
                source: "u".into(),
                source_kind: None,
                title: None,
                flink_version: None,
                root_cause: root.map(str::to_owned),
                conclusion: None,
                expect,
                notes: None,
            },
        }
    }

    #[test]
    fn the_flagship_scores_first_and_a_wrong_expectation_scores_missing() {
        let c = case(
            crate::FLAGSHIP_EXAMPLE,
            Expect::Rule {
                rule: "async-wait-inflight-cme".into(),
                component: None,
            },
            Some("java.util.ConcurrentModificationException"),
        );
        let o = score(&c, &crate::diagnose(&c.text));
        assert_eq!(o.finding, Some(Placement::First));
        assert_eq!(o.root_cause_right, Some(true));
        let c = case(
            crate::FLAGSHIP_EXAMPLE,
            Expect::Rule {
                rule: "jvm-heap-oom".into(),
                component: None,
            },
            Some("java.lang.OutOfMemoryError"),
        );
        let o = score(&c, &crate::diagnose(&c.text));
        assert_eq!(o.finding, Some(Placement::Missing));
        assert_eq!(o.root_cause_right, Some(false));
    }

    #[test]
    fn a_flink_rule_on_a_control_is_counted() {
        let c = case(crate::FLAGSHIP_EXAMPLE, Expect::NotFlink, None);
        let e = evaluate(&[c]);
        assert_eq!(e.totals.controls, 1);
        assert_eq!(e.totals.controls_with_flink_finding, 1);
        assert!(render_table(&e).ends_with("controls with a Flink finding 1/1\n"));
    }

    #[test]
    fn a_rule_expectation_with_a_component_needs_the_finding_to_blame_it() {
        // flink-cdc#311: the non-serializable class is Flink CDC's.
        let text = "Exception in thread \"main\" org.apache.flink.api.common.InvalidProgramException: \
            com.ververica.cdc.debezium.Validator$$Lambda$25/1712669532@12f41634 is not serializable. \
            The object probably contains or references non serializable fields.\n\
            \tat org.apache.flink.api.java.ClosureCleaner.clean(ClosureCleaner.java:164)\n";
        let scored = |component: &str| {
            let c = case(
                text,
                Expect::Rule {
                    rule: "function-not-serializable".into(),
                    component: Some(component.into()),
                },
                None,
            );
            score(&c, &crate::diagnose(&c.text)).finding
        };
        assert_eq!(scored("flink-cdc"), Some(Placement::First));
        assert_eq!(scored("pulsar"), Some(Placement::Missing));
    }
}
