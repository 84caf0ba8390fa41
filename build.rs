//! Checks every rule file and renders its Markdown, then bundles the rules as JSON for the
//! library (`OUT_DIR/rules.json`, `OUT_DIR/version-hints.json`). A rule that does not fit the
//! schema fails the build with the file and the reason.

use std::{env, fs, path::Path};

#[path = "src/rules/schema.rs"]
#[allow(dead_code)]
mod schema;

use schema::{Prose, RuleDef, VersionKnowledge};

fn render(prose: &mut Prose) {
    let parser = pulldown_cmark::Parser::new(&prose.md);
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, parser);
    prose.html = html;
}

fn main() {
    println!("cargo:rerun-if-changed=rules");
    println!("cargo:rerun-if-changed=knowledge");
    let out_dir = env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    let mut dirs: Vec<_> = fs::read_dir("rules")
        .expect("rules/ is readable")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.join("rule.toml").is_file())
        .collect();
    dirs.sort();
    let mut rules = Vec::new();
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
        render(&mut rule.summary);
        for c in &mut rule.conditions {
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
    let json = serde_json::to_string(&rules).expect("rules serialise");
    fs::write(Path::new(&out_dir).join("rules.json"), json).expect("OUT_DIR is writable");

    let hints_path = "knowledge/version-hints.toml";
    let text = fs::read_to_string(hints_path).expect("knowledge/version-hints.toml is readable");
    let hints: VersionKnowledge =
        toml::from_str(&text).unwrap_or_else(|e| panic!("{hints_path}: {e}"));
    let json = serde_json::to_string(&hints).expect("hints serialise");
    fs::write(Path::new(&out_dir).join("version-hints.json"), json).expect("OUT_DIR is writable");
}
