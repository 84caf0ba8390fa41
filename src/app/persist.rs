//! Keeps the text in the input across reloads, in this browser only; nothing leaves the machine.
//!
//! Each text is kept twice: in `sessionStorage` (this tab's own copy, which survives its reloads
//! and which other tabs cannot overwrite) and in `localStorage` (the last text of any tab, which
//! a new tab starts from). [`KEY`] holds the input, [`PREVIOUS_KEY`] the text "Restore previous
//! text" brings back, [`BORROWED_KEY`] whether the input is a link's or an example's text left
//! unedited. Texts over [`MAX_BYTES`] are not kept (browsers allow about 5 MB per origin), and
//! the page says so. [`LANG_KEY`] keeps the language chosen with the header's switch.

use gloo::storage::{LocalStorage, SessionStorage, Storage};
use std::hash::{Hash, Hasher};

/// The storage key of the kept input.
pub const KEY: &str = "trace-doctor.input";

/// The storage key of the text "Restore previous text" brings back.
pub const PREVIOUS_KEY: &str = "trace-doctor.previous";

/// The storage key of the fingerprint of the text last put in from a share link or a rule's
/// example ([`mark_borrowed`]): a kept text with that fingerprint is not the person's own, and
/// never pushes their own text out of "Restore previous text".
pub const BORROWED_KEY: &str = "trace-doctor.borrowed";

/// Largest text kept (bytes of UTF-8). Chromium's quota is 5 M UTF-16 code units per origin.
pub const MAX_BYTES: usize = 2_000_000;

/// What happened to the text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kept {
    /// Kept; a reload brings it back.
    Yes,
    /// Nothing to keep (empty text): the kept copy was removed.
    Empty,
    /// Too large to keep (bytes).
    TooLarge(usize),
    /// The browser refused (storage disabled, private mode, quota).
    Refused,
}

fn delete(key: &str) {
    SessionStorage::delete(key);
    LocalStorage::delete(key);
}

/// Stores `text` under `key` in both storages; `false` when the tab's own copy was refused.
fn store(key: &str, text: &str) -> bool {
    let tab = SessionStorage::set(key, text).is_ok();
    if LocalStorage::set(key, text).is_err() {
        LocalStorage::delete(key);
    }
    tab
}

/// This tab's copy, else the last one of any tab.
fn fetch(key: &str) -> Option<String> {
    SessionStorage::get::<String>(key)
        .ok()
        .or_else(|| LocalStorage::get::<String>(key).ok())
        .filter(|t| !t.trim().is_empty())
}

/// Keeps `text`, replacing the previous one.
pub fn save(text: &str) -> Kept {
    if text.trim().is_empty() {
        delete(KEY);
        return Kept::Empty;
    }
    if text.len() > MAX_BYTES {
        // A stale, smaller copy would come back on reload in place of this text: drop it.
        delete(KEY);
        return Kept::TooLarge(text.len());
    }
    // A link's or an example's text, unedited, is this tab's only: the text the person kept
    // last (the one a new tab starts from) is not pushed out by a link opened in another tab.
    let kept = if is_borrowed(text) {
        SessionStorage::set(KEY, text).is_ok()
    } else {
        store(KEY, text)
    };
    if kept {
        Kept::Yes
    } else {
        Kept::Refused
    }
}

/// The kept text, if any: this tab's, else the last one of any tab.
pub fn load() -> Option<String> {
    fetch(KEY)
}

/// Keeps the text that "Restore previous text" brings back (`None` forgets it). Best effort:
/// a text over [`MAX_BYTES`] or a refusal by the browser leaves it in the page only.
pub fn save_previous(text: Option<&str>) {
    match text {
        Some(t) if t.len() <= MAX_BYTES && !t.trim().is_empty() => {
            store(PREVIOUS_KEY, t);
        }
        _ => delete(PREVIOUS_KEY),
    }
}

/// The text "Restore previous text" brings back, kept from an earlier visit.
pub fn load_previous() -> Option<String> {
    fetch(PREVIOUS_KEY)
}

/// For a tab opened on a share link: the text another tab kept becomes the one "Restore previous
/// text" brings back here, since the link's text is about to replace it as the kept text.
/// Does nothing in a tab that has its own text (its input already holds it), or when the text
/// kept is itself a link's or an example's, unedited (the person's own text, kept as previous
/// when that link was opened, stays the one to restore).
pub fn keep_other_tabs_text_restorable() {
    let own = SessionStorage::get::<String>(KEY).ok();
    if own.is_some_and(|t| !t.trim().is_empty()) {
        return;
    }
    if let Some(text) = LocalStorage::get::<String>(KEY)
        .ok()
        .filter(|t| !t.trim().is_empty())
    {
        let borrowed = LocalStorage::get::<String>(BORROWED_KEY)
            .ok()
            .is_some_and(|f| f == fingerprint(&text));
        if !borrowed {
            save_previous(Some(&text));
        }
    }
}

/// `len:hash` of `text`: enough to tell whether the kept text is the one a link put in.
fn fingerprint(text: &str) -> String {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut h);
    format!("{}:{:x}", text.len(), h.finish())
}

/// Records that `text` was put in from a share link or a rule's example (`None`: the input
/// holds the person's own text).
pub fn mark_borrowed(text: Option<&str>) {
    match text {
        Some(t) => {
            store(BORROWED_KEY, &fingerprint(t));
        }
        None => delete(BORROWED_KEY),
    }
}

/// Whether `text` is the one last put in from a link or an example (see [`mark_borrowed`]).
pub fn is_borrowed(text: &str) -> bool {
    fetch(BORROWED_KEY).is_some_and(|f| f == fingerprint(text))
}

/// The storage key of the language the person chose with the header's switch (`en`, `zh`).
pub const LANG_KEY: &str = "trace-doctor.lang";

/// The storage key of the rules the last diagnosis showed (a JSON list of ids):
/// `index.html` fetches their prose while the module loads on the next visit, when the kept text
/// comes back (issue 13). A hint only: nothing else reads it.
pub const PROSE_HINT_KEY: &str = "trace-doctor.prose-hint";

/// Keeps the rules a diagnosis showed ([`PROSE_HINT_KEY`]), at most eight.
pub fn save_prose_hint(model: &crate::view::PageModel) {
    let mut ids: Vec<&str> = Vec::new();
    for t in &model.traces {
        for f in &t.findings {
            if ids.len() < 8 && !ids.contains(&f.rule.as_str()) {
                ids.push(&f.rule);
            }
        }
    }
    let _ = LocalStorage::set(PROSE_HINT_KEY, ids);
}

/// The language chosen with the switch, kept in this browser (`localStorage`), if any.
pub fn load_lang() -> Option<crate::lang::Lang> {
    LocalStorage::get::<String>(LANG_KEY)
        .ok()
        .and_then(|c| crate::lang::Lang::from_code(&c))
}

/// Keeps the language chosen with the switch; a refusing browser only forgets it on reload.
pub fn save_lang(lang: crate::lang::Lang) {
    let _ = LocalStorage::set(LANG_KEY, lang.code());
}

/// The storage key of the public address of this page that the person set in the Share panel
/// (for links that others can open when the page is served from this machine).
pub const PUBLIC_BASE_KEY: &str = "trace-doctor.public-base";

/// The public address the person set, if any.
pub fn load_public_base() -> Option<String> {
    LocalStorage::get::<String>(PUBLIC_BASE_KEY)
        .ok()
        .filter(|b| !b.trim().is_empty())
}

/// Keeps the public address (empty: forget it).
pub fn save_public_base(base: &str) {
    if base.trim().is_empty() {
        LocalStorage::delete(PUBLIC_BASE_KEY);
    } else {
        let _ = LocalStorage::set(PUBLIC_BASE_KEY, base.trim());
    }
}
