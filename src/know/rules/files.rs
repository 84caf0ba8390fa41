//! The rules' prose as the page loads it (issue 13): one JSON file per rule and language,
//! `<dir>/<lang>/<id>.json` (`lang`: `en`, `zh`), each a [`RuleProse`] made by
//! [`RuleDef::prose`] from the bundled rules, the same prose the command line shows, with the
//! rule's example trace ([`RuleProse::example`]: the page bundles none). The page's
//! build writes them (`trace-doctor page-data dist/prose`, a Trunk hook); `src/browser/prose.rs`
//! reads them.

use super::schema::{RuleDef, RuleProse};
use std::path::Path;

/// The languages with a folder, and whether each is Chinese.
pub const LANGS: [(&str, bool); 2] = [("en", false), ("zh", true)];

/// The prose files of `def`: `(relative path, JSON)`, one per language.
pub fn of(def: &RuleDef) -> Vec<(String, String)> {
    LANGS
        .iter()
        .map(|&(lang, zh)| {
            let mut prose: RuleProse = def.prose(zh);
            prose.example = super::example(&def.id).unwrap_or_default().to_owned();
            (
                format!("{lang}/{}.json", def.id),
                serde_json::to_string(&prose).unwrap_or_default(),
            )
        })
        .collect()
}

/// Gives a rule the prose of a file the page loaded: `key` is the file's path under the
/// folder without `.json` (`en/<id>`, `zh/<id>`), `json` its text. Returns false (and changes
/// nothing) for a key that names no bundled rule or language, a text that does not parse, or
/// a rule that has its prose in that language already. The Share panel's worker takes the
/// page's files this way ([`crate::share::wire`]).
pub fn adopt(key: &str, json: &str) -> bool {
    let Some((folder, id)) = key.split_once('/') else {
        return false;
    };
    let lang = match folder {
        "en" => crate::lang::Lang::En,
        "zh" => crate::lang::Lang::Zh,
        _ => return false,
    };
    let Some(rule) = super::by_id(id) else {
        return false;
    };
    if rule.prose(lang).is_some() {
        return false;
    }
    match serde_json::from_str::<RuleProse>(json) {
        Ok(prose) => rule.set_prose(lang, prose),
        Err(_) => false,
    }
}

/// Writes every rule's prose files under `dir` (made when missing). Returns how many files.
///
/// Errors: a build without the prose (`lazy-prose`), the bundled rules cannot be read (a build
/// defect), or a file cannot be written.
pub fn write(dir: &Path) -> std::io::Result<usize> {
    if !super::PROSE_BUNDLED {
        return Err(std::io::Error::other("this build bundles no prose"));
    }
    if !super::catalogue_errors().is_empty() {
        return Err(std::io::Error::other(format!(
            "the bundled rules: {:?}",
            super::catalogue_errors()
        )));
    }
    let mut n = 0;
    for rule in super::catalogue() {
        for (path, json) in of(&rule.def) {
            let file = dir.join(path);
            if let Some(parent) = file.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::write(file, json)?;
            n += 1;
        }
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::{self, Lang};
    use crate::rules::{self, Rule};

    /// The page's way (a rule without its prose, given the file's prose) says what the command
    /// line's way (the rule bundled with it) says, for every rule, part and language.
    #[test]
    fn a_rule_given_its_prose_file_reads_as_the_bundled_rule() {
        for full in rules::catalogue() {
            let bare = Rule::compile(full.def.without_prose()).expect("compiles");
            for (lang, (_, json)) in [Lang::En, Lang::Zh].into_iter().zip(of(&full.def)) {
                assert!(
                    lang::rule_text(&bare, lang).title == full.def.id,
                    "not loaded yet"
                );
                assert!(!lang::rule_text(&bare, lang).loaded);
                let prose: RuleProse = serde_json::from_str(&json).expect("the file parses");
                assert!(bare.set_prose(lang, prose.clone()));
                assert!(!bare.set_prose(lang, prose), "the first stays");
                let (a, b) = (lang::rule_text(&bare, lang), lang::rule_text(full, lang));
                assert_eq!(a.title, b.title);
                assert_eq!(a.summary, b.summary);
                assert_eq!(a.versions, b.versions);
                assert_eq!(a.confirm, b.confirm);
                assert_eq!(a.translated, b.translated);
                assert_eq!(a.references.len(), b.references.len());
                assert_eq!(a.diagram.is_some(), b.diagram.is_some());
                let e = |t: &lang::RuleText<'_>| serde_json::to_string(t.explanation).unwrap();
                assert_eq!(e(&a), e(&b), "{}", full.def.id);
                for c in full.all_conditions() {
                    let mut roles = Vec::new();
                    let mut steps = Vec::new();
                    match c {
                        rules::Compiled::Sequence { steps: list, .. } => {
                            for s in list {
                                roles.extend(s.role.clone());
                                if s.explain.is_some() {
                                    steps.push(s.source.clone());
                                }
                            }
                        }
                        rules::Compiled::Throwable { role, .. }
                        | rules::Compiled::Frame { role, .. }
                        | rules::Compiled::UserFrame { role, .. } => roles.extend(role.clone()),
                        rules::Compiled::Absent { .. } => {}
                    }
                    for r in &roles {
                        assert_eq!(
                            lang::role(Some(&bare), r, lang),
                            lang::role(Some(full), r, lang)
                        );
                    }
                    for s in &steps {
                        let note = lang::step_note(Some(&bare), s, "Map.put", lang);
                        assert!(note.is_some(), "{}: {s}", full.def.id);
                        assert_eq!(note, lang::step_note(Some(full), s, "Map.put", lang));
                    }
                }
            }
        }
    }

    /// Each rule's files carry its example trace, the one the command line bundles (the page's
    /// module has none: its rule page shows the file's), in both languages.
    #[test]
    fn each_file_carries_the_rule_example() {
        for rule in rules::catalogue() {
            let example = rules::example(&rule.def.id).expect("bundled here");
            for (path, json) in of(&rule.def) {
                let prose: RuleProse = serde_json::from_str(&json).expect("the file parses");
                assert_eq!(prose.example, example, "{path}");
            }
        }
        let some = rules::catalogue()
            .iter()
            .filter(|r| rules::example(&r.def.id).is_some_and(|e| !e.is_empty()));
        assert!(some.count() >= 80, "rules with an example");
    }

    /// What the page bundles is what matching needs and no prose: every prose part is gone
    /// (the 2 MB of rules became about a tenth), every condition stays.
    #[test]
    fn the_page_bundles_no_prose() {
        for full in rules::catalogue() {
            let bare = full.def.without_prose();
            let json = serde_json::to_string(&bare).expect("serialises");
            assert!(!json.contains(&full.def.title), "{}", full.def.id);
            assert!(!json.contains(&full.def.summary.md), "{}", full.def.id);
            assert!(bare.zh.is_none() && bare.references.is_empty());
            assert_eq!(bare.conditions.len(), full.def.conditions.len());
            assert_eq!(bare.variants.len(), full.def.variants.len());
        }
    }

    #[test]
    fn every_rule_gets_a_file_in_each_language() {
        let dir = std::env::temp_dir().join(format!("td-prose-{}", std::process::id()));
        let n = write(&dir).expect("writes");
        assert_eq!(n, rules::catalogue().len() * LANGS.len());
        for r in rules::catalogue() {
            for (lang, _) in LANGS {
                let text =
                    std::fs::read_to_string(dir.join(lang).join(format!("{}.json", r.def.id)))
                        .expect("file");
                let p: RuleProse = serde_json::from_str(&text).expect("parses");
                assert!(!p.title.is_empty() && !p.explanation.fixes.is_empty());
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
