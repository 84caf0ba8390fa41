//! Links to the documentation of the Flink release a trace shows.
//!
//! The rules link Flink's docs as `https://nightlies.apache.org/flink/flink-docs-stable/<path>`
//! (the newest release). When the trace's Flink version is known to one minor release (`1.13.0
//! – 1.13.2`, or a jar's `1.14.4`), a link goes to that release's docs
//! (`flink-docs-release-1.13/<path>`) instead, but only when `knowledge/docs-pages.tsv` says the
//! page is at that path in that release: pages moved between releases, and a link to a page
//! that is not there helps nobody. Anything else keeps the stable link.

use crate::version::{FlinkVersion, Version};
use std::sync::OnceLock;

/// The table: `path<TAB>from<TAB>until<TAB>evidence`, `#` comments; `from` and `until` are the
/// first and last minor releases whose docs were verified to have the page at that path (see the
/// file's header for how).
const TABLE: &str = include_str!("../../knowledge/docs-pages.tsv");

/// The prefix of the links the rules give.
const STABLE: &str = "https://nightlies.apache.org/flink/flink-docs-stable/";

/// A page of the docs and the minor releases it is at: `(path, from, until)`.
type Page = (String, (u32, u32), (u32, u32));

fn pages() -> &'static [Page] {
    static PAGES: OnceLock<Vec<Page>> = OnceLock::new();
    PAGES.get_or_init(|| {
        TABLE
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .filter_map(|l| {
                let mut cols = l.split('\t');
                let path = cols.next()?.trim().to_owned();
                let minor = |s: &str| Version::parse(s.trim()).map(|v| (v.0, v.1));
                let from = minor(cols.next()?)?;
                let until = minor(cols.next()?)?;
                Some((path, from, until))
            })
            .collect()
    })
}

/// The minor release a version reading narrows to (`(1, 13)` for `1.13.0 – 1.13.2`), when its
/// lowest and highest possible releases share one; `None` when open-ended or spanning minors.
pub fn release_minor(v: &FlinkVersion) -> Option<(u32, u32)> {
    let minor = |s: &Option<String>| s.as_deref().and_then(Version::parse).map(|v| (v.0, v.1));
    match (minor(&v.min), minor(&v.max)) {
        (Some(a), Some(b)) if a == b => Some(a),
        _ => None,
    }
}

/// `url` for the docs of release `minor` (`(1, 14)`): the same page under
/// `flink-docs-release-1.14/` when the table has it there, else `url` unchanged (another site,
/// an unknown release, a page not at that path then). An `#anchor` is kept.
pub fn for_release(url: &str, minor: Option<(u32, u32)>) -> String {
    let (Some(m), Some(rest)) = (minor, url.strip_prefix(STABLE)) else {
        return url.to_owned();
    };
    let path = rest.split('#').next().unwrap_or(rest);
    let at = pages()
        .iter()
        .any(|(p, from, until)| p == path && *from <= m && m <= *until);
    if at {
        format!(
            "https://nightlies.apache.org/flink/flink-docs-release-{}.{}/{rest}",
            m.0, m.1
        )
    } else {
        url.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn version(min: &str, max: &str) -> FlinkVersion {
        FlinkVersion {
            min: Some(min.to_owned()),
            max: Some(max.to_owned()),
            ..FlinkVersion::default()
        }
    }

    #[test]
    fn a_version_narrowed_to_one_minor_release_names_it() {
        assert_eq!(release_minor(&version("1.13.0", "1.13.2")), Some((1, 13)));
        assert_eq!(release_minor(&version("1.13.0", "1.14.6")), None);
        assert_eq!(release_minor(&FlinkVersion::default()), None);
    }

    #[test]
    fn every_row_of_the_table_is_read() {
        let rows = TABLE
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .count();
        assert_eq!(
            pages().len(),
            rows,
            "a row of knowledge/docs-pages.tsv is malformed"
        );
        for (path, from, until) in pages() {
            assert!(path.starts_with("docs/") && path.ends_with('/'), "{path}");
            assert!(
                *from >= (1, 13),
                "{path}: the table starts at 1.13 (Hugo docs)"
            );
            assert!(until >= from, "{path}");
        }
    }

    #[test]
    fn every_flink_docs_page_a_rule_links_is_in_the_table() {
        // A new link needs its row (and the releases it was verified at) in
        // knowledge/docs-pages.tsv, else it would always stay on the stable docs.
        for rule in crate::rules::catalogue() {
            for r in crate::lang::rule_text(rule, crate::lang::Lang::En).references {
                let Some(rest) = r.url.strip_prefix(STABLE) else {
                    continue;
                };
                let path = rest.split('#').next().unwrap_or(rest);
                if !path.starts_with("docs/") {
                    continue; // release notes: one page per release, linked as such
                }
                assert!(
                    pages().iter().any(|(p, _, _)| p == path),
                    "{}: {path} is not in knowledge/docs-pages.tsv",
                    rule.def.id
                );
            }
        }
    }

    #[test]
    fn a_page_in_the_table_goes_to_the_release_and_others_stay_stable() {
        let (path, from, _) = pages().first().expect("the table has rows").clone();
        let url = format!("{STABLE}{path}#anchor");
        assert_eq!(
            for_release(&url, Some(from)),
            format!(
                "https://nightlies.apache.org/flink/flink-docs-release-{}.{}/{path}#anchor",
                from.0, from.1
            )
        );
        assert_eq!(for_release(&url, None), url);
        // Before the Hugo docs (1.12), and a page the table does not list: unchanged.
        assert_eq!(for_release(&url, Some((1, 12))), url);
        let unknown = format!("{STABLE}docs/no/such/page/");
        assert_eq!(for_release(&unknown, Some(from)), unknown);
        let other = "https://docs.oracle.com/javase/8/docs/api/";
        assert_eq!(for_release(other, Some(from)), other);
    }
}
