//! Checks every rule file and renders its Markdown (to HTML for the page, to plain text for
//! mail replies: `build/prose_text.rs`), then bundles the rules as JSON for the library
//! (`OUT_DIR/rules.json`, `OUT_DIR/version-hints.json`). A rule that does not fit the schema
//! fails the build with the file and the reason.

use std::{env, fs, path::Path};

#[path = "src/know/rules/schema.rs"]
#[allow(dead_code)]
mod schema;

#[path = "build/prose_text.rs"]
mod prose_text;

use schema::{Prose, RuleDef, VersionKnowledge};

fn render(prose: &mut Prose) {
    let parser = pulldown_cmark::Parser::new(&prose.md);
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, parser);
    prose.html = html;
    prose.text = prose_text::to_text(&prose.md);
}

fn main() {
    println!("cargo:rerun-if-changed=rules");
    println!("cargo:rerun-if-changed=knowledge");
    println!("cargo:rerun-if-changed=build");
    let out_dir = env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    let mut dirs: Vec<_> = fs::read_dir("rules")
        .expect("rules/ is readable")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.join("rule.toml").is_file())
        .collect();
    dirs.sort();
    let mut rules = Vec::new();
    let mut examples = String::from(
        "/// Each rule's example fixture: `(rule id, text)`, in rule-id order.\n\
         pub static EXAMPLES: &[(&str, &str)] = &[\n",
    );
    for dir in dirs {
        let path = dir.join("rule.toml");
        let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let mut rule: RuleDef =
            toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let folder = dir.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        assert_eq!(
            rule.id,
            folder,
            "{}: id must equal the folder name",
            path.display()
        );
        assert!(
            ["error", "warning", "info"].contains(&rule.severity.as_str()),
            "{}: severity must be error, warning or info",
            path.display()
        );
        assert!(
            ["flink", "jvm"].contains(&rule.platform.as_str()),
            "{}: platform must be flink or jvm",
            path.display()
        );
        let version = |v: &Option<String>, key: &str| -> Option<(u32, u32, u32)> {
            let v = v.as_deref()?;
            let parts: Vec<Option<u32>> = v.split('.').map(|p| p.parse().ok()).collect();
            match parts[..] {
                [Some(a), Some(b)] => Some((a, b, 0)),
                [Some(a), Some(b), Some(c)] => Some((a, b, c)),
                _ => panic!(
                    "{}: {key} = {v:?} must be a version like 1.13 or 1.13.2",
                    path.display()
                ),
            }
        };
        let since = version(&rule.since, "since");
        for f in &rule.fixed_in {
            let fixed = version(&Some(f.clone()), "fixed_in");
            assert!(
                since.is_none() || since < fixed,
                "{}: since must be older than every fixed_in",
                path.display()
            );
        }
        let mut fixtures: Vec<String> = fs::read_dir(&dir)
            .expect("rule folder is readable")
            .filter_map(Result::ok)
            .filter_map(|e| e.file_name().into_string().ok())
            .filter(|n| n.starts_with("match-"))
            .collect();
        fixtures.sort();
        // A rule without a `match-*` fixture builds (so a rule can be written before its
        // fixtures) with an empty example; `tests/rules.rs` fails on it.
        let example = match &rule.example {
            Some(name) => {
                assert!(
                    fixtures.contains(name),
                    "{}: example {name:?} is not a match-* fixture of the rule",
                    path.display()
                );
                Some(name.clone())
            }
            None => fixtures.first().cloned(),
        };
        match &example {
            Some(name) => {
                let p = fs::canonicalize(dir.join(name)).expect("example is readable");
                examples.push_str(&format!("    ({:?}, include_str!({:?})),\n", rule.id, p));
            }
            None => examples.push_str(&format!("    ({:?}, \"\"),\n", rule.id)),
        }
        rule.example = example;
        if let Some(d) = &rule.diagram {
            let columns = d.lanes.first().map_or(0, |l| l.steps.len());
            assert!(
                columns > 0 && d.lanes.iter().all(|l| l.steps.len() == columns),
                "{}: every lane of the diagram needs the same, non-zero number of steps",
                path.display()
            );
            assert!(
                d.lanes.iter().all(|l| l
                    .throws_at
                    .is_none_or(|c| c < columns && !l.steps[c].is_empty())),
                "{}: throws_at must name a non-empty step of its lane",
                path.display()
            );
        }
        render(&mut rule.summary);
        let variant_conditions = rule
            .variants
            .iter_mut()
            .flat_map(|v| v.conditions.iter_mut());
        for c in rule.conditions.iter_mut().chain(variant_conditions) {
            if let schema::Condition::Sequence { steps, .. } = c {
                for step in steps.iter_mut() {
                    if let Some(e) = &mut step.explain {
                        render(e);
                    }
                }
            }
        }
        render(&mut rule.explanation.why);
        for s in &mut rule.explanation.sections {
            render(&mut s.body);
        }
        for f in rule
            .explanation
            .fixes
            .iter_mut()
            .chain(&mut rule.explanation.not_fixes)
        {
            render(f);
        }
        if let Some(f) = &mut rule.explanation.false_alarms {
            render(f);
        }
        rules.push(rule);
    }
    examples.push_str("];\n");
    fs::write(Path::new(&out_dir).join("examples.rs"), examples).expect("OUT_DIR is writable");
    let json = serde_json::to_string(&rules).expect("rules serialise");
    fs::write(Path::new(&out_dir).join("rules.json"), json).expect("OUT_DIR is writable");

    let hints_path = "knowledge/version-hints.toml";
    let text = fs::read_to_string(hints_path).expect("knowledge/version-hints.toml is readable");
    let hints: VersionKnowledge =
        toml::from_str(&text).unwrap_or_else(|e| panic!("{hints_path}: {e}"));
    let json = serde_json::to_string(&hints).expect("hints serialise");
    fs::write(Path::new(&out_dir).join("version-hints.json"), json).expect("OUT_DIR is writable");
}
