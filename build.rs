//! Checks every rule file and renders its Markdown (to HTML for the page, to plain text for
//! mail replies: `build/prose_text.rs`), then bundles the rules as JSON for the library
//! (`OUT_DIR/rules.json`, `OUT_DIR/version-hints.json`; `OUT_DIR/rules-match.json` is the rules
//! without their prose, for the page, which loads a rule's prose when it shows a finding). A rule that does not fit the schema
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

fn render_explanation(e: &mut schema::Explanation) {
    render(&mut e.why);
    for s in &mut e.sections {
        render(&mut s.body);
    }
    for f in e.fixes.iter_mut().chain(&mut e.not_fixes) {
        render(f);
    }
    if let Some(f) = &mut e.false_alarms {
        render(f);
    }
}

/// Every role label and every step `explain` a rule writes (conditions and variants).
fn roles_and_steps(rule: &RuleDef) -> (Vec<String>, Vec<String>) {
    let mut roles = Vec::new();
    let mut steps = Vec::new();
    let variant_conditions = rule.variants.iter().flat_map(|v| v.conditions.iter());
    for c in rule.conditions.iter().chain(variant_conditions) {
        match c {
            schema::Condition::Throwable { role, .. }
            | schema::Condition::Frame { role, .. }
            | schema::Condition::UserFrame { role, .. } => roles.extend(role.clone()),
            schema::Condition::Sequence { steps: list, .. } => {
                for s in list {
                    roles.extend(s.role.clone());
                    if s.explain.is_some() {
                        steps.push(s.frame.clone());
                    }
                }
            }
            schema::Condition::Absent { .. } => {}
        }
    }
    (roles, steps)
}

/// A translation gives the same parts as the rule: every role and step explanation, as many
/// sections, fixes and things that do not help, a confirm question and false alarms when the
/// rule has them, and a diagram of the same shape.
fn check_translation(rule: &RuleDef, zh: &schema::Translation, path: &Path) {
    let fail = |what: &str| panic!("{}: {what}", path.display());
    let (roles, steps) = roles_and_steps(rule);
    for r in &roles {
        if !zh.roles.contains_key(r) {
            fail(&format!("role {r:?} has no translation in [roles]"));
        }
    }
    for k in zh.roles.keys() {
        if !roles.contains(k) {
            fail(&format!("[roles] key {k:?} is no role of the rule"));
        }
    }
    for s in &steps {
        if !zh.steps.contains_key(s) {
            fail(&format!(
                "the explain of step {s:?} has no translation in [steps]"
            ));
        }
    }
    for k in zh.steps.keys() {
        if !steps.contains(k) {
            fail(&format!(
                "[steps] key {k:?} is no step of the rule with an explain"
            ));
        }
    }
    let (e, z) = (&rule.explanation, &zh.explanation);
    if e.sections.len() != z.sections.len()
        || e.fixes.len() != z.fixes.len()
        || e.not_fixes.len() != z.not_fixes.len()
        || e.false_alarms.is_some() != z.false_alarms.is_some()
    {
        fail("the explanation needs as many sections, fixes and not_fixes as rule.toml, and false_alarms when it has them");
    }
    if rule.confirm.is_some() != zh.confirm.is_some() {
        fail("confirm must be translated when rule.toml has one (and only then)");
    }
    match (&rule.diagram, &zh.diagram) {
        (Some(d), Some(t)) => {
            let shape = |d: &schema::Diagram| -> Vec<(usize, Option<usize>)> {
                d.lanes
                    .iter()
                    .map(|l| (l.steps.len(), l.throws_at))
                    .collect()
            };
            if shape(d) != shape(t) {
                fail("the diagram needs the same lanes, steps and throws_at as rule.toml");
            }
        }
        (None, Some(_)) => fail("rule.toml has no diagram to translate"),
        _ => {}
    }
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
        assert!(
            rule.zh.is_none(),
            "{}: the Chinese prose goes in rule.zh.toml, not in rule.toml",
            path.display()
        );
        let zh_path = dir.join("rule.zh.toml");
        if zh_path.is_file() {
            let text = fs::read_to_string(&zh_path)
                .unwrap_or_else(|e| panic!("{}: {e}", zh_path.display()));
            let mut zh: schema::Translation =
                toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", zh_path.display()));
            check_translation(&rule, &zh, &zh_path);
            render_explanation(&mut zh.explanation);
            render(&mut zh.summary);
            for p in zh.steps.values_mut() {
                render(p);
            }
            rule.zh = Some(Box::new(zh));
        }
        rules.push(rule);
    }
    examples.push_str("];\n");
    examples.push_str(&format!(
        "/// The number of rules bundled.\npub const COUNT: usize = {};\n",
        rules.len()
    ));
    fs::write(Path::new(&out_dir).join("examples.rs"), examples).expect("OUT_DIR is writable");
    // The page's build (`lazy-prose`) carries no examples: each is in its rule's prose files
    // (src/know/rules/files.rs), fetched when a rule page shows it (issue 13: 38 KB gzipped).
    fs::write(
        Path::new(&out_dir).join("examples-lazy.rs"),
        format!(
            "/// The number of rules bundled.\npub const COUNT: usize = {};\n",
            rules.len()
        ),
    )
    .expect("OUT_DIR is writable");
    let json = serde_json::to_string(&rules).expect("rules serialise");
    fs::write(Path::new(&out_dir).join("rules.json"), json).expect("OUT_DIR is writable");
    // The page's rules: what matching needs, without the prose (loaded per rule, issue 13).
    let bare: Vec<RuleDef> = rules.iter().map(RuleDef::without_prose).collect();
    let json = serde_json::to_string(&bare).expect("rules serialise");
    fs::write(Path::new(&out_dir).join("rules-match.json"), json).expect("OUT_DIR is writable");

    let hints_path = "knowledge/version-hints.toml";
    let text = fs::read_to_string(hints_path).expect("knowledge/version-hints.toml is readable");
    let mut hints: VersionKnowledge =
        toml::from_str(&text).unwrap_or_else(|e| panic!("{hints_path}: {e}"));
    // A line hint's source stays in the TOML (each must give one) and is left out of what the
    // crate bundles, which never shows it: about half of the 311 KB of JSON the page parsed at
    // its first diagnosis (issue 13).
    for l in &mut hints.line {
        assert!(
            !l.source.trim().is_empty(),
            "{hints_path}: the [[line]] of {} at {}:{} gives no source",
            l.frame,
            l.file,
            l.line
        );
        l.source.clear();
    }
    let json = serde_json::to_string(&hints).expect("hints serialise");
    fs::write(Path::new(&out_dir).join("version-hints.json"), json).expect("OUT_DIR is writable");
}
