//! Inferring the Flink version from a trace: exact from log4j2 jar suffixes
//! (`~[flink-dist_2.11-1.13.2.jar:1.13.2]`), otherwise a range of known releases narrowed by
//! frames that exist only in some versions, by the release dates when the text carries a date
//! (a release newer than the text cannot have produced it), and by the line numbers of
//! well-known frames (`Task.run(Task.java:566)` is printed by 1.13.x only): all from
//! `knowledge/version-hints.toml` (`knowledge/line-numbers.md` says how the lines were read).

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

/// One `[[line]]` entry, compiled.
struct LineFact {
    frame: String,
    /// `None`: any frame below the top; `Some((re, top))`: the frame above must match `re`, or,
    /// when `top`, the frame is the top of a throwable whose `new <class>` matches `re`.
    callee: Option<(Regex, bool)>,
    file: String,
    line: u32,
    versions: Vec<Version>,
}

struct Knowledge {
    hints: Vec<Hint>,
    lines: Vec<LineFact>,
    /// Releases whose compiled classes were read for `lines`, sorted.
    checked: Vec<Version>,
    /// Every known release (the `[[release]]` entries, the checked ones and those the line
    /// hints name), sorted, with its date when known.
    releases: Vec<(Version, Option<String>)>,
}

const HINTS_JSON: &str = include_str!(concat!(env!("OUT_DIR"), "/version-hints.json"));

fn knowledge() -> &'static Knowledge {
    static K: OnceLock<Knowledge> = OnceLock::new();
    K.get_or_init(|| {
        let raw: VersionKnowledge = serde_json::from_str(HINTS_JSON).unwrap_or(VersionKnowledge {
            checked: Vec::new(),
            hint: Vec::new(),
            line: Vec::new(),
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
        let lines: Vec<LineFact> = raw
            .line
            .into_iter()
            .filter_map(|l| {
                let callee = match l.callee.as_deref() {
                    None => None,
                    Some(c) => {
                        let top = c.starts_with("new ");
                        Some((glob::compile(c).ok()?, top))
                    }
                };
                Some(LineFact {
                    frame: l.frame,
                    callee,
                    file: l.file,
                    line: l.line,
                    versions: l
                        .versions
                        .iter()
                        .filter_map(|v| Version::parse(v))
                        .collect(),
                })
            })
            .collect();
        let mut checked: Vec<Version> = raw
            .checked
            .iter()
            .filter_map(|v| Version::parse(v))
            .collect();
        checked.sort();
        checked.dedup();
        let mut releases: Vec<(Version, Option<String>)> = raw
            .release
            .into_iter()
            .filter_map(|r| Some((Version::parse(&r.version)?, r.date)))
            .collect();
        let named = checked
            .iter()
            .chain(lines.iter().flat_map(|l| l.versions.iter()))
            .copied()
            .collect::<Vec<_>>();
        for v in named {
            if !releases.iter().any(|(r, _)| *r == v) {
                releases.push((v, None));
            }
        }
        releases.sort();
        releases.dedup_by(|a, b| a.0 == b.0);
        Knowledge {
            hints,
            lines,
            checked,
            releases,
        }
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

/// What one printed frame's line says: the releases that can print it.
struct LineEvidence {
    /// `Task.run at Task.java:566`.
    what: String,
    /// Checked releases that print it (empty: none does).
    printers: Vec<Version>,
    /// Known releases that may have printed it: `printers` and the unchecked releases next to
    /// them (or every unchecked release when no checked one prints it).
    possible: Vec<Version>,
}

/// Releases that may print a frame the checked releases `printers` print: those, and each
/// unchecked release that no checked release separates from one of them. When no checked
/// release prints it, every unchecked release may.
fn possible_releases(k: &Knowledge, printers: &[Version]) -> Vec<Version> {
    k.releases
        .iter()
        .map(|(v, _)| *v)
        .filter(|v| {
            if k.checked.binary_search(v).is_ok() {
                return printers.contains(v);
            }
            if printers.is_empty() {
                return true;
            }
            let below = k.checked.iter().rev().find(|c| *c < v);
            let above = k.checked.iter().find(|c| *c > v);
            below.is_some_and(|c| printers.contains(c))
                || above.is_some_and(|c| printers.contains(c))
        })
        .collect()
}

/// The line evidence of every frame of `trace` that a `[[line]]` entry speaks of, one per
/// distinct frame and line.
fn line_evidence(k: &Knowledge, trace: &Trace) -> Vec<LineEvidence> {
    let mut out: Vec<LineEvidence> = Vec::new();
    for t in &trace.throwables {
        let frames: Vec<&crate::model::Frame> = t.printed_frames().collect();
        for (i, f) in frames.iter().enumerate() {
            let (Some(file), Some(line)) = (f.file(), f.line()) else {
                continue;
            };
            let qm = f.qualified_method();
            let above = match i.checked_sub(1).and_then(|j| frames.get(j)) {
                Some(c) => c.qualified_method(),
                None => format!("new {}", t.class),
            };
            let applies = |l: &&LineFact| {
                l.frame == qm
                    && l.file == file
                    && match &l.callee {
                        None => i > 0,
                        Some((re, top)) => *top == (i == 0) && re.is_match(&above),
                    }
            };
            let facts: Vec<&LineFact> = k.lines.iter().filter(applies).collect();
            if facts.is_empty() {
                continue;
            }
            let what = format!("{}.{} at {file}:{line}", f.simple_class(), f.method);
            if out.iter().any(|e| e.what == what) {
                continue;
            }
            let mut printers: Vec<Version> = facts
                .iter()
                .filter(|l| l.line == line)
                .flat_map(|l| l.versions.iter().copied())
                .collect();
            printers.sort();
            printers.dedup();
            let possible = possible_releases(k, &printers);
            out.push(LineEvidence {
                what,
                printers,
                possible,
            });
        }
    }
    out
}

/// `1.14.0 – 1.14.6, 1.16.1` for `vs`: runs of consecutive known releases joined.
fn runs(k: &Knowledge, vs: &[Version]) -> String {
    let all: Vec<Version> = k.releases.iter().map(|(v, _)| *v).collect();
    let mut parts: Vec<String> = Vec::new();
    let mut run: Option<(Version, Version, usize)> = None;
    let mut flush = |run: Option<(Version, Version, usize)>, parts: &mut Vec<String>| {
        if let Some((a, b, _)) = run {
            parts.push(if a == b {
                a.to_string()
            } else {
                format!("{a} – {b}")
            });
        }
    };
    for v in vs {
        let idx = all.binary_search(v).ok();
        run = match (run, idx) {
            (Some((a, _, last)), Some(i)) if i == last + 1 => Some((a, *v, i)),
            (r, i) => {
                flush(r, &mut parts);
                Some((*v, *v, i.unwrap_or(usize::MAX - 1)))
            }
        };
    }
    flush(run, &mut parts);
    parts.join(", ")
}

/// Whether release `v` came out after `date` (`YYYY-MM-DD`): its own date is later, or a
/// release that must precede it (an earlier patch of its minor, or the `.0` of its minor or
/// of an older one) is dated later.
fn released_after(k: &Knowledge, v: Version, date: &str) -> bool {
    k.releases.iter().any(|(r, d)| {
        d.as_deref().is_some_and(|d| d > date)
            && (*r == v
                || ((r.0, r.1) == (v.0, v.1) && r.2 <= v.2)
                || (r.2 == 0 && (r.0, r.1) <= (v.0, v.1)))
    })
}

/// The range `vs` (sorted, known releases) in words, given the known releases `all`.
fn describe(vs: &[Version], all: &[Version]) -> (Option<Version>, Option<Version>, String) {
    let (Some(&lo), Some(&hi)) = (vs.first(), vs.last()) else {
        return (None, None, "unknown".to_owned());
    };
    let lower = all.first().is_some_and(|f| lo > *f);
    let upper = all.last().is_some_and(|l| hi < *l);
    match (lower, upper) {
        (true, true) if lo == hi => (Some(lo), Some(hi), lo.to_string()),
        (true, true) => (Some(lo), Some(hi), format!("{lo} – {hi}")),
        (true, false) => (Some(lo), None, format!("{} or later", short(lo))),
        (false, true) => {
            let next = all.iter().find(|v| **v > hi);
            let words = match next {
                Some(n) if n.2 == 0 => format!("before {}.{}", n.0, n.1),
                _ => format!("{hi} or earlier"),
            };
            (None, Some(hi), words)
        }
        (false, false) => (None, None, "unknown".to_owned()),
    }
}

/// Infers the version from `trace`'s frames and the `date` printed with it (`YYYY-MM-DD…`).
///
/// The evidence, strongest first: a Flink jar's version in log4j2's extended frames (exact,
/// and it wins over anything else); frames that exist only in some versions; the date (a
/// release newer than the text cannot have produced it); the line numbers of well-known
/// frames. Each narrows the set of known releases; one that would leave none is not used and
/// a reason says so, as does a line that disagrees with the jar.
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
    let exact_v = exact.as_ref().and_then(|(v, _)| Version::parse(v));
    let k = knowledge();
    let all: Vec<Version> = k.releases.iter().map(|(v, _)| *v).collect();
    let mut cands: Vec<Version> = all.clone();
    // Narrows `cands` to those `keep` allows, unless that leaves none.
    let mut narrow = |cands: &mut Vec<Version>, keep: &dyn Fn(Version) -> bool| -> bool {
        let next: Vec<Version> = cands.iter().copied().filter(|v| keep(*v)).collect();
        if next.is_empty() {
            return false;
        }
        *cands = next;
        true
    };
    for hint in &k.hints {
        if !frames().any(|f| hint.frame.is_match(&f.qualified_method())) {
            continue;
        }
        let (min, before) = (hint.min, hint.before);
        let mut words = Vec::new();
        if let Some(m) = min {
            words.push(format!("{} or later", short(m)));
        }
        if let Some(b) = before {
            words.push(format!("before {}", short(b)));
        }
        if words.is_empty() {
            continue;
        }
        let keep = |v: Version| min.is_none_or(|m| v >= m) && before.is_none_or(|b| v < b);
        let applied = narrow(&mut cands, &keep);
        for w in &words {
            reasons.push(format!("{w}: {} ({})", hint.reason, hint.source));
        }
        if !applied {
            reasons.push(format!(
                "conflict: {} contradicts the other frames; not used",
                words.join(", ")
            ));
        }
        if let Some(x) = exact_v.filter(|x| !keep(*x)) {
            reasons.push(format!(
                "conflict: the jar names {x}, outside {}; the jar wins",
                words.join(", ")
            ));
        }
    }
    // A release published after the date in the text cannot have produced it (applied once
    // something else has bounded the version from below).
    if let Some(date) = date.and_then(|d| d.get(..10)) {
        let lower = all
            .first()
            .is_some_and(|f| cands.first().is_some_and(|c| c > f));
        if lower {
            let before = cands.clone();
            if narrow(&mut cands, &|v| !released_after(k, v, date)) && cands != before {
                if let Some(last) = cands.last() {
                    let first_newer = before.iter().find(|v| *v > last);
                    reasons.push(match first_newer {
                        Some(n) => format!(
                            "{last} or earlier: the text is dated {date}, before {n} was released"
                        ),
                        None => format!("{last} or earlier: the text is dated {date}"),
                    });
                }
            }
        }
    }
    // Line numbers: a frame below the top is printed at the call it is making.
    for e in line_evidence(k, trace) {
        let possible = e.possible.clone();
        let applied = narrow(&mut cands, &|v| possible.binary_search(&v).is_ok());
        let reason = if e.printers.is_empty() {
            format!(
                "not a release checked ({}): {} is printed by none of them (another release, or a patched build)",
                runs(k, &k.checked),
                e.what
            )
        } else {
            let unchecked: Vec<Version> = e
                .possible
                .iter()
                .copied()
                .filter(|v| k.checked.binary_search(v).is_err())
                .collect();
            let mut r = format!(
                "{}: {} is printed by {}",
                describe(&e.possible, &all).2,
                e.what,
                runs(k, &e.printers)
            );
            if !unchecked.is_empty() {
                r.push_str(&format!(
                    " (of the releases checked; {} unchecked)",
                    runs(k, &unchecked)
                ));
            }
            r
        };
        reasons.push(reason);
        if !applied {
            reasons.push(format!(
                "conflict: {} contradicts the other evidence ({}); not used",
                e.what,
                describe(&cands, &all).2
            ));
        }
        if let Some(x) = exact_v.filter(|x| e.possible.binary_search(x).is_err()) {
            reasons.push(format!(
                "conflict: the jar names {x}, which prints {} differently; the jar wins (a patched build?)",
                e.what
            ));
        }
    }
    let (lo, hi, summary) = describe(&cands, &all);
    match &exact {
        Some((v, _)) => FlinkVersion {
            exact: Some(v.clone()),
            min: lo.map(|v| v.to_string()),
            max: hi.map(|v| v.to_string()),
            summary: v.clone(),
            reasons,
        },
        None => FlinkVersion {
            exact: None,
            min: lo.map(|v| v.to_string()),
            max: hi.map(|v| v.to_string()),
            summary,
            reasons,
        },
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
