//! Checks every rule file and renders its Markdown (to HTML for the page, to plain text for
//! mail replies: `build/prose_text.rs`), then bundles each rule as JSON for the library
//! (`OUT_DIR/rules-each.rs`; `OUT_DIR/rules-each-match.rs` holds the rules without their prose,
//! for the page, which loads a rule's prose when it shows a finding) and the version knowledge
//! (`OUT_DIR/version-knowledge.rs`). A rule that does not fit the schema fails the build with
//! the file and the reason.

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
    // The page's rules: what matching needs, without the prose (loaded per rule, issue 13).
    let bare: Vec<RuleDef> = rules.iter().map(RuleDef::without_prose).collect();
    fs::write(Path::new(&out_dir).join("rules-each.rs"), each_rule(&rules))
        .expect("OUT_DIR is writable");
    fs::write(
        Path::new(&out_dir).join("rules-each-match.rs"),
        each_rule(&bare),
    )
    .expect("OUT_DIR is writable");

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
    fs::write(
        Path::new(&out_dir).join("version-knowledge.rs"),
        version_knowledge(&hints),
    )
    .expect("OUT_DIR is writable");
}

/// The version knowledge as Rust statics (`OUT_DIR/version-knowledge.rs`, included by
/// `src/know/version.rs`): what the crate built from the JSON at its first diagnosis, built
/// here (issue 13: 45–100 ms of the page's first diagnosis went to parsing and indexing it).
/// `RELEASES`: every known release (the `[[release]]` entries, the checked ones and those the
/// line entries name), sorted, with its date when known; `HINTS`: the `[[hint]]` entries;
/// `GROUPS`: the line entries of one frame and callee, with the releases whose line is known for
/// them (with a callee, every checked release too); `LINES`: the `[[line]]` entries sorted by
/// frame (in file order within one), their releases as indices into `RELEASES`; `CLASSES`: the
/// classes of those frames, sorted.
fn version_knowledge(k: &VersionKnowledge) -> String {
    use schema::version_triple as version;
    use std::fmt::Write;
    let v = |(a, b, c): (u32, u32, u32)| format!("Version({a}, {b}, {c})");
    let opt =
        |o: Option<(u32, u32, u32)>| o.map_or("None".to_owned(), |x| format!("Some({})", v(x)));
    let mut checked: Vec<(u32, u32, u32)> = k.checked.iter().filter_map(|s| version(s)).collect();
    checked.sort();
    checked.dedup();
    let mut releases: Vec<((u32, u32, u32), Option<String>)> = k
        .release
        .iter()
        .filter_map(|r| Some((version(&r.version)?, r.date.clone())))
        .collect();
    let named = checked.iter().copied().chain(
        k.line
            .iter()
            .flat_map(|l| l.versions.iter().filter_map(|s| version(s))),
    );
    for n in named.collect::<Vec<_>>() {
        if !releases.iter().any(|(r, _)| *r == n) {
            releases.push((n, None));
        }
    }
    releases.sort();
    releases.dedup_by(|a, b| a.0 == b.0);
    assert!(releases.len() <= 256, "release indices are bytes");
    let index = |x: (u32, u32, u32)| releases.iter().position(|(r, _)| *r == x).expect("named");
    let mut out = String::from("// Generated by build.rs from knowledge/version-hints.toml.\n");
    writeln!(
        out,
        "pub(super) static RELEASES: [(Version, Option<&str>); {}] = [",
        releases.len()
    )
    .ok();
    for (r, date) in &releases {
        writeln!(out, "    ({}, {:?}),", v(*r), date.as_deref()).ok();
    }
    out.push_str("];\n");
    writeln!(
        out,
        "pub(super) static HINTS: [HintDef; {}] = [",
        k.hint.len()
    )
    .ok();
    for h in &k.hint {
        let source = match h.source.rfind(" (knowledge/") {
            Some(i) if h.source.ends_with(')') => &h.source[..i],
            _ => h.source.as_str(),
        };
        writeln!(
            out,
            "    HintDef {{ frame: {:?}, min: {}, before: {}, reason: {:?}, source: {:?} }},",
            h.frame,
            opt(h.min.as_deref().and_then(version)),
            opt(h.before.as_deref().and_then(version)),
            h.reason,
            source
        )
        .ok();
    }
    out.push_str("];\n");
    // Groups by (frame, callee), in order of first appearance.
    let mut keys: Vec<(&str, Option<&str>)> = Vec::new();
    let mut group_of: Vec<usize> = Vec::new();
    for l in &k.line {
        let key = (l.frame.as_str(), l.callee.as_deref());
        let g = keys.iter().position(|x| *x == key).unwrap_or_else(|| {
            keys.push(key);
            keys.len() - 1
        });
        group_of.push(g);
    }
    writeln!(
        out,
        "pub(super) static GROUPS: [GroupDef; {}] = [",
        keys.len()
    )
    .ok();
    for (g, (_, callee)) in keys.iter().enumerate() {
        let mut known: Vec<usize> = Vec::new();
        if callee.is_some() {
            known.extend(checked.iter().map(|c| index(*c)));
        }
        for (l, _) in k.line.iter().zip(&group_of).filter(|(_, &x)| x == g) {
            known.extend(l.versions.iter().filter_map(|s| version(s)).map(index));
        }
        known.sort_unstable();
        known.dedup();
        writeln!(
            out,
            "    GroupDef {{ checked: &{known:?}, callee: {callee:?} }},"
        )
        .ok();
    }
    out.push_str("];\n");
    let mut lines: Vec<(usize, &schema::LineHint)> =
        group_of.iter().copied().zip(&k.line).collect();
    lines.sort_by(|a, b| a.1.frame.cmp(&b.1.frame));
    writeln!(
        out,
        "pub(super) static LINES: [LineFact; {}] = [",
        lines.len()
    )
    .ok();
    for (g, l) in &lines {
        let versions: Vec<usize> = l
            .versions
            .iter()
            .filter_map(|s| version(s))
            .map(index)
            .collect();
        writeln!(
            out,
            "    LineFact {{ group: {g}, frame: {:?}, file: {:?}, line: {}, versions: &{versions:?} }},",
            l.frame, l.file, l.line
        )
        .ok();
    }
    out.push_str("];\n");
    let mut classes: Vec<&str> = k
        .line
        .iter()
        .filter_map(|l| l.frame.rsplit_once('.').map(|(c, _)| c))
        .collect();
    classes.sort_unstable();
    classes.dedup();
    writeln!(
        out,
        "pub(super) static CLASSES: [&str; {}] = {classes:?};",
        classes.len()
    )
    .ok();
    out
}

/// The rules one by one (`OUT_DIR/rules-each.rs`, with their prose, and
/// `OUT_DIR/rules-each-match.rs`, without; included by `src/know/rules/mod.rs`): `BUNDLED`, each
/// rule's id, its definition as JSON (parsed and compiled when first needed) and its screen
/// ([`screen`]); `MESSAGES`, the message patterns the screens name.
fn each_rule(rules: &[RuleDef]) -> String {
    use std::fmt::Write;
    let mut messages: Vec<String> = Vec::new();
    let mut out = String::from("// Generated by build.rs from rules/*/rule.toml.\n");
    writeln!(
        out,
        "pub(super) static BUNDLED: [Bundled; {}] = [",
        rules.len()
    )
    .ok();
    for r in rules {
        let json = serde_json::to_string(r).expect("rules serialise");
        let (classes, needs) = screen(r);
        let classes = match classes {
            Some((names, classless)) => {
                format!("Some(Classes {{ names: &{names:?}, classless: {classless} }})")
            }
            None => "None".to_owned(),
        };
        let needs: Vec<usize> = needs
            .into_iter()
            .map(|m| {
                messages.iter().position(|x| *x == m).unwrap_or_else(|| {
                    messages.push(m);
                    messages.len() - 1
                })
            })
            .collect();
        writeln!(
            out,
            "    Bundled {{ id: {:?}, json: {json:?}, screen: Screen {{ classes: {classes}, messages: &{needs:?} }} }},",
            r.id
        )
        .ok();
    }
    out.push_str("];\n");
    writeln!(
        out,
        "pub(super) static MESSAGES: [&str; {}] = {messages:?};",
        messages.len()
    )
    .ok();
    out
}

/// What a trace must hold for `rule` to possibly fire, from its conditions alone.
///
/// First, the classes: a throwable whose simple class name (after the last `.`) is one of the
/// names, or (the `bool`) a throwable printed without a class but with a message; `None` when
/// the conditions require no such thing (every required throwable condition has a wildcard in
/// its class's last segment). A required (not `optional`) throwable condition whose class glob
/// names its classes literally (`java.util.ConcurrentModificationException`;
/// `org.apache.*.{BException,CException}`, not `a.*.{B,C}*`) matches only a throwable of one of
/// their simple names: by the glob, or by the simple name itself (a class printed without its
/// package), or one printed without a class when the condition has a message pattern
/// (`src/know/matcher.rs`). A rule with variants fires with one of them, its conditions with the
/// rule's own: the union of theirs.
///
/// Then the message patterns of the rule's own required throwable conditions: each must match
/// the message of some throwable (`src/know/rules/mod.rs` checks their literal prefilters).
fn screen(rule: &RuleDef) -> (Option<(Vec<String>, bool)>, Vec<String>) {
    fn of(list: &[&schema::Condition]) -> Option<(Vec<String>, bool)> {
        list.iter()
            .filter_map(|c| match c {
                schema::Condition::Throwable {
                    class,
                    message,
                    optional: false,
                    ..
                } => Some((simple_names(class)?, message.is_some())),
                _ => None,
            })
            .min_by_key(|(names, classless)| (names.len(), *classless))
            .map(|(mut names, classless)| {
                names.sort();
                (names, classless)
            })
    }
    let own: Vec<&schema::Condition> = rule.conditions.iter().collect();
    let messages: Vec<String> = own
        .iter()
        .filter_map(|c| match c {
            schema::Condition::Throwable {
                message: Some(m),
                optional: false,
                ..
            } => Some(m.clone()),
            _ => None,
        })
        .collect();
    if rule.variants.is_empty() {
        return (of(&own), messages);
    }
    let mut names: Vec<String> = Vec::new();
    let mut classless = false;
    for v in &rule.variants {
        let list: Vec<&schema::Condition> =
            v.conditions.iter().chain(own.iter().copied()).collect();
        let Some((n, c)) = of(&list) else {
            return (None, messages);
        };
        names.extend(n);
        classless |= c;
    }
    names.sort();
    names.dedup();
    (Some((names, classless)), messages)
}

/// The simple names of every class a class glob can match, when each of its alternatives ends
/// in a literal segment after a `.` (`None` otherwise): `java.util.{A,B}Exception` gives
/// `AException`, `BException`.
fn simple_names(glob: &str) -> Option<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    for pattern in schema::expand_braces(glob)? {
        let (package, last) = pattern.rsplit_once('.')?;
        if package.is_empty()
            || last.is_empty()
            || last.contains(['*', '?', '[', ']', '{', '}', ','])
        {
            return None;
        }
        if !out.iter().any(|n| n == last) {
            out.push(last.to_owned());
        }
    }
    (!out.is_empty()).then_some(out)
}
