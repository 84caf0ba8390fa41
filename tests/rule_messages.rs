//! Every rule's message patterns checked against the Flink release binaries.
//!
//! `knowledge/rule-messages.tsv` is written by `scripts/rule-messages.py` from the releases'
//! jars (string constants of every class, nested jars included): for each top-level alternative
//! of each `message` / `not_message` pattern, the literal text it starts with and the releases
//! that hold it. This test keeps that file in step with the rules (no alternative unchecked, none
//! stale) and requires a written note for every alternative no release holds (a JDK or library
//! message Flink does not ship, an older wording, a pattern with no literal to look for), so a
//! rule cannot claim a message that no release prints without saying why.

use std::collections::{HashMap, HashSet};
use trace_doctor::rules::{self, schema::Condition};

const TSV: &str = include_str!("../knowledge/rule-messages.tsv");

/// The top-level alternatives of a regex, as `scripts/rule-messages.py` splits them.
fn split_alternatives(pattern: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let (mut depth, mut in_class) = (0i32, false);
    let mut chars = pattern.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            cur.push(c);
            if let Some(n) = chars.next() {
                cur.push(n);
            }
            continue;
        }
        if in_class {
            in_class = c != ']';
        } else if c == '[' {
            in_class = true;
        } else if c == '(' {
            depth += 1;
        } else if c == ')' {
            depth -= 1;
        } else if c == '|' && depth == 0 {
            out.push(std::mem::take(&mut cur));
            continue;
        }
        cur.push(c);
    }
    out.push(cur);
    out
}

/// `(rule, alternative)` of every message pattern of the catalogue.
fn alternatives() -> HashSet<(String, String)> {
    let mut out = HashSet::new();
    for rule in rules::catalogue() {
        let d = &rule.def;
        let conditions = d
            .conditions
            .iter()
            .chain(d.variants.iter().flat_map(|v| v.conditions.iter()));
        for c in conditions {
            if let Condition::Throwable {
                message,
                not_message,
                ..
            } = c
            {
                for p in message.iter().chain(not_message.iter()) {
                    for alt in split_alternatives(p) {
                        out.insert((d.id.clone(), alt));
                    }
                }
            }
        }
    }
    out
}

struct Row {
    needle: String,
    releases: String,
    note: String,
}

fn rows() -> HashMap<(String, String), Row> {
    TSV.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert!(
                f.len() >= 4,
                "a row of rule-messages.tsv has too few fields: {l:?}"
            );
            (
                (f[0].to_owned(), f[1].to_owned()),
                Row {
                    needle: f[2].to_owned(),
                    releases: f[3].to_owned(),
                    note: f.get(4).copied().unwrap_or("").to_owned(),
                },
            )
        })
        .collect()
}

#[test]
fn every_message_alternative_is_checked_and_none_is_stale() {
    let want = alternatives();
    let have = rows();
    let missing: Vec<_> = want.iter().filter(|k| !have.contains_key(*k)).collect();
    assert!(
        missing.is_empty(),
        "message alternatives not checked against the releases (run scripts/rule-messages.py): {missing:?}"
    );
    let stale: Vec<_> = have.keys().filter(|k| !want.contains(*k)).collect();
    assert!(
        stale.is_empty(),
        "rows of knowledge/rule-messages.tsv for alternatives no rule has (run scripts/rule-messages.py): {stale:?}"
    );
    assert!(want.len() >= 90, "only {} alternatives", want.len());
}

#[test]
fn a_message_no_release_prints_says_why() {
    let unexplained: Vec<String> = rows()
        .into_iter()
        .filter(|(_, r)| r.releases == "-" && r.note.trim().is_empty())
        .map(|((rule, alt), r)| format!("{rule}: {alt:?} (needle {:?})", r.needle))
        .collect();
    assert!(
        unexplained.is_empty(),
        "messages held by no release's jars, with no note saying whose message they are (JDK, a library, an older wording): {unexplained:?}"
    );
}

#[test]
fn the_needles_are_the_alternatives_own_text() {
    for ((rule, alt), r) in rows() {
        let plain: String = alt.replace('\\', "");
        assert!(
            plain.contains(&r.needle),
            "{rule}: needle {:?} is not the text of {alt:?}",
            r.needle
        );
    }
}

#[test]
fn splitting_keeps_groups_and_classes_whole() {
    assert_eq!(split_alternatives("a|b(c|d)|[|]e"), ["a", "b(c|d)", "[|]e"]);
    assert_eq!(split_alternatives(r"x\|y|z"), [r"x\|y", "z"]);
}
