//! The page model ([`PageModel`]) as it crosses from the diagnosis worker to the page: JSON
//! through `serde_json`, which the page already carries for its rule catalogue (no new code in
//! the wasm module). The model holds at most [`crate::view::MAX_TRACES_SHOWN`] traces, so it
//! stays small whatever the input size.

use crate::view::PageModel;

/// Encodes `model` as UTF-8 JSON bytes.
pub fn encode(model: &PageModel) -> Vec<u8> {
    serde_json::to_vec(model).unwrap_or_default()
}

/// Decodes what [`encode`] wrote; `None` when the bytes are not a whole model.
pub fn decode(bytes: &[u8]) -> Option<PageModel> {
    serde_json::from_slice(bytes).ok()
}
