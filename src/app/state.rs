//! The page state: plain data, an action enum and a reducer (the habit of Yew's
//! `function_todomvc` example). Diagnosing is pure: [`crate::diagnose`] then [`crate::view::build`].

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
}

impl Status {
    /// Value of `data-state`.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Idle => "idle",
            Status::Pending => "pending",
            Status::Working => "working",
            Status::Done => "done",
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
    /// The result for `input` (when `status` is `Done`).
    pub model: Option<Rc<PageModel>>,
    /// Timing of the last diagnosis.
    pub timings: Timings,
}

impl Default for State {
    fn default() -> Self {
        State {
            input: Rc::from(""),
            generation: 0,
            status: Status::Idle,
            model: None,
            timings: Timings::default(),
        }
    }
}

/// What can happen.
pub enum Action {
    /// The text changed.
    Input(Rc<str>),
    /// Mark the current generation as being diagnosed.
    Working(u64),
    /// Diagnose the text of this generation now.
    Diagnose {
        /// Generation the request was made for.
        generation: u64,
        /// Clock in milliseconds (`performance.now()`), for timing; `None` when unavailable.
        now: fn() -> Option<f64>,
    },
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
                model: None,
                generation: self.generation + 1,
                input: text,
                timings: self.timings,
            }),
            Action::Working(generation)
                if generation == self.generation && self.status == Status::Pending =>
            {
                Rc::new(State {
                    status: Status::Working,
                    ..(*self).clone()
                })
            }
            Action::Diagnose { generation, now }
                if generation == self.generation && self.status != Status::Idle =>
            {
                let start = now();
                let diagnosis = crate::diagnose(&self.input);
                let model = view::build(&self.input, &diagnosis);
                let diagnose_ms = match (start, now()) {
                    (Some(a), Some(b)) => b - a,
                    _ => 0.0,
                };
                Rc::new(State {
                    status: Status::Done,
                    model: Some(Rc::new(model)),
                    timings: Timings {
                        diagnose_ms,
                        bytes: self.input.len(),
                    },
                    ..(*self).clone()
                })
            }
            _ => self,
        }
    }
}
