//! The rule file format (`rules/<id>/rule.toml`), shared by `build.rs` (which checks every rule
//! and renders its Markdown) and the library (which loads the checked rules).
//!
//! A rule is data: match conditions, role labels for the frames it highlights, the explanation
//! and references. New kinds of condition are new [`Condition`] variants with a tested matcher.

use serde::{Deserialize, Serialize};

/// One diagnosis rule, as written in `rules/<id>/rule.toml`.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RuleDef {
    /// Stable id, kebab-case, equal to the rule's folder name (`async-wait-inflight-cme`).
    pub id: String,
    /// One line, shown as the finding's heading.
    pub title: String,
    /// One or two sentences: the root cause in plain words.
    pub summary: Prose,
    /// Area (`checkpointing`, `state-serialization`, …).
    pub category: String,
    /// `error`, `warning` or `info`.
    pub severity: String,
    /// `flink` when the rule may only fire on a trace that shows Flink frames or classes;
    /// `jvm` for rules that hold for any JVM software.
    pub platform: String,
    /// The Flink versions the rule applies to, in words (`1.9 and later`).
    pub versions: String,
    /// First Flink version (`1.11`) in which this failure can happen, when known. With
    /// `fixed_in` it lets a finding say that it does not apply to the version the trace shows.
    #[serde(default)]
    pub since: Option<String>,
    /// The first fixed release of each minor line the fix reached (`"1.13"`, or
    /// `["1.14.6", "1.15.1"]` when 1.15.0 was still affected), when the failure was a bug that
    /// got fixed; lines newer than every listed one had the fix from their `.0`. Empty when not
    /// fixed or unknown. Give the FLINK-NNNNN of the fix in `versions`. A single string or a list.
    #[serde(default, deserialize_with = "one_or_many")]
    pub fixed_in: Vec<String>,
    /// The fixture shown (and diagnosed live) on the rule's catalog page (`match-seed.txt`);
    /// the first `match-*` fixture by name when absent.
    #[serde(default)]
    pub example: Option<String>,
    /// All must hold (except those marked `optional`) for the rule to fire.
    pub conditions: Vec<Condition>,
    /// The rule explains a wrapper or a consequence of the real failure ("Recovery is suppressed
    /// by …", "Exceeded checkpoint tolerable failure threshold"): any other finding on the same
    /// trace ranks above it, however specific, since that one explains what was wrapped.
    #[serde(default)]
    pub wrapper: bool,
    /// Alternative ways the same failure shows (`[[variants]]`): when there are any, the rule
    /// fires only if one of them matches as well as [`RuleDef::conditions`]. Each variant's
    /// conditions are matched first, so its binds can be used by the common conditions.
    /// Variants are tried in order; the first that matches is reported in the evidence.
    #[serde(default)]
    pub variants: Vec<Variant>,
    /// The question a reply asks to confirm the diagnosis, answerable by the person who
    /// posted the trace ("Does your AsyncFunction's callback change the input record?"). The
    /// short reply falls back to a general question when absent.
    #[serde(default)]
    pub confirm: Option<String>,
    /// The explanation shown under the title.
    pub explanation: Explanation,
    /// Docs pages and JIRA issues the facts come from.
    pub references: Vec<Reference>,
    /// A picture of the failure drawn from the diagnosis (threads over time), when it helps.
    #[serde(default)]
    pub diagram: Option<Diagram>,
    /// The rule's prose in Simplified Chinese, from `rules/<id>/rule.zh.toml` when the rule has
    /// one (`build.rs` reads and checks it; a `rule.toml` never holds it). Used when the page or
    /// the reply is in Chinese; English is the fallback for every rule without one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub zh: Option<Box<Translation>>,
}

/// A rule's prose in another language (`rules/<id>/rule.zh.toml`): the same parts as the
/// English, in the same order and number (`build.rs` checks it), with class names, config keys,
/// versions and code identifiers kept verbatim. What it does not give stays English.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Translation {
    /// [`RuleDef::title`].
    pub title: String,
    /// [`RuleDef::summary`].
    pub summary: Prose,
    /// [`RuleDef::versions`], when translated.
    #[serde(default)]
    pub versions: Option<String>,
    /// [`RuleDef::confirm`].
    #[serde(default)]
    pub confirm: Option<String>,
    /// [`RuleDef::explanation`]: as many sections, fixes and things that do not help.
    pub explanation: Explanation,
    /// The role labels of the rule's conditions and steps: the English label → its translation.
    /// Every role the rule writes must be here.
    #[serde(default)]
    pub roles: std::collections::BTreeMap<String, String>,
    /// The steps' `explain` texts, by the step's `frame` glob as written in `rule.toml`.
    /// Every step with an `explain` must be here.
    #[serde(default)]
    pub steps: std::collections::BTreeMap<String, Prose>,
    /// [`RuleDef::diagram`]: the same lanes and steps.
    #[serde(default)]
    pub diagram: Option<Diagram>,
}

/// A rule's prose in one language, with the English filled in wherever the translation gives
/// none: everything a finding, a reply or a catalog page says about the rule, and nothing that
/// matching needs. [`RuleDef::prose`] makes it; the page loads it for the rules it shows
/// (`prose/<lang>/<id>.json` beside the module, issue 13), the command line from the bundled
/// rules.
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct RuleProse {
    /// [`RuleDef::title`].
    pub title: String,
    /// [`RuleDef::summary`].
    pub summary: Prose,
    /// [`RuleDef::versions`].
    pub versions: String,
    /// [`RuleDef::confirm`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confirm: Option<String>,
    /// [`RuleDef::explanation`].
    pub explanation: Explanation,
    /// [`RuleDef::references`] (never translated: titles of pages and issues).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub references: Vec<Reference>,
    /// [`RuleDef::diagram`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diagram: Option<Diagram>,
    /// The role labels of the conditions and steps as shown: the English label → the label in
    /// this language (empty in English, and for a label the translation leaves out).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub roles: std::collections::BTreeMap<String, String>,
    /// Each sequence step's `explain`, by the step's `frame` glob as written.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub steps: std::collections::BTreeMap<String, Prose>,
    /// True when this is a translation, false for English (and for a rule whose prose has no
    /// translation in the language asked for).
    #[serde(default)]
    pub translated: bool,
    /// The rule's example trace ([`crate::rules::example`]), in the files the page loads (the
    /// page's module bundles no examples: its rule page shows this one); empty in a rule's own
    /// prose ([`RuleDef::prose`]), which the bundled examples accompany.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub example: String,
}

impl RuleDef {
    /// This rule's prose in English, or (`zh`) in Chinese where `rule.zh.toml` gives it.
    pub fn prose(&self, zh: bool) -> RuleProse {
        let mut steps = std::collections::BTreeMap::new();
        let all = self
            .conditions
            .iter()
            .chain(self.variants.iter().flat_map(|v| v.conditions.iter()));
        for c in all {
            if let Condition::Sequence { steps: list, .. } = c {
                for s in list {
                    if let Some(e) = &s.explain {
                        steps.insert(s.frame.clone(), e.clone());
                    }
                }
            }
        }
        let english = RuleProse {
            title: self.title.clone(),
            summary: self.summary.clone(),
            versions: self.versions.clone(),
            confirm: self.confirm.clone(),
            explanation: self.explanation.clone(),
            references: self.references.clone(),
            diagram: self.diagram.clone(),
            roles: Default::default(),
            steps,
            translated: false,
            example: String::new(),
        };
        match (&self.zh, zh) {
            (Some(t), true) => {
                let mut steps = english.steps;
                for (frame, p) in &t.steps {
                    steps.insert(frame.clone(), p.clone());
                }
                RuleProse {
                    title: t.title.clone(),
                    summary: t.summary.clone(),
                    versions: t.versions.clone().unwrap_or(english.versions),
                    confirm: t.confirm.clone(),
                    explanation: t.explanation.clone(),
                    references: english.references,
                    diagram: t.diagram.clone().or(english.diagram),
                    roles: t.roles.clone(),
                    steps,
                    translated: true,
                    example: String::new(),
                }
            }
            _ => english,
        }
    }

    /// This definition without its prose ([`RuleDef::prose`]): what matching and ranking need.
    /// A sequence step keeps an empty `explain` where it had one, so that a match still notes
    /// the step (its words come from the prose).
    pub fn without_prose(&self) -> RuleDef {
        let mut def = self.clone();
        def.title = String::new();
        def.summary = Prose::default();
        def.versions = String::new();
        def.confirm = None;
        def.explanation = Explanation::default();
        def.references = Vec::new();
        def.diagram = None;
        def.zh = None;
        let all = def.conditions.iter_mut().chain(
            def.variants
                .iter_mut()
                .flat_map(|v| v.conditions.iter_mut()),
        );
        for c in all {
            if let Condition::Sequence { steps, .. } = c {
                for s in steps {
                    if s.explain.is_some() {
                        s.explain = Some(Prose::default());
                    }
                }
            }
        }
        def
    }
}

/// One way a failure shows in a trace ([`RuleDef::variants`]): e.g. the root cause printed with
/// its own frames, or only named in the message of the exception that wraps it when the text
/// is cut before its `Caused by:`.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Variant {
    /// What this variant is, in words, for the evidence ("the cause is named only in Kryo's
    /// message").
    pub what: String,
    /// All must hold (except those marked `optional`), with the rule's own conditions.
    pub conditions: Vec<Condition>,
}

/// A timeline of threads, drawn as an inline SVG under a finding. Texts may hold placeholders
/// filled from the trace: `{checkpoint}` (checkpoint id), `{task}` (operator chain),
/// `{collection}` (the collection class the root cause's top frame iterates, `HashMap`).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Diagram {
    /// Heading, sentence case (`Two threads, one map`).
    pub title: String,
    /// The threads, top to bottom; their steps are aligned in columns (time runs left to right).
    pub lanes: Vec<Lane>,
    /// One or two sentences under the picture.
    pub caption: String,
}

/// One thread of a [`Diagram`].
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Lane {
    /// The thread (`Task thread of {task}`).
    pub thread: String,
    /// What it does in each column; an empty string leaves the column empty.
    pub steps: Vec<String>,
    /// The column (0-based) where this thread throws, if it does.
    #[serde(default)]
    pub throws_at: Option<usize>,
}

/// Where a frame condition looks: `any` (every throwable of the trace, root cause first), `top`
/// (the top-level throwable), `root` (the root cause), or the name given to a throwable by `bind`.
pub type Within = String;

/// A match condition. Frame patterns are globs over `class.method` (`*` is any run of
/// characters, `{a,b}` alternatives, everything else literal), matched against the whole string.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Condition {
    /// A throwable whose class matches `class` (glob) and, when given, whose message matches
    /// `message` (regex, unanchored). Searched root cause first. `bind` names it for later
    /// conditions; `role` labels its header.
    Throwable {
        /// Glob over the fully qualified class.
        class: String,
        /// Regex over the message, unanchored (`regex-lite` syntax: `\w`, `\d`, `\s`, `\b` are ASCII).
        #[serde(default)]
        message: Option<String>,
        /// Regex the message must not match (unanchored): a throwable whose message matches it
        /// is passed over, as one without a message is not.
        #[serde(default)]
        not_message: Option<String>,
        /// Named groups of `message` (`(?P<a>…)`) that must all capture the same text, in one
        /// match: `(?P<a>[\w.$]+) cannot be cast to (?P<b>[\w.$]+)` with `same = ["a", "b"]`
        /// is one class name on both sides (two copies of one class).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        same: Vec<String>,
        /// A named group of `message` that captures a class name (`(?P<class>[\w.$]+) is not
        /// serializable`): the finding names that class and the project it belongs to (your
        /// code, Flink, or a connector or library, from `src/know/component.rs`), since whose
        /// class it is decides who has to fix it. `frame` instead blames the class of the
        /// throwable's first frame outside Flink and the JDK (and libraries that only pass a
        /// call on: Scala, Guava, logging), when it has one: the code that made the failing
        /// call (a library's thread asking Flink's closed class loader for a class).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        culprit: Option<String>,
        /// Name for later conditions' `within`.
        #[serde(default)]
        bind: Option<String>,
        /// Label for the throwable's header.
        #[serde(default)]
        role: Option<String>,
        /// Not needed for the rule to fire.
        #[serde(default)]
        optional: bool,
    },
    /// Frames in this order within one throwable, innermost (first printed) first, with any
    /// frames between them. Steps marked `optional` are highlighted when present.
    Sequence {
        /// Where to look.
        #[serde(default = "any")]
        within: Within,
        /// The steps, innermost first.
        steps: Vec<Step>,
        /// Not needed for the rule to fire.
        #[serde(default)]
        optional: bool,
    },
    /// A frame matching `frame` somewhere in `within`; the first one is highlighted with `role`
    /// (a frame printed in place is preferred over one restored from `... N more`).
    Frame {
        /// Where to look.
        #[serde(default = "any")]
        within: Within,
        /// Glob over `class.method`.
        frame: String,
        /// Label for the frame.
        #[serde(default)]
        role: Option<String>,
        /// Not needed for the rule to fire.
        #[serde(default)]
        optional: bool,
    },
    /// The first frame of user code (not JDK, Flink, Scala or a known library; see
    /// `src/know/frames.rs`) in `within`, highlighted with `role`.
    UserFrame {
        /// Where to look.
        #[serde(default = "any")]
        within: Within,
        /// Label for the frame.
        #[serde(default)]
        role: Option<String>,
        /// Not needed for the rule to fire.
        #[serde(default)]
        optional: bool,
    },
    /// No frame matching `frame` anywhere in `within`.
    Absent {
        /// Where to look.
        #[serde(default = "any")]
        within: Within,
        /// Glob over `class.method`.
        frame: String,
    },
}

/// A string or a list of strings, as a list. A visitor of both, not an untagged enum: that
/// buffers the value and builds a formatted error for the variant that does not fit, which cost
/// the page's cold start a few milliseconds (issue 13).
fn one_or_many<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    struct OneOrMany;
    impl<'de> serde::de::Visitor<'de> for OneOrMany {
        type Value = Vec<String>;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a string or a list of strings")
        }
        fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Vec<String>, E> {
            Ok(vec![s.to_owned()])
        }
        fn visit_seq<A: serde::de::SeqAccess<'de>>(
            self,
            mut seq: A,
        ) -> Result<Vec<String>, A::Error> {
            let mut list = Vec::new();
            while let Some(s) = seq.next_element::<String>()? {
                list.push(s);
            }
            Ok(list)
        }
    }
    d.deserialize_any(OneOrMany)
}

fn any() -> Within {
    "any".to_owned()
}

/// One step of a [`Condition::Sequence`].
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// Glob over `class.method`.
    pub frame: String,
    /// Label shown beside the frame ("the map being iterated").
    #[serde(default)]
    pub role: Option<String>,
    /// Highlight when present; not needed for the rule to fire.
    #[serde(default)]
    pub optional: bool,
    /// What this frame means, shown only when the step matched (Markdown; `{frame}` stands for
    /// the matched frame's `Class.method`). Lets one rule explain each variant of a trace
    /// truthfully (a `HashMap` or an `ArrayList`, Kryo or Flink's own serializer).
    #[serde(default)]
    pub explain: Option<Prose>,
}

/// The explanation of a rule, in Markdown. Fixed headings keep every rule alike.
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Explanation {
    /// Why it happens: the mechanism, naming the threads and Flink classes involved.
    pub why: Prose,
    /// Further sections under their own headings (e.g. "Why only now and then").
    #[serde(default)]
    pub sections: Vec<Section>,
    /// Fixes, best first.
    pub fixes: Vec<Prose>,
    /// What does not help, and why.
    #[serde(default)]
    pub not_fixes: Vec<Prose>,
    /// When the rule may fire wrongly.
    #[serde(default)]
    pub false_alarms: Option<Prose>,
}

/// A titled part of an explanation.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Section {
    /// Heading, sentence case.
    pub heading: String,
    /// Body, Markdown.
    pub body: Prose,
}

/// A reference: a docs page or an issue.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Reference {
    /// Link text (`FLINK-6048: deep copy of operator state in the synchronous phase`).
    pub title: String,
    /// Absolute URL.
    pub url: String,
}

/// Markdown text with its HTML and plain-text renderings (filled by `build.rs`; a rule file
/// gives a plain string).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "ProseRepr")]
pub struct Prose {
    /// The Markdown source, as written in the rule file.
    pub md: String,
    /// The HTML rendering of `md` (empty until `build.rs` renders it).
    pub html: String,
    /// `md` as plain text for a mail reply (empty until `build.rs` renders it), not wrapped:
    /// blocks are separated by a blank line and a paragraph is one line (soft breaks become
    /// spaces, hard breaks newlines); a list item is a `- ` or `1. ` line, nested items and
    /// an item's further paragraphs indented by the width of the markers above them; each
    /// line of a code block starts with its item's indentation and a tab. Emphasis markers
    /// and HTML are dropped, code spans keep their text, a link becomes `text (url)` (just the
    /// text when it is the url), an image its alt text. See `build/prose_text.rs`.
    pub text: String,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum ProseRepr {
    Md(String),
    Rendered {
        md: String,
        html: String,
        #[serde(default)]
        text: String,
    },
}

impl From<ProseRepr> for Prose {
    fn from(repr: ProseRepr) -> Self {
        match repr {
            ProseRepr::Md(md) => Prose {
                md: md.trim().to_owned(),
                html: String::new(),
                text: String::new(),
            },
            ProseRepr::Rendered { md, html, text } => Prose { md, html, text },
        }
    }
}

/// A hint for inferring the Flink version from a trace (`knowledge/version-hints.toml`).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct VersionHint {
    /// Glob over `class.method` of a frame, or over a throwable class.
    pub frame: String,
    /// Lowest Flink version (`1.13`) in which such a frame exists, if bounded below.
    #[serde(default)]
    pub min: Option<String>,
    /// First Flink version (`2.0`) in which it no longer exists, if bounded above.
    #[serde(default)]
    pub before: Option<String>,
    /// Why, in words (`SnapshotStrategyRunner was added in 1.13`).
    pub reason: String,
    /// Where the fact comes from (FLINK-NNNNN or a source file).
    pub source: String,
}

/// `1.13` → (1, 13, 0), `1.13.2` → (1, 13, 2), as `knowledge/version-hints.toml` writes
/// versions (a missing patch is 0); anything else `None`. `crate::version::Version::parse`, and
/// `build.rs` bundling the version knowledge.
pub fn version_triple(s: &str) -> Option<(u32, u32, u32)> {
    let mut parts = s.trim().split('.');
    let major = parts.next()?.parse().ok()?;
    let minor = parts.next()?.parse().ok()?;
    let patch = match parts.next() {
        Some(p) => p.parse().ok()?,
        None => 0,
    };
    parts.next().is_none().then_some((major, minor, patch))
}

/// `a.{b,c}.D` → `a.b.D`, `a.c.D`, braces in turn, as the rule globs use them (one level):
/// `crate::rules::simple_names`, and `build.rs` working out each rule's screen. `None` for
/// unbalanced or nested braces, which the glob compiler rejects (`crate::glob::compile`).
pub fn expand_braces(glob: &str) -> Option<Vec<String>> {
    let Some(open) = glob.find('{') else {
        return (!glob.contains('}')).then(|| vec![glob.to_owned()]);
    };
    let close = open + glob[open..].find('}')?;
    let alts = &glob[open + 1..close];
    if alts.contains('{') {
        return None;
    }
    let mut out = Vec::new();
    for a in alts.split(',') {
        out.extend(expand_braces(&format!(
            "{}{a}{}",
            &glob[..open],
            &glob[close + 1..]
        ))?);
    }
    Some(out)
}

/// A Flink release and its date (`knowledge/version-hints.toml`).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Release {
    /// `1.13.2`.
    pub version: String,
    /// `2021-08-06` (ISO date), when known; a release without one is never ruled out by a date.
    #[serde(default)]
    pub date: Option<String>,
}

/// Which releases print a frame at a given line (`[[line]]` in `knowledge/version-hints.toml`).
///
/// A frame below the top of a throwable is printed at the line of the call it is making, so the
/// line tells the release apart whenever the calling method moved between releases. Each entry
/// was read from the compiled classes of every release in [`VersionKnowledge::checked`]
/// (`knowledge/line-numbers.md`): a checked release missing from `versions` prints another
/// line there, or has no such frame.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct LineHint {
    /// `class.method` of the frame, exactly as printed
    /// (`org.apache.flink.runtime.taskmanager.Task.run`, `…StreamTask.lambda$performCheckpoint$8`).
    pub frame: String,
    /// Glob over `class.method` of the frame printed just above it (the method it called), when
    /// the line depends on which call the frame was making; `new <class>` (a glob too) stands for
    /// a frame at the top of a throwable of that class, whose line is where it was constructed.
    /// Without it the hint applies to a frame anywhere but at the top of a throwable.
    #[serde(default)]
    pub callee: Option<String>,
    /// File name as printed (`Task.java`).
    pub file: String,
    /// The printed line (1-based).
    pub line: u32,
    /// Releases that print this frame at this line (`1.13.6`), each in [`VersionKnowledge::checked`].
    pub versions: Vec<String>,
    /// Where the fact comes from (the call read in the compiled class). Required in the TOML
    /// (`build.rs` checks it); left out of what the crate bundles, which does not show it.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub source: String,
}

/// The contents of `knowledge/version-hints.toml`.
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct VersionKnowledge {
    /// Releases (`1.13.6`) whose compiled classes were read for the [`LineHint`]s.
    #[serde(default)]
    pub checked: Vec<String>,
    /// Frame-existence hints.
    pub hint: Vec<VersionHint>,
    /// Line-number hints.
    #[serde(default)]
    pub line: Vec<LineHint>,
    /// Flink's releases, with their dates where known: the versions a range can name, and the
    /// dates for bounding the version by the date printed in the text.
    pub release: Vec<Release>,
}
