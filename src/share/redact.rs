//! Redaction before sharing: finds what a pasted text reveals about people and infrastructure
//! (host names, IP addresses, e-mail addresses, user names, YARN / Flink / container ids,
//! passwords and tokens) and replaces it with consistent placeholders.
//!
//! Pure and UI-free. [`find`] returns [`Redaction`]s (byte spans into the text, sorted, never
//! overlapping) that a page can preview ([`preview`], [`summary`]) and filter by [`Kind`] before
//! [`apply`]ing them. [`redact`] does both in one call.
//!
//! Placeholders are consistent: the same original value gets the same placeholder everywhere in
//! the text, so "the same host failed twice" survives. They keep the shape where it helps
//! reading and never look like a real value, so redacting a redacted text finds nothing new:
//! IPs become documentation addresses (`192.0.2.1`, then `198.51.100.x`, `203.0.113.x`,
//! `198.18.x.y`; IPv6 `2001:db8::1`), hosts `host-1.example` (a `:port` stays), e-mails
//! `user1@example.com`, user names `user2` (one numbering for e-mails and user names, so two
//! different people never share a number), YARN ids keep their prefix and numbers
//! (`container_e12_0000000000000_0001_01_000002`), 32-hex Flink ids become
//! `00000000000000000000000000000001`, secrets `***`.
//!
//! What is never touched: Java class, package and method names, frame lines (their class, file
//! and line: the spans of frames and exception classes the [parser](crate::parse) finds are left
//! alone), version numbers and jar names, checkpoint ids and line numbers. Host names are only
//! recognised in a URL, before `/ip` (`InetSocketAddress`), after a host-like configuration key
//! (`bootstrap.servers`, `*.address`, `*.host`), or when they end in a common top-level domain
//! (`.com`, `.net`, `.internal`, `.local`, `.svc`, …) and neither start with one nor look like a
//! class (`java.io`, `org.apache.kafka`, `HashMap.java:1445` stay). Upper-case host names are
//! only recognised in those contexts, not by their domain.
//!
//! Runs in time linear in the text (one parse, then one pass of each pattern; all patterns are
//! bounded) and never panics.

use crate::span::{LineIndex, Span};
use regex::Regex;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::net::Ipv6Addr;
use std::sync::OnceLock;

/// What a redaction hides.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// A host name (`kafka-1.prod.acme.com`, `namenode` in `hdfs://namenode:8020`).
    Host,
    /// An IPv4 or IPv6 address (loopback and `0.0.0.0` stay).
    Ip,
    /// An e-mail address.
    Email,
    /// A user name: in a home path (`/home/alice/`, `C:\Users\alice\`, `/Users/alice/`, HDFS
    /// `/user/alice/`, YARN `usercache/alice/`), in a URL (`jdbc:…://alice:…@`), or after
    /// `user=` / `username=`. Service accounts (`flink`, `hadoop`, `root`, …) stay.
    User,
    /// A YARN application, attempt or container id (`application_1612345678901_0042`).
    YarnId,
    /// A 32-hex-digit Flink id (JobID, JobVertexID, ExecutionAttemptID, AllocationID, …).
    FlinkId,
    /// A Docker / containerd id (64 hex digits, `docker://…`) or a Kubernetes pod name made by a
    /// ReplicaSet (`flink-jobmanager-7d9f8b6c5d-x2x7k`; the deployment name stays).
    ContainerId,
    /// A password, token or key: `password=…`, `secret-key: …`, URL passwords,
    /// `Authorization:` / `Bearer …`, AWS access key ids, JWTs, GitHub / Slack / Google tokens.
    Secret,
}

impl Kind {
    /// Every kind, in the order [`summary`] lists them (for a page's check boxes).
    pub const ALL: [Kind; 8] = [
        Kind::Host,
        Kind::Ip,
        Kind::Email,
        Kind::User,
        Kind::YarnId,
        Kind::FlinkId,
        Kind::ContainerId,
        Kind::Secret,
    ];

    /// A short lowercase label for previews (`host name`, `IP address`, …).
    pub fn label(self) -> &'static str {
        match self {
            Kind::Host => "host name",
            Kind::Ip => "IP address",
            Kind::Email => "e-mail address",
            Kind::User => "user name",
            Kind::YarnId => "YARN id",
            Kind::FlinkId => "Flink id",
            Kind::ContainerId => "container or pod id",
            Kind::Secret => "password or token",
        }
    }

    /// `n` and the label, in the plural when `n` is not 1 (`2 host names`, `1 IP address`).
    pub fn count_label(self, n: usize) -> String {
        if n == 1 {
            return format!("1 {}", self.label());
        }
        let plural = match self {
            Kind::Host => "host names",
            Kind::Ip => "IP addresses",
            Kind::Email => "e-mail addresses",
            Kind::User => "user names",
            Kind::YarnId => "YARN ids",
            Kind::FlinkId => "Flink ids",
            Kind::ContainerId => "container or pod ids",
            Kind::Secret => "passwords or tokens",
        };
        format!("{n} {plural}")
    }

    /// [`Kind::label`] in `lang` (the Share panel's preview on the Chinese page).
    pub fn label_in(self, lang: crate::lang::Lang) -> &'static str {
        if lang == crate::lang::Lang::En {
            return self.label();
        }
        match self {
            Kind::Host => "主机名",
            Kind::Ip => "IP 地址",
            Kind::Email => "电子邮件地址",
            Kind::User => "用户名",
            Kind::YarnId => "YARN ID",
            Kind::FlinkId => "Flink ID",
            Kind::ContainerId => "容器或 Pod ID",
            Kind::Secret => "密码或令牌",
        }
    }

    /// [`Kind::count_label`] in `lang` (`3 个主机名` in Chinese, which has no plural).
    pub fn count_label_in(self, n: usize, lang: crate::lang::Lang) -> String {
        if lang == crate::lang::Lang::En {
            return self.count_label(n);
        }
        format!("{n} 个{}", self.label_in(lang))
    }
}

/// One value to replace.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Redaction {
    /// What is replaced: byte offsets into the text given to [`find`], on `char` boundaries,
    /// never empty, never across a line break.
    pub span: Span,
    /// What it is.
    pub kind: Kind,
    /// The placeholder written instead (the same for every occurrence of the same value).
    pub replacement: String,
}

/// One line of a preview: where, what, and what it becomes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PreviewItem {
    /// 1-based line of the text where the value starts.
    pub line: usize,
    /// Byte offsets into the text.
    pub span: Span,
    /// What it is.
    pub kind: Kind,
    /// [`Kind::label`].
    pub label: &'static str,
    /// The value as it appears in the text.
    pub original: String,
    /// The placeholder.
    pub replacement: String,
}

/// How many values of one kind are replaced.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct KindCount {
    /// The kind.
    pub kind: Kind,
    /// [`Kind::label`].
    pub label: &'static str,
    /// Occurrences replaced.
    pub count: usize,
    /// Distinct placeholders among them (distinct original values).
    pub distinct: usize,
}

/// A [`PreviewItem`] as read back (the Share panel's model crosses from its worker as JSON,
/// [`crate::share::wire`]): its label is its kind's.
#[derive(Deserialize)]
struct PreviewItemRead {
    line: usize,
    span: Span,
    kind: Kind,
    original: String,
    replacement: String,
}

impl<'de> Deserialize<'de> for PreviewItem {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let r = PreviewItemRead::deserialize(d)?;
        Ok(PreviewItem {
            line: r.line,
            span: r.span,
            kind: r.kind,
            label: r.kind.label(),
            original: r.original,
            replacement: r.replacement,
        })
    }
}

/// A [`KindCount`] as read back: its label is its kind's.
#[derive(Deserialize)]
struct KindCountRead {
    kind: Kind,
    count: usize,
    distinct: usize,
}

impl<'de> Deserialize<'de> for KindCount {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let r = KindCountRead::deserialize(d)?;
        Ok(KindCount {
            kind: r.kind,
            label: r.kind.label(),
            count: r.count,
            distinct: r.distinct,
        })
    }
}

/// Finds everything to redact in `text`: sorted by position, never overlapping, with
/// consistent placeholders (numbered in order of first appearance). Never fails.
///
/// A user name found in a path, URL or setting is also hidden where it stands alone as a word
/// elsewhere (`alice.keytab`, `owner=alice`), unless it is a common word (`test`, `dev`, …).
pub fn find(text: &str) -> Vec<Redaction> {
    let protected = protected_spans(text);
    let mut gaps = Vec::with_capacity(protected.len() + 1);
    let mut start = 0;
    for p in protected
        .iter()
        .copied()
        .chain(std::iter::once(Span::new(text.len(), text.len())))
    {
        if p.start > start {
            gaps.push((start, p.start));
        }
        start = start.max(p.end);
    }
    let mut cands = Vec::new();
    for &(from, to) in &gaps {
        detect(text, from, to, &mut cands);
    }
    let mut kept = resolve(text, cands);
    propagate_user_names(text, &gaps, &mut kept);
    let mut names = Names::default();
    kept.into_iter()
        .map(|c| Redaction {
            span: Span::new(c.start, c.end),
            kind: c.kind,
            replacement: names.replacement(&c),
        })
        .collect()
}

/// Sorts candidates and keeps the first of any overlapping ones (earliest start, then the
/// lowest `prio`, then the longest).
fn resolve(text: &str, mut cands: Vec<Candidate>) -> Vec<Candidate> {
    cands.sort_by_key(|c| (c.start, c.prio, std::cmp::Reverse(c.end)));
    let mut kept: Vec<Candidate> = Vec::with_capacity(cands.len());
    let mut end = 0;
    for c in cands {
        if c.start < end || c.start >= c.end || text.get(c.start..c.end).is_none() {
            continue;
        }
        end = c.end;
        kept.push(c);
    }
    kept
}

/// Words too common to hide wherever they appear, even when they name a user.
fn common_word(name: &str) -> bool {
    const COMMON: [&str; 24] = [
        "test", "tests", "data", "dev", "app", "apps", "work", "main", "build", "home", "src",
        "tmp", "opt", "local", "bin", "lib", "job", "jobs", "prod", "stage", "ops", "docker",
        "service", "system",
    ];
    name.len() < 3 || COMMON.contains(&name.to_ascii_lowercase().as_str())
}

/// Adds the other whole-word occurrences of the user names in `kept` (outside protected spans
/// and outside what is already kept).
fn propagate_user_names(text: &str, gaps: &[(usize, usize)], kept: &mut Vec<Candidate>) {
    let mut users: Vec<&str> = kept
        .iter()
        .filter(|c| matches!(c.shape, Shape::User))
        .map(|c| c.key.as_str())
        .filter(|k| !common_word(k))
        .collect();
    users.sort_unstable();
    users.dedup();
    users.truncate(256);
    if users.is_empty() {
        return;
    }
    let alternation: Vec<String> = users.iter().map(|u| regex::escape(u)).collect();
    let Ok(re) = Regex::new(&format!("(?:{})", alternation.join("|"))) else {
        return;
    };
    let mut extra = Vec::new();
    for &(from, to) in gaps {
        let Some(hay) = text.get(from..to) else {
            continue;
        };
        for m in re.find_iter(hay) {
            let (s, e) = (from + m.start(), from + m.end());
            let before = byte_before(text, s);
            if is_word(before) || matches!(before, Some(b'-' | b'@')) || is_word(byte_at(text, e)) {
                continue;
            }
            if matches!(byte_at(text, e), Some(b'-' | b'@')) {
                continue;
            }
            extra.push((s, e, m.as_str().to_owned()));
        }
    }
    if extra.is_empty() {
        return;
    }
    // Only where nothing is kept yet (both lists are sorted by start).
    let mut merged = Vec::with_capacity(kept.len() + extra.len());
    let mut old = std::mem::take(kept).into_iter().peekable();
    for (s, e, key) in extra {
        while let Some(c) = old.next_if(|c| c.start < e) {
            merged.push(c);
        }
        let overlaps = merged.last().is_some_and(|c: &Candidate| c.end > s)
            || old.peek().is_some_and(|c| c.start < e);
        if !overlaps {
            merged.push(Candidate {
                start: s,
                end: e,
                kind: Kind::User,
                prio: 10,
                shape: Shape::User,
                key,
            });
        }
    }
    merged.extend(old);
    *kept = merged;
}

/// Writes `text` with each redaction's span replaced by its placeholder.
///
/// Expects the sorted, non-overlapping list [`find`] returns (or a subset of it, e.g. filtered
/// by kind); a redaction that overlaps an earlier one or does not slice `text` is skipped.
pub fn apply(text: &str, redactions: &[Redaction]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut pos = 0;
    for r in redactions {
        if r.span.start < pos || text.get(r.span.range()).is_none() {
            continue;
        }
        out.push_str(text.get(pos..r.span.start).unwrap_or_default());
        out.push_str(&r.replacement);
        pos = r.span.end;
    }
    out.push_str(text.get(pos..).unwrap_or_default());
    out
}

/// [`find`] then [`apply`]: the text as it may be shared.
pub fn redact(text: &str) -> String {
    apply(text, &find(text))
}

/// The redactions as a preview lists them, in text order (redactions that do not slice `text`
/// are left out).
pub fn preview(text: &str, redactions: &[Redaction]) -> Vec<PreviewItem> {
    let lines = LineIndex::new(text);
    redactions
        .iter()
        .filter_map(|r| {
            Some(PreviewItem {
                line: lines.line_of(r.span.start),
                span: r.span,
                kind: r.kind,
                label: r.kind.label(),
                original: text.get(r.span.range())?.to_owned(),
                replacement: r.replacement.clone(),
            })
        })
        .collect()
}

/// Counts per kind, in [`Kind::ALL`] order; kinds with no redaction are left out. `distinct`
/// counts distinct original values (`text` is the text the redactions were found in).
pub fn summary(text: &str, redactions: &[Redaction]) -> Vec<KindCount> {
    Kind::ALL
        .iter()
        .filter_map(|&kind| {
            let mut originals: Vec<&str> = redactions
                .iter()
                .filter(|r| r.kind == kind)
                .filter_map(|r| text.get(r.span.range()))
                .collect();
            if originals.is_empty() {
                return None;
            }
            let count = originals.len();
            originals.sort_unstable();
            originals.dedup();
            Some(KindCount {
                kind,
                label: kind.label(),
                count,
                distinct: originals.len(),
            })
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Protected spans: frames and exception class names.

/// Frame spans and exception class spans of every trace, sorted and merged.
fn protected_spans(text: &str) -> Vec<Span> {
    let parsed = crate::parse::parse(text);
    let mut spans = Vec::new();
    for t in &parsed.traces {
        for th in &t.throwables {
            // A throwable read from a message printed without a class has no class name to
            // keep: its span is the message, which is searched like any text.
            if !th.class.is_empty() {
                spans.push(th.class_span);
            }
            spans.extend(
                th.frames
                    .iter()
                    .filter(|f| f.expanded_from.is_none())
                    .map(|f| frame_call(text, f.span)),
            );
        }
    }
    spans.retain(|s| !s.is_empty() && s.end <= text.len());
    spans.sort_by_key(|s| (s.start, s.end));
    let mut merged: Vec<Span> = Vec::with_capacity(spans.len());
    for s in spans {
        match merged.last_mut() {
            Some(last) if s.start <= last.end => last.end = last.end.max(s.end),
            _ => merged.push(s),
        }
    }
    merged
}

/// The part of a frame's span up to the `)` that closes its location (`at a.B.c(B.java:1)`):
/// what follows on the line (a log4j2 `~[jar]` suffix, or anything glued to it) is searched.
fn frame_call(text: &str, span: Span) -> Span {
    let Some(frame) = text.get(span.range()) else {
        return span;
    };
    let close = frame
        .find('(')
        .and_then(|open| frame[open..].find(')').map(|c| open + c + 1));
    match close {
        Some(end) => Span::new(span.start, span.start + end),
        None => span,
    }
}

// ---------------------------------------------------------------------------------------------
// Candidates and placeholders.

/// How the placeholder of a candidate is built.
#[derive(Clone, Debug)]
enum Shape {
    Host,
    Ipv4,
    Ipv6,
    Email,
    User,
    /// `prefix` + zeros for the cluster timestamp + `_` + the app number + `suffix`.
    Yarn {
        prefix: String,
        ts_len: usize,
        app_len: usize,
        suffix: String,
    },
    /// A hex id of this many digits.
    Hex(usize),
    /// A ReplicaSet pod: the deployment name stays.
    Pod(String),
    Secret,
}

#[derive(Clone, Debug)]
struct Candidate {
    start: usize,
    end: usize,
    kind: Kind,
    /// Lower wins when two candidates start at the same byte.
    prio: u8,
    shape: Shape,
    /// The value placeholders are keyed on (normalised: lower case for hosts).
    key: String,
}

/// Placeholder numbering: one counter per namespace, in order of first appearance.
#[derive(Default)]
struct Names {
    seen: HashMap<(u8, String), usize>,
    counters: [usize; 8],
}

impl Names {
    fn number(&mut self, ns: u8, key: &str) -> usize {
        if let Some(&n) = self.seen.get(&(ns, key.to_owned())) {
            return n;
        }
        let slot = usize::from(ns).min(7);
        self.counters[slot] += 1;
        let n = self.counters[slot];
        self.seen.insert((ns, key.to_owned()), n);
        n
    }

    fn replacement(&mut self, c: &Candidate) -> String {
        // Namespaces: 0 host, 1 IPv4, 2 IPv6, 3 people (e-mails and user names), 4 YARN apps,
        // 5 hex ids, 6 pods. Keys are prefixed so an e-mail and a user name never collide.
        match &c.shape {
            Shape::Host => format!("host-{}.example", self.number(0, &c.key)),
            Shape::Ipv4 => doc_ipv4(self.number(1, &c.key)),
            Shape::Ipv6 => format!("2001:db8::{:x}", self.number(2, &c.key)),
            Shape::Email => format!("user{}@example.com", self.number(3, &format!("@{}", c.key))),
            Shape::User => format!("user{}", self.number(3, &c.key)),
            Shape::Yarn {
                prefix,
                ts_len,
                app_len,
                suffix,
            } => {
                let n = self.number(4, &c.key);
                format!(
                    "{prefix}{}_{n:0app_len$}{suffix}",
                    "0".repeat(*ts_len),
                    app_len = (*app_len).max(4)
                )
            }
            Shape::Hex(len) => format!("{:0len$x}", self.number(5, &c.key), len = *len),
            Shape::Pod(prefix) => format!("{prefix}-0000000000-{:05}", self.number(6, &c.key)),
            Shape::Secret => "***".to_owned(),
        }
    }
}

/// The `n`-th (1-based) documentation or benchmarking IPv4 address: 192.0.2.1–254, then
/// 198.51.100.1–254, 203.0.113.1–254, then 198.18.0.0/15.
fn doc_ipv4(n: usize) -> String {
    let i = n.saturating_sub(1);
    match i / 254 {
        0 => format!("192.0.2.{}", i % 254 + 1),
        1 => format!("198.51.100.{}", i % 254 + 1),
        2 => format!("203.0.113.{}", i % 254 + 1),
        _ => {
            let j = (i - 3 * 254) % (2 * 256 * 254);
            let (hi, lo) = (j / 254, j % 254 + 1);
            format!("198.{}.{}.{}", 18 + hi / 256, hi % 256, lo)
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Detectors. Each scans `text[from..to]` (a stretch outside the protected spans) and looks at
// the whole text for the characters around a match.

fn detect(text: &str, from: usize, to: usize, out: &mut Vec<Candidate>) {
    let Some(hay) = text.get(from..to) else {
        return;
    };
    urls(text, hay, from, out);
    key_values(text, hay, from, out);
    token_shapes(hay, from, out);
    emails(text, hay, from, out);
    home_paths(text, hay, from, out);
    yarn_ids(text, hay, from, out);
    hex_ids(text, hay, from, out);
    pods(text, hay, from, out);
    ips(text, hay, from, out);
    hosts(text, hay, from, out);
}

fn compiled(cell: &'static OnceLock<Regex>, pattern: &str) -> &'static Regex {
    cell.get_or_init(|| Regex::new(pattern).expect("valid regex"))
}

/// `text[from..]`, at most `max` bytes (cut back to a `char` boundary): scans that look ahead
/// of a match stay bounded, so the whole pass stays linear.
/// Whether `hay` contains any of `needles`, ASCII case ignored. The detectors ask this (and the
/// other cheap tests below) before running a regex over a stretch of text: the regex engine
/// (`regex-lite`, chosen for the page's size) has no literal prefilter of its own.
fn contains_any_ci(hay: &str, needles: &[&str]) -> bool {
    let h = hay.as_bytes();
    needles.iter().any(|n| {
        let n = n.as_bytes();
        n.len() <= h.len() && h.windows(n.len()).any(|w| w.eq_ignore_ascii_case(n))
    })
}

/// Whether `hay` holds a run of at least `min` lowercase hex digits.
fn has_hex_run(hay: &str, min: usize) -> bool {
    let mut run = 0;
    for b in hay.bytes() {
        run = if matches!(b, b'0'..=b'9' | b'a'..=b'f') {
            run + 1
        } else {
            0
        };
        if run >= min {
            return true;
        }
    }
    false
}

/// Whether `hay` holds a digit, a dot and a digit in a row (the start of an IPv4 address).
fn has_digit_dot_digit(hay: &str) -> bool {
    hay.as_bytes()
        .windows(3)
        .any(|w| w[0].is_ascii_digit() && w[1] == b'.' && w[2].is_ascii_digit())
}

fn window(text: &str, from: usize, max: usize) -> &str {
    let mut end = from.saturating_add(max).min(text.len());
    while end > from && !text.is_char_boundary(end) {
        end -= 1;
    }
    text.get(from..end).unwrap_or_default()
}

fn byte_before(text: &str, i: usize) -> Option<u8> {
    i.checked_sub(1)
        .and_then(|j| text.as_bytes().get(j).copied())
}

fn byte_at(text: &str, i: usize) -> Option<u8> {
    text.as_bytes().get(i).copied()
}

/// A byte that continues a name. `*` counts: a value glued to a `***` placeholder was glued to
/// the secret before, and is not a value of its own.
fn is_word(b: Option<u8>) -> bool {
    b.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b == b'*')
}

fn push(
    out: &mut Vec<Candidate>,
    start: usize,
    end: usize,
    kind: Kind,
    prio: u8,
    shape: Shape,
    key: &str,
) {
    if start < end {
        out.push(Candidate {
            start,
            end,
            kind,
            prio,
            shape,
            key: key.to_owned(),
        });
    }
}

/// [`push`] for a secret: replaced by `***` whatever its value (`prio` as in [`Candidate`]).
fn push_secret(out: &mut Vec<Candidate>, start: usize, end: usize, prio: u8) {
    push(out, start, end, Kind::Secret, prio, Shape::Secret, "");
}

// ---- URLs: `scheme://[user[:password]@]host[:port]`.

/// Schemes whose authority is not a host worth hiding (object-store buckets, local files,
/// container ids found on their own); [`scheme_keeps_user`]: schemes
/// whose user part is not a person (actor systems, storage containers).
fn scheme_keeps_host(scheme: &str) -> bool {
    matches!(
        scheme,
        "file"
            | "jar"
            | "classpath"
            | "local"
            | "s3"
            | "s3a"
            | "s3n"
            | "s3p"
            | "gs"
            | "oss"
            | "cos"
            | "cosn"
            | "obs"
            | "docker"
            | "containerd"
            | "cri-o"
    )
}

fn scheme_keeps_user(scheme: &str) -> bool {
    scheme.starts_with("akka")
        || scheme.starts_with("pekko")
        || scheme.starts_with("wasb")
        || scheme.starts_with("abfs")
}

fn urls(text: &str, hay: &str, off: usize, out: &mut Vec<Candidate>) {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = compiled(&RE, r"[A-Za-z][A-Za-z0-9+.\-]{0,30}://");
    let any = hay.contains("://");
    for m in re.find_iter(if any { hay } else { "" }) {
        let scheme = m.as_str().trim_end_matches("://").to_ascii_lowercase();
        let a_start = off + m.end();
        let rest = window(text, a_start, 512);
        let a_len = rest
            .find(|c: char| {
                c.is_whitespace()
                    || matches!(
                        c,
                        '/' | '?'
                            | '#'
                            | '"'
                            | '\''
                            | '<'
                            | '>'
                            | '\\'
                            | ')'
                            | ';'
                            | ','
                            | '|'
                            | '`'
                            | '{'
                            | '}'
                    )
            })
            .unwrap_or(rest.len())
            .min(512);
        let Some(authority) = rest.get(..a_len) else {
            continue;
        };
        let (userinfo, host_part, host_at) = match authority.rfind('@') {
            Some(at) => (
                Some(&authority[..at]),
                &authority[at + 1..],
                a_start + at + 1,
            ),
            None => (None, authority, a_start),
        };
        if let Some(ui) = userinfo.filter(|ui| !ui.is_empty()) {
            let (user, password) = match ui.find(':') {
                Some(c) => (&ui[..c], Some((c, &ui[c + 1..]))),
                None => (ui, None),
            };
            if !scheme_keeps_user(&scheme) && person_name(user) {
                push(
                    out,
                    a_start,
                    a_start + user.len(),
                    Kind::User,
                    0,
                    Shape::User,
                    user,
                );
            }
            if let Some((c, pw)) = password {
                if secret_value(pw) {
                    let s = a_start + c + 1;
                    push(out, s, s + pw.len(), Kind::Secret, 0, Shape::Secret, "");
                }
            }
        }
        if host_part.starts_with('[') || scheme_keeps_host(&scheme) {
            continue; // IPv6 literals are found by `ips`.
        }
        if (scheme.starts_with("akka") || scheme.starts_with("pekko")) && userinfo.is_none() {
            continue; // `akka://flink/user/…`: the actor system's name.
        }
        let host = host_part.split(':').next().unwrap_or_default();
        if is_host_name(host, true) {
            push(
                out,
                host_at,
                host_at + host.len(),
                Kind::Host,
                0,
                Shape::Host,
                &host.to_ascii_lowercase(),
            );
        }
    }
    // Oracle thin: `jdbc:oracle:thin:scott/tiger@db:1521:ORCL`.
    static ORA: OnceLock<Regex> = OnceLock::new();
    let ora = compiled(&ORA, r"(?i-u:thin):([A-Za-z0-9_$.\-]+)/([^@\s/]+)@");
    let any = contains_any_ci(hay, &["thin:"]);
    for c in ora.captures_iter(if any { hay } else { "" }) {
        if let (Some(u), Some(p)) = (c.get(1), c.get(2)) {
            if person_name(u.as_str()) {
                push(
                    out,
                    off + u.start(),
                    off + u.end(),
                    Kind::User,
                    0,
                    Shape::User,
                    u.as_str(),
                );
            }
            if secret_value(p.as_str()) {
                push_secret(out, off + p.start(), off + p.end(), 0);
            }
        }
    }
}

// ---- `key=value` pairs: secrets, user names, hosts.

#[derive(Clone, Copy, PartialEq)]
enum KeyClass {
    Secret,
    User,
    Hosts,
}

fn key_values(text: &str, hay: &str, off: usize, out: &mut Vec<Candidate>) {
    static RE: OnceLock<Regex> = OnceLock::new();
    // A key (a whole token ending in a word `key_class` may accept), an optional closing quote
    // (JSON, maybe escaped), `:` or `=`, an optional opening bracket or quote.
    let re = compiled(
        &RE,
        r#"([A-Za-z0-9_.\-]*(?i-u:password|passwd|pwd|passphrase|secret|token|key|credentials?|params|user|username|login|name|host|hostname|quorum|brokers|servers|address))(\\?["'])?[ \t]{0,8}([:=])[ \t]{0,8}(\[|\\?["'])?"#,
    );
    const WORDS: &[&str] = &[
        "pass",
        "pwd",
        "secret",
        "token",
        "key",
        "credential",
        "params",
        "user",
        "login",
        "name",
        "host",
        "quorum",
        "brokers",
        "servers",
        "address",
    ];
    // A match stays within a line (no class of the pattern holds a line break): only the lines
    // with a separator and one of the words.
    let lines = runs(
        hay,
        |b| b != b'\n',
        |l| l.bytes().any(|b| b == b':' || b == b'=') && contains_any_ci(l, WORDS),
    );
    for (at, c) in lines.flat_map(|(at, line)| re.captures_iter(line).map(move |c| (at, c))) {
        let (Some(all), Some(key), Some(sep)) = (c.get(0), c.get(1), c.get(3)) else {
            continue;
        };
        let start = off + at + all.start();
        let before = byte_before(text, start);
        if is_word(before) || matches!(before, Some(b'.' | b'-')) {
            continue;
        }
        let Some(class) = key_class(key.as_str()) else {
            continue;
        };
        let open = c.get(4).map(|m| m.as_str());
        // `key: value` is a setting when the key is quoted (JSON), dotted or dashed
        // (`s3.secret-key: …`), or starts its line (YAML); not in prose ("the token: 'x'").
        // `key:value` also needs a space or quote after the colon (not `host:port`, `http://`).
        if sep.as_str() == ":" && c.get(2).is_none() {
            let k = key.as_str();
            let line_start = text
                .get(..start)
                .map(|t| t.trim_end_matches([' ', '\t', '-']))
                .is_none_or(|t| t.is_empty() || t.ends_with(['\n', '\r', '{', ',']));
            // A secret's key in prose is still a secret's key ("apikey: 9f8e…"): hiding a word
            // too many costs less than leaking a password.
            if !(k.contains(['.', '-', '_']) || line_start || class == KeyClass::Secret)
                || (open.is_none() && !all.as_str().ends_with([' ', '\t']))
            {
                continue;
            }
        }
        let quote = open
            .and_then(|o| o.chars().last())
            .filter(|&q| q == '"' || q == '\'');
        let v_start = off + at + all.end();
        let rest = window(text, v_start, 256);
        match class {
            KeyClass::Secret | KeyClass::User => {
                let v_len = value_len(rest, quote);
                let Some(value) = rest.get(..v_len) else {
                    continue;
                };
                if class == KeyClass::Secret {
                    if secret_value(value) {
                        push_secret(out, v_start, v_start + v_len, 1);
                    }
                } else if person_name(value)
                    && value
                        .bytes()
                        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
                    && byte_at(text, v_start + v_len) != Some(b'@')
                {
                    push(
                        out,
                        v_start,
                        v_start + v_len,
                        Kind::User,
                        1,
                        Shape::User,
                        value,
                    );
                }
            }
            KeyClass::Hosts => host_list(text, v_start, out),
        }
    }
    // Azure storage keys name the account in the key (`fs.azure.account.key.<acct>.blob.core
    // .windows.net: <key>`), so the key does not end in a secret word.
    static AZURE: OnceLock<Regex> = OnceLock::new();
    let azure = compiled(
        &AZURE,
        r#"fs\.azure\.account\.(?:key|oauth2\.client\.secret|sas)[A-Za-z0-9.\-]*\\?["']?[ \t]{0,8}[:=][ \t]{0,8}\\?["']?([^\s"',;]+)"#,
    );
    let any = hay.contains("fs.azure.account.");
    for c in azure.captures_iter(if any { hay } else { "" }) {
        if let Some(v) = c.get(1) {
            if secret_value(v.as_str()) {
                push_secret(out, off + v.start(), off + v.end(), 1);
            }
        }
    }
    // Hadoop's `Current Hadoop/Kerberos user: alice` (Flink's start-up banner) and
    // `Hadoop user set to alice`.
    static HADOOP: OnceLock<Regex> = OnceLock::new();
    let hadoop = compiled(
        &HADOOP,
        r"(?:Kerberos user: |[Uu]ser set to |[Pp]roxy user: |[Rr]eal user: )([A-Za-z0-9._\-]+)",
    );
    let any = contains_any_ci(hay, &["user: ", "user set to "]);
    for c in hadoop.captures_iter(if any { hay } else { "" }) {
        if let Some(u) = c.get(1) {
            if person_name(u.as_str()) && byte_at(text, off + u.end()) != Some(b'@') {
                push(
                    out,
                    off + u.start(),
                    off + u.end(),
                    Kind::User,
                    1,
                    Shape::User,
                    u.as_str(),
                );
            }
        }
    }
    // `Authorization: Bearer …` and a bare `Bearer …`.
    static AUTH: OnceLock<Regex> = OnceLock::new();
    let auth = compiled(
        &AUTH,
        r#"(?:(?i-u:(?:proxy-)?authorization)\\?["']?[ \t]{0,8}[:=][ \t]{0,8}\\?["']?(?:(?i-u:bearer|basic|digest|negotiate|token|aws4-hmac-sha256)[ \t]{1,8})?|(?i-u:bearer)[ \t]{1,8})([A-Za-z0-9._~+/=\-]{8,})"#,
    );
    let any = contains_any_ci(hay, &["authorization", "bearer"]);
    for c in auth.captures_iter(if any { hay } else { "" }) {
        let (Some(all), Some(v)) = (c.get(0), c.get(1)) else {
            continue;
        };
        if is_word(byte_before(text, off + all.start())) {
            continue;
        }
        if secret_value(v.as_str()) {
            push_secret(out, off + v.start(), off + v.end(), 1);
        }
    }
}

/// What a configuration key names, judged by how it ends (`s3.secret-key`,
/// `security.ssl.keystore-password`, `"accessToken"`, `bootstrap.servers`).
fn key_class(key: &str) -> Option<KeyClass> {
    // Class-like keys (`InvalidToken: …` is an exception, not a setting); `DB_PASSWORD` is not.
    let mut chars = key.chars();
    if chars.next().is_some_and(|c| c.is_ascii_uppercase())
        && chars.next().is_some_and(|c| c.is_ascii_lowercase())
    {
        return None;
    }
    let k = key.to_ascii_lowercase();
    let last = k.rsplit(['.', '-', '_']).next().unwrap_or(&k);
    const SECRET_ENDINGS: [&str; 9] = [
        "password",
        "passwd",
        "pwd",
        "passphrase",
        "secret",
        "token",
        "apikey",
        "credentials",
        "credential",
    ];
    // `trustStorePassword`, `dbPassword`, `apiToken`: a camelCase key ending in a secret word.
    let camel = key
        .rsplit(['.', '-', '_'])
        .next()
        .is_some_and(|l| l.chars().any(|c| c.is_ascii_uppercase()));
    if SECRET_ENDINGS
        .iter()
        .any(|e| last == *e || (last.ends_with(e) && (k == last || camel)))
        || k.starts_with("fs.azure.account.key")
    {
        return Some(KeyClass::Secret);
    }
    // `…secret-key`, `…access.key`, `…api_key`, `…private-key`, `…account.key`, `…auth-params`.
    let two: Vec<&str> = k.rsplit(['.', '-', '_']).take(2).collect();
    if let [b, a] = two.as_slice() {
        if (*b == "key"
            && matches!(
                *a,
                "secret" | "access" | "api" | "private" | "account" | "service" | "signing"
            ))
            || (*b == "params" && *a == "auth")
        {
            return Some(KeyClass::Secret);
        }
    }
    if k.ends_with("secretkey") || k.ends_with("accesskey") || k.ends_with("privatekey") {
        return Some(KeyClass::Secret);
    }
    if matches!(last, "user" | "username" | "login") || k.ends_with("user.name") {
        return Some(KeyClass::User);
    }
    if k == "bootstrap.servers"
        || matches!(last, "host" | "hostname" | "quorum" | "brokers")
        || last == "address"
        || k.ends_with("host.name")
    {
        return Some(KeyClass::Hosts);
    }
    None
}

/// Length in bytes of a value starting at `rest`: up to the closing quote when quoted, else up
/// to a space or a delimiter. At most 256 bytes, never across a line.
fn value_len(rest: &str, quote: Option<char>) -> usize {
    let end = match quote {
        Some(q) => rest
            .char_indices()
            .find(|&(i, c)| {
                c == q || c == '\n' || c == '\r' || (c == '\\' && rest[i + 1..].starts_with(q))
            })
            .map_or(rest.len(), |(i, _)| i),
        None => rest
            .find(|c: char| {
                c.is_whitespace()
                    || matches!(
                        c,
                        ',' | ';' | '&' | ')' | '}' | ']' | '"' | '\'' | '<' | '>' | '\\'
                    )
            })
            .unwrap_or(rest.len()),
    };
    let mut end = end.min(256);
    while !rest.is_char_boundary(end) {
        end -= 1;
    }
    end
}

/// A value worth hiding: not empty and not already masked or a placeholder (`***`, `[hidden]`,
/// `null`, `${VAR}`, `<…>`).
fn secret_value(v: &str) -> bool {
    let v = v.trim();
    !v.is_empty()
        && !v.chars().all(|c| c == '*')
        && !v.starts_with("${")
        && !v.starts_with('<')
        && !v.starts_with('[')
        && !v.starts_with('(')
        && !matches!(
            v.to_ascii_lowercase().as_str(),
            "null" | "none" | "true" | "false" | "hidden" | "redacted" | "xxx"
        )
}

/// `host[:port][, host[:port]]*` after a host-like key (`bootstrap.servers = [kafka-0:9092]`).
fn host_list(text: &str, mut pos: usize, out: &mut Vec<Candidate>) {
    for _ in 0..64 {
        let rest = window(text, pos, 256);
        let len = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '-'))
            .unwrap_or(rest.len());
        let host = &rest[..len];
        let ends = matches!(
            byte_at(text, pos + len),
            None | Some(
                b':' | b',' | b']' | b' ' | b'\t' | b'\n' | b'\r' | b'"' | b'\'' | b';' | b')'
            )
        );
        if ends && is_host_name(host, false) {
            push(
                out,
                pos,
                pos + len,
                Kind::Host,
                1,
                Shape::Host,
                &host.to_ascii_lowercase(),
            );
        }
        let mut next = pos + len;
        // `:port`
        if byte_at(text, next) == Some(b':') {
            let digits = window(text, next + 1, 8)
                .bytes()
                .take_while(u8::is_ascii_digit)
                .count();
            next += 1 + digits;
        }
        if byte_at(text, next) != Some(b',') || len == 0 {
            return;
        }
        next += 1;
        while byte_at(text, next) == Some(b' ') {
            next += 1;
        }
        pos = next;
    }
}

// ---- Tokens recognised by their shape.

fn token_shapes(hay: &str, off: usize, out: &mut Vec<Candidate>) {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = compiled(
        &RE,
        concat!(
            r"(?-u:\b)(?:",
            r"(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA)[A-Z0-9]{16}",
            r"|eyJ[A-Za-z0-9_\-]{5,}\.eyJ[A-Za-z0-9_\-]{5,}\.[A-Za-z0-9_\-]{5,}",
            r"|gh[pousr]_[A-Za-z0-9]{36,}",
            r"|github_pat_[A-Za-z0-9_]{22,}",
            r"|xox[abprs]-[A-Za-z0-9\-]{10,}",
            r"|AIza[0-9A-Za-z_\-]{35}",
            r")(?-u:\b)"
        ),
    );
    let any = contains_any_ci(
        hay,
        &[
            "AKIA", "ASIA", "AGPA", "AIDA", "AROA", "ANPA", "eyJ", "gh", "xox", "AIza",
        ],
    );
    for m in re.find_iter(if any { hay } else { "" }) {
        push_secret(out, off + m.start(), off + m.end(), 1);
    }
    static KEY: OnceLock<Regex> = OnceLock::new();
    let key = compiled(
        &KEY,
        r"-----BEGIN [A-Z ]{0,20}PRIVATE KEY-----(?:[A-Za-z0-9+/=\s]|\\[nr])*-----END [A-Z ]{0,20}PRIVATE KEY-----",
    );
    let any = hay.contains("-----BEGIN ");
    for m in key.find_iter(if any { hay } else { "" }) {
        // Line by line, so no redaction crosses a line break.
        let mut pos = m.start();
        for line in m.as_str().split_inclusive('\n') {
            let body = line.trim_end_matches(['\n', '\r']);
            push_secret(out, off + pos, off + pos + body.len(), 1);
            pos += line.len();
        }
    }
}

// ---- E-mail addresses.

fn emails(text: &str, hay: &str, off: usize, out: &mut Vec<Candidate>) {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = compiled(
        &RE,
        r"[A-Za-z0-9._%+\-]+@(?:[A-Za-z0-9\-]+\.)+[A-Za-z]{2,24}",
    );
    let any = hay.contains('@');
    for m in re.find_iter(if any { hay } else { "" }) {
        let (s, e) = (off + m.start(), off + m.end());
        let before = byte_before(text, s);
        let mailto = text.get(..s).is_some_and(|t| t.ends_with("mailto:"));
        // `user:pw@host` and `scheme://user@host` are URLs; `flink/host@REALM` a principal.
        if !mailto && matches!(before, Some(b':' | b'/' | b'.' | b'-' | b'+' | b'%' | b'_'))
            || is_word(before)
        {
            continue;
        }
        if is_word(byte_at(text, e))
            || byte_at(text, e) == Some(b'-')
            || (byte_at(text, e) == Some(b'.') && is_word(byte_at(text, e + 1)))
        {
            continue;
        }
        let addr = m.as_str();
        let domain = addr
            .rsplit('@')
            .next()
            .unwrap_or_default()
            .to_ascii_lowercase();
        if public_domain(&domain) || domain.ends_with(".example") {
            continue;
        }
        // Mailing-list addresses (`user@flink.apache.org`) are public.
        if domain.ends_with(".apache.org") {
            continue;
        }
        push(
            out,
            s,
            e,
            Kind::Email,
            2,
            Shape::Email,
            &addr.to_ascii_lowercase(),
        );
    }
}

// ---- User names in home paths.

/// Accounts that name a service, not a person (and the placeholders `userN`).
fn person_name(name: &str) -> bool {
    const SERVICES: [&str; 30] = [
        "flink",
        "hadoop",
        "yarn",
        "hdfs",
        "mapred",
        "hive",
        "spark",
        "hbase",
        "kafka",
        "zookeeper",
        "root",
        "ubuntu",
        "ec2-user",
        "centos",
        "admin",
        "runner",
        "jenkins",
        "git",
        "nobody",
        "user",
        "users",
        "shared",
        "public",
        "default",
        "default user",
        "all users",
        "guest",
        "anonymous",
        "www-data",
        "dr.who",
    ];
    // Pekko/Akka actor path segments (`/user/rpc/…`) and the placeholders `userN`.
    const NOT_NAMES: [&str; 5] = [
        "rpc",
        "dispatcher",
        "jobmanager",
        "taskmanager",
        "resourcemanager",
    ];
    let n = name.to_ascii_lowercase();
    let placeholder = n
        .strip_prefix("user")
        .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()));
    let service = SERVICES.contains(&n.as_str()) || NOT_NAMES.iter().any(|p| n.starts_with(p));
    !(name.is_empty() || name.contains('*') || placeholder || service)
}

fn home_paths(text: &str, hay: &str, off: usize, out: &mut Vec<Candidate>) {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = compiled(
        &RE,
        r"(?:/home/|/Users/|:(?:\\{1,2}|/)Users(?:\\{1,2}|/)|/user/|/usercache/)([^/\\\s\x22'<>:;,*?|()\[\]{}]+)",
    );
    let any = hay.contains("/home/") || hay.contains("Users") || hay.contains("/user");
    for c in re.captures_iter(if any { hay } else { "" }) {
        let (Some(all), Some(name)) = (c.get(0), c.get(1)) else {
            continue;
        };
        let (s, e) = (off + name.start(), off + name.end());
        // `C:\Users\…`: a drive letter before the colon.
        if all.as_str().starts_with(':') {
            let drive = byte_before(text, off + all.start());
            if !drive.is_some_and(|b| b.is_ascii_alphabetic())
                || is_word(byte_before(text, off + all.start() - 1))
            {
                continue;
            }
        }
        // The name must end the path segment.
        if !matches!(
            byte_at(text, e),
            None | Some(
                b'/' | b'\\'
                    | b' '
                    | b'\t'
                    | b'\n'
                    | b'\r'
                    | b'"'
                    | b'\''
                    | b':'
                    | b';'
                    | b','
                    | b')'
                    | b']'
            )
        ) {
            continue;
        }
        if all.as_str().starts_with("/user/") {
            // Pekko/Akka actor paths (`…:6123/user/rpc/…`) are not HDFS homes.
            let end = off + all.start();
            let mut from = end.saturating_sub(256);
            while !text.is_char_boundary(from) {
                from -= 1;
            }
            let before = text.get(from..end).unwrap_or_default();
            let token = before
                .rfind([' ', '\t', '\n', '"', '\''])
                .map_or(before, |i| &before[i + 1..]);
            if token.contains("akka") || token.contains("pekko") {
                continue;
            }
        }
        if person_name(name.as_str()) {
            push(out, s, e, Kind::User, 3, Shape::User, name.as_str());
        }
    }
}

// ---- YARN ids.

fn yarn_ids(text: &str, hay: &str, off: usize, out: &mut Vec<Candidate>) {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = compiled(
        &RE,
        r"(container_(?:e\d{1,4}_)?|application_|appattempt_|job_)(\d{10,16})_(\d{1,10})((?:_\d{1,10}){0,2})",
    );
    let any = ["container_", "application_", "appattempt_", "job_"]
        .iter()
        .any(|p| hay.contains(p));
    for c in re.captures_iter(if any { hay } else { "" }) {
        let (Some(all), Some(prefix), Some(ts), Some(app), Some(suffix)) =
            (c.get(0), c.get(1), c.get(2), c.get(3), c.get(4))
        else {
            continue;
        };
        let (s, e) = (off + all.start(), off + all.end());
        if is_word(byte_before(text, s))
            || byte_before(text, s) == Some(b'_')
            || is_word(byte_at(text, e))
        {
            continue;
        }
        if ts.as_str().bytes().all(|b| b == b'0') {
            continue; // A placeholder.
        }
        let key = format!("{}_{}", ts.as_str(), app.as_str());
        push(
            out,
            s,
            e,
            Kind::YarnId,
            4,
            Shape::Yarn {
                prefix: prefix.as_str().to_owned(),
                ts_len: ts.as_str().len(),
                app_len: app.as_str().len(),
                suffix: suffix.as_str().to_owned(),
            },
            &key,
        );
    }
}

// ---- Hex ids: Flink's 32-digit ids, Docker's 64-digit ones, `docker://…`.

fn hex_ids(text: &str, hay: &str, off: usize, out: &mut Vec<Candidate>) {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = compiled(&RE, r"(?:(?:docker|containerd|cri-o)://)?[0-9a-f]{12,64}");
    let any = has_hex_run(hay, 12);
    for m in re.find_iter(if any { hay } else { "" }) {
        let (mut s, e) = (off + m.start(), off + m.end());
        let alnum = |b: Option<u8>| b.is_some_and(|b| b.is_ascii_alphanumeric());
        if alnum(byte_at(text, e)) {
            continue;
        }
        let hex = m.as_str().rsplit("://").next().unwrap_or_default();
        let runtime = m.as_str().contains("://");
        if runtime {
            s = e - hex.len();
        } else if alnum(byte_before(text, s)) {
            continue;
        }
        let kind = match hex.len() {
            32 if !runtime => Kind::FlinkId,
            64 => Kind::ContainerId,
            _ if runtime => Kind::ContainerId,
            _ => continue,
        };
        // Placeholders (and Flink's all-zero ids) start with many zeros.
        if hex.len() >= 12 && hex.bytes().take(hex.len() - 8).all(|b| b == b'0') {
            continue;
        }
        push(out, s, e, kind, 5, Shape::Hex(hex.len()), hex);
    }
}

// ---- Kubernetes pods made by a ReplicaSet: `<deployment>-<hash>-<suffix>`, both random parts
// drawn from Kubernetes' alphabet (no vowels, no 0, 1, 3).

fn pods(text: &str, hay: &str, off: usize, out: &mut Vec<Candidate>) {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = compiled(
        &RE,
        r"[a-z0-9][a-z0-9\-]*-([bcdfghjklmnpqrstvwxz2456789]{6,10}-[bcdfghjklmnpqrstvwxz2456789]{5})",
    );
    let any = hay.contains('-');
    for c in re.captures_iter(if any { hay } else { "" }) {
        let (Some(all), Some(ids)) = (c.get(0), c.get(1)) else {
            continue;
        };
        let (s, e) = (off + all.start(), off + all.end());
        if is_word(byte_before(text, s))
            || matches!(byte_before(text, s), Some(b'-' | b'.'))
            || is_word(byte_at(text, e))
            || byte_at(text, e) == Some(b'-')
        {
            continue;
        }
        if !ids.as_str().bytes().any(|b| b.is_ascii_digit()) {
            continue;
        }
        let prefix = &all.as_str()[..ids.start() - all.start() - 1];
        push(
            out,
            s,
            e,
            Kind::ContainerId,
            6,
            Shape::Pod(prefix.to_owned()),
            all.as_str(),
        );
    }
}

// ---- IP addresses.

fn ips(text: &str, hay: &str, off: usize, out: &mut Vec<Candidate>) {
    static V4: OnceLock<Regex> = OnceLock::new();
    let v4 = compiled(&V4, r"(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})");
    let dotted = |b: u8| b.is_ascii_digit() || b == b'.';
    let quads = runs(hay, dotted, |r| {
        r.bytes().filter(|&b| b == b'.').nth(2).is_some()
    });
    for (at, c) in quads.flat_map(|(at, run)| v4.captures_iter(run).map(move |c| (at, c))) {
        let Some(all) = c.get(0) else { continue };
        let (s, e) = (off + at + all.start(), off + at + all.end());
        // Not part of a version (`jackson-2.12.7.1.jar`, `1.2.3.4.5`) or a name.
        if is_word(byte_before(text, s)) || matches!(byte_before(text, s), Some(b'.' | b'-')) {
            continue;
        }
        if is_word(byte_at(text, e))
            || (byte_at(text, e) == Some(b'.') && is_word(byte_at(text, e + 1)))
        {
            continue;
        }
        let octets: Vec<u32> = (1..=4)
            .filter_map(|i| c.get(i).and_then(|g| g.as_str().parse().ok()))
            .collect();
        if octets.len() != 4 || octets.iter().any(|&o| o > 255) || !ipv4_worth_hiding(&octets) {
            continue;
        }
        push(out, s, e, Kind::Ip, 7, Shape::Ipv4, all.as_str());
    }
    static V6: OnceLock<Regex> = OnceLock::new();
    let v6 = compiled(&V6, r"[0-9A-Fa-f]{0,4}(?::[0-9A-Fa-f]{0,4}){2,7}");
    let hex_colon = |b: u8| b.is_ascii_hexdigit() || b == b':';
    let groups = runs(hay, hex_colon, |r| {
        r.bytes().filter(|&b| b == b':').nth(1).is_some()
    });
    for (ms, me, a) in groups.flat_map(|(at, run)| {
        v6.find_iter(run)
            .map(move |m| (at + m.start(), at + m.end(), m.as_str()))
    }) {
        let (s, e) = (off + ms, off + me);
        if is_word(byte_before(text, s)) || matches!(byte_before(text, s), Some(b'.' | b':')) {
            continue;
        }
        if is_word(byte_at(text, e)) || matches!(byte_at(text, e), Some(b'.' | b':')) {
            continue;
        }
        if !(a.contains("::") || a.matches(':').count() == 7)
            || !a.bytes().any(|b| b.is_ascii_digit())
        {
            continue;
        }
        if a.split(':').filter(|g| !g.is_empty()).count() < 2 {
            continue;
        }
        let Ok(addr) = a.parse::<Ipv6Addr>() else {
            continue;
        };
        let seg = addr.segments();
        if addr.is_loopback() || addr.is_unspecified() || (seg[0] == 0x2001 && seg[1] == 0x0db8) {
            continue;
        }
        push(out, s, e, Kind::Ip, 7, Shape::Ipv6, &addr.to_string());
    }
}

/// Loopback, `0.0.0.0`, broadcast and netmasks, and the documentation and benchmarking ranges
/// the placeholders use, stay.
fn ipv4_worth_hiding(o: &[u32]) -> bool {
    !(o[0] == 0
        || o[0] == 127
        || o[0] == 255
        || (o[0] == 192 && o[1] == 0 && o[2] == 2)
        || (o[0] == 198 && o[1] == 51 && o[2] == 100)
        || (o[0] == 203 && o[1] == 0 && o[2] == 113)
        || (o[0] == 198 && (o[1] == 18 || o[1] == 19)))
}

// ---- Host names.

/// Top-level domains that mark a dotted lower-case name as a host. Chosen to avoid file
/// extensions and words that end configuration keys (`.py`, `.sh`, `.md`, `.id`, `.info`,
/// `.home`, `.app`, `.in`, `.it`, …).
const TLDS: &str = "com|net|org|io|edu|gov|mil|biz|eu|us|uk|de|fr|nl|ch|se|dk|fi|ru|cn|jp|kr|br|au|ca|sg|hk|tw|cz|ie|il|nz|za|mx|tr|ua|ro|hu|gr|lu|local|localdomain|lan|internal|intranet|intra|corp|svc";

/// First labels of Java packages (and top-level domains: `org.apache.kafka`, `io.netty`,
/// `ch.qos.logback` are reversed domains, not hosts).
fn java_root(label: &str) -> bool {
    matches!(
        label,
        "java"
            | "javax"
            | "jakarta"
            | "jdk"
            | "sun"
            | "scala"
            | "akka"
            | "pekko"
            | "kotlin"
            | "kotlinx"
            | "android"
            | "groovy"
            | "clojure"
            | "software"
            | "reactor"
            | "okhttp3"
            | "okio"
            | "lombok"
            | "shaded"
            | "org"
            | "com"
            | "net"
            | "io"
            | "de"
            | "ch"
            | "uk"
            | "fr"
            | "nl"
            | "eu"
            | "us"
            | "cn"
            | "ru"
            | "jp"
            | "br"
            | "edu"
            | "gov"
            | "me"
            | "co"
            | "ai"
            | "dev"
            | "app"
            | "info"
            | "biz"
            | "tech"
            | "cc"
            | "it"
            | "es"
            | "pl"
            | "se"
            | "fi"
            | "dk"
            | "at"
            | "be"
            | "no"
            | "cz"
            | "hu"
            | "ro"
            | "gr"
            | "ie"
            | "il"
            | "in"
    )
}

/// Public names a diagnosis may quote (documentation links, mailing lists, XML namespaces).
fn public_domain(host: &str) -> bool {
    const PUBLIC: [&str; 14] = [
        "apache.org",
        "github.com",
        "githubusercontent.com",
        "stackoverflow.com",
        "maven.org",
        "oracle.com",
        "openjdk.org",
        "openjdk.java.net",
        "w3.org",
        "example.com",
        "example.org",
        "example.net",
        "ververica.com",
        "alibabacloud.com",
    ];
    PUBLIC
        .iter()
        .any(|p| host == *p || host.strip_suffix(p).is_some_and(|h| h.ends_with('.')))
        || aws_endpoint(host)
}

/// AWS service endpoints (`s3.us-east-1.amazonaws.com`, `sts.amazonaws.com`) name no one; a
/// bucket's virtual host (`my-bucket.s3.amazonaws.com`) does.
fn aws_endpoint(host: &str) -> bool {
    let Some(rest) = host
        .strip_suffix(".amazonaws.com")
        .or_else(|| host.strip_suffix(".amazonaws.com.cn"))
    else {
        return false;
    };
    let service = rest.split(['.', '-']).next().unwrap_or_default();
    matches!(
        service,
        "s3" | "sts"
            | "kinesis"
            | "dynamodb"
            | "monitoring"
            | "glue"
            | "logs"
            | "kms"
            | "sqs"
            | "sns"
            | "secretsmanager"
            | "elasticmapreduce"
            | "firehose"
            | "ec2"
            | "iam"
            | "lambda"
            | "kafka"
            | "athena"
    ) && !rest.contains("..")
}

/// Whether `host` is a host name worth hiding. `single_label`: a name without dots counts (it is
/// in a URL or after a host key); otherwise the caller already checked the domain.
fn is_host_name(host: &str, in_url: bool) -> bool {
    let h = host.to_ascii_lowercase();
    if h.is_empty()
        || h.len() > 253
        || h == "localhost"
        || h.ends_with(".localhost")
        || h.ends_with(".example")
        || h.ends_with(".invalid")
        || public_domain(&h)
    {
        return false;
    }
    if !h
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.' || (in_url && b == b'_'))
    {
        return false;
    }
    // An IPv4 address or a number is not a host name (IPs are found on their own).
    if h.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
        return false;
    }
    // Nor an address someone already masked (`xx.xx.100.75`).
    if !h.bytes().any(|b| b.is_ascii_alphabetic())
        || h.split('.')
            .all(|l| l.bytes().all(|b| b.is_ascii_digit() || b == b'x'))
    {
        return false;
    }
    h.split('.')
        .all(|l| !l.is_empty() && !l.starts_with('-') && !l.ends_with('-'))
}

/// The maximal runs of bytes that `class` accepts in `hay`, with their offsets, that `keep`
/// accepts. A regex made only of characters of `class` matches inside such runs alone, so running
/// it on each kept run finds exactly what running it over `hay` finds, without making the
/// regex engine (`regex-lite`: no literal prefilter) walk the text in between.
fn runs<'a>(
    hay: &'a str,
    class: impl Fn(u8) -> bool + 'a,
    keep: impl Fn(&str) -> bool + 'a,
) -> impl Iterator<Item = (usize, &'a str)> + 'a {
    let bytes = hay.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < bytes.len() {
            while i < bytes.len() && !class(bytes[i]) {
                i += 1;
            }
            let start = i;
            while i < bytes.len() && class(bytes[i]) {
                i += 1;
            }
            // ASCII classes only: the run's ends are char boundaries.
            if let Some(run) = hay.get(start..i).filter(|r| !r.is_empty() && keep(r)) {
                return Some((start, run));
            }
        }
        None
    })
}

fn hosts(text: &str, hay: &str, off: usize, out: &mut Vec<Candidate>) {
    static RE: OnceLock<Regex> = OnceLock::new();
    let re = compiled(
        &RE,
        &format!(r"[a-z0-9][a-z0-9_\-]*(?:\.[a-z0-9_\-]+)*\.(?:{TLDS})"),
    );
    let host_byte =
        |b: u8| b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'_' | b'-' | b'.');
    // A name the checks below keep ends with a top-level domain followed by nothing of the
    // run but a last `.` (what follows may be neither a word character, `-`, nor `.` and a word
    // character): only runs where some label after a dot is one.
    let has_tld_label = |r: &str| {
        r.split('.')
            .skip(1)
            .any(|label| TLDS.split('|').any(|t| t == label))
    };
    let matches = runs(hay, host_byte, has_tld_label).flat_map(|(at, run)| {
        re.find_iter(run)
            .map(move |m| (at + m.start(), at + m.end(), m.as_str()))
    });
    for (ms, me, h) in matches {
        let (s, e) = (off + ms, off + me);
        let before = byte_before(text, s);
        if is_word(before) || matches!(before, Some(b'.' | b'-')) {
            continue;
        }
        let after = byte_at(text, e);
        if is_word(after)
            || after == Some(b'-')
            || (after == Some(b'.') && is_word(byte_at(text, e + 1)))
        {
            continue;
        }
        let first = h.split('.').next().unwrap_or_default();
        if h.contains('_') || java_root(first) || !is_host_name(h, false) {
            continue;
        }
        push(out, s, e, Kind::Host, 9, Shape::Host, h);
    }
    // `InetSocketAddress.toString()`: `kafka-1/10.1.2.3:9092` — the name before the slash.
    static INET: OnceLock<Regex> = OnceLock::new();
    let inet = compiled(
        &INET,
        r"[A-Za-z0-9][A-Za-z0-9.\-]*/\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3}",
    );
    let any = hay.contains('/') && has_digit_dot_digit(hay);
    for m in inet.find_iter(if any { hay } else { "" }) {
        let s = off + m.start();
        let before = byte_before(text, s);
        if is_word(before) || matches!(before, Some(b'.' | b'-' | b'/' | b'\\')) {
            continue;
        }
        let name = m.as_str().split('/').next().unwrap_or_default();
        let first = name.split('.').next().unwrap_or_default();
        if name.contains('.') && java_root(&first.to_ascii_lowercase()) {
            continue;
        }
        if is_host_name(name, false) && !name.bytes().any(|b| b.is_ascii_uppercase()) {
            push(
                out,
                s,
                s + name.len(),
                Kind::Host,
                8,
                Shape::Host,
                &name.to_ascii_lowercase(),
            );
        }
    }
    // Kubernetes-style names on AWS: `ip-10-0-0-1` (also found in longer names by the TLD rule).
    static AWS: OnceLock<Regex> = OnceLock::new();
    let aws = compiled(&AWS, r"ip-\d{1,3}-\d{1,3}-\d{1,3}-\d{1,3}");
    let any = hay.contains("ip-");
    for m in aws.find_iter(if any { hay } else { "" }) {
        let (s, e) = (off + m.start(), off + m.end());
        if is_word(byte_before(text, s))
            || matches!(byte_before(text, s), Some(b'-' | b'.'))
            || is_word(byte_at(text, e))
        {
            continue;
        }
        if byte_at(text, e) == Some(b'.') && is_word(byte_at(text, e + 1)) {
            continue; // A longer dotted name: the TLD rule or a URL takes it whole.
        }
        push(out, s, e, Kind::Host, 8, Shape::Host, m.as_str());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn runs_are_the_maximal_stretches_of_a_class_that_are_kept() {
        let hay = "at a.b.C(x.com:9) host-1.example.com é 10.1.2.3";
        let host = |b: u8| b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'.' | b'-');
        let got: Vec<(usize, &str)> = runs(hay, host, |r| r.contains('.')).collect();
        assert_eq!(
            got,
            [
                (3, "a.b."),
                (9, "x.com"),
                (18, "host-1.example.com"),
                (40, "10.1.2.3")
            ]
        );
        for (at, run) in got {
            assert_eq!(&hay[at..at + run.len()], run);
        }
        assert_eq!(runs("", host, |_| true).count(), 0);
    }

    #[test]
    fn secrets_in_prose_camel_case_keys_and_azure_keys_are_hidden() {
        for (input, leaked) in [
            ("RuntimeException: apikey: 9f8e7d6c5b4a", "9f8e7d6c5b4a"),
            ("RuntimeException: secret: Tr0ub4dor", "Tr0ub4dor"),
            ("a ssl.truststore.password=changeit b", "changeit"),
            ("-Djavax.net.ssl.trustStorePassword=jks15 -Dx=1", "jks15"),
            (
                "fs.azure.account.key.myacct.blob.core.windows.net: Zm9vYmFyYmF6cXV4MTIz",
                "Zm9vYmFy",
            ),
        ] {
            let out = redact(input);
            assert!(!out.contains(leaked), "{input} -> {out}");
            assert!(out.contains("***"), "{input} -> {out}");
        }
        // Exception class names that end in a secret word are not keys.
        assert_eq!(
            redact("org.apache.kafka.common.errors.InvalidTokenException: token expired"),
            "org.apache.kafka.common.errors.InvalidTokenException: token expired"
        );
    }

    #[test]
    fn counts_read_in_the_plural() {
        assert_eq!(Kind::FlinkId.count_label(4), "4 Flink ids");
        assert_eq!(Kind::Ip.count_label(1), "1 IP address");
        for k in Kind::ALL {
            assert!(k.count_label(2).starts_with("2 "));
            assert_ne!(k.count_label(2), format!("2 {}", k.label()), "{k:?}");
            // Every kind has its own Chinese label, with no Latin word but the ids' names.
            let zh = k.label_in(crate::lang::Lang::Zh);
            assert_ne!(zh, k.label(), "{k:?}");
            assert!(
                Kind::ALL
                    .iter()
                    .filter(|o| o.label_in(crate::lang::Lang::Zh) == zh)
                    .count()
                    == 1
            );
            assert_eq!(
                k.count_label_in(2, crate::lang::Lang::Zh),
                format!("2 个{zh}")
            );
        }
    }

    /// (kind, original, replacement) of each redaction.
    fn found(text: &str) -> Vec<(Kind, &str, String)> {
        find(text)
            .into_iter()
            .map(|r| (r.kind, &text[r.span.range()], r.replacement))
            .collect()
    }

    fn originals(text: &str, kind: Kind) -> Vec<&str> {
        found(text)
            .into_iter()
            .filter(|(k, _, _)| *k == kind)
            .map(|(_, o, _)| o)
            .collect()
    }

    #[test]
    fn kafka_node_host_and_ip_keep_their_port() {
        let line = "Connection to node 1 (kafka-1.prod.acme.com/10.1.2.3:9092) could not be established. Broker may not be available.";
        assert_eq!(
            redact(line),
            "Connection to node 1 (host-1.example/192.0.2.1:9092) could not be established. Broker may not be available."
        );
        let f = found(line);
        assert_eq!(f[0].0, Kind::Host);
        assert_eq!(f[1].0, Kind::Ip);
    }

    #[test]
    fn placeholders_are_consistent_and_numbered_in_order() {
        let text = "a 10.0.0.1 b 10.0.0.2 c 10.0.0.1\nkafka-1.acme.com kafka-2.acme.com KAFKA-1.acme.com? kafka-1.acme.com";
        assert_eq!(
            redact(text),
            "a 192.0.2.1 b 192.0.2.2 c 192.0.2.1\nhost-1.example host-2.example KAFKA-1.acme.com? host-1.example"
        );
        assert_eq!(doc_ipv4(254), "192.0.2.254");
        assert_eq!(doc_ipv4(255), "198.51.100.1");
        assert_eq!(doc_ipv4(3 * 254 + 1), "198.18.0.1");
        assert_eq!(doc_ipv4(3 * 254 + 255), "198.18.1.1");
    }

    #[test]
    fn jdbc_urls_hide_user_password_and_host() {
        let text = "Cannot connect to jdbc:mysql://bob:s3cret@db.corp.com:3306/app?user=bob&password=s3cret&useSSL=false";
        assert_eq!(
            redact(text),
            "Cannot connect to jdbc:mysql://user1:***@host-1.example:3306/app?user=user1&password=***&useSSL=false"
        );
        assert_eq!(
            redact("jdbc:sqlserver://sql01.corp.local:1433;databaseName=app;user=bob;password=Pa55word;"),
            "jdbc:sqlserver://host-1.example:1433;databaseName=app;user=user1;password=***;"
        );
        assert_eq!(
            redact("url: jdbc:oracle:thin:scott/tiger@dbhost:1521:ORCL"),
            "url: jdbc:oracle:thin:user1/***@dbhost:1521:ORCL"
        );
        assert_eq!(
            redact("jdbc:postgresql://pg-primary:5432/orders"),
            "jdbc:postgresql://host-1.example:5432/orders"
        );
    }

    #[test]
    fn sasl_jaas_password_is_hidden_the_login_module_stays() {
        let text = r#"sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="svc-orders" password="s3cr3t";"#;
        assert_eq!(
            redact(text),
            r#"sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="user1" password="***";"#
        );
        // Kafka's config dump prints masked values: nothing to do.
        let dump = "\tsasl.jaas.config = [hidden]\n\tssl.key.password = null\n\tssl.truststore.password = [hidden]";
        assert!(find(dump).is_empty(), "{:?}", found(dump));
    }

    #[test]
    fn configuration_secrets_in_yaml_properties_and_json() {
        for (text, want) in [
            ("s3.secret-key: Xy9+abc/DEF", "s3.secret-key: ***"),
            ("s3.access-key: AKIAIOSFODNN7EXAMPLE", "s3.access-key: ***"),
            ("fs.s3a.secret.key=wJalrXUtnFEMI", "fs.s3a.secret.key=***"),
            (
                "export DB_PASSWORD=hunter22 AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI",
                "export DB_PASSWORD=*** AWS_SECRET_ACCESS_KEY=***",
            ),
            (
                "security.ssl.rest.keystore-password: changeme123",
                "security.ssl.rest.keystore-password: ***",
            ),
            (
                r#"{"user":"alice","password":"hunter22","apiKey":"k-123"}"#,
                r#"{"user":"user1","password":"***","apiKey":"***"}"#,
            ),
            (
                r#"{\"password\":\"hunter22\"}"#,
                r#"{\"password\":\"***\"}"#,
            ),
            (
                "  password: hunter22\n  token: abc.def",
                "  password: ***\n  token: ***",
            ),
            (
                "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload.sig",
                "Authorization: Bearer ***",
            ),
            (
                "Authorization: Basic dXNlcjpwYXNz",
                "Authorization: Basic ***",
            ),
            (
                "token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl end",
                "token *** end",
            ),
        ] {
            assert_eq!(redact(text), want, "{text}");
        }
        // Exception names and masked values are not settings. (A secret word followed by
        // `: value` in prose is hidden: "the previous token: 'x'" loses its 'x'.)
        for text in [
            "Caused by: org.apache.hadoop.security.token.SecretManager$InvalidToken: token expired",
            "password authentication failed for user \"bob\"",
            "Loading configuration property: s3.secret-key, ******",
            "password=${DB_PASSWORD}",
        ] {
            assert!(
                originals(text, Kind::Secret).is_empty(),
                "{text}: {:?}",
                found(text)
            );
        }
    }

    #[test]
    fn yarn_ids_keep_their_prefix_and_share_the_application() {
        let text = "container_e12_1612345678901_0042_01_000002 of application_1612345678901_0042 \
                    (appattempt_1612345678901_0042_000001), then application_1612345678901_0043";
        assert_eq!(
            redact(text),
            "container_e12_0000000000000_0001_01_000002 of application_0000000000000_0001 \
             (appattempt_0000000000000_0001_000001), then application_0000000000000_0002"
        );
        assert!(originals(text, Kind::YarnId).len() == 4);
    }

    #[test]
    fn flink_ids_become_numbered_hex_of_the_same_length() {
        let text = "Job a1b2c3d4e5f60718293a4b5c6d7e8f90 (a1b2c3d4e5f60718293a4b5c6d7e8f90) \
                    Source: x (1/2)#0 (0a1b2c3d4e5f60718293a4b5c6d7e8f9_cbc357ccb763df2852fee8c4fc7d55f2_0_0) \
                    fencing token 00000000000000000000000000000000";
        assert_eq!(
            redact(text),
            "Job 00000000000000000000000000000001 (00000000000000000000000000000001) \
             Source: x (1/2)#0 (00000000000000000000000000000002_00000000000000000000000000000003_0_0) \
             fencing token 00000000000000000000000000000000"
        );
        // 16-hex thread ids, 40-hex digests and 8-hex hash codes are no Flink ids.
        let other = "tid=0x00007f4b8c0a1800 sha1 3f0c9a1b2c3d4e5f60718293a4b5c6d7e8f90123 java.util.HashMap@1b2c3d4e";
        assert!(find(other).is_empty(), "{:?}", found(other));
    }

    #[test]
    fn actor_urls_hide_the_host_not_the_actor_system() {
        assert_eq!(
            redact(
                "Association with pekko.tcp://flink@10.0.0.12:6123/user/rpc/taskmanager_0 failed"
            ),
            "Association with pekko.tcp://flink@192.0.2.1:6123/user/rpc/taskmanager_0 failed"
        );
        assert_eq!(
            redact("akka.tcp://flink@tm-node-7:41235/user/rpc/taskmanager_0 and akka://flink/user/dispatcher"),
            "akka.tcp://flink@host-1.example:41235/user/rpc/taskmanager_0 and akka://flink/user/dispatcher"
        );
    }

    #[test]
    fn kubernetes_services_and_pods() {
        assert_eq!(
            redact("Could not connect to flink-jobmanager.ns.svc.cluster.local:6123"),
            "Could not connect to host-1.example:6123"
        );
        assert_eq!(
            redact("pod flink-jobmanager-7d9f8b6c5d-x2x7k restarted; flink-jobmanager-7d9f8b6c5d-x2x7k"),
            "pod flink-jobmanager-0000000000-00001 restarted; flink-jobmanager-0000000000-00001"
        );
        assert_eq!(
            redact("containerID: containerd://4f2a9c1b8e7d6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a"),
            "containerID: containerd://0000000000000000000000000000000000000000000000000000000000000001"
        );
        // Words and operator names are no pod names.
        let ops = "Source: kafka-source-events -> Filter -> Sink: kafka-out (1/2)#0 my-flink-job-taskmanager-1-1";
        assert!(find(ops).is_empty(), "{:?}", found(ops));
    }

    #[test]
    fn home_paths_hide_the_user() {
        assert_eq!(
            redact("/home/alice/jobs/app.jar C:\\Users\\alice\\app.jar /Users/alice/x C:\\\\Users\\\\bob\\\\y"),
            "/home/user1/jobs/app.jar C:\\Users\\user1\\app.jar /Users/user1/x C:\\\\Users\\\\user2\\\\y"
        );
        assert_eq!(
            redact("hdfs://nn:8020/user/carol/.flink/ and /yarn/nm/usercache/carol/appcache/"),
            "hdfs://host-1.example:8020/user/user1/.flink/ and /yarn/nm/usercache/user1/appcache/"
        );
        // Service accounts stay.
        let services = "/home/flink/lib /Users/Shared/x /usercache/yarn/ /home/root/";
        assert!(find(services).is_empty(), "{:?}", found(services));
    }

    #[test]
    fn a_user_name_found_once_is_hidden_where_it_stands_alone() {
        let text = " Current Hadoop/Kerberos user: alice\nkeytab /etc/alice.keytab owner=alice \
                    group alice-team, malice, alice@corp.com\n/Users/test/x test run";
        assert_eq!(
            redact(text),
            " Current Hadoop/Kerberos user: user1\nkeytab /etc/user1.keytab owner=user1 \
             group alice-team, malice, user2@example.com\n/Users/user3/x test run"
        );
    }

    #[test]
    fn e_mails_in_mail_quoting_headers() {
        let text = "On Mon, Aug 16, 2021 at 10:12 AM Bob <bob@corp.com> wrote:\n> Hi,\nFrom: Alice Smith <alice.smith@mail.acme.co.uk>\nsent to user@flink.apache.org";
        assert_eq!(
            redact(text),
            "On Mon, Aug 16, 2021 at 10:12 AM Bob <user1@example.com> wrote:\n> Hi,\nFrom: Alice Smith <user2@example.com>\nsent to user@flink.apache.org"
        );
        // Not e-mails: module versions, hash codes, actor addresses.
        let not = "at java.base@17.0.7/java.lang.Thread.run java.lang.Object@5f2a1c3 akka.tcp://flink@10.0.0.1:6123";
        assert!(originals(not, Kind::Email).is_empty(), "{:?}", found(not));
    }

    #[test]
    fn secrets_recognised_by_shape() {
        for text in [
            "key AKIAIOSFODNN7EXAMPLE used",
            "ghp_0123456789abcdefghijABCDEFGHIJ012345 pushed",
            "xoxb-123456789012-abcdefghij",
        ] {
            assert_eq!(originals(text, Kind::Secret).len(), 1, "{text}");
        }
        let pem = "-----BEGIN RSA PRIVATE KEY-----\nMIIEow==\n-----END RSA PRIVATE KEY-----";
        assert_eq!(redact(pem), "***\n***\n***");
    }

    #[test]
    fn ipv6_addresses_but_not_times_or_scala() {
        assert_eq!(
            redact("connect to [fe80::1ff:fe23:4567:890a]:6123 and 2001:4860:4860::8888"),
            "connect to [2001:db8::1]:6123 and 2001:db8::2"
        );
        let not = "06:18:37.123 a::b Foo::bar ::1 std::vector 00:1a:2b:3c:4d:5e";
        assert!(originals(not, Kind::Ip).is_empty(), "{:?}", found(not));
    }

    #[test]
    fn java_names_versions_and_frames_are_never_touched() {
        let text = "java.io.IOException: Could not perform checkpoint 575 for operator ual_transform_IpLabel (18/60)#0.\n\
                    \tat org.apache.flink.runtime.taskmanager.Task.run(Task.java:566) ~[flink-dist_2.11-1.13.2.jar:1.13.2]\n\
                    \tat java.util.HashMap$HashIterator.nextNode(HashMap.java:1445) ~[?:1.8.0_292]\n\
                    \tat com.example.MyJob.main(MyJob.java:42)\n\
                    \tat io.netty.channel.nio.NioEventLoop.run(NioEventLoop.java:986)\n\
                    Caused by: org.apache.kafka.common.errors.TimeoutException: see java.io and org.apache.kafka, \
                    javax.net.ssl, sun.nio.ch, io.netty, ch.qos.logback, okhttp3.internal.http, user.home, group.id, \
                    log.info, flink-conf.yaml, setup.py, run.sh, README.md, Flink 1.13.2, 2.12.7.1.jar, jackson-2.12.7.1, \
                    HashMap.java:1445, Task.java:566, line 42, chk-575, rocksdb-7.8.3\n\
                    \tat com.acme.net.Client.send(Client.java:12)\n";
        assert!(find(text).is_empty(), "{:?}", found(text));
        // Public documentation links stay.
        let links = "see https://nightlies.apache.org/flink/flink-docs-stable/ and https://github.com/apache/flink \
                     and s3.us-east-1.amazonaws.com, http://localhost:8081, 127.0.0.1, 0.0.0.0:6123";
        assert!(find(links).is_empty(), "{:?}", found(links));
        assert_eq!(
            redact("bucket my-bucket.s3.amazonaws.com"),
            "bucket host-1.example"
        );
    }

    #[test]
    fn host_keys_and_single_label_hosts_in_context() {
        assert_eq!(
            redact("\tbootstrap.servers = [kafka-0:9092, kafka-1.kafka:9092]\njobmanager.rpc.address: flink-jm\nhigh-availability.zookeeper.quorum: zk1:2181,zk2:2181"),
            "\tbootstrap.servers = [host-1.example:9092, host-2.example:9092]\njobmanager.rpc.address: host-3.example\nhigh-availability.zookeeper.quorum: host-4.example:2181,host-5.example:2181"
        );
        assert_eq!(
            redact("Connection refused: namenode/10.0.0.5:8020 and localhost/127.0.0.1:8081"),
            "Connection refused: host-1.example/192.0.2.1:8020 and localhost/127.0.0.1:8081"
        );
        assert_eq!(
            redact("ip-10-0-0-1.ec2.internal and ip-10-0-0-2"),
            "host-1.example and host-2.example"
        );
    }

    #[test]
    fn apply_skips_what_does_not_fit_and_preview_lists_lines() {
        let text = "a 10.0.0.1\nb bob@corp.com";
        let rs = find(text);
        let p = preview(text, &rs);
        assert_eq!(p.len(), 2);
        assert_eq!((p[1].line, p[1].label), (2, "e-mail address"));
        assert_eq!(p[1].original, "bob@corp.com");
        assert_eq!(p[1].replacement, "user1@example.com");
        let s = summary(text, &rs);
        assert_eq!(s.len(), 2);
        assert_eq!((s[0].kind, s[0].count, s[0].distinct), (Kind::Ip, 1, 1));
        // Filtering by kind (a page's check boxes) applies the rest.
        let only_ip: Vec<Redaction> = rs.iter().filter(|r| r.kind == Kind::Ip).cloned().collect();
        assert_eq!(apply(text, &only_ip), "a 192.0.2.1\nb bob@corp.com");
        // Out-of-range, overlapping and non-boundary spans are skipped, never a panic.
        let bad = vec![
            Redaction {
                span: Span::new(0, 3),
                kind: Kind::Host,
                replacement: "X".into(),
            },
            Redaction {
                span: Span::new(1, 2),
                kind: Kind::Host,
                replacement: "Y".into(),
            },
            Redaction {
                span: Span::new(5, 99),
                kind: Kind::Host,
                replacement: "Z".into(),
            },
        ];
        assert_eq!(apply("héllo", &bad), "Xllo");
        let json = serde_json::to_string(&rs[0]).unwrap_or_default();
        assert!(json.contains("\"kind\":\"ip\""), "{json}");
    }
}
