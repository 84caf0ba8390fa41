//! The page's keyboard shortcuts: one table ([`BINDINGS`]) that both the key handler
//! ([`shortcut`]) and the help that lists them read, so the help never says something the page
//! does not do. Pure (no UI library), tested natively.

/// What a shortcut does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shortcut {
    /// Put the focus in the trace input (on the catalog: in the rule filter).
    FocusInput,
    /// Focus the next frame the diagnosis highlights, scrolled into view.
    NextFrame,
    /// Focus the previous frame the diagnosis highlights.
    PreviousFrame,
    /// Expand or collapse the group the focus is on or in (a fold of frames, an exception, a
    /// section).
    Toggle,
    /// Show or hide the list of shortcuts.
    Help,
    /// Close the list of shortcuts.
    Close,
}

/// One line of the help: the keys (as `KeyboardEvent.key` values) and what they do.
#[derive(Clone, Copy, Debug)]
pub struct Binding {
    /// The keys, as `KeyboardEvent.key` reports them (`"Escape"`, `"?"`).
    pub keys: &'static [&'static str],
    /// What they do.
    pub shortcut: Shortcut,
    /// What they do, in words, for the help.
    pub what: &'static str,
}

/// Every shortcut, in the order the help lists them.
pub const BINDINGS: &[Binding] = &[
    Binding {
        keys: &["/"],
        shortcut: Shortcut::FocusInput,
        what: "Go to the trace input (on the rules page: the filter)",
    },
    Binding {
        keys: &["j", "n"],
        shortcut: Shortcut::NextFrame,
        what: "Next frame the diagnosis highlights",
    },
    Binding {
        keys: &["k", "p"],
        shortcut: Shortcut::PreviousFrame,
        what: "Previous highlighted frame",
    },
    Binding {
        keys: &["o"],
        shortcut: Shortcut::Toggle,
        what: "Expand or collapse the focused group of frames, exception or section (Enter on its title does too)",
    },
    Binding {
        keys: &["?"],
        shortcut: Shortcut::Help,
        what: "Show or hide this list",
    },
    Binding {
        keys: &["Escape"],
        shortcut: Shortcut::Close,
        what: "Close this list",
    },
];

impl Binding {
    /// [`Binding::what`] in `lang`.
    pub fn what_in(&self, lang: crate::lang::Lang) -> &'static str {
        let m = lang.msgs();
        match self.shortcut {
            Shortcut::FocusInput => m.key_focus_input,
            Shortcut::NextFrame => m.key_next_frame,
            Shortcut::PreviousFrame => m.key_previous_frame,
            Shortcut::Toggle => m.key_toggle,
            Shortcut::Help => m.key_help,
            Shortcut::Close => m.key_close,
        }
    }
}

/// How a key is shown to people: `Esc` for `"Escape"`, the key itself otherwise.
pub fn key_label(key: &str) -> &str {
    match key {
        "Escape" => "Esc",
        other => other,
    }
}

/// The shortcut for a key press, if any.
///
/// `key` is `KeyboardEvent.key`; `modified` is true when Ctrl, Alt or Meta is held (those
/// combinations belong to the browser and the system; Shift is part of `?`); `typing` is true
/// when the focus is in a place that takes text (a text area, a text box, an editable element),
/// where every key is the person's text and no shortcut fires, but Esc (which types nothing) to
/// close the help.
pub fn shortcut(key: &str, modified: bool, typing: bool) -> Option<Shortcut> {
    if modified || (typing && key != "Escape") {
        return None;
    }
    BINDINGS
        .iter()
        .find(|b| b.keys.contains(&key))
        .map(|b| b.shortcut)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_map_to_their_shortcuts() {
        assert_eq!(shortcut("/", false, false), Some(Shortcut::FocusInput));
        assert_eq!(shortcut("j", false, false), Some(Shortcut::NextFrame));
        assert_eq!(shortcut("n", false, false), Some(Shortcut::NextFrame));
        assert_eq!(shortcut("k", false, false), Some(Shortcut::PreviousFrame));
        assert_eq!(shortcut("p", false, false), Some(Shortcut::PreviousFrame));
        assert_eq!(shortcut("o", false, false), Some(Shortcut::Toggle));
        assert_eq!(shortcut("?", false, false), Some(Shortcut::Help));
        assert_eq!(shortcut("Escape", false, false), Some(Shortcut::Close));
        assert_eq!(shortcut("J", false, false), None, "Shift+j is not j");
        assert_eq!(shortcut("x", false, false), None);
        assert_eq!(
            shortcut("Enter", false, false),
            None,
            "Enter is the browser's own"
        );
    }

    #[test]
    fn nothing_fires_while_typing_or_with_ctrl_alt_meta() {
        for b in BINDINGS {
            for key in b.keys {
                if *key != "Escape" {
                    assert_eq!(shortcut(key, false, true), None, "{key} while typing");
                }
                assert_eq!(shortcut(key, true, false), None, "{key} with a modifier");
            }
        }
        // Esc types nothing: it closes the help from a text field too.
        assert_eq!(shortcut("Escape", false, true), Some(Shortcut::Close));
    }

    #[test]
    fn every_shortcut_is_listed_once_with_words() {
        use std::collections::HashSet;
        let mut keys = HashSet::new();
        for b in BINDINGS {
            assert!(!b.what.is_empty() && !b.keys.is_empty());
            for k in b.keys {
                assert!(keys.insert(*k), "{k} bound twice");
            }
        }
        assert_eq!(key_label("Escape"), "Esc");
        for b in BINDINGS {
            assert_eq!(
                b.what_in(crate::lang::Lang::En),
                b.what,
                "the English list is the table's"
            );
            assert_ne!(b.what_in(crate::lang::Lang::Zh), b.what);
        }
        assert_eq!(key_label("/"), "/");
    }
}
