//! Inferring the Flink version from a trace: exact from log4j2 jar suffixes
//! (`~[flink-dist_2.11-1.13.2.jar:1.13.2]`), otherwise a range of known releases narrowed by
//! frames that exist only in some versions, by the release dates when the text carries a date
//! (a release newer than the text cannot have produced it), and by the line numbers of
//! well-known frames (`Task.run(Task.java:566)` is printed by 1.13.x only): all from
//! `knowledge/version-hints.toml` (`knowledge/line-numbers.md` says how the lines were read).

use crate::glob;
use crate::glob::Glob;
use crate::model::Trace;
use regex::Regex;
use serde::Serialize;
use std::sync::OnceLock;

/// A Flink version `major.minor.patch`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Version(pub u32, pub u32, pub u32);

impl Version {
    /// Parses `1.13`, `1.13.2` (a missing patch is 0). Errors give `None`.
    pub fn parse(s: &str) -> Option<Version> {
        crate::rules::schema::version_triple(s).map(|(a, b, c)| Version(a, b, c))
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
    /// Lowest possible release (`1.13.0`), when bounded from below; `exact` when there is one.
    pub min: Option<String>,
    /// Highest possible release (`1.13.2`), when bounded from above; `exact` when there is one.
    pub max: Option<String>,
    /// The range in words (`1.13.0 – 1.13.2`, `1.13.2`, `1.11 or later`, `before 2.0`,
    /// `1.12.7 – 1.13.6` with releases in between ruled out), or `unknown`.
    pub summary: String,
    /// Why, one reason per line, each starting with what it allows
    /// (`1.13 or later: SnapshotStrategyRunner was added in 1.13 (FLINK-21072)`,
    /// `1.14.0 – 1.14.6: Task.doRun at Task.java:766 is printed by 1.14.0 – 1.14.6`), or with
    /// `conflict:` for evidence that disagrees and was set aside.
    pub reasons: Vec<String>,
}

struct Hint {
    frame: Glob,
    min: Option<Version>,
    before: Option<Version>,
    reason: &'static str,
    source: &'static str,
}

/// A `[[hint]]` entry as bundled (its source without the repository path it may give).
struct HintDef {
    frame: &'static str,
    min: Option<Version>,
    before: Option<Version>,
    reason: &'static str,
    source: &'static str,
}

/// One `[[line]]` entry as bundled.
struct LineFact {
    /// Index into [`bundled::GROUPS`]: the entries with the same `frame` and `callee`.
    group: u16,
    frame: &'static str,
    file: &'static str,
    line: u32,
    /// Indices into [`bundled::RELEASES`], ascending.
    versions: &'static [u8],
}

/// The `[[line]]` entries of one frame and callee, as bundled.
struct GroupDef {
    /// The releases whose line is known for the group, as indices into [`bundled::RELEASES`],
    /// ascending. With a callee, every checked release (the calls to it were all read: a checked
    /// release that no entry names does not make that call there) and the releases seen in a
    /// trace naming its jar; without one, only the releases that the entries name (other calls
    /// of the frame were not read).
    checked: &'static [u8],
    /// Glob over `class.method` of the frame above (`new <class>`: the frame is the top of a
    /// throwable whose class matches); `None`: any frame below the top.
    callee: Option<&'static str>,
}

/// The knowledge of `knowledge/version-hints.toml`, as `build.rs` bundles it: Rust statics
/// (`OUT_DIR/version-knowledge.rs`), nothing to parse or index at the first diagnosis (issue 13:
/// parsing and indexing 191 KB of JSON took 45–100 ms of the page's first diagnosis).
mod bundled {
    use super::{GroupDef, HintDef, LineFact, Version};
    include!(concat!(env!("OUT_DIR"), "/version-knowledge.rs"));
}

struct Knowledge {
    hints: Vec<Hint>,
    /// Each group's callee ([`GroupDef::callee`]) compiled on first use, with whether it is a
    /// `new <class>`; `None` inside when it does not compile (its entries are then left out).
    callees: Vec<OnceLock<Option<(Glob, bool)>>>,
    /// Every known release, sorted, with its date when known.
    releases: &'static [(Version, Option<&'static str>)],
}

impl Knowledge {
    /// The entries of the frame `class.method`, in file order.
    fn lines_of(&self, frame: &str) -> &'static [LineFact] {
        let lines = &bundled::LINES[..];
        let start = lines.partition_point(|l| l.frame < frame);
        let end = start + lines[start..].partition_point(|l| l.frame == frame);
        &lines[start..end]
    }

    /// Whether some entry speaks of a frame of `class`.
    fn has_class(&self, class: &str) -> bool {
        bundled::CLASSES.binary_search(&class).is_ok()
    }

    /// The releases of `indices` (into `releases`).
    fn versions<'a>(&'a self, indices: &'a [u8]) -> impl Iterator<Item = Version> + 'a {
        indices
            .iter()
            .filter_map(|&i| self.releases.get(usize::from(i)).map(|r| r.0))
    }

    /// The callee glob of group `g`, compiled once; `None` for a group without one.
    fn callee(&self, g: usize) -> Result<Option<&(Glob, bool)>, ()> {
        let (Some(def), Some(cell)) = (bundled::GROUPS.get(g), self.callees.get(g)) else {
            return Err(());
        };
        let Some(c) = def.callee else {
            return Ok(None);
        };
        cell.get_or_init(|| glob::compile(c).ok().map(|g| (g, c.starts_with("new "))))
            .as_ref()
            .map(Some)
            .ok_or(())
    }
}

fn knowledge() -> &'static Knowledge {
    static K: OnceLock<Knowledge> = OnceLock::new();
    K.get_or_init(|| Knowledge {
        hints: bundled::HINTS
            .iter()
            .filter_map(|h| {
                Some(Hint {
                    frame: glob::compile(h.frame).ok()?,
                    min: h.min,
                    before: h.before,
                    reason: h.reason,
                    source: h.source,
                })
            })
            .collect(),
        callees: bundled::GROUPS.iter().map(|_| OnceLock::new()).collect(),
        releases: &bundled::RELEASES,
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

/// Whether `jar` (`flink-dist_2.11-1.13.2.jar:1.13.2`) is one of Flink's own artifacts, whose
/// version is Flink's: `flink-dist`, the table, runtime, RPC, client, file-system, format and
/// state-backend modules, and the connectors that were released with Flink (`flink-connector-
/// kafka_2.11-1.11.1`, `flink-connector-base-1.17.2`). Not connectors released on their own
/// (`flink-connector-mysql-cdc-1.4.0`, `flink-doris-connector-1.14_2.12-1.1.1`: their own
/// version; an externalized `flink-sql-connector-kafka-3.4.0-1.20` has no three-part version
/// before `.jar` and is not read either) nor `flink-shaded-*` (the shaded library's). Seen in tests/corpus (a tester read Doris's 1.1.1 as Flink's, 2026-12-02).
fn flinks_own_jar(jar: &str) -> bool {
    const OWN: &[&str] = &[
        "dist",
        "table",
        "runtime",
        "streaming-",
        "clients",
        "rpc-",
        "python",
        "sql-client",
        "sql-gateway",
        "sql-jdbc-driver",
        "statebackend-",
        "state-",
        "changelog",
        "dstl",
        "queryable",
        "metrics-",
        "cep",
        "gelly",
        "core",
        "java",
        "scala",
        "optimizer",
        "yarn",
        "kubernetes",
        "s3-fs-",
        "azure-fs-",
        "gs-fs-",
        "oss-fs-",
        "hadoop-fs",
        "csv",
        "json",
        "avro",
        "parquet",
        "orc",
        "connector-base",
        "connector-files",
        "connector-kafka",
        "connector-jdbc",
        "connector-hive",
        "connector-hbase",
        "connector-elasticsearch",
        "connector-kinesis",
        "connector-cassandra",
        "connector-rabbitmq",
        "connector-filesystem",
        "sql-connector-kafka",
        "sql-connector-hive",
        "sql-connector-hbase",
        "sql-connector-elasticsearch",
        "sql-connector-kinesis",
    ];
    let Some(name) = jar.strip_prefix("flink-") else {
        return false;
    };
    if name.contains("cdc") || name.starts_with("shaded") {
        return false;
    }
    // The module's name ends where its Scala suffix or version starts.
    let module_end = name
        .char_indices()
        .find(|&(i, c)| {
            c == '_' || (c == '-' && name[i + 1..].starts_with(|d: char| d.is_ascii_digit()))
        })
        .map_or(name.len(), |(i, _)| i);
    let module = &name[..module_end];
    OWN.iter().any(|o| {
        if let Some(prefix) = o.strip_suffix('-') {
            module == prefix || module.starts_with(o)
        } else {
            module == *o || module.starts_with(&format!("{o}-"))
        }
    })
}

/// What one printed frame's line says: the releases that can print it.
struct LineEvidence {
    /// `Task.run at Task.java:566`.
    what: String,
    /// Checked releases that print it (empty: none does).
    printers: Vec<Version>,
    /// Known releases that may have printed it: `printers` and the releases whose line is not
    /// known next to them (or every such release when no known one prints it).
    possible: Vec<Version>,
    /// The releases whose line for this frame is known.
    checked: Vec<Version>,
}

/// Releases that may print a frame that the releases `printers` print, given the releases
/// `checked` whose line for it is known: `printers`, and each release not in `checked` that no
/// checked release separates from a checked printer (line numbers move with the code, so a
/// release between two checked ones that print a line is taken to print it too, and one next
/// to a checked printer may). When no release is known to print it, every release not in
/// `checked` may.
fn possible_releases(k: &Knowledge, checked: &[Version], printers: &[Version]) -> Vec<Version> {
    // All three lists are sorted: one merge (a 1 MB text of 138 traces spent 106 M of its
    // 880 M instructions in a binary search per release here).
    let mut checked_prints = Vec::with_capacity(checked.len());
    let mut q = 0;
    for c in checked {
        while printers.get(q).is_some_and(|p| p < c) {
            q += 1;
        }
        checked_prints.push(printers.get(q) == Some(c));
    }
    let (mut p, mut c) = (0, 0);
    let mut out = Vec::new();
    for (v, _) in k.releases {
        while printers.get(p).is_some_and(|x| x < v) {
            p += 1;
        }
        while checked.get(c).is_some_and(|x| x < v) {
            c += 1;
        }
        let keep = if printers.get(p) == Some(v) {
            true
        } else if checked.get(c) == Some(v) {
            false
        } else {
            // `c` checked releases come before `v`: its neighbours are `c - 1` and `c`.
            printers.is_empty()
                || c.checked_sub(1)
                    .and_then(|i| checked_prints.get(i))
                    .is_some_and(|b| *b)
                || checked_prints.get(c).is_some_and(|b| *b)
        };
        if keep {
            out.push(*v);
        }
    }
    out
}

/// The versions in both `a` and `b`, each sorted ascending without repeats; sorted.
fn sorted_intersection(a: &[Version], b: &[Version]) -> Vec<Version> {
    let mut out = Vec::with_capacity(a.len().min(b.len()));
    let (mut i, mut j) = (0, 0);
    while let (Some(x), Some(y)) = (a.get(i), b.get(j)) {
        match x.cmp(y) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                out.push(*x);
                i += 1;
                j += 1;
            }
        }
    }
    out
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
            if !k.has_class(f.class.as_str()) {
                continue;
            }
            let qm = f.qualified_method();
            let entries = k.lines_of(&qm);
            if entries.is_empty() {
                continue;
            }
            let above = match i.checked_sub(1).and_then(|j| frames.get(j)) {
                Some(c) => c.qualified_method(),
                None => format!("new {}", t.class),
            };
            let Some((printers, possible, checked)) =
                frame_evidence_cached(k, qm, file, line, i == 0, above)
            else {
                continue;
            };
            let what = format!("{}.{} at {file}:{line}", f.simple_class(), f.method);
            if out.iter().any(|e| e.what == what) {
                continue;
            }
            out.push(LineEvidence {
                what,
                printers,
                possible,
                checked,
            });
        }
    }
    out
}

/// What the line of one frame says (`printers`, `possible`, `checked` of a [`LineEvidence`]):
/// the frame `qm` (`class.method`) printed at `file:line`, at the top of its throwable or not,
/// below the frame `above` (`class.method`, or `new <class>` at the top). `None` when no entry
/// applies or the line says nothing.
type FrameEvidence = Option<(Vec<Version>, Vec<Version>, Vec<Version>)>;

/// A frame as [`frame_evidence_cached`] remembers it: qualified method, file, line, whether it
/// is the top frame, the frame above.
type EvidenceKey = (String, String, u32, bool, String);

thread_local! {
    /// What [`frame_evidence_cached`] remembers.
    static SEEN: std::cell::RefCell<std::collections::HashMap<EvidenceKey, FrameEvidence>> =
        std::cell::RefCell::new(std::collections::HashMap::new());
}

/// Forgets the version evidence remembered of the frames seen so far on this thread (the
/// diagnosis worker's warm-up runs the example: what it saw must not speed up a person's text
/// that shares its frames, nor the budgets' measure of it).
pub fn forget_remembered_frames() {
    SEEN.with(|s| s.borrow_mut().clear());
}

/// [`frame_evidence`], remembered: the traces of one log repeat their frames (a 1 MB text of
/// 137 traces spent a third of its diagnosis's 470 M instructions working the same lines out
/// again). At most 4,096 frames are kept; then the memory starts again.
fn frame_evidence_cached(
    k: &Knowledge,
    qm: String,
    file: &str,
    line: u32,
    top: bool,
    above: String,
) -> FrameEvidence {
    let key: EvidenceKey = (qm, file.to_owned(), line, top, above);
    if let Some(found) = SEEN.with(|s| s.borrow().get(&key).cloned()) {
        return found;
    }
    let evidence = frame_evidence(k, &key.0, file, line, top, &key.4);
    SEEN.with(|s| {
        let mut s = s.borrow_mut();
        if s.len() >= 4096 {
            s.clear();
        }
        s.insert(key, evidence.clone());
    });
    evidence
}

/// See [`FrameEvidence`].
fn frame_evidence(
    k: &Knowledge,
    qm: &str,
    file: &str,
    line: u32,
    top: bool,
    above: &str,
) -> FrameEvidence {
    // The entries of a group share their callee: match it once per group.
    let mut callee_ok: Vec<(u16, bool)> = Vec::new();
    let mut facts: Vec<&LineFact> = Vec::new();
    for l in k.lines_of(qm) {
        if l.file != file {
            continue;
        }
        let ok = match callee_ok.iter().find(|(g, _)| *g == l.group) {
            Some(&(_, ok)) => ok,
            None => {
                let ok = match k.callee(usize::from(l.group)) {
                    Err(()) => false,
                    Ok(None) => !top,
                    Ok(Some((re, new))) => *new == top && re.is_match(above),
                };
                callee_ok.push((l.group, ok));
                ok
            }
        };
        if ok {
            facts.push(l);
        }
    }
    if facts.is_empty() {
        return None;
    }
    let mut printers: Vec<Version> = facts
        .iter()
        .filter(|l| l.line == line)
        .flat_map(|l| k.versions(l.versions))
        .collect();
    printers.sort();
    printers.dedup();
    // The releases whose line is known for one of the groups that apply.
    let mut checked: Vec<Version> = Vec::new();
    let mut complete = false;
    // Many facts share a group (one per line number): visit each group once.
    let mut groups: Vec<u16> = facts.iter().map(|l| l.group).collect();
    groups.sort_unstable();
    groups.dedup();
    for g in groups
        .iter()
        .filter_map(|&g| bundled::GROUPS.get(usize::from(g)))
    {
        checked.extend(k.versions(g.checked));
        complete |= g.callee.is_some();
    }
    checked.sort_unstable();
    checked.dedup();
    if printers.is_empty() && !complete {
        // Another call than the ones read: the line says nothing.
        return None;
    }
    let possible = possible_releases(k, &checked, &printers);
    Some((printers, possible, checked))
}

/// `1.14.0 – 1.14.6, 1.16.1` for `vs`: runs of consecutive known releases joined.
fn runs(k: &Knowledge, vs: &[Version]) -> String {
    let all: Vec<Version> = k.releases.iter().map(|(v, _)| *v).collect();
    let mut parts: Vec<String> = Vec::new();
    let mut run: Option<(Version, Version, usize)> = None;
    let flush = |run: Option<(Version, Version, usize)>, parts: &mut Vec<String>| {
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

/// [`FlinkVersion::summary`] when nothing bounds the version.
pub const SUMMARY_UNKNOWN: &str = "unknown";
/// After a release in [`FlinkVersion::summary`]: `1.11 or later`.
pub const SUMMARY_OR_LATER: &str = " or later";
/// After a release in [`FlinkVersion::summary`]: `1.12.7 or earlier`.
pub const SUMMARY_OR_EARLIER: &str = " or earlier";
/// Before a release in [`FlinkVersion::summary`]: `before 2.0`.
pub const SUMMARY_BEFORE: &str = "before ";

/// The range `vs` (sorted, known releases) in words, with its bounds: a side is bounded only when
/// the oldest or the newest known release is ruled out.
fn describe(k: &Knowledge, vs: &[Version]) -> (Option<Version>, Option<Version>, String) {
    let all: Vec<Version> = k.releases.iter().map(|(v, _)| *v).collect();
    let (Some(&lo), Some(&hi)) = (vs.first(), vs.last()) else {
        return (None, None, SUMMARY_UNKNOWN.to_owned());
    };
    let lower = all.first().is_some_and(|f| lo > *f);
    let upper = all.last().is_some_and(|l| hi < *l);
    match (lower, upper) {
        (true, true) if lo == hi => (Some(lo), Some(hi), lo.to_string()),
        (true, true) => {
            // Runs of consecutive releases when there are a few (`1.13.5 – 1.13.6, 1.19.0 –
            // 1.19.3`), otherwise the hull.
            let words = runs(k, vs);
            let words = if words.matches(", ").count() < 3 {
                words
            } else {
                format!("{lo} – {hi}")
            };
            (Some(lo), Some(hi), words)
        }
        (true, false) => (Some(lo), None, format!("{}{SUMMARY_OR_LATER}", short(lo))),
        (false, true) => {
            let next = all.iter().find(|v| **v > hi);
            let words = match next {
                Some(n) if n.2 == 0 => format!("{SUMMARY_BEFORE}{}.{}", n.0, n.1),
                _ => format!("{hi}{SUMMARY_OR_EARLIER}"),
            };
            (None, Some(hi), words)
        }
        (false, false) => (None, None, SUMMARY_UNKNOWN.to_owned()),
    }
}

/// Infers the version from `trace`'s frames and the `date` printed with it (`YYYY-MM-DD…`).
///
/// The evidence, strongest first: a Flink jar's version in log4j2's extended frames (exact,
/// and it wins over anything else); frames that exist only in some versions; the date (a
/// release newer than the text cannot have produced it); the line numbers of well-known
/// frames. Each narrows the set of known releases; one that would leave none is not used and
/// a reason says so, as does a line that disagrees with the jar.
#[inline(never)]
pub fn infer(trace: &Trace, date: Option<&str>) -> FlinkVersion {
    let frames = || trace.throwables.iter().flat_map(|t| t.printed_frames());
    let mut reasons = Vec::new();
    // Exact: a Flink jar's version in a log4j2 extended frame.
    let exact = frames().find_map(|f| {
        let jar = f.jar.as_deref()?;
        if !flinks_own_jar(jar) {
            return None;
        }
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
    let narrow = |cands: &mut Vec<Version>, keep: &dyn Fn(Version) -> bool| -> bool {
        let next: Vec<Version> = cands.iter().copied().filter(|v| keep(*v)).collect();
        if next.is_empty() {
            return false;
        }
        *cands = next;
        true
    };
    // Frames that exist only in some versions. Only the hints that set the final bounds are
    // told (a `1.10 or later` says nothing next to a `1.13 or later`).
    let mut told: Vec<(Option<Version>, Option<Version>, String)> = Vec::new();
    // What points away from the version the jar names.
    let mut jar_conflicts: Vec<String> = Vec::new();
    // The first printed frame each hint matches, in one pass over the frames.
    let mut first: Vec<Option<&crate::model::Frame>> = vec![None; k.hints.len()];
    for f in frames() {
        let method = f.qualified_method();
        for (slot, hint) in first.iter_mut().zip(&k.hints) {
            if slot.is_none() && hint.frame.is_match(&method) {
                *slot = Some(f);
            }
        }
    }
    for (hint, f) in k.hints.iter().zip(first) {
        let Some(f) = f else {
            continue;
        };
        let (min, before) = (hint.min, hint.before);
        if min.is_none() && before.is_none() {
            continue;
        }
        let keep = |v: Version| min.is_none_or(|m| v >= m) && before.is_none_or(|b| v < b);
        let words = bound_words(min, before);
        if !narrow(&mut cands, &keep) {
            reasons.push(format!(
                "conflict: {words}: {} ({}) contradicts the other frames; not used",
                hint.reason, hint.source
            ));
            continue;
        }
        if exact_v.is_some_and(|x| !keep(x)) {
            jar_conflicts.push(format!("{}.{} ({words})", f.simple_class(), f.method));
        }
        told.push((min, before, format!("{} ({})", hint.reason, hint.source)));
    }
    let max_min = told.iter().filter_map(|t| t.0).max();
    let min_before = told.iter().filter_map(|t| t.1).min();
    for (min, before, why) in told {
        let binding_min = min.filter(|m| Some(*m) == max_min);
        let binding_before = before.filter(|b| Some(*b) == min_before);
        if binding_min.is_some() || binding_before.is_some() {
            reasons.push(format!(
                "{}: {why}",
                bound_words(binding_min, binding_before)
            ));
        }
    }
    // Line numbers: a frame below the top is printed at the call it is making. Frames that
    // point at the same releases are told together, the most telling first.
    let mut groups: Vec<(LineEvidence, Vec<String>)> = Vec::new();
    for e in line_evidence(k, trace) {
        match groups
            .iter_mut()
            .find(|g| g.0.possible == e.possible && g.0.printers == e.printers)
        {
            Some(g) => g.1.push(e.what),
            None => {
                let what = e.what.clone();
                groups.push((e, vec![what]));
            }
        }
    }
    groups.sort_by_key(|g| (g.0.printers.is_empty(), g.0.possible.len()));
    for (i, (e, whats)) in groups.iter().enumerate() {
        let (possible, printers) = (&e.possible, &e.printers);
        // Both sorted: a merge, not a search per candidate (a 1 MB text of 138 traces spent
        // 118 M of its 880 M instructions here).
        let next = sorted_intersection(&cands, possible);
        let applied = !next.is_empty();
        let changed = applied && next.len() != cands.len();
        if applied {
            cands = next;
        }
        let frames_told = frame_list(whats);
        let verb = if whats.len() == 1 { "is" } else { "are" };
        if printers.is_empty() {
            if changed {
                reasons.push(format!(
                    "not one of the releases read for {}: {frames_told} {verb} printed by none of {} (another release, or a patched build)",
                    if whats.len() == 1 { "it" } else { "them" },
                    runs(k, &e.checked)
                ));
            }
        } else if !applied || changed || i == 0 {
            // `possible` holds the printers and releases whose line is not known.
            let unknown: Vec<Version> = possible
                .iter()
                .copied()
                .filter(|v| !printers.contains(v))
                .collect();
            let mut r = format!(
                "{}: {frames_told} {verb} printed by {}",
                runs(k, possible),
                runs(k, printers)
            );
            if !unknown.is_empty() {
                r.push_str(&format!(
                    " among the releases read (not read: {})",
                    runs(k, &unknown)
                ));
            }
            reasons.push(r);
        }
        if !applied {
            reasons.push(format!(
                "conflict: {frames_told} contradicts the other evidence ({}); not used",
                describe(k, &cands).2
            ));
        }
        if exact_v.is_some_and(|x| possible.binary_search(&x).is_err()) {
            jar_conflicts.extend(whats.iter().map(|w| format!("{w} ({})", runs(k, possible))));
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
            if !narrow(&mut cands, &|v| !released_after(k, v, date)) {
                reasons.push(format!(
                    "conflict: the text is dated {date}, before any of {} was released; the date is not used",
                    describe(k, &cands).2
                ));
            } else if cands != before {
                let later: Vec<Version> = before
                    .iter()
                    .copied()
                    .filter(|v| cands.binary_search(v).is_err())
                    .collect();
                reasons.push(format!(
                    "{}: the text is dated {date}, before {} came out",
                    describe(k, &cands).2,
                    runs(k, &later)
                ));
            }
        }
    }
    if let Some((v, _)) = exact {
        // The jar is authoritative: only what contradicts it is worth telling.
        let mut told = reasons.into_iter().take(1).collect::<Vec<_>>();
        if !jar_conflicts.is_empty() {
            const SHOWN: usize = 3;
            let mut list = jar_conflicts
                .iter()
                .take(SHOWN)
                .cloned()
                .collect::<Vec<_>>()
                .join("; ");
            if jar_conflicts.len() > SHOWN {
                list.push_str(&format!("; and {} more", jar_conflicts.len() - SHOWN));
            }
            told.push(format!(
                "conflict: the jar names {v}, but other releases print {list}; the jar wins (a patched build, or text from several runs?)"
            ));
        }
        return FlinkVersion {
            exact: Some(v.clone()),
            min: Some(v.clone()),
            max: Some(v.clone()),
            summary: v,
            reasons: told,
        };
    }
    let (lo, hi, summary) = describe(k, &cands);
    FlinkVersion {
        exact: None,
        min: lo.map(|v| v.to_string()),
        max: hi.map(|v| v.to_string()),
        summary,
        reasons,
    }
}

/// `1.13 or later`, `before 2.0`, `1.13 or later, before 1.14`.
fn bound_words(min: Option<Version>, before: Option<Version>) -> String {
    match (min, before) {
        (Some(m), Some(b)) => format!("{} or later, before {}", short(m), short(b)),
        (Some(m), None) => format!("{} or later", short(m)),
        (None, Some(b)) => format!("before {}", short(b)),
        (None, None) => String::new(),
    }
}

/// `Task.run at Task.java:566, … and 3 more frames`.
fn frame_list(whats: &[String]) -> String {
    const SHOWN: usize = 3;
    let mut s = whats
        .iter()
        .take(SHOWN)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if whats.len() > SHOWN {
        let more = whats.len() - SHOWN;
        s.push_str(&format!(
            " and {more} more frame{}",
            if more == 1 { "" } else { "s" }
        ));
    }
    s
}

/// [`mismatch`] as the English sentence ([`Mismatch::sentence`]), for the tests.
#[cfg(test)]
pub fn rule_mismatch(since: Option<&str>, fixed_in: &[String], v: &FlinkVersion) -> Option<String> {
    mismatch(since, fixed_in, v).map(|m| m.sentence(&v.summary))
}

/// Why a rule probably does not apply to a trace's Flink version ([`mismatch`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum Mismatch {
    /// The failure is known from Flink `since` on (`1.15`), after the trace's version.
    Before {
        /// The first version with the failure, short (`1.15`, `1.14.3`).
        since: String,
    },
    /// The fix reached every release the trace may be.
    Fixed {
        /// The fix release of each minor line the fix reached, short, oldest first
        /// (`["1.14.6", "1.15.1"]`).
        releases: Vec<String>,
    },
}

impl Mismatch {
    /// In English, with the trace's version as read (`summary`).
    pub fn sentence(&self, summary: &str) -> String {
        match self {
            Mismatch::Before { since } => format!(
                "This failure is known from Flink {since} on, and this trace shows Flink {summary}: it probably does not apply."
            ),
            Mismatch::Fixed { releases } => {
                let list = crate::wording::join_list(releases, " and ");
                format!(
                    "This was fixed in Flink {list}{}, and this trace shows Flink {summary}: it probably does not apply.",
                    if releases.len() > 1 { " (the fix release of each line)" } else { "" },
                )
            }
        }
    }
}

/// Whether a rule that applies from Flink `since` (first version with the failure) and until
/// `fixed_in` can apply to the version `v` a trace reveals. `fixed_in` lists the first fixed
/// release of each minor line the fix reached (`["1.14.6", "1.15.1"]`): a version is fixed when
/// it is at or after the entry of its own line, or when its line is newer than every listed line
/// (those had the fix from their `.0`). Returns why the rule probably does not apply when the
/// whole inferred range lies outside; `None` when it may apply, when the version is unknown, or
/// when the rule gives no bounds. Unparsable bounds are ignored (`build.rs` rejects them in rule
/// files).
pub fn mismatch(since: Option<&str>, fixed_in: &[String], v: &FlinkVersion) -> Option<Mismatch> {
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
            return Some(Mismatch::Before {
                since: short(since),
            });
        }
    }
    let mut fixes: Vec<Version> = fixed_in.iter().filter_map(|f| Version::parse(f)).collect();
    fixes.sort();
    let (Some(last), Some(lo)) = (fixes.last().copied(), lo) else {
        return None;
    };
    let line = |x: Version| (x.0, x.1);
    let fixed = |x: Version| match fixes.iter().find(|f| line(**f) == line(x)) {
        Some(f) => x >= *f,
        None => line(x) > line(last),
    };
    // Fixed is monotonic within a minor line, and from the last listed line on.
    let whole_range_fixed =
        fixed(lo) && (line(lo) >= line(last) || hi.is_some_and(|hi| line(hi) == line(lo)));
    if !whole_range_fixed {
        return None;
    }
    Some(Mismatch::Fixed {
        releases: fixes.iter().map(|f| short(*f)).collect(),
    })
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

    /// The merge gives what the definition says, for many subsets of the real releases: a
    /// printer; else not a checked release; else every release when none prints; else one
    /// whose checked neighbour below or above prints.
    #[test]
    fn possible_releases_follow_their_definition() {
        let k = knowledge();
        let all: Vec<Version> = k.releases.iter().map(|(v, _)| *v).collect();
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut pick = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            all.iter()
                .copied()
                .filter(|_| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    seed % n == 0
                })
                .collect::<Vec<_>>()
        };
        for round in 0..300 {
            let checked = pick(2 + round % 5);
            let printers: Vec<Version> = if round % 7 == 0 {
                Vec::new()
            } else {
                checked
                    .iter()
                    .copied()
                    .filter(|v| u64::from(v.1 % 2) == round % 2)
                    .collect()
            };
            let expected: Vec<Version> = all
                .iter()
                .copied()
                .filter(|v| {
                    if printers.contains(v) {
                        return true;
                    }
                    if checked.contains(v) {
                        return false;
                    }
                    let below = checked.iter().rev().find(|c| *c < v);
                    let above = checked.iter().find(|c| *c > v);
                    printers.is_empty()
                        || below.is_some_and(|c| printers.contains(c))
                        || above.is_some_and(|c| printers.contains(c))
                })
                .collect();
            assert_eq!(
                possible_releases(k, &checked, &printers),
                expected,
                "{checked:?} {printers:?}"
            );
        }
    }

    #[test]
    fn sorted_intersections_keep_what_both_hold() {
        let v = |s: &str| Version::parse(s).expect("a version");
        let a = [v("1.13.6"), v("1.14.0"), v("1.15.2"), v("2.0.0")];
        let b = [v("1.14.0"), v("1.15.0"), v("2.0.0"), v("2.1.0")];
        assert_eq!(sorted_intersection(&a, &b), [v("1.14.0"), v("2.0.0")]);
        assert_eq!(sorted_intersection(&b, &a), [v("1.14.0"), v("2.0.0")]);
        assert!(sorted_intersection(&a, &[]).is_empty());
        assert_eq!(sorted_intersection(&a, &a), a);
    }

    #[test]
    fn hint_sources_do_not_point_into_the_repository() {
        // build.rs cuts a source's ` (knowledge/…)`, keeping the rest.
        assert!(bundled::HINTS
            .iter()
            .all(|h| !h.source.contains("knowledge/")));
        assert!(bundled::HINTS
            .iter()
            .any(|h| h.source.starts_with("flink-dist jars: absent from")));
        let d = crate::diagnose(crate::FLAGSHIP_EXAMPLE);
        let reasons = d.traces[0].flink_version.reasons.join(" ");
        assert!(!reasons.contains("knowledge/"), "{reasons}");
    }

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
        let one = ["1.13".to_owned()];
        let fixed = |v: &FlinkVersion| rule_mismatch(None, &one, v);
        assert!(fixed(&exact("1.13.2"))
            .is_some_and(|m| m.contains("fixed in Flink 1.13,") && m.contains("1.13.2")));
        assert_eq!(fixed(&exact("1.12.7")), None);
        assert_eq!(fixed(&range), None);
        assert_eq!(fixed(&FlinkVersion::default()), None, "unknown version");
        let since = |v: &FlinkVersion| rule_mismatch(Some("1.13"), &[], v);
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
    fn a_fix_backported_to_several_lines_is_judged_per_line() {
        // FLINK-27041: fixed in 1.14.6 and 1.15.1 (1.15.0 still affected), 1.16.0 on.
        let fixes = ["1.15.1".to_owned(), "1.14.6".to_owned()];
        let at = |v: &str| {
            rule_mismatch(
                None,
                &fixes,
                &FlinkVersion {
                    exact: Some(v.into()),
                    summary: v.into(),
                    ..FlinkVersion::default()
                },
            )
        };
        for fixed in ["1.14.6", "1.15.1", "1.15.4", "1.16.0", "2.0.0"] {
            assert!(
                at(fixed).is_some_and(|m| m.contains("1.14.6 and 1.15.1")),
                "{fixed}"
            );
        }
        for affected in ["1.14.5", "1.15.0", "1.13.6"] {
            assert_eq!(at(affected), None, "{affected}");
        }
        let range = |min: &str, max: &str| {
            rule_mismatch(
                None,
                &fixes,
                &FlinkVersion {
                    min: Some(min.into()),
                    max: Some(max.into()),
                    summary: format!("{min} – {max}"),
                    ..FlinkVersion::default()
                },
            )
        };
        assert!(range("1.15.1", "1.15.4").is_some());
        assert!(range("1.15.1", "1.17.2").is_some());
        assert_eq!(range("1.14.6", "1.15.0"), None, "1.15.0 is affected");
        assert_eq!(range("1.15.0", "1.15.4"), None);
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
        assert_eq!(k.hints.len(), bundled::HINTS.len(), "every hint compiles");
        assert!(k.hints.len() >= 5);
        assert!(k.releases.len() >= 10);
    }

    #[test]
    fn a_trace_without_flink_frames_is_unknown() {
        let t = &crate::parse::parse("java.lang.Error: x\n\tat a.B.c(B.java:1)\n").traces[0];
        assert_eq!(infer(t, None).summary, "unknown");
    }

    const T: &str = "org.apache.flink.runtime.taskmanager.Task";
    const ST: &str = "org.apache.flink.streaming.runtime.tasks.StreamTask";

    /// Infers the version of the first trace of `text`: `(frame, line)` pairs from the top.
    fn infer_frames(
        header: &str,
        frames: &[(&str, &str, u32)],
        date: Option<&str>,
    ) -> FlinkVersion {
        let mut text = format!("{header}\n");
        for (class, method, line) in frames {
            let file = class.rsplit('.').next().unwrap_or(class);
            let file = file.split('$').next().unwrap_or(file);
            text.push_str(&format!("\tat {class}.{method}({file}.java:{line})\n"));
        }
        text.push_str("\tat java.lang.Thread.run(Thread.java:750)\n");
        let parsed = crate::parse::parse(&text);
        infer(&parsed.traces[0], date)
    }

    /// The task-thread frames of a 1.15.0 – 1.15.2 trace (read from their flink-dist jars).
    fn task_115() -> Vec<(&'static str, &'static str, u32)> {
        vec![
            ("com.example.Map", "map", 10),
            (
                "org.apache.flink.streaming.api.operators.StreamMap",
                "processElement",
                38,
            ),
            (ST, "processInput", 519),
            (
                "org.apache.flink.streaming.runtime.tasks.mailbox.MailboxProcessor",
                "runMailboxLoop",
                203,
            ),
            (ST, "runMailboxLoop", 804),
            (ST, "invoke", 753),
            (T, "runWithSystemExitMonitoring", 948),
            (T, "restoreAndInvoke", 927),
            (T, "doRun", 741),
            (T, "run", 563),
        ]
    }

    #[test]
    fn line_numbers_narrow_to_the_releases_that_print_them() {
        let v = infer_frames("java.lang.RuntimeException: boom", &task_115(), None);
        assert_eq!(v.exact, None);
        // StreamTask.invoke moved by 3 lines in 1.15.3.
        assert_eq!(v.summary, "1.15.0 – 1.15.2", "{:#?}", v.reasons);
        assert_eq!(
            (v.min.as_deref(), v.max.as_deref()),
            (Some("1.15.0"), Some("1.15.2"))
        );
        assert!(
            v.reasons
                .iter()
                .any(|r| r.contains("StreamTask.invoke at StreamTask.java:753")),
            "{:#?}",
            v.reasons
        );
        assert!(
            v.reasons.iter().all(|r| !r.starts_with("conflict")),
            "{:#?}",
            v.reasons
        );
    }

    #[test]
    fn a_patch_release_is_told_apart_by_its_lines() {
        // 1.14.6 moved StreamTask.invoke from 761 to 758; Task.run is 575 in all of 1.14.
        let frames = [
            ("com.example.Map", "map", 10),
            (ST, "runMailboxLoop", 806),
            (ST, "invoke", 758),
            (T, "runWithSystemExitMonitoring", 958),
            (T, "restoreAndInvoke", 937),
            (T, "doRun", 766),
            (T, "run", 575),
        ];
        let v = infer_frames("java.lang.RuntimeException: boom", &frames, None);
        assert_eq!(v.summary, "1.14.6", "{:#?}", v.reasons);
        let v = infer_frames("java.lang.RuntimeException: boom", &frames[4..], None);
        // Task.doRun at 766 alone: every 1.14 release (1.14.1 was never released).
        assert_eq!(v.summary, "1.14.0 – 1.14.6", "{:#?}", v.reasons);
        assert!(v
            .reasons
            .iter()
            .any(|r| r.starts_with("1.14.0 – 1.14.6: Task.doRun at Task.java:766")));
    }

    #[test]
    fn a_line_shared_by_distant_releases_keeps_both() {
        // Task.run calls doRun at line 566 in 1.13.5 – 1.13.6 and again in 1.19.
        let v = infer_frames(
            "java.lang.RuntimeException: boom",
            &[("x.Y", "z", 1), (T, "doRun", 1), (T, "run", 566)],
            None,
        );
        let r = v
            .reasons
            .iter()
            .find(|r| r.contains("Task.run at Task.java:566"))
            .cloned()
            .unwrap_or_default();
        assert!(r.contains("1.13.5 – 1.13.6, 1.19.0 – 1.19.3"), "{r}");
        // The unread releases before 1.13.5 may print it too: 1.12.5 is the read one below.
        assert!(r.starts_with("1.12.7 – 1.13.6, 1.19.0 – 1.19.3:"), "{r}");
        // The summary keeps the gap rather than the hull 1.12.7 – 1.19.3.
        assert_eq!(v.summary, "1.12.7 – 1.13.6, 1.19.0 – 1.19.3");
        assert_eq!(
            (v.min.as_deref(), v.max.as_deref()),
            (Some("1.12.7"), Some("1.19.3"))
        );
    }

    #[test]
    fn lines_and_the_date_together() {
        // The mailing-list trace of tests/cases/seed.txt, dated 2021-08-18: Task.java 779/566 are
        // 1.13 (read in 1.13.5 and 1.13.6), the date rules out 1.13.3 and later.
        let frames = [
            ("x.Y", "z", 1),
            (ST, "invoke", 620),
            (T, "doRun", 779),
            (T, "run", 566),
        ];
        let v = infer_frames(
            "java.lang.RuntimeException: boom",
            &frames,
            Some("2021-08-18 06:18:37"),
        );
        assert_eq!(v.summary, "1.13.0 – 1.13.2", "{:#?}", v.reasons);
        assert!(
            v.reasons
                .iter()
                .any(|r| r.contains("Task.doRun at Task.java:779")),
            "{:#?}",
            v.reasons
        );
        assert!(v
            .reasons
            .iter()
            .any(|r| r.contains("the text is dated 2021-08-18")));
    }

    #[test]
    fn only_flink_s_own_jars_give_flink_s_version() {
        for own in [
            "flink-dist_2.11-1.13.2.jar:1.13.2",
            "flink-dist-1.17.2.jar:1.17.2",
            "flink-rpc-akka_a1b2.jar:1.14.0",
            "flink-connector-kafka_2.11-1.11.1.jar",
            "flink-connector-kafka-base_2.11-1.11.1.jar",
            "flink-connector-base-1.17.2.jar:1.17.2",
            "flink-table-api-java-uber-1.16.1.jar:1.16.1",
            "flink-s3-fs-presto-1.15.2.jar:1.15.2",
            "flink-sql-jdbc-driver-bundle-1.20.2-mac.jar:1.20.2",
        ] {
            assert!(flinks_own_jar(own), "{own}");
        }
        // tests/corpus: a Doris connector's and Ververica CDC's own versions, a shaded library's.
        for other in [
            "flink-doris-connector-1.14_2.12-1.1.1.jar:1.1.1",
            "flink-connector-mysql-cdc-1.4.0.jar:1.4.0",
            "flink-sql-connector-mysql-cdc-2.2.1.jar:2.2.1",
            "flink-shaded-zookeeper-3.4.14.jar:3.4.14-11.0",
        ] {
            assert!(!flinks_own_jar(other), "{other}");
        }
        let t = crate::parse::parse("java.lang.RuntimeException: x\n\tat org.apache.doris.flink.sink.writer.DorisStreamLoad.load(DorisStreamLoad.java:1) ~[flink-doris-connector-1.14_2.12-1.1.1.jar:1.1.1]\n").traces.remove(0);
        assert_eq!(infer(&t, None).exact, None);
    }

    #[test]
    fn the_jar_wins_over_lines_and_the_conflict_is_told() {
        let text = format!(
            "java.lang.RuntimeException: boom\n\tat x.Y.z(Y.java:1)\n\tat {T}.doRun(Task.java:745) ~[flink-dist-1.17.2.jar:1.17.2]\n\tat {T}.run(Task.java:575) ~[flink-dist-1.17.2.jar:1.17.2]\n"
        );
        let parsed = crate::parse::parse(&text);
        let v = infer(&parsed.traces[0], None);
        assert_eq!(v.exact.as_deref(), Some("1.17.2"));
        assert_eq!(v.summary, "1.17.2");
        assert!(v.reasons[0].starts_with("1.17.2: the frames name the jar"));
        // Task.run at 575 is 1.14 or 1.20, never 1.17.2.
        assert!(
            v.reasons
                .iter()
                .any(|r| r.starts_with("conflict: the jar names 1.17.2")
                    && r.contains("Task.run at Task.java:575")),
            "{:#?}",
            v.reasons
        );
    }

    #[test]
    fn contradicting_lines_do_not_empty_the_range() {
        // Task.run of 1.15 under StreamTask.invoke of 1.17: one is set aside, and said so.
        let frames = [
            ("x.Y", "z", 1),
            (ST, "runMailboxLoop", 839),
            (ST, "invoke", 788),
            (T, "runWithSystemExitMonitoring", 952),
            (T, "restoreAndInvoke", 931),
            (T, "doRun", 741),
            (T, "run", 563),
        ];
        let v = infer_frames("java.lang.RuntimeException: boom", &frames, None);
        assert!(v.min.is_some() && v.max.is_some(), "{v:#?}");
        assert!(
            v.summary == "1.17.0 – 1.17.2" || v.summary == "1.15.0 – 1.15.4",
            "{v:#?}"
        );
        assert!(
            v.reasons
                .iter()
                .any(|r| r.starts_with("conflict:") && r.contains("not used")),
            "{:#?}",
            v.reasons
        );
    }

    #[test]
    fn the_top_frame_is_matched_where_the_exception_was_made() {
        // `Recovery is suppressed` is made in ExecutionFailureHandler.handleFailure (1.13 – 1.15:
        // line 138); the frame is the top one, printed at the constructor call.
        let efh = "org.apache.flink.runtime.executiongraph.failover.flip1.ExecutionFailureHandler";
        let frames = [
            (efh, "handleFailure", 138),
            (efh, "getFailureHandlingResult", 82),
        ];
        let v = infer_frames(
            "org.apache.flink.runtime.JobException: Recovery is suppressed by NoRestartBackoffTimeStrategy",
            &frames,
            None,
        );
        assert_eq!(v.summary, "1.12.7 – 1.15.4", "{:#?}", v.reasons);
        assert!(v.reasons.iter().any(|r| r.contains(
            "ExecutionFailureHandler.handleFailure at ExecutionFailureHandler.java:138"
        )));
        // The same frame below the top is a call, not the constructor: no line hint applies.
        let v = infer_frames(
            "java.lang.RuntimeException: boom",
            &[("x.Y", "z", 1), (efh, "handleFailure", 138)],
            None,
        );
        assert!(
            v.reasons.iter().all(|r| !r.contains("java:138")),
            "{:#?}",
            v.reasons
        );
    }

    #[test]
    fn an_unknown_line_of_a_read_frame_rules_out_the_releases_read() {
        // Task.run makes one call (doRun): a line no release read prints is from another one.
        let v = infer_frames(
            "java.lang.RuntimeException: boom",
            &[("x.Y", "z", 1), (T, "doRun", 1), (T, "run", 1)],
            None,
        );
        assert!(
            v.reasons
                .iter()
                .any(|r| r.starts_with("not one of the releases read")
                    && r.contains("Task.run at Task.java:1")),
            "{:#?}",
            v.reasons
        );
        assert_eq!(v.summary, "1.13.3 or earlier");
    }

    #[test]
    fn frames_without_line_knowledge_stay_unknown() {
        let v = infer_frames(
            "java.lang.RuntimeException: boom",
            &[
                (
                    "org.apache.flink.streaming.api.operators.StreamMap",
                    "processElement",
                    38,
                ),
                ("org.apache.flink.example.Unknown", "run", 12),
            ],
            None,
        );
        assert_eq!(v.summary, "unknown", "{:#?}", v.reasons);
        assert!(v.reasons.is_empty());
        assert_eq!((v.min, v.max), (None, None));
    }

    #[test]
    fn existence_windows_bound_the_range() {
        // Pekko RPC frames are 1.18 or later; flip1 failover frames are before 1.19.
        let v = infer_frames(
            "java.lang.RuntimeException: boom",
            &[
                ("org.apache.flink.runtime.rpc.pekko.PekkoRpcActor", "handleRpcInvocation", 1),
                ("org.apache.flink.runtime.executiongraph.failover.flip1.ExecutionFailureHandler", "x", 1),
            ],
            None,
        );
        assert_eq!(v.summary, "1.18.0 – 1.18.1", "{:#?}", v.reasons);
        let v = infer_frames(
            "java.lang.RuntimeException: boom",
            &[(
                "org.apache.flink.runtime.rpc.akka.AkkaRpcActor",
                "handleRpcInvocation",
                1,
            )],
            None,
        );
        assert_eq!(v.summary, "before 1.18", "{:#?}", v.reasons);
        // Hints that contradict each other: the second is not used, and a reason says so.
        let v = infer_frames(
            "java.lang.RuntimeException: boom",
            &[
                (
                    "org.apache.flink.runtime.rpc.pekko.PekkoRpcActor",
                    "handleRpcInvocation",
                    1,
                ),
                (
                    "org.apache.flink.runtime.rpc.akka.AkkaRpcActor",
                    "handleRpcInvocation",
                    1,
                ),
            ],
            None,
        );
        assert!(
            ["before 1.18", "1.18 or later"].contains(&v.summary.as_str()),
            "{:#?}",
            v.reasons
        );
        assert!(v
            .reasons
            .iter()
            .any(|r| r.starts_with("conflict: before 1.18")
                || r.starts_with("conflict: 1.18 or later")));
    }

    #[test]
    fn a_release_without_a_date_follows_the_dated_ones() {
        let k = knowledge();
        // 1.18.1 has no date here, but comes after 1.18.0 (2023-10-25).
        assert!(released_after(k, Version(1, 18, 1), "2023-01-01"));
        assert!(!released_after(k, Version(1, 17, 2), "2024-01-01"));
        // 1.12.7 (2021-12-16) came out after 1.13.0 (2021-04-30).
        assert!(released_after(k, Version(1, 12, 7), "2021-08-18"));
        assert!(!released_after(k, Version(1, 13, 2), "2021-08-18"));
    }

    #[test]
    fn line_hints_are_well_formed() {
        let k = knowledge();
        let lines = &bundled::LINES;
        assert!(lines.len() >= 300, "{}", lines.len());
        assert!(lines.windows(2).all(|w| w[0].frame <= w[1].frame));
        for l in lines {
            assert!(!l.versions.is_empty(), "{} {}", l.frame, l.line);
            assert!(l.file.ends_with(".java") && l.line > 0);
            assert!(l
                .versions
                .iter()
                .all(|&v| usize::from(v) < k.releases.len()));
            assert!(l.versions.windows(2).all(|w| w[0] < w[1]));
            assert!(bundled::GROUPS.get(usize::from(l.group)).is_some());
            assert!(k.has_class(l.frame.rsplit_once('.').map_or("", |c| c.0)));
            assert_eq!(k.lines_of(l.frame).first().map(|f| f.frame), Some(l.frame));
        }
        for g in 0..bundled::GROUPS.len() {
            assert!(k.callee(g).is_ok(), "every callee compiles");
        }
        assert!(k.releases.windows(2).all(|w| w[0].0 < w[1].0));
        // Every release read for the line numbers is known (and Task.run is read in each).
        let run: Vec<Version> = k
            .lines_of(&format!("{T}.run"))
            .iter()
            .flat_map(|l| k.versions(l.versions))
            .collect();
        assert!(run.len() >= 45, "{}", run.len());
    }
}
