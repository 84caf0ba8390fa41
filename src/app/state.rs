//! The page state: plain data, an action enum and a reducer (the habit of Yew's
//! `function_todomvc` example). Diagnosing is pure: [`crate::diagnose`] then [`crate::view::build`],
//! on the main thread for small inputs ([`Action::Diagnose`]) or in the worker for big ones
//! ([`Action::Progress`], then [`Action::Finished`]).

use super::progress::Stage;
use crate::view::{self, PageModel};
use std::rc::Rc;
use yew::Reducible;

/// Where the diagnosis of the current text stands (shown by `#status[data-state]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Nothing typed yet.
    Idle,
    /// Text changed; waiting for the person to stop typing.
    Pending,
    /// Diagnosing (shown before the work starts so the page can paint it).
    Working,
    /// The result matches the text.
    Done,
    /// The diagnosis failed (the worker crashed); the message says why.
    Error,
}

impl Status {
    /// Value of `data-state`.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Idle => "idle",
            Status::Pending => "pending",
            Status::Working => "working",
            Status::Done => "done",
            Status::Error => "error",
        }
    }
}

/// Time spent on the last diagnosis, milliseconds (exposed as `window.__traceDoctorTimings`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Timings {
    /// Parsing, matching and building the view model.
    pub diagnose_ms: f64,
    /// Input size in bytes.
    pub bytes: usize,
    /// True when the worker diagnosed it (off the main thread).
    pub worker: bool,
    /// From handing the text over to having the result (the worker's time, plus starting it,
    /// sending the text and the result); equals `diagnose_ms` on the main thread.
    pub wall_ms: f64,
}

/// The page state.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// The text as the person typed or pasted it (never altered by the page).
    pub input: Rc<str>,
    /// Bumped on every input change; a diagnosis started for an older generation is dropped.
    pub generation: u64,
    /// Where the diagnosis stands.
    pub status: Status,
    /// The result for `input` when `status` is `Done`. While the person types (`Pending`,
    /// `Working`) it is the result of the text before, shown dimmed until the new one replaces
    /// it, so the page neither flickers nor tears down and rebuilds the result on every key.
    /// `None` for an empty text and after an error.
    pub model: Option<Rc<PageModel>>,
    /// The text `model` was made from (what the Share panel shares).
    pub diagnosed: Rc<str>,
    /// Timing of the last diagnosis.
    pub timings: Timings,
    /// How far the worker got with `input` (while `status` is `Working`).
    pub progress: Option<Stage>,
    /// Why the diagnosis failed (when `status` is `Error`).
    pub error: Option<String>,
}

impl Default for State {
    fn default() -> Self {
        State {
            input: Rc::from(""),
            diagnosed: Rc::from(""),
            generation: 0,
            status: Status::Idle,
            model: None,
            timings: Timings::default(),
            progress: None,
            error: None,
        }
    }
}

/// What can happen.
pub enum Action {
    /// The text changed.
    Input(Rc<str>),
    /// The person started typing: the text will be read when they pause ([`Action::Input`]);
    /// until then the diagnosis shown is of an older text.
    Edited,
    /// Mark the current generation as being diagnosed.
    Working(u64),
    /// Diagnose the text of this generation now.
    Diagnose {
        /// Generation the request was made for.
        generation: u64,
        /// Clock in milliseconds (`performance.now()`), for timing; `None` when unavailable.
        now: fn() -> Option<f64>,
        /// Where to send [`Action::Show`] once the prose of the findings has loaded, when some
        /// is missing ([`super::prose`]).
        then: yew::UseReducerDispatcher<State>,
    },
    /// Show this generation's diagnosis, whose rules' prose is loaded now (or could not be).
    Show {
        /// Generation it was made for.
        generation: u64,
        /// The diagnosis.
        diagnosis: Rc<crate::diagnose::Diagnosis>,
        /// When the diagnosis started (`now()`), for timing.
        start: Option<f64>,
        /// The clock of [`Action::Diagnose`].
        now: fn() -> Option<f64>,
    },
    /// The worker reports how far it got.
    Progress {
        /// Generation the worker is diagnosing.
        generation: u64,
        /// Where it is.
        stage: Stage,
    },
    /// The worker's result.
    Finished {
        /// Generation it was diagnosed for.
        generation: u64,
        /// The page model.
        model: Rc<PageModel>,
        /// Time the worker spent, milliseconds.
        diagnose_ms: f64,
        /// Time from handing the text to the worker until the result arrived, milliseconds.
        wall_ms: f64,
    },
    /// The worker failed on this generation.
    Failed {
        /// Generation it failed on.
        generation: u64,
        /// Why.
        message: String,
    },
}

impl State {
    /// This state with `diagnosis` of its input shown (its page model built in the page's
    /// language), timed from `start`.
    fn show(
        self: Rc<Self>,
        diagnosis: &crate::diagnose::Diagnosis,
        start: Option<f64>,
        now: fn() -> Option<f64>,
    ) -> Rc<Self> {
        let model = view::build_lang(&self.input, diagnosis, "", super::lang());
        super::mark("td:model-built");
        let diagnose_ms = match (start, now()) {
            (Some(a), Some(b)) => b - a,
            _ => 0.0,
        };
        Rc::new(State {
            status: Status::Done,
            model: Some(Rc::new(model)),
            diagnosed: self.input.clone(),
            timings: Timings {
                diagnose_ms,
                bytes: self.input.len(),
                worker: false,
                wall_ms: diagnose_ms,
            },
            progress: None,
            ..(*self).clone()
        })
    }
}

impl Reducible for State {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        match action {
            Action::Input(text) => Rc::new(State {
                status: if text.trim().is_empty() {
                    Status::Idle
                } else {
                    Status::Pending
                },
                model: if text.trim().is_empty() {
                    None
                } else {
                    self.model.clone()
                },
                diagnosed: self.diagnosed.clone(),
                generation: self.generation + 1,
                input: text,
                timings: self.timings,
                progress: None,
                error: None,
            }),
            Action::Edited => Rc::new(State {
                status: Status::Pending,
                generation: self.generation + 1,
                progress: None,
                ..(*self).clone()
            }),
            Action::Working(generation)
                if generation == self.generation && self.status == Status::Pending =>
            {
                Rc::new(State {
                    status: Status::Working,
                    ..(*self).clone()
                })
            }
            Action::Diagnose {
                generation,
                now,
                then,
            } if generation == self.generation && self.status != Status::Idle => {
                let start = now();
                super::mark("td:diagnose-start");
                let diagnosis = crate::diagnose(&self.input);
                super::mark("td:diagnosed");
                let lang = super::lang();
                let need = super::prose::missing(&diagnosis, lang);
                if need.is_empty() {
                    return self.show(&diagnosis, start, now);
                }
                // The findings' prose is not here yet: fetched, then shown (the status stays as
                // it is meanwhile, a few milliseconds from the page's own folder).
                let diagnosis = Rc::new(diagnosis);
                super::prose::load_then(need, lang, move || {
                    super::mark("td:prose-loaded");
                    then.dispatch(Action::Show {
                        generation,
                        diagnosis,
                        start,
                        now,
                    });
                });
                self
            }
            Action::Show {
                generation,
                diagnosis,
                start,
                now,
            } if generation == self.generation && self.status != Status::Idle => {
                self.show(&diagnosis, start, now)
            }
            Action::Progress { generation, stage }
                if generation == self.generation && self.status == Status::Working =>
            {
                Rc::new(State {
                    progress: Some(stage),
                    ..(*self).clone()
                })
            }
            Action::Finished {
                generation,
                model,
                diagnose_ms,
                wall_ms,
            } if generation == self.generation && self.status == Status::Working => {
                Rc::new(State {
                    status: Status::Done,
                    model: Some(model),
                    diagnosed: self.input.clone(),
                    timings: Timings {
                        diagnose_ms,
                        bytes: self.input.len(),
                        worker: true,
                        wall_ms,
                    },
                    progress: None,
                    ..(*self).clone()
                })
            }
            Action::Failed {
                generation,
                message,
            } if generation == self.generation && self.status == Status::Working => {
                Rc::new(State {
                    status: Status::Error,
                    model: None,
                    progress: None,
                    error: Some(message),
                    ..(*self).clone()
                })
            }
            _ => self,
        }
    }
}
