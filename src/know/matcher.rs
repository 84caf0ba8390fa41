//! Matching compiled rules against a parsed trace: the condition primitives.
//!
//! Each primitive is a small function with its own tests: [`match_sequence`] (ordered frames
//! with gaps and optional steps), throwable lookup (root cause first), frame presence and
//! absence, and the platform gate ([`is_flink`]). A rule fires when all its non-optional
//! conditions hold; it then yields a [`Finding`] with the frames it highlights and the reasons.

use crate::glob::Glob;
use crate::model::Trace;
use crate::rules::{Compiled, CompiledStep, Rule};
use crate::span::Span;
use serde::Serialize;

/// A frame (or throwable header) a finding points at, with the role it plays.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Highlight {
    /// Index of the throwable in [`Trace::throwables`].
    pub throwable: usize,
    /// Index of the frame in that throwable's `frames`; `None` for the header.
    pub frame: Option<usize>,
    /// Short label ("the map being iterated").
    pub role: String,
    /// Where in the original input (for a restored `... N more` frame: where it was printed).
    pub span: Span,
}

/// A rule that fired on a trace.
#[derive(Clone, Debug, Serialize)]
pub struct Finding {
    /// The rule id.
    pub rule: String,
    /// Frames and headers the rule points at, innermost first within each throwable.
    pub highlights: Vec<Highlight>,
    /// Why it matched: one sentence per condition that held.
    pub evidence: Vec<String>,
    /// Number of non-optional conditions plus highlighted frames: the most specific rule first.
    pub specificity: usize,
    /// What each matched frame means, from the steps' `explain`, innermost frame first, with
    /// `{frame}` replaced by the frame.
    pub notes: Vec<Note>,
    /// Set when the rule's `since` / `fixed_in` (see `RuleDef`) exclude the Flink version the
    /// trace reveals: why (`crate::version::mismatch`), worded in the page's language by
    /// `crate::lang::version_mismatch`. `None` when the version fits or is unknown. Filled by
    /// `diagnose`.
    pub version_mismatch: Option<crate::version::Mismatch>,
    /// Set when the rule is Flink's and nothing in the text shows whose the trace is (no Flink
    /// evidence, no mark of other JVM software): one sentence saying the finding assumes a
    /// Flink job. `None` when the text shows Flink, or the rule is not Flink's. Filled by
    /// `diagnose`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub platform_assumed: Option<String>,
    /// The class the rule blames, read from a message (a throwable condition's `culprit`
    /// group) or, with `culprit = "frame"`, the class of that throwable's first frame outside
    /// Flink and the JDK ([`foreign_frame`]), with the project it belongs to.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub culprit: Option<Culprit>,
}

/// The class a finding blames and whose it is ([`Finding::culprit`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Culprit {
    /// The class as the message names it (`com.ververica.cdc.debezium.Validator$$Lambda$25/1712669532`),
    /// or a table connector's identifier (`postgres-cdc`) when [`Culprit::connector`] is true.
    pub class: String,
    /// True when [`Culprit::class`] is a connector's identifier
    /// ([`crate::rules::CONNECTOR_CULPRIT`]), not a class.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub connector: bool,
    /// The project the class belongs to.
    pub component: crate::component::Component,
}

impl Culprit {
    /// One sentence, Markdown: whose class it is and what that means for the fix.
    pub fn sentence(&self, flink: bool) -> String {
        use crate::component::ComponentKind;
        let c = &self.component;
        if self.connector {
            let whose = match c.kind {
                ComponentKind::Flink => "one of Flink's own".to_owned(),
                _ => format!("from **{}**", c.name_for(flink)),
            };
            let docs = match &c.tracker {
                Some(t) if c.kind != ComponentKind::Flink => format!(
                    " Its options are those its documentation lists for the release you use; a documented option it rejects is its bug, to report at {t}."
                ),
                _ => " Its options are those its documentation lists for the release you use.".into(),
            };
            return format!(
                "The message names the factory `{}`, {whose}.{docs}",
                self.class
            );
        }
        match c.kind {
            ComponentKind::UserCode => format!("The class is `{}`: your own code.", self.class),
            ComponentKind::Flink => format!("The class is `{}`, part of Flink itself.", self.class),
            ComponentKind::Jdk => format!("The class is `{}`, a JDK class.", self.class),
            ComponentKind::Connector | ComponentKind::Library => {
                let report = match &c.tracker {
                    Some(t) => format!(" Look for a newer release of it, or report it ({t})."),
                    None => " Look for a newer release of it, or report it to its project.".into(),
                };
                format!(
                    "The class is `{}`, a class of **{}**: that project's code, not yours.{report}",
                    self.class,
                    c.name_for(flink)
                )
            }
        }
    }
}

/// One explained frame of a finding.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Note {
    /// Markdown.
    pub md: String,
    /// HTML (rendered at build time, frame name escaped).
    pub html: String,
    /// The step's frame glob as written in the rule (a translation's key for this note).
    #[serde(skip)]
    pub step: String,
    /// The matched frame's `Class.method`, as `{frame}` was filled in.
    #[serde(skip)]
    pub frame: String,
}

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// True when the trace shows Flink: a frame or a throwable class under `org.apache.flink.`, or a
/// message that names a Flink class (an Akka/Pekko `AskTimeoutException` whose only Flink trace
/// is the `org.apache.flink.runtime.rpc…` message it timed out on; a `NoClassDefFoundError:
/// org/apache/flink/…` from an IDE run with Flink in `provided` scope).
pub fn is_flink(trace: &Trace) -> bool {
    const FLINK: &str = "org.apache.flink.";
    trace.flink_context
        || trace.throwables.iter().any(|t| {
            t.class.starts_with(FLINK)
                || t.frames.iter().any(|f| f.class.starts_with(FLINK))
                || t.message
                    .as_deref()
                    .is_some_and(|m| m.contains(FLINK) || m.contains("org/apache/flink/"))
        })
}

/// Matches `steps` in order within `frames` (`class.method` strings, innermost first), with any
/// frames between steps. Required steps take the earliest frame that keeps the order (which finds
/// a match whenever one exists); each optional step takes the first frame that fits between its
/// neighbours. Returns, per step, the matched frame index, or `None` when a required step fails.
pub fn match_sequence(frames: &[String], steps: &[CompiledStep]) -> Option<Vec<Option<usize>>> {
    let mut hits = vec![None; steps.len()];
    let mut pos = 0;
    for (s, step) in steps.iter().enumerate() {
        if step.optional {
            continue;
        }
        let k = (pos..frames.len()).find(|&k| step.frame.is_match(&frames[k]))?;
        hits[s] = Some(k);
        pos = k + 1;
    }
    let mut lo = 0;
    for s in 0..steps.len() {
        if let Some(k) = hits[s] {
            lo = k + 1;
            continue;
        }
        let hi = hits[s + 1..]
            .iter()
            .flatten()
            .next()
            .copied()
            .unwrap_or(frames.len());
        if let Some(k) = (lo..hi).find(|&k| steps[s].frame.is_match(&frames[k])) {
            hits[s] = Some(k);
            lo = k + 1;
        }
    }
    Some(hits)
}

/// The first frame of `throwable`, innermost first (frames restored from `... N more` included,
/// after the printed ones), whose class is neither Flink's nor the JDK's, nor of a library that
/// only passes the call on (Scala, Guava, logging: [`crate::component::passes_through`]): the
/// code of another component — a connector, a library, or the job's own — that made the call
/// which failed. `None` when every frame is Flink's or the JDK's (or the throwable has none).
///
/// A rule uses it with `culprit = "frame"` ([`crate::rules::FRAME_CULPRIT`]): Flink's
/// `Trying to access closed classloader` is thrown inside Flink's class loader, and the frame
/// that blames someone is the first one of whoever asked that class loader for a class.
pub fn foreign_frame(throwable: &crate::model::Throwable) -> Option<usize> {
    use crate::component::ComponentKind;
    throwable.frames.iter().position(|f| {
        !f.class.is_empty()
            && !crate::component::passes_through(&f.class)
            && !matches!(
                crate::component::of_class(&f.class).kind,
                ComponentKind::Flink | ComponentKind::Jdk
            )
    })
}

fn frame_highlight(trace: &Trace, t: usize, k: usize, role: &str) -> Highlight {
    Highlight {
        throwable: t,
        frame: Some(k),
        role: role.to_owned(),
        span: trace.throwables[t].frames[k].span,
    }
}

fn first_frame(frames: &[String], pattern: &Glob) -> Option<usize> {
    frames.iter().position(|f| pattern.is_match(f))
}

/// What every rule needs of a trace, computed once per trace.
pub struct Prepared<'a> {
    trace: &'a Trace,
    order: Vec<usize>,
    quals: Vec<Vec<String>>,
    flink: bool,
}

impl<'a> Prepared<'a> {
    /// Computes the search order, the `class.method` of every frame, and the platform.
    pub fn new(trace: &'a Trace) -> Self {
        Prepared {
            trace,
            order: trace.search_order(),
            quals: trace
                .throwables
                .iter()
                .map(|t| t.frames.iter().map(|f| f.qualified_method()).collect())
                .collect(),
            flink: is_flink(trace),
        }
    }
}

/// Applies `rule` to a prepared trace. Returns `None` when a required condition fails. A rule
/// with variants ([`crate::rules::schema::RuleDef::variants`]) fires with the first variant
/// whose conditions, with the rule's own, all hold; the evidence says which one.
pub fn apply(rule: &Rule, prepared: &Prepared<'_>) -> Option<Finding> {
    if rule.variants.is_empty() {
        return apply_conditions(rule, &rule.conditions, prepared);
    }
    rule.variants.iter().find_map(|(what, list)| {
        apply_conditions(rule, list, prepared).map(|mut f| {
            f.evidence
                .insert(0, format!("the failure shows as: {what}"));
            f
        })
    })
}

/// Applies one list of compiled conditions of `rule` (its own, or a variant's with its own).
fn apply_conditions(
    rule: &Rule,
    conditions: &[Compiled],
    prepared: &Prepared<'_>,
) -> Option<Finding> {
    let Prepared {
        trace,
        order,
        quals,
        flink,
    } = prepared;
    if rule.def.platform == "flink" && !flink {
        return None;
    }
    let mut bound: Vec<(&str, usize)> = Vec::new();
    let mut highlights = Vec::new();
    let mut evidence = Vec::new();
    let mut specificity = 0;
    let mut notes = Vec::new();
    let mut culprit: Option<Culprit> = None;
    let targets = |within: &str, bound: &[(&str, usize)]| -> Vec<usize> {
        if within == "any" {
            order.clone()
        } else if within == "top" {
            vec![0]
        } else if within == "root" {
            vec![trace.root_cause()]
        } else {
            bound
                .iter()
                .filter(|(n, _)| *n == within)
                .map(|&(_, i)| i)
                .collect()
        }
    };
    let describe = |t: usize| -> String {
        let c = &trace.throwables[t].class;
        if c.is_empty() {
            "the headerless trace".into()
        } else {
            c.clone()
        }
    };
    for cond in conditions {
        match cond {
            Compiled::Throwable {
                class,
                message,
                not_message,
                culprit: culprit_group,
                bind,
                role,
                optional,
                source,
                simple_names,
            } => {
                let found = order.iter().copied().find(|&t| {
                    let th = &trace.throwables[t];
                    let unqualified = !th.class.is_empty() && !th.class.contains('.');
                    // A message printed without any class (a log line, a YARN diagnostic) is
                    // matched by its message alone, where the condition has a message pattern.
                    let classless =
                        th.class.is_empty() && th.message.is_some() && message.is_some();
                    (class.is_match(&th.class)
                        || unqualified && simple_names.contains(&th.class)
                        || classless)
                        && message
                            .as_ref()
                            .is_none_or(|m| th.message.as_deref().is_some_and(|s| m.is_match(s)))
                        && not_message
                            .as_ref()
                            .is_none_or(|m| !th.message.as_deref().is_some_and(|s| m.is_match(s)))
                });
                match found {
                    Some(t) => {
                        if let Some(b) = bind {
                            bound.push((b.as_str(), t));
                        }
                        if let (Some(group), None) = (culprit_group, &culprit) {
                            let th = &trace.throwables[t];
                            let class = if group == crate::rules::FRAME_CULPRIT {
                                foreign_frame(th).map(|k| {
                                    let f = &th.frames[k];
                                    evidence.push(format!(
                                        "the first frame outside Flink and the JDK is {}.{} in {}",
                                        f.simple_class(),
                                        f.method,
                                        describe(t)
                                    ));
                                    f.class.clone()
                                })
                            } else {
                                message
                                    .as_ref()
                                    .zip(th.message.as_deref())
                                    .and_then(|(m, text)| m.capture(text, group))
                            };
                            let connector = group == crate::rules::CONNECTOR_CULPRIT;
                            culprit = class.map(|c| Culprit {
                                component: if connector {
                                    crate::component::of_connector_identifier(&c)
                                } else {
                                    crate::component::of_class(&c)
                                },
                                class: c,
                                connector,
                            });
                        }
                        if let Some(role) = role {
                            highlights.push(Highlight {
                                throwable: t,
                                frame: None,
                                role: role.clone(),
                                span: trace.throwables[t].header_span,
                            });
                        }
                        if !optional {
                            specificity += 1;
                        }
                        let what = match (source.as_str(), message.is_some()) {
                            ("*", true) => "a throwable whose message matches the rule's pattern"
                                .to_owned(),
                            ("*", false) => "a throwable".to_owned(),
                            (class, true) => format!(
                                "a throwable of class {class} whose message matches the rule's pattern"
                            ),
                            (class, false) => format!("a throwable of class {class}"),
                        };
                        evidence.push(format!("{what} is in the trace ({})", describe(t)));
                    }
                    None if *optional => {}
                    None => return None,
                }
            }
            Compiled::Sequence {
                within,
                steps,
                optional,
            } => {
                let hit = targets(within, &bound)
                    .into_iter()
                    .find_map(|t| match_sequence(&quals[t], steps).map(|h| (t, h)));
                match hit {
                    Some((t, hits)) => {
                        let mut matched = Vec::new();
                        for (step, k) in steps.iter().zip(&hits) {
                            let Some(k) = *k else { continue };
                            matched.push(step.source.as_str());
                            specificity += 1;
                            if let Some(e) = &step.explain {
                                let f = &trace.throwables[t].frames[k];
                                let name = format!("{}.{}", f.simple_class(), f.method);
                                notes.push(Note {
                                    md: e.md.replace("{frame}", &format!("`{name}`")),
                                    html: e.html.replace(
                                        "{frame}",
                                        &format!("<code>{}</code>", html_escape(&name)),
                                    ),
                                    step: step.source.clone(),
                                    frame: name,
                                });
                            }
                            if let Some(role) = &step.role {
                                highlights.push(frame_highlight(trace, t, k, role));
                            }
                        }
                        if !optional {
                            specificity += 1;
                        }
                        evidence.push(format!(
                            "the frames of {} show, innermost first: {}",
                            describe(t),
                            matched.join(" → ")
                        ));
                    }
                    None if *optional => {}
                    None => return None,
                }
            }
            Compiled::Frame {
                within,
                frame,
                role,
                optional,
                source,
            } => {
                // Prefer a frame printed where it stands over one restored from `... N more`.
                let targets = targets(within, &bound);
                let printed =
                    |t: usize, k: usize| trace.throwables[t].frames[k].expanded_from.is_none();
                let hit = targets
                    .iter()
                    .find_map(|&t| {
                        (0..quals[t].len())
                            .find(|&k| printed(t, k) && frame.is_match(&quals[t][k]))
                            .map(|k| (t, k))
                    })
                    .or_else(|| {
                        targets
                            .iter()
                            .find_map(|&t| first_frame(&quals[t], frame).map(|k| (t, k)))
                    });
                match hit {
                    Some((t, k)) => {
                        if let Some(role) = role {
                            highlights.push(frame_highlight(trace, t, k, role));
                        }
                        if !optional {
                            specificity += 1;
                        }
                        evidence.push(format!("a frame {source} is in {}", describe(t)));
                    }
                    None if *optional => {}
                    None => return None,
                }
            }
            Compiled::UserFrame {
                within,
                role,
                optional,
            } => {
                let hit = targets(within, &bound).into_iter().find_map(|t| {
                    trace.throwables[t]
                        .frames
                        .iter()
                        .position(crate::frames::is_printed_user_code)
                        .map(|k| (t, k))
                });
                match hit {
                    Some((t, k)) => {
                        if let Some(role) = role {
                            highlights.push(frame_highlight(trace, t, k, role));
                        }
                        if !optional {
                            specificity += 1;
                        }
                        let f = &trace.throwables[t].frames[k];
                        evidence.push(format!(
                            "user code {}.{} is in {}",
                            f.simple_class(),
                            f.method,
                            describe(t)
                        ));
                    }
                    None if *optional => {}
                    None => return None,
                }
            }
            Compiled::Absent {
                within,
                frame,
                source,
            } => {
                let targets = targets(within, &bound);
                if targets
                    .iter()
                    .any(|&t| first_frame(&quals[t], frame).is_some())
                {
                    return None;
                }
                specificity += 1;
                let place = match within.as_str() {
                    "any" => "the trace".to_owned(),
                    "top" => describe(0),
                    "root" => describe(trace.root_cause()),
                    _ => targets
                        .first()
                        .map_or_else(|| within.clone(), |&t| describe(t)),
                };
                evidence.push(format!("no frame {source} in {place}"));
            }
        }
    }
    // Innermost first within each throwable, the root cause's throwable first.
    let mut rank = vec![0; trace.throwables.len()];
    for (r, &t) in order.iter().enumerate() {
        rank[t] = r;
    }
    highlights.sort_by_key(|h| (rank[h.throwable], h.frame));
    highlights.dedup_by(|a, b| a.throwable == b.throwable && a.frame == b.frame);
    Some(Finding {
        rule: rule.def.id.clone(),
        highlights,
        evidence,
        specificity,
        notes,
        version_mismatch: None,
        platform_assumed: None,
        culprit,
    })
}

/// Applies every rule of the catalogue; findings most specific first.
pub fn diagnose(trace: &Trace, rules: &[&Rule]) -> Vec<Finding> {
    let prepared = Prepared::new(trace);
    let mut findings: Vec<Finding> = rules.iter().filter_map(|r| apply(r, &prepared)).collect();
    // Equally specific findings: the one that points at the root cause first (a rule about a
    // wrapper such as "Recovery is suppressed by …" yields to one about what it wraps).
    let root = trace.root_cause();
    let at_root = |f: &Finding| f.highlights.iter().any(|h| h.throwable == root);
    let wrapper = |f: &Finding| rules.iter().any(|r| r.def.wrapper && r.def.id == f.rule);
    findings.sort_by(|a, b| {
        wrapper(a)
            .cmp(&wrapper(b))
            .then_with(|| b.specificity.cmp(&a.specificity))
            .then_with(|| at_root(b).cmp(&at_root(a)))
            .then_with(|| a.rule.cmp(&b.rule))
    });
    findings
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::glob;

    fn step(p: &str, optional: bool) -> CompiledStep {
        CompiledStep {
            frame: glob::compile(p).unwrap(),
            source: p.into(),
            role: None,
            optional,
            explain: None,
        }
    }

    fn frames(names: &[&str]) -> Vec<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn sequence_allows_gaps_and_keeps_order() {
        let f = frames(&["a.A.x", "b.B.y", "c.C.z", "d.D.w"]);
        assert_eq!(
            match_sequence(&f, &[step("a.A.x", false), step("c.C.z", false)]),
            Some(vec![Some(0), Some(2)])
        );
        assert_eq!(
            match_sequence(&f, &[step("c.C.z", false), step("a.A.x", false)]),
            None,
            "order matters"
        );
        assert_eq!(match_sequence(&f, &[step("e.*", false)]), None);
    }

    #[test]
    fn optional_steps_fill_in_between_required_ones() {
        let f = frames(&["a.A.x", "b.B.y", "c.C.z", "b.B.y"]);
        let steps = [
            step("a.A.x", true),
            step("b.B.y", true),
            step("c.C.z", false),
            step("q.*", true),
        ];
        assert_eq!(
            match_sequence(&f, &steps),
            Some(vec![Some(0), Some(1), Some(2), None])
        );
        // An optional step is not taken from beyond the next required step.
        let steps = [
            step("b.B.y", false),
            step("a.A.x", true),
            step("c.C.z", false),
        ];
        assert_eq!(
            match_sequence(&f, &steps),
            Some(vec![Some(1), None, Some(2)])
        );
    }

    #[test]
    fn search_order_starts_at_the_root_cause() {
        let trace = &crate::parse::parse(
            "a.X: 1\n\tat a.A.a(A.java:1)\n\tSuppressed: a.S\nCaused by: a.Y: 2\n\tat b.B.b(B.java:1)\nCaused by: a.Z: 3\n\tat c.C.c(C.java:1)\n",
        )
        .traces[0];
        let names: Vec<&str> = trace
            .search_order()
            .iter()
            .map(|&i| trace.throwables[i].class.as_str())
            .collect();
        assert_eq!(names, ["a.Z", "a.Y", "a.X", "a.S"]);
        assert!(!is_flink(trace));
    }

    fn rule(conditions: &str) -> Rule {
        let json = format!(
            r#"{{"id":"t","title":"T","summary":"s","category":"c","severity":"error","platform":"jvm",
                "versions":"all","conditions":{conditions},
                "explanation":{{"why":"w","fixes":["f"]}},"references":[]}}"#
        );
        Rule::compile(serde_json::from_str(&json).unwrap()).unwrap()
    }

    fn fires(rule: &Rule, input: &str) -> Option<Finding> {
        let parsed = crate::parse::parse(input);
        apply(rule, &Prepared::new(&parsed.traces[0]))
    }

    const TRACE: &str = "java.io.IOException: Could not perform checkpoint 7 for operator x (1/2)#0.\n\tat a.Top.run(Top.java:1)\nCaused by: java.lang.IllegalStateException: boom\n\tat b.Inner.go(Inner.java:2)\n\tat b.Outer.call(Outer.java:3)\n";

    #[test]
    fn throwable_condition_matches_class_glob_and_message_regex() {
        let r = rule(
            r#"[{"kind":"throwable","class":"java.io.*","message":"checkpoint \\d+ for operator"}]"#,
        );
        assert!(fires(&r, TRACE).is_some());
        let r = rule(r#"[{"kind":"throwable","class":"java.io.*","message":"savepoint"}]"#);
        assert!(fires(&r, TRACE).is_none(), "message must match too");
        let r = rule(
            r#"[{"kind":"throwable","class":"java.io.*","message":"checkpoint","not_message":"for operator x"}]"#,
        );
        assert!(
            fires(&r, TRACE).is_none(),
            "a message matching not_message is passed over"
        );
        let r = rule(
            r#"[{"kind":"throwable","class":"java.io.*","message":"checkpoint","not_message":"savepoint"}]"#,
        );
        assert!(fires(&r, TRACE).is_some());
        let r = rule(r#"[{"kind":"throwable","class":"java.lang.Error","optional":true}]"#);
        assert!(
            fires(&r, TRACE).is_some(),
            "optional conditions do not block"
        );
    }

    fn rule_with_variants(conditions: &str, variants: &str) -> Rule {
        let json = format!(
            r#"{{"id":"t","title":"T","summary":"s","category":"c","severity":"error","platform":"jvm",
                "versions":"all","conditions":{conditions},"variants":{variants},
                "explanation":{{"why":"w","fixes":["f"]}},"references":[]}}"#
        );
        Rule::compile(serde_json::from_str(&json).unwrap()).unwrap()
    }

    #[test]
    fn a_rule_with_variants_needs_one_variant_and_its_own_conditions() {
        // Either the IllegalStateException with its frame b.Inner.go, or a wrapper whose message
        // names it; in both cases a frame a.Top.run in the top throwable.
        let r = rule_with_variants(
            r#"[{"kind":"frame","within":"top","frame":"a.Top.run"}]"#,
            r#"[{"what":"printed","conditions":[{"kind":"throwable","class":"*IllegalStateException","bind":"ise"},
                                                  {"kind":"frame","within":"ise","frame":"b.Inner.go"}]},
                {"what":"named in a message","conditions":[{"kind":"throwable","class":"java.io.IOException","message":"^java\\.lang\\.IllegalStateException"}]}]"#,
        );
        let f = fires(&r, TRACE).expect("the first variant");
        assert_eq!(f.evidence[0], "the failure shows as: printed");
        let wrapped = "java.io.IOException: java.lang.IllegalStateException: boom\n\tat a.Top.run(Top.java:1)\n";
        let f = fires(&r, wrapped).expect("the second variant");
        assert_eq!(f.evidence[0], "the failure shows as: named in a message");
        let neither =
            "java.io.IOException: java.lang.RuntimeException: boom\n\tat a.Top.run(Top.java:1)\n";
        assert!(fires(&r, neither).is_none(), "no variant");
        let no_common = "java.io.IOException: java.lang.IllegalStateException: boom\n\tat z.Other.run(Other.java:1)\n";
        assert!(
            fires(&r, no_common).is_none(),
            "the rule's own conditions still hold for every variant"
        );
        // A variant's binds resolve for its own conditions; a `within` naming no bind is refused.
        let json = r#"{"id":"t","title":"T","summary":"s","category":"c","severity":"error","platform":"jvm",
            "versions":"all","conditions":[],"variants":[{"what":"w","conditions":[{"kind":"frame","within":"nope","frame":"a.*"}]}],
            "explanation":{"why":"w","fixes":["f"]},"references":[]}"#;
        assert!(Rule::compile(serde_json::from_str(json).unwrap()).is_err());
    }

    #[test]
    fn bound_throwables_limit_where_frames_are_looked_for() {
        let r = rule(
            r#"[{"kind":"throwable","class":"*IllegalStateException","bind":"ise"},
                        {"kind":"frame","within":"ise","frame":"a.Top.run"}]"#,
        );
        assert!(
            fires(&r, TRACE).is_none(),
            "a.Top.run is in the top throwable only"
        );
        let r = rule(r#"[{"kind":"frame","within":"top","frame":"a.Top.run","role":"here"}]"#);
        let f = fires(&r, TRACE).unwrap();
        assert_eq!(
            (f.highlights[0].throwable, f.highlights[0].frame),
            (0, Some(0))
        );
        assert_eq!(f.highlights[0].role, "here");
        let r = rule(r#"[{"kind":"frame","within":"root","frame":"a.Top.run"}]"#);
        assert!(fires(&r, TRACE).is_none());
    }

    #[test]
    fn absent_blocks_and_platform_gate_holds() {
        let r = rule(r#"[{"kind":"absent","frame":"b.Outer.*"}]"#);
        assert!(fires(&r, TRACE).is_none());
        let r = rule(r#"[{"kind":"absent","frame":"c.*"}]"#);
        let f = fires(&r, TRACE).unwrap();
        assert_eq!(f.evidence, ["no frame c.* in the trace"]);
        let mut flink_only = rule(r#"[{"kind":"absent","frame":"c.*"}]"#);
        flink_only.def.platform = "flink".into();
        assert!(
            fires(&flink_only, TRACE).is_none(),
            "no Flink frame, no Flink rule"
        );
    }

    #[test]
    fn user_frame_finds_the_first_frame_of_user_code() {
        let r = rule(r#"[{"kind":"user-frame","within":"root","role":"yours"}]"#);
        let f = fires(&r, TRACE).unwrap();
        assert_eq!(
            (f.highlights[0].throwable, f.highlights[0].frame),
            (1, Some(0))
        );
        assert_eq!(
            f.evidence,
            ["user code Inner.go is in java.lang.IllegalStateException"]
        );
        let only_jdk = "java.lang.Error: x\n\tat java.util.A.b(A.java:1)\n";
        assert!(fires(&r, only_jdk).is_none());
    }

    #[test]
    fn foreign_frame_passes_over_flink_the_jdk_and_pass_through_libraries() {
        let first = |input: &str| crate::parse::parse(input).traces[0].throwables[0].clone();
        let closed = first("java.lang.IllegalStateException: Trying to access closed classloader.\n\tat org.apache.flink.util.FlinkUserCodeClassLoaders$SafetyNetWrapperClassLoader.ensureInner(FlinkUserCodeClassLoaders.java:189)\n\tat java.base/java.lang.Class.forName0(Native Method)\n\tat com.google.common.base.Suppliers$X.get(Suppliers.java:1)\n\tat org.apache.iceberg.common.DynClasses$Builder.impl(DynClasses.java:68)\n\tat com.acme.Job.map(Job.java:3)\n");
        assert_eq!(foreign_frame(&closed), Some(3), "Iceberg's, not Guava's");
        let only_flink = first("java.lang.IllegalStateException: x\n\tat org.apache.flink.util.A.b(A.java:1)\n\tat StreamExecCalc$35.processElement(Unknown Source)\n\tat java.lang.Thread.run(Thread.java:750)\n");
        assert_eq!(foreign_frame(&only_flink), None);
        let user = first("java.lang.IllegalStateException: x\n\tat org.apache.flink.util.A.b(A.java:1)\n\tat com.acme.Pool.run(Pool.java:9)\n");
        assert_eq!(
            foreign_frame(&user),
            Some(1),
            "the job's own code is another component too"
        );
        let parsed = crate::parse::parse("java.lang.RuntimeException: outer\n\tat org.apache.hudi.Writer.write(Writer.java:7)\n\tat org.apache.flink.Task.run(Task.java:1)\nCaused by: java.lang.IllegalStateException: inner\n\tat org.apache.flink.util.A.b(A.java:1)\n\t... 2 more\n");
        let inner = &parsed.traces[0].throwables[1];
        assert_eq!(
            foreign_frame(inner).map(|k| inner.frames[k].class.as_str()),
            Some("org.apache.hudi.Writer"),
            "frames restored from `... N more` are the same thread's calls"
        );
    }

    #[test]
    fn culprit_frame_blames_the_first_frame_outside_flink_and_the_jdk() {
        let r = rule(
            r#"[{"kind":"throwable","class":"java.lang.IllegalStateException","message":"^Trying to access closed classloader","culprit":"frame"}]"#,
        );
        let f = fires(&r, "java.lang.IllegalStateException: Trying to access closed classloader.\n\tat org.apache.flink.util.FlinkUserCodeClassLoaders$SafetyNetWrapperClassLoader.loadClass(FlinkUserCodeClassLoaders.java:197)\n\tat java.lang.Class.forName(Class.java:348)\n\tat org.apache.iceberg.common.DynClasses$Builder.impl(DynClasses.java:68)\n").unwrap();
        let c = f.culprit.expect("a culprit");
        assert_eq!(c.class, "org.apache.iceberg.common.DynClasses$Builder");
        assert_eq!(c.component.id, "iceberg");
        assert!(f.evidence.iter().any(|e| e
            == "the first frame outside Flink and the JDK is DynClasses$Builder.impl in java.lang.IllegalStateException"));
        // Only Flink's frames (the trace was cut): the rule fires, blaming no one.
        let f = fires(&r, "java.lang.IllegalStateException: Trying to access closed classloader.\n\tat org.apache.flink.util.FlinkUserCodeClassLoaders$SafetyNetWrapperClassLoader.ensureInner(FlinkUserCodeClassLoaders.java:189)\n").unwrap();
        assert!(f.culprit.is_none());
        // `frame` needs no message group; any other culprit still does.
        let json = |culprit: &str| {
            format!(
                r#"{{"id":"t","title":"T","summary":"s","category":"c","severity":"error","platform":"jvm",
                "versions":"all","conditions":[{{"kind":"throwable","class":"*","message":"x","culprit":"{culprit}"}}],
                "explanation":{{"why":"w","fixes":["f"]}},"references":[]}}"#
            )
        };
        assert!(Rule::compile(serde_json::from_str(&json("frame")).unwrap()).is_ok());
        let err = Rule::compile(serde_json::from_str(&json("class")).unwrap()).unwrap_err();
        assert!(err.reason.contains("is not a group"), "{err}");
    }

    #[test]
    fn within_must_name_an_earlier_bind() {
        let json = r#"{"id":"t","title":"T","summary":"s","category":"c","severity":"error","platform":"jvm",
            "versions":"all","conditions":[{"kind":"frame","within":"nope","frame":"a.*"}],
            "explanation":{"why":"w","fixes":["f"]},"references":[]}"#;
        let err = Rule::compile(serde_json::from_str(json).unwrap()).unwrap_err();
        assert!(err.reason.contains("names no earlier bind"), "{err}");
    }
}
