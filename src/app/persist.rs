//! Keeps the text in the input across reloads, in this browser only (`localStorage`, key
//! [`KEY`]); nothing leaves the machine. Texts over [`MAX_BYTES`] are not kept (browsers allow
//! about 5 MB per origin), and the page says so.

use gloo::storage::{LocalStorage, Storage};

/// The `localStorage` key of the kept text.
pub const KEY: &str = "trace-doctor.input";

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
