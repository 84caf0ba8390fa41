//! Inferring the Flink version from a trace: exact from log4j2 jar suffixes
//! (`~[flink-dist_2.11-1.13.2.jar:1.13.2]`), otherwise a range from frames that exist only in
//! some versions (`knowledge/version-hints.toml`), narrowed by the release dates when the text
//! carries a date (a release newer than the text cannot have produced it).

use crate::glob;
use crate::model::Trace;
use crate::rules::schema::VersionKnowledge;
use regex::Regex;
use serde::Serialize;
use std::sync::OnceLock;

/// A Flink version `major.minor.patch`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Version(pub u32, pub u32, pub u32);

impl Version {
    /// Parses `1.13`, `1.13.2` (a missing patch is 0). Errors give `None`.
    pub fn parse(s: &str) -> Option<Version> {
        let mut parts = s.trim().split('.');
        let major = parts.next()?.parse().ok()?;
        let minor = parts.next()?.parse().ok()?;
        let patch = match parts.next() {
            Some(p) => p.parse().ok()?,
            None => 0,
        };
        parts
            .next()
            .is_none()
            .then_some(Version(major, minor, patch))
    }
}

impl std::fmt::Display for Version {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}.{}", self.0, self.1, self.2)
    }
}

/// What the trace reveals about the Flink version.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct FlinkVersion {
    /// The version printed in jar suffixes, when there is one (`1.13.2`).
    pub exact: Option<String>,
    /// Lowest possible version (`1.13.0`), when bounded.
    pub min: Option<String>,
    /// Highest possible version (`1.13.2`) or a bound in words (`1.x`), when bounded.
    pub max: Option<String>,
    /// The range in words (`1.13.0 – 1.13.2`, `1.13.2`, `1.11 or later`), or `unknown`.
    pub summary: String,
    /// Why, one reason per line (`1.13 or later: SnapshotStrategyRunner was added in 1.13 (FLINK-21072)`).
    pub reasons: Vec<String>,
}

struct Hint {
    frame: Regex,
    min: Option<Version>,
    before: Option<Version>,
    reason: String,
    source: String,
}

struct Knowledge {
    hints: Vec<Hint>,
    releases: Vec<(Version, String)>,
}

const HINTS_JSON: &str = include_str!(concat!(env!("OUT_DIR"), "/version-hints.json"));

fn knowledge() -> &'static Knowledge {
    static K: OnceLock<Knowledge> = OnceLock::new();
    K.get_or_init(|| {
        let raw: VersionKnowledge = serde_json::from_str(HINTS_JSON).unwrap_or(VersionKnowledge {
            hint: Vec::new(),
            release: Vec::new(),
        });
        let hints = raw
            .hint
            .into_iter()
            .filter_map(|h| {
                Some(Hint {
                    frame: glob::compile(&h.frame).ok()?,
                    min: h.min.as_deref().and_then(Version::parse),
                    before: h.before.as_deref().and_then(Version::parse),
                    reason: h.reason,
                    source: h.source,
                })
            })
            .collect();
        let mut releases: Vec<(Version, String)> = raw
            .release
            .into_iter()
            .filter_map(|r| Some((Version::parse(&r.version)?, r.date)))
            .collect();
        releases.sort();
        Knowledge { hints, releases }
    })
}

fn jar_version() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        // `flink-dist_2.11-1.13.2.jar:1.13.2` (version in the name) or
        // `flink-rpc-akka_<uuid>.jar:1.14.0` (only the Implementation-Version after the colon).
        Regex::new(
            r"^flink-(?:[A-Za-z0-9_.\-]*?-(\d+\.\d+\.\d+)(?:-SNAPSHOT)?\.jar(?::|$)|[^:\]]*\.jar:(\d+\.\d+\.\d+)$)",
        )
        .expect("valid regex")
    })
}

/// Infers the version from `trace`'s frames and the `date` printed with it (`YYYY-MM-DD…`).
pub fn infer(trace: &Trace, date: Option<&str>) -> FlinkVersion {
    let frames = || trace.throwables.iter().flat_map(|t| t.printed_frames());
    let mut reasons = Vec::new();
    // Exact: a Flink jar's version in a log4j2 extended frame.
    let exact = frames().find_map(|f| {
        let jar = f.jar.as_deref()?;
        let c = jar_version().captures(jar)?;
        let v = c.get(1).or(c.get(2))?.as_str().to_owned();
        Some((v, jar.split(':').next().unwrap_or(jar).to_owned()))
    });
    if let Some((v, jar)) = &exact {
        reasons.push(format!("{v}: the frames name the jar {jar}"));
    }
    let k = knowledge();
    let mut min: Option<Version> = None;
    let mut before: Option<Version> = None;
    for hint in &k.hints {
        let Some(f) = frames().find(|f| hint.frame.is_match(&f.qualified_method())) else {
            continue;
        };
        let _ = f;
        if let Some(m) = hint.min {
            if min.is_none_or(|cur| m > cur) {
                min = Some(m);
            }
            reasons.push(format!(
                "{}.{} or later: {} ({})",
                m.0, m.1, hint.reason, hint.source
            ));
        }
        if let Some(b) = hint.before {
            if before.is_none_or(|cur| b < cur) {
                before = Some(b);
            }
            reasons.push(format!(
                "before {}.{}: {} ({})",
                b.0, b.1, hint.reason, hint.source
            ));
        }
    }
    // A release published after the date in the text cannot have produced the trace.
    let mut max: Option<Version> = None;
    if let (Some(date), Some(lo)) = (date.and_then(|d| d.get(..10)), min) {
        let newer = k
            .releases
            .iter()
            .filter(|(v, d)| *v >= lo && d.as_str() > date)
            .map(|(v, _)| *v)
            .min();
        if let Some(first_newer) = newer {
            let last_older = k
                .releases
                .iter()
                .filter(|(v, d)| *v >= lo && *v < first_newer && d.as_str() <= date)
                .map(|(v, _)| *v)
                .max();
            if let Some(last) = last_older {
                max = Some(last);
                reasons.push(format!(
                    "{last} or earlier: the text is dated {date}, before {first_newer} was released"
                ));
            }
        }
    }
    let fmt_min = |v: Version| format!("{}.{}", v.0, v.1);
    let summary = match (&exact, min, max, before) {
        (Some((v, _)), ..) => v.clone(),
        (None, Some(lo), Some(hi), _) => format!("{} – {hi}", Version(lo.0, lo.1, 0)),
        (None, Some(lo), None, Some(b)) => {
            format!("{} or later, before {}", fmt_min(lo), fmt_min(b))
        }
        (None, Some(lo), None, None) => format!("{} or later", fmt_min(lo)),
        (None, None, _, Some(b)) => format!("before {}", fmt_min(b)),
        (None, None, _, None) => "unknown".to_owned(),
    };
    FlinkVersion {
        exact: exact.map(|(v, _)| v),
        min: min.map(|v| Version(v.0, v.1, 0).to_string()),
        max: max
            .map(|v| v.to_string())
            .or(before.map(|b| format!("before {}", fmt_min(b)))),
        summary,
        reasons,
    }
}

/// Whether a rule that applies to Flink `since` (first version with the failure) up to before
/// `fixed_in` (first version without it) can apply to the version `v` a trace reveals. Returns a
/// sentence saying why not when the whole inferred range lies outside; `None` when it may apply,
/// when the version is unknown, or when the rule gives no bounds.
pub fn rule_mismatch(
    since: Option<&str>,
    fixed_in: Option<&str>,
    versions: &str,
    v: &FlinkVersion,
) -> Option<String> {
    let lo = v
        .exact
        .as_deref()
        .or(v.min.as_deref())
        .and_then(Version::parse);
    let hi = v
        .exact
        .as_deref()
        .or(v.max.as_deref())
        .and_then(Version::parse);
    if let (Some(since), Some(hi)) = (since.and_then(Version::parse), hi) {
        if hi < since {
            return Some(format!(
                "This failure is known from Flink {} on ({versions}), and this trace shows Flink {}: it probably does not apply.",
                short(since),
                v.summary
            ));
        }
    }
    if let (Some(fixed), Some(lo)) = (fixed_in.and_then(Version::parse), lo) {
        if lo >= fixed {
            return Some(format!(
                "This was fixed in Flink {} ({versions}), and this trace shows Flink {}: it probably does not apply.",
                short(fixed),
                v.summary
            ));
        }
    }
    None
}

/// `1.13` for `1.13.0`, the full version otherwise.
fn short(v: Version) -> String {
    if v.2 == 0 {
        format!("{}.{}", v.0, v.1)
    } else {
        v.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rule_outside_the_inferred_range_says_so() {
        let exact = |v: &str| FlinkVersion {
            exact: Some(v.into()),
            summary: v.into(),
            ..FlinkVersion::default()
        };
        let range = FlinkVersion {
            min: Some("1.11.0".into()),
            max: Some("1.12.7".into()),
            summary: "1.11.0 – 1.12.7".into(),
            ..FlinkVersion::default()
        };
        let fixed = |v: &FlinkVersion| rule_mismatch(None, Some("1.13"), "before 1.13", v);
        assert!(fixed(&exact("1.13.2"))
            .is_some_and(|m| m.contains("fixed in Flink 1.13") && m.contains("1.13.2")));
        assert_eq!(fixed(&exact("1.12.7")), None);
        assert_eq!(fixed(&range), None);
        assert_eq!(fixed(&FlinkVersion::default()), None, "unknown version");
        let since = |v: &FlinkVersion| rule_mismatch(Some("1.13"), None, "1.13 and later", v);
        assert!(since(&range).is_some_and(|m| m.contains("from Flink 1.13 on")));
        assert_eq!(since(&exact("1.13.0")), None);
        // A range that straddles the bound may apply.
        let straddle = FlinkVersion {
            min: Some("1.12.0".into()),
            max: Some("1.14.6".into()),
            ..range
        };
        assert_eq!(since(&straddle), None);
        assert_eq!(fixed(&straddle), None);
    }

    #[test]
    fn versions_parse_and_order() {
        assert_eq!(Version::parse("1.13"), Some(Version(1, 13, 0)));
        assert_eq!(Version::parse("1.13.2"), Some(Version(1, 13, 2)));
        assert_eq!(Version::parse("1.x"), None);
        assert!(Version(1, 9, 0) < Version(1, 13, 0));
    }

    #[test]
    fn hints_compile() {
        let k = knowledge();
        assert!(k.hints.len() >= 5, "every hint compiles");
        assert!(k.releases.len() >= 10);
    }

    #[test]
    fn a_trace_without_flink_frames_is_unknown() {
        let t = &crate::parse::parse("java.lang.Error: x\n\tat a.B.c(B.java:1)\n").traces[0];
        assert_eq!(infer(t, None).summary, "unknown");
    }
}
