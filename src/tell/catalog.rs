//! The rule catalog as view models: every rule of [`crate::rules::catalogue`] grouped by
//! category for `#/rules`, and one rule's page for `#/rules/<id>` (its metadata, what it looks
//! for in words, its explanation, and its example trace). Knows nothing of Yew.

use crate::lang::Lang;
use crate::rules::{self, schema::Condition, Rule};
use crate::view::ExplanationView;
use serde::{Deserialize, Serialize};

/// Categories in the order the catalog lists them: (id as written in `rule.toml`, English
/// label, Chinese label).
pub const CATEGORIES: &[(&str, &str, &str)] = &[
    ("checkpointing", "Checkpointing", "检查点"),
    (
        "state-serialization",
        "State and serialization",
        "状态与序列化",
    ),
    (
        "classloading-dependencies",
        "Classloading and dependencies",
        "类加载与依赖",
    ),
    ("memory-resources", "Memory and resources", "内存与资源"),
    ("network-cluster", "Network and cluster", "网络与集群"),
    ("connectors", "Connectors", "连接器"),
    ("sql-table", "SQL and Table API", "SQL 与 Table API"),
    ("pyflink", "PyFlink", "PyFlink"),
    ("deployment", "Deployment", "部署"),
    ("async-io", "Async I/O", "异步 I/O"),
    ("recovery", "Failover and recovery", "故障转移与恢复"),
    ("user-code", "Your own code", "你自己的代码"),
    ("jvm", "Any JVM software", "任何 JVM 软件"),
];

/// The label of a category id in `lang` (`Memory and resources`, `内存与资源`); an unknown id
/// is shown as written.
pub fn category_label_in(id: &str, lang: Lang) -> &str {
    CATEGORIES
        .iter()
        .find(|(c, _, _)| *c == id)
        .map_or(id, |(_, en, zh)| if lang == Lang::Zh { zh } else { en })
}

/// One line of the catalog.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// Rule id (`async-wait-inflight-cme`).
    pub id: String,
    /// Title.
    pub title: String,
    /// Category id.
    pub category: String,
    /// `error`, `warning` or `info`.
    pub severity: String,
    /// `flink` or `jvm`.
    pub platform: String,
    /// Versions, in words.
    pub versions: String,
    /// Summary (HTML).
    pub summary_html: String,
    /// What a filter searches, lowercased: id, title, summary, versions, and the throwable
    /// classes, messages and frames the conditions name.
    pub search_text: String,
}

impl Entry {
    fn of(rule: &Rule, lang: Lang) -> Entry {
        let d = &rule.def;
        let text = crate::lang::rule_text(rule, lang);
        Entry {
            id: d.id.clone(),
            title: text.title.to_owned(),
            category: d.category.clone(),
            severity: d.severity.clone(),
            platform: d.platform.clone(),
            versions: text.versions.to_owned(),
            summary_html: text.summary.html.clone(),
            search_text: {
                // The English words too, where they are at hand (a Chinese reader may search
                // for a term the translation puts otherwise).
                let mut parts = vec![d.id.clone(), text.title.to_owned(), text.summary.md.clone()];
                if let Some(en) = rule.prose(Lang::En) {
                    parts.extend([en.title.clone(), en.summary.md.clone(), en.versions.clone()]);
                }
                for c in d
                    .conditions
                    .iter()
                    .chain(d.variants.iter().flat_map(|v| v.conditions.iter()))
                {
                    match c {
                        Condition::Throwable { class, message, .. } => {
                            parts.push(class.clone());
                            parts.extend(message.clone());
                        }
                        Condition::Sequence { steps, .. } => {
                            parts.extend(steps.iter().map(|s| s.frame.clone()));
                        }
                        Condition::Frame { frame, .. } | Condition::Absent { frame, .. } => {
                            parts.push(frame.clone());
                        }
                        Condition::UserFrame { .. } => {}
                    }
                }
                parts.join("\n").to_lowercase()
            },
        }
    }
}

/// Every rule, grouped by category: `(category label, entries by title)`, categories in
/// [`CATEGORIES`] order, then any other category by name.
pub fn groups() -> Vec<(String, Vec<Entry>)> {
    groups_in(Lang::En)
}

/// [`groups`] with the titles and summaries in `lang` where a rule has a translation.
pub fn groups_in(lang: Lang) -> Vec<(String, Vec<Entry>)> {
    let mut cats: Vec<&str> = rules::catalogue()
        .iter()
        .map(|r| r.def.category.as_str())
        .collect();
    let rank = |c: &str| CATEGORIES.iter().position(|(id, _, _)| *id == c);
    cats.sort_by(|a, b| (rank(a).is_none(), rank(a), *a).cmp(&(rank(b).is_none(), rank(b), *b)));
    cats.dedup();
    cats.into_iter()
        .map(|c| {
            let mut entries: Vec<Entry> = rules::catalogue()
                .iter()
                .filter(|r| r.def.category == c)
                .map(|r| Entry::of(r, lang))
                .collect();
            entries.sort_by(|a, b| a.title.cmp(&b.title));
            (category_label_in(c, lang).to_owned(), entries)
        })
        .collect()
}

/// One rule's page.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RulePage {
    /// The catalog line.
    pub entry: Entry,
    /// First Flink version with the failure, when known (`1.11`).
    pub since: Option<String>,
    /// The first fixed release of each line the fix reached (`["1.14.6", "1.15.1"]`); empty
    /// when not fixed or unknown.
    pub fixed_in: Vec<String>,
    /// What the rule looks for, one sentence per condition (Markdown-free text).
    pub conditions: Vec<String>,
    /// The explanation.
    pub explanation: ExplanationView,
    /// The example fixture's file name (`match-seed.txt`).
    pub example_name: String,
    /// The example trace, diagnosed live on the page.
    pub example: String,
}

/// The page of the rule `id`; `None` for an unknown id.
pub fn rule_page(id: &str) -> Option<RulePage> {
    rule_page_in(id, Lang::En)
}

/// [`rule_page`] with the rule's prose in `lang` where it has a translation.
pub fn rule_page_in(id: &str, lang: Lang) -> Option<RulePage> {
    let rule = rules::by_id(id)?;
    let d = &rule.def;
    Some(RulePage {
        entry: Entry::of(rule, lang),
        since: d.since.clone(),
        fixed_in: d.fixed_in.clone(),
        conditions: d
            .conditions
            .iter()
            .map(condition_text)
            .chain(d.variants.iter().enumerate().map(|(i, v)| {
                let texts: Vec<String> = v.conditions.iter().map(condition_text).collect();
                format!(
                    "{} {}: {}",
                    if i == 0 { "Either" } else { "or" },
                    v.what,
                    texts.join("; ")
                )
            }))
            .collect(),
        explanation: ExplanationView::of_in(rule, lang),
        example_name: d.example.clone().unwrap_or_default(),
        example: rules::example(id).unwrap_or_default().to_owned(),
    })
}

fn place(within: &str) -> String {
    match within {
        "any" => "in any throwable of the trace".into(),
        "top" => "in the top-level throwable".into(),
        "root" => "in the root cause".into(),
        name => format!("in the throwable named \"{name}\""),
    }
}

fn optional(optional: bool) -> &'static str {
    if optional {
        " (optional: highlighted when present)"
    } else {
        ""
    }
}

/// One condition in words (`A throwable of class java.util.ConcurrentModificationException,
/// named cme`).
pub fn condition_text(c: &Condition) -> String {
    match c {
        Condition::Throwable {
            class,
            message,
            not_message,
            same,
            bind,
            optional: opt,
            ..
        } => {
            let mut s = format!("A throwable of class {class}");
            if let Some(m) = message {
                s.push_str(&format!(" whose message matches /{m}/"));
            }
            if !same.is_empty() {
                s.push_str(&format!(
                    " with the same text in groups {}",
                    same.join(", ")
                ));
            }
            if let Some(m) = not_message {
                s.push_str(&format!(" and does not match /{m}/"));
            }
            if let Some(b) = bind {
                s.push_str(&format!(", named \"{b}\""));
            }
            s + optional(*opt)
        }
        Condition::Sequence {
            within,
            steps,
            optional: opt,
        } => {
            let list: Vec<String> = steps
                .iter()
                .map(|st| {
                    if st.optional {
                        format!("[{}]", st.frame)
                    } else {
                        st.frame.clone()
                    }
                })
                .collect();
            format!(
                "Frames in this order, innermost first, other frames between them allowed ({}; [optional] steps are highlighted when present): {}{}",
                place(within),
                list.join(" → "),
                optional(*opt)
            )
        }
        Condition::Frame {
            within,
            frame,
            optional: opt,
            ..
        } => format!("A frame {frame} {}{}", place(within), optional(*opt)),
        Condition::UserFrame {
            within,
            optional: opt,
            ..
        } => format!(
            "A frame of your own code (not the JDK, Flink, Scala or a known library) {}{}",
            place(within),
            optional(*opt)
        ),
        Condition::Absent { within, frame } => {
            format!("No frame {frame} {}", place(within))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_rule_is_in_one_group_and_has_a_page_with_its_example() {
        let groups = groups();
        let listed: usize = groups.iter().map(|(_, e)| e.len()).sum();
        assert_eq!(listed, rules::catalogue().len());
        for (label, entries) in &groups {
            assert!(!entries.is_empty(), "{label}");
        }
        for rule in rules::catalogue() {
            let page = rule_page(&rule.def.id).expect("a page");
            assert!(page.example_name.starts_with("match-"), "{}", rule.def.id);
            assert!(!page.example.trim().is_empty(), "{}", rule.def.id);
            assert_eq!(
                page.conditions.len(),
                rule.def.conditions.len() + rule.def.variants.len()
            );
        }
        assert!(rule_page("no-such-rule").is_none());
        let flagship = groups
            .iter()
            .flat_map(|(_, e)| e)
            .find(|e| e.id == "async-wait-inflight-cme")
            .expect("listed");
        assert!(flagship
            .search_text
            .contains("java.util.concurrentmodificationexception"));
    }

    #[test]
    fn every_rule_uses_a_known_category() {
        for rule in rules::catalogue() {
            assert!(
                CATEGORIES.iter().any(|(c, _, _)| *c == rule.def.category),
                "{}: category {:?} is not in CATEGORIES (rules/README.md)",
                rule.def.id,
                rule.def.category
            );
        }
    }

    #[test]
    fn categories_have_labels_and_the_flagship_reads_in_words() {
        assert_eq!(
            category_label_in("checkpointing", Lang::En),
            "Checkpointing"
        );
        assert_eq!(
            category_label_in("something-new", Lang::En),
            "something-new"
        );
        assert_eq!(
            category_label_in("memory-resources", Lang::Zh),
            "内存与资源"
        );
        assert_eq!(
            category_label_in("something-new", Lang::Zh),
            "something-new"
        );
        let page = rule_page("async-wait-inflight-cme").expect("flagship");
        assert!(page.conditions[0]
            .starts_with("A throwable of class java.util.ConcurrentModificationException"));
        assert!(page
            .conditions
            .iter()
            .any(|c| c.starts_with("Frames in this order")));
        assert_eq!(page.since.as_deref(), Some("1.3"));
    }
}
