//! Keeps the text in the input across reloads, in this browser only (`localStorage`, key
//! [`KEY`], and [`PREVIOUS_KEY`] for the text "Restore previous text" brings back); nothing
//! leaves the machine. Texts over [`MAX_BYTES`] are not kept (browsers allow
//! about 5 MB per origin), and the page says so.

use gloo::storage::{LocalStorage, Storage};

/// The `localStorage` key of the kept text.
pub const KEY: &str = "trace-doctor.input";

/// The `localStorage` key of the text "Restore previous text" brings back.
pub const PREVIOUS_KEY: &str = "trace-doctor.previous";

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

/// Keeps `text`, replacing the previous one.
pub fn save(text: &str) -> Kept {
    if text.trim().is_empty() {
        LocalStorage::delete(KEY);
        return Kept::Empty;
    }
    if text.len() > MAX_BYTES {
        // A stale, smaller copy would come back on reload in place of this text: drop it.
        LocalStorage::delete(KEY);
        return Kept::TooLarge(text.len());
    }
    match LocalStorage::set(KEY, text) {
        Ok(()) => Kept::Yes,
        Err(_) => Kept::Refused,
    }
}

/// The kept text, if any.
pub fn load() -> Option<String> {
    LocalStorage::get::<String>(KEY)
        .ok()
        .filter(|t| !t.trim().is_empty())
}

/// Keeps the text that "Restore previous text" brings back (`None` forgets it). Best effort:
/// a text over [`MAX_BYTES`] or a refusal by the browser leaves it in the page only.
pub fn save_previous(text: Option<&str>) {
    match text {
        Some(t) if t.len() <= MAX_BYTES && !t.trim().is_empty() => {
            if LocalStorage::set(PREVIOUS_KEY, t).is_err() {
                LocalStorage::delete(PREVIOUS_KEY);
            }
        }
        _ => LocalStorage::delete(PREVIOUS_KEY),
    }
}

/// The text "Restore previous text" brings back, kept from an earlier visit.
pub fn load_previous() -> Option<String> {
    LocalStorage::get::<String>(PREVIOUS_KEY)
        .ok()
        .filter(|t| !t.trim().is_empty())
}
