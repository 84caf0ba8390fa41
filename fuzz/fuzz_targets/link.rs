//! The share-link decoder: a link is anyone's text (cut by a mail client, damaged, hand-made, a
//! compressed bomb). Any text given as a link is read without a panic, within the size limit;
//! any text put in a link comes back exactly; a link cut anywhere restores a prefix of its text
//! or nothing, never altered text.

#![no_main]

use libfuzzer_sys::fuzz_target;
use trace_doctor::share::link::{self, SharedState, MAX_TEXT_BYTES};

fuzz_target!(|data: &[u8]| {
    // The bytes as a link (a payload, a fragment or a whole URL).
    let as_link = String::from_utf8_lossy(data);
    match link::decode(&as_link) {
        Ok(state) => assert!(state.text.len() <= MAX_TEXT_BYTES),
        Err(e) => {
            let _ = e.to_string();
            if let Some(r) = e.recovered() {
                assert!(r.state.text.len() <= MAX_TEXT_BYTES);
                assert_eq!(r.bytes, r.state.text.len());
            }
        }
    }
    // The bytes as a text to share: it comes back as it went.
    let Some((&cut_at, text)) = data.split_first() else {
        return;
    };
    let state = SharedState {
        text: String::from_utf8_lossy(text).into_owned(),
        ..SharedState::default()
    };
    let payload = link::encode(&state);
    let back = link::decode(&payload).expect("a link of ours decodes");
    assert_eq!(back.text, state.text);
    // Cut where the first byte says: a prefix of the text, or nothing.
    let cut = payload.len() * usize::from(cut_at) / 255;
    if let Some(head) = payload.get(..cut) {
        match link::decode(head) {
            Ok(s) => assert_eq!(s.text, state.text),
            Err(e) => {
                if let Some(r) = e.recovered() {
                    assert!(state.text.starts_with(&r.state.text), "a cut link restored altered text");
                }
            }
        }
    }
});
