//! The rule catalogue: rules are data (`rules/<id>/rule.toml`), checked and bundled by
//! `build.rs`, loaded once and compiled here. Matching is in [`crate::matcher`].

pub mod files;
pub mod schema;

use crate::glob;
use crate::glob::Glob;
use crate::lang::Lang;
use crate::pattern::MessagePattern;
use schema::{Condition, RuleDef, RuleProse};
use std::sync::OnceLock;

/// A rule with its patterns compiled.
#[derive(Debug)]
pub struct Rule {
    /// The rule as written (explanation Markdown already rendered to HTML).
    pub def: RuleDef,
    /// Compiled conditions, in the order written.
    pub conditions: Vec<Compiled>,
    /// Compiled [`RuleDef::variants`]: each variant's `what` and its conditions followed by the
    /// rule's own (compiled again, so that binds resolve in order). Empty when the rule has none.
    pub variants: Vec<(String, Vec<Compiled>)>,
    /// The prose in English and in Chinese ([`Rule::prose`]), made or loaded once.
    prose: [OnceLock<RuleProse>; 2],
}

impl Rule {
    /// The rule's prose in `lang` (English where the translation gives none). Where the rules
    /// are bundled with their prose (the command line, the tests) it is made on first use; the
    /// page's rules come without it ([`PROSE_BUNDLED`]) and this is `None` until
    /// [`Rule::set_prose`] gave it (`src/browser/prose.rs` fetches `prose/<lang>/<id>.json`).
    pub fn prose(&self, lang: Lang) -> Option<&RuleProse> {
        let cell = &self.prose[lang_index(lang)];
        match cell.get() {
            Some(p) => Some(p),
            // (a definition without its prose, as the page has, waits for it here too)
            None if PROSE_BUNDLED && !self.def.title.is_empty() => {
                Some(cell.get_or_init(|| self.def.prose(lang == Lang::Zh)))
            }
            None => None,
        }
    }

    /// Gives the rule its prose in `lang`, loaded from outside; false when it had it already
    /// (the first one stays).
    pub fn set_prose(&self, lang: Lang, prose: RuleProse) -> bool {
        self.prose[lang_index(lang)].set(prose).is_ok()
    }

    /// Every compiled condition of the rule: its own, then those of each variant (the common
    /// ones repeated inside each variant are left out).
    pub fn all_conditions(&self) -> impl Iterator<Item = &Compiled> {
        let common = self.conditions.len();
        self.conditions.iter().chain(
            self.variants
                .iter()
                .flat_map(move |(_, list)| list[..list.len() - common].iter()),
        )
    }
}

/// The `culprit` of a throwable condition that blames the class of the throwable's first frame
/// outside Flink and the JDK ([`crate::matcher::foreign_frame`]) instead of a class captured by a
/// message group. A message group of this name cannot be a culprit.
pub const FRAME_CULPRIT: &str = "frame";

/// The `culprit` message group that captures a table connector's identifier (`'postgres-cdc'`
/// in FactoryUtil's messages) instead of a class: the finding blames the project that ships
/// that connector ([`crate::component::of_connector_identifier`]).
pub const CONNECTOR_CULPRIT: &str = "connector";

/// A compiled [`Condition`]. Frame globs and message regexes are ready to match.
#[derive(Debug)]
pub enum Compiled {
    /// See [`Condition::Throwable`].
    Throwable {
        /// Glob over the throwable class.
        class: Glob,
        /// Regex over the message (unanchored), with its literal prefilter (boxed: most
        /// conditions have none, and the enum stays small).
        message: Option<Box<MessagePattern>>,
        /// Regex the message must not match.
        not_message: Option<Box<MessagePattern>>,
        /// The group of `message` that captures the class the finding blames (or, named
        /// [`CONNECTOR_CULPRIT`], a connector's identifier), or [`FRAME_CULPRIT`]: the class of
        /// the throwable's first frame outside Flink and the JDK.
        culprit: Option<String>,
        /// Name for later conditions.
        bind: Option<String>,
        /// Label for the header.
        role: Option<String>,
        /// Not needed for the rule to fire.
        optional: bool,
        /// The glob as written, for explaining why the rule matched.
        source: String,
        /// The simple names (`TimeoutException`) of the classes the glob names literally: a
        /// throwable written without its package (in prose, `TimeoutException: Heartbeat of
        /// TaskManager … timed out`) matches by simple name when the condition has a message
        /// pattern (the message keeps it specific). Empty for `*` and wildcard class names.
        simple_names: Vec<String>,
    },
    /// See [`Condition::Sequence`].
    Sequence {
        /// `any` or a bound name.
        within: String,
        /// Steps in order, innermost frame first.
        steps: Vec<CompiledStep>,
        /// Not needed for the rule to fire.
        optional: bool,
    },
    /// See [`Condition::Frame`].
    Frame {
        /// `any` or a bound name.
        within: String,
        /// Glob over `class.method`.
        frame: Glob,
        /// Label for the frame.
        role: Option<String>,
        /// Not needed for the rule to fire.
        optional: bool,
        /// The glob as written.
        source: String,
    },
    /// See [`Condition::UserFrame`].
    UserFrame {
        /// `any`, `top`, `root` or a bound name.
        within: String,
        /// Label for the frame.
        role: Option<String>,
        /// Not needed for the rule to fire.
        optional: bool,
    },
    /// See [`Condition::Absent`].
    Absent {
        /// `any` or a bound name.
        within: String,
        /// Glob over `class.method`.
        frame: Glob,
        /// The glob as written.
        source: String,
    },
}

/// A compiled sequence step.
#[derive(Debug)]
pub struct CompiledStep {
    /// Glob over `class.method`.
    pub frame: Glob,
    /// The glob as written.
    pub source: String,
    /// Label for the frame.
    pub role: Option<String>,
    /// Highlighted when present, not required.
    pub optional: bool,
    /// What the matched frame means (`{frame}` is replaced by the frame).
    pub explain: Option<schema::Prose>,
}

/// A rule that cannot be compiled (a bad glob or regex). `build.rs` checks the schema; the
/// catalogue test checks that every pattern compiles, so users never meet this.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleError {
    /// The rule id.
    pub rule: String,
    /// What is wrong.
    pub reason: String,
}

impl std::fmt::Display for RuleError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "rule {}: {}", self.rule, self.reason)
    }
}

impl Rule {
    /// Compiles a rule definition.
    ///
    /// Errors: a frame glob with unbalanced braces, an invalid message regex, or a `within` that
    /// names no earlier `bind`.
    pub fn compile(def: RuleDef) -> Result<Rule, RuleError> {
        let err = |reason: String| RuleError {
            rule: def.id.clone(),
            reason,
        };
        let g = |p: &str| glob::compile(p).map_err(|e| err(e.to_string()));
        let check_within = |w: &str, bound: &[String]| {
            if ["any", "top", "root"].contains(&w) || bound.iter().any(|b| b == w) {
                Ok(w.to_owned())
            } else {
                Err(err(format!("within = {w:?} names no earlier bind")))
            }
        };
        let compile_list =
            |list: &[&Condition], prebound: &[String]| -> Result<Vec<Compiled>, RuleError> {
                let mut bound: Vec<String> = prebound.to_vec();
                let mut conditions = Vec::new();
                for &c in list {
                    conditions.push(match c {
                        Condition::Throwable {
                            class,
                            message,
                            not_message,
                            same,
                            culprit,
                            bind,
                            role,
                            optional,
                        } => {
                            let pattern = |m: &Option<String>, same: &[String]| match m {
                                Some(m) => MessagePattern::with_same(m, same)
                                    .map(|p| Some(Box::new(p)))
                                    .map_err(err),
                                None if same.is_empty() => Ok(None),
                                None => Err(err("`same` needs a `message` pattern".into())),
                            };
                            let message = pattern(message, same)?;
                            let not_message = pattern(not_message, &[])?;
                            if let Some(c) = culprit {
                                if c != FRAME_CULPRIT
                                    && !message.as_ref().is_some_and(|m| m.has_group(c))
                                {
                                    return Err(err(format!(
                                        "culprit = {c:?} is not a group of the message pattern"
                                    )));
                                }
                            }
                            if let Some(b) = bind {
                                bound.push(b.clone());
                            }
                            Compiled::Throwable {
                                class: g(class)?,
                                simple_names: if message.is_some() {
                                    simple_names(class)
                                } else {
                                    Vec::new()
                                },
                                message,
                                not_message,
                                culprit: culprit.clone(),
                                bind: bind.clone(),
                                role: role.clone(),
                                optional: *optional,
                                source: class.clone(),
                            }
                        }
                        Condition::Sequence {
                            within,
                            steps,
                            optional,
                        } => Compiled::Sequence {
                            within: check_within(within, &bound)?,
                            steps: steps
                                .iter()
                                .map(|s| {
                                    Ok(CompiledStep {
                                        frame: g(&s.frame)?,
                                        source: s.frame.clone(),
                                        role: s.role.clone(),
                                        optional: s.optional,
                                        explain: s.explain.clone(),
                                    })
                                })
                                .collect::<Result<_, RuleError>>()?,
                            optional: *optional,
                        },
                        Condition::Frame {
                            within,
                            frame,
                            role,
                            optional,
                        } => Compiled::Frame {
                            within: check_within(within, &bound)?,
                            frame: g(frame)?,
                            role: role.clone(),
                            optional: *optional,
                            source: frame.clone(),
                        },
                        Condition::UserFrame {
                            within,
                            role,
                            optional,
                        } => Compiled::UserFrame {
                            within: check_within(within, &bound)?,
                            role: role.clone(),
                            optional: *optional,
                        },
                        Condition::Absent { within, frame } => Compiled::Absent {
                            within: check_within(within, &bound)?,
                            frame: g(frame)?,
                            source: frame.clone(),
                        },
                    });
                }
                Ok(conditions)
            };
        let own: Vec<&Condition> = def.conditions.iter().collect();
        let mut variants = Vec::new();
        for v in &def.variants {
            let list: Vec<&Condition> = v.conditions.iter().chain(own.iter().copied()).collect();
            variants.push((v.what.clone(), compile_list(&list, &[])?));
        }
        // The rule's own conditions may name a bind that every variant makes.
        let binds_of = |v: &schema::Variant| -> Vec<String> {
            v.conditions
                .iter()
                .filter_map(|c| match c {
                    Condition::Throwable { bind: Some(b), .. } => Some(b.clone()),
                    _ => None,
                })
                .collect()
        };
        let common_binds: Vec<String> = match def.variants.split_first() {
            Some((first, rest)) => binds_of(first)
                .into_iter()
                .filter(|b| rest.iter().all(|v| binds_of(v).contains(b)))
                .collect(),
            None => Vec::new(),
        };
        let conditions = compile_list(&own, &common_binds)?;
        Ok(Rule {
            def,
            conditions,
            variants,
            prose: Default::default(),
        })
    }
}

fn lang_index(lang: Lang) -> usize {
    match lang {
        Lang::En => 0,
        Lang::Zh => 1,
    }
}

/// Whether the bundled rules carry their prose. The page's build (feature `lazy-prose`) bundles
/// only what matching needs ([`RuleDef::without_prose`]: 2.0 MB of JSON became about 0.2 MB)
/// and loads a rule's prose when it has a finding to show (issue 13: what the first diagnosis
/// needs, parsed at start).
pub const PROSE_BUNDLED: bool = cfg!(not(feature = "lazy-prose"));

/// One bundled rule, as `build.rs` writes it (`OUT_DIR/rules-each*.rs`): parsed and compiled
/// when first needed ([`rule_at`]), so that a diagnosis compiles only the rules its traces may
/// match ([`candidates`]; issue 13: loading all 85 took 30–80 ms of the page's first diagnosis).
struct Bundled {
    /// [`RuleDef::id`].
    id: &'static str,
    /// The [`RuleDef`] as JSON (without its prose where [`PROSE_BUNDLED`] is false).
    json: &'static str,
    /// What a trace must hold for the rule to possibly fire.
    screen: Screen,
}

/// What a trace must hold for a rule to possibly fire, worked out by `build.rs` (`screen`) from
/// the rule's required throwable conditions: all of it must hold.
struct Screen {
    /// A throwable of one of these classes; `None`: nothing known.
    classes: Option<Classes>,
    /// For each index (into [`each::MESSAGES`]), a throwable whose message may match that
    /// pattern: holds one of the literal texts every match holds
    /// ([`crate::pattern::prefilter`]), as printed or unwrapped.
    messages: &'static [u16],
}

/// A throwable whose simple class name is one of `names` (a condition's class glob names them
/// literally), or, when `classless`, a throwable printed without a class but with a message
/// (matched by a condition's message pattern alone).
struct Classes {
    /// Simple class names (`ConcurrentModificationException`), sorted.
    names: &'static [&'static str],
    /// Whether a throwable without a class, with a message, may do.
    classless: bool,
}

#[cfg(not(feature = "lazy-prose"))]
mod each {
    use super::{Bundled, Classes, Screen};
    include!(concat!(env!("OUT_DIR"), "/rules-each.rs"));
}
#[cfg(feature = "lazy-prose")]
mod each {
    use super::{Bundled, Classes, Screen};
    include!(concat!(env!("OUT_DIR"), "/rules-each-match.rs"));
}

/// Each bundled rule, parsed and compiled on first use (in [`each::BUNDLED`]'s order).
static CELLS: [OnceLock<Result<Rule, RuleError>>; COUNT] = [const { OnceLock::new() }; COUNT];

/// The bundled rule at `index` (catalogue order), parsed and compiled on first use; `None` past
/// the end and for a rule that does not load (see [`catalogue_errors`]).
fn rule_at(index: usize) -> Option<&'static Rule> {
    let (bundled, cell) = (each::BUNDLED.get(index)?, CELLS.get(index)?);
    cell.get_or_init(|| {
        let def: RuleDef = serde_json::from_str(bundled.json).map_err(|e| RuleError {
            rule: bundled.id.to_owned(),
            reason: e.to_string(),
        })?;
        Rule::compile(def)
    })
    .as_ref()
    .ok()
}

/// Each bundled rule definition as JSON (a [`RuleDef`], without its prose where
/// [`PROSE_BUNDLED`] is false), in catalogue order: what [`catalogue`] parses and compiles, one
/// rule at a time (the benches time it).
pub fn bundled_json() -> impl Iterator<Item = &'static str> {
    each::BUNDLED.iter().map(|b| b.json)
}

/// All rules, compiled once on first use, in the order of their folders. Rules that fail to
/// compile are left out and listed by [`catalogue_errors`] (a test keeps that list empty). A
/// diagnosis compiles only its [`candidates`].
pub fn catalogue() -> &'static [&'static Rule] {
    static ALL: OnceLock<Vec<&'static Rule>> = OnceLock::new();
    ALL.get_or_init(|| (0..COUNT).filter_map(rule_at).collect())
}

/// What [`candidates`] looks at in a trace: the simple names of its throwables' classes, whether
/// one is printed without a class but with a message, and their messages.
#[derive(Debug, Default)]
pub struct TraceClasses<'a> {
    simple: Vec<&'a str>,
    classless: bool,
    messages: Vec<&'a str>,
}

impl<'a> TraceClasses<'a> {
    /// The classes and messages of every throwable of `trace` (causes, suppressed, enclosing).
    pub fn of(trace: &'a crate::model::Trace) -> TraceClasses<'a> {
        let mut out = TraceClasses::default();
        for t in &trace.throwables {
            if let Some(m) = t.message.as_deref() {
                out.messages.push(m);
            }
            if t.class.is_empty() {
                out.classless |= t.message.is_some();
                continue;
            }
            let name = t.class.rsplit('.').next().unwrap_or(&t.class);
            if !out.simple.contains(&name) {
                out.simple.push(name);
            }
        }
        out
    }

    fn admit(&self, screen: &Screen) -> bool {
        let classes = screen.classes.as_ref().is_none_or(|c| {
            (c.classless && self.classless)
                || self.simple.iter().any(|s| c.names.binary_search(s).is_ok())
        });
        classes
            && screen
                .messages
                .iter()
                .all(|&i| match message_prefilters().get(usize::from(i)) {
                    Some(Some(p)) => self.messages.iter().any(|m| p.admits(m)),
                    _ => true,
                })
    }
}

/// The literal prefilter of each of [`each::MESSAGES`], made once.
fn message_prefilters() -> &'static [Option<crate::pattern::Prefilter>] {
    static PREFILTERS: OnceLock<Vec<Option<crate::pattern::Prefilter>>> = OnceLock::new();
    PREFILTERS.get_or_init(|| {
        each::MESSAGES
            .iter()
            .map(|m| crate::pattern::prefilter(m))
            .collect()
    })
}

/// The rules that may fire on a trace with `classes`, in catalogue order, each compiled on first
/// use: those whose screen (`build.rs`) the trace passes. The others cannot fire on it (a test
/// matches every fixture and corpus text with both and compares).
pub fn candidates(classes: &TraceClasses<'_>) -> Vec<&'static Rule> {
    each::BUNDLED
        .iter()
        .enumerate()
        .filter(|(_, b)| classes.admit(&b.screen))
        .filter_map(|(i, _)| rule_at(i))
        .collect()
}

/// Compiles every message pattern of the catalogue that is not compiled yet (the page compiles
/// them on first use: [`crate::pattern::MessagePattern::compile`]). A diagnosis worker calls this
/// before it says it is ready: a worker is started when a big text is edited, and its first
/// diagnosis, of a text with many different traces, would otherwise compile them in its own
/// time (the e2e typing test: ~200 ms of each update on this machine kind).
pub fn compile_patterns() {
    for rule in catalogue() {
        for c in rule.all_conditions() {
            if let Compiled::Throwable {
                message,
                not_message,
                ..
            } = c
            {
                for p in [message, not_message].into_iter().flatten() {
                    p.compile();
                }
            }
        }
    }
}

/// Rules that could not be loaded, with the reason.
pub fn catalogue_errors() -> &'static [RuleError] {
    static ERRORS: OnceLock<Vec<RuleError>> = OnceLock::new();
    ERRORS.get_or_init(|| {
        let _ = catalogue();
        CELLS
            .iter()
            .filter_map(|c| c.get().and_then(|r| r.as_ref().err()).cloned())
            .collect()
    })
}

/// The rule with this id, compiled on first use.
pub fn by_id(id: &str) -> Option<&'static Rule> {
    let index = each::BUNDLED.iter().position(|b| b.id == id)?;
    rule_at(index)
}

#[cfg(not(feature = "lazy-prose"))]
mod examples {
    include!(concat!(env!("OUT_DIR"), "/examples.rs"));
}
#[cfg(feature = "lazy-prose")]
mod examples {
    include!(concat!(env!("OUT_DIR"), "/examples-lazy.rs"));
}

/// How many rules are bundled (the catalogue's length, known without loading it: the page's
/// header shows it before the first diagnosis needs the catalogue).
pub const COUNT: usize = examples::COUNT;

/// The example trace of the rule with this id (its `example` fixture, or its first `match-*`
/// fixture), as bundled at build time; `None` for an unknown id.
#[cfg(not(feature = "lazy-prose"))]
pub fn example(id: &str) -> Option<&'static str> {
    examples::EXAMPLES
        .iter()
        .find(|(rule, _)| *rule == id)
        .map(|(_, text)| *text)
}

/// The example trace of the rule with this id (its `example` fixture, or its first `match-*`
/// fixture), from the rule's prose file in either language ([`RuleProse::example`]: the page's
/// build bundles no examples); `None` for an unknown id and until a prose file of the rule is
/// loaded.
#[cfg(feature = "lazy-prose")]
pub fn example(id: &str) -> Option<&'static str> {
    let rule = by_id(id)?;
    [Lang::En, Lang::Zh]
        .into_iter()
        .find_map(|lang| rule.prose(lang))
        .map(|p| p.example.as_str())
}

/// The simple class names a class glob names literally: `{akka.pattern.AskTimeoutException,
/// java.util.concurrent.TimeoutException}` gives `AskTimeoutException` and `TimeoutException`;
/// a name with a wildcard in its last segment gives none.
pub fn simple_names(glob: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    // (a glob whose braces do not expand does not compile: taken as written)
    for pattern in schema::expand_braces(glob).unwrap_or_else(|| vec![glob.to_owned()]) {
        let last = pattern.rsplit('.').next().unwrap_or(&pattern);
        if !last.is_empty()
            && pattern.contains('.')
            && !last.contains(['*', '?', '{', '}', '['])
            && !out.iter().any(|n| n == last)
        {
            out.push(last.to_owned());
        }
    }
    out
}

#[cfg(test)]
mod simple_name_tests {
    use super::simple_names;

    #[test]
    fn literal_classes_give_their_simple_names() {
        assert_eq!(
            simple_names("{akka.pattern.AskTimeoutException,org.apache.pekko.pattern.AskTimeoutException,java.util.concurrent.TimeoutException}"),
            ["AskTimeoutException", "TimeoutException"]
        );
        assert_eq!(
            simple_names("org.apache.flink.core.fs.UnsupportedFileSystemSchemeException"),
            ["UnsupportedFileSystemSchemeException"]
        );
        assert!(simple_names("*").is_empty());
        assert!(simple_names("org.apache.flink.*").is_empty());
        assert!(simple_names("java.lang.{*Error}").is_empty());
    }
}
