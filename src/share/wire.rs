//! The Share panel's work as it crosses to the Share worker and back (issue 13: redaction, the
//! link and the replies off the page's thread, and their code out of the page's module). The
//! page sends a [`Request`] as JSON; the worker (`src/bin/share.rs`) answers with [`answer`]'s
//! JSON, which the page reads with [`read_answer`]. Both ends are this crate, built together,
//! so the format is whatever `serde_json` makes of these types.

use crate::lang::Lang;
use crate::rules::files;
use crate::share::link::ViewOptions;
use crate::sharing::{self, NotShared, SharePanel};
use serde::{Deserialize, Serialize};

/// What the page asks the Share worker for: the panel of `text` ([`sharing::build_in`]).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Request {
    /// The text diagnosed on the page.
    pub text: String,
    /// Where links point ([`sharing::build_in`]'s `base`).
    pub base: String,
    /// Whether the link and the replies are made from the redacted text.
    pub redact: bool,
    /// The sections the person opened or closed, kept in the link.
    pub options: ViewOptions,
    /// Replies in Chinese (else English).
    pub zh: bool,
    /// The rules' prose files the page has loaded, `(key, json)` as
    /// [`crate::rules::files::adopt`] takes them: the replies name the findings' rules in the
    /// page's words (the worker's module bundles no prose, like the page's).
    pub prose: Vec<(String, String)>,
}

/// The Share worker's answer to `request` (JSON of a [`Request`]), as JSON for
/// [`read_answer`]: the panel, or why there is nothing to share. A request that does not parse
/// is answered as an empty text would be.
pub fn answer(request: &str) -> String {
    let request: Request = serde_json::from_str(request).unwrap_or_default();
    for (key, json) in &request.prose {
        files::adopt(key, json);
    }
    let lang = if request.zh { Lang::Zh } else { Lang::En };
    let panel = sharing::build_in(
        &request.text,
        &request.base,
        request.redact,
        request.options,
        lang,
    );
    serde_json::to_string(&panel).unwrap_or_default()
}

/// Reads what [`answer`] wrote; `None` when it is not a whole answer.
pub fn read_answer(json: &str) -> Option<Result<SharePanel, NotShared>> {
    serde_json::from_str(json).ok()
}

/// What the page says when the Share worker failed with the browser's own message `raw` (an
/// `ErrorEvent`'s): a download that failed (`TypeError: Failed to fetch` in Chromium,
/// `NetworkError` in Firefox, `Load failed` in Safari) or a refused WebAssembly module said in
/// words, anything else as the browser put it, without its `Uncaught ` prefix.
pub fn plain_failure(raw: &str) -> String {
    let raw = raw.trim();
    if ["Failed to fetch", "NetworkError", "Load failed"]
        .iter()
        .any(|m| raw.contains(m))
    {
        return "a file of the page could not be downloaded (its folder may be incomplete, or \
                something in this browser blocks it)"
            .to_owned();
    }
    if raw.contains("CompileError") || raw.contains("WebAssembly") {
        return format!("this browser refused the page's WebAssembly module ({raw})");
    }
    raw.strip_prefix("Uncaught ").unwrap_or(raw).to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The flagship trace with a line of personal details, as the e2e's Share test pastes
    /// it: something for redaction to replace.
    fn with_addresses() -> String {
        let flagship =
            std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/cases/seed.txt"))
                .expect("the flagship case");
        flagship
            + "Caused by: java.net.ConnectException: Connection refused: \
               kafka-1.prod.acme.com/10.1.2.3:9092 (user alice@acme.com)\n\tat com.acme.Job.main(Job.java:12)\n"
    }

    /// The worker's answer, read on the page, is the panel the page used to build itself:
    /// link, preview (with its labels), counts, replies; in both languages, redacted or not.
    #[test]
    fn the_answer_reads_back_as_the_panel_built_here() {
        let text = with_addresses();
        for (redact, zh) in [(true, false), (false, false), (true, true)] {
            let request = Request {
                text: text.clone(),
                base: "https://example.org/td/".into(),
                redact,
                options: ViewOptions {
                    opened: vec!["t1-e2".into()],
                    ..ViewOptions::default()
                },
                zh,
                prose: Vec::new(),
            };
            let json = serde_json::to_string(&request).expect("serialises");
            let got = read_answer(&answer(&json)).expect("a whole answer");
            let lang = if zh { Lang::Zh } else { Lang::En };
            let want = sharing::build_in(
                &text,
                "https://example.org/td/",
                redact,
                request.options.clone(),
                lang,
            );
            assert_eq!(got, want);
            let panel = got.expect("something to share");
            assert!(panel.offer.link.starts_with("https://example.org/td/#/s/"));
            assert!(!panel.plain_text.is_empty());
            if redact {
                assert!(panel.redaction_count > 0, "the trace has addresses");
                assert!(panel.preview.iter().all(|p| p.label == p.kind.label()));
            }
        }
    }

    /// Nothing to share, and a request that is not one, come back as reasons.
    #[test]
    fn empty_and_unreadable_requests_are_answered() {
        let empty = serde_json::to_string(&Request::default()).expect("serialises");
        assert_eq!(read_answer(&answer(&empty)), Some(Err(NotShared::Empty)));
        assert_eq!(
            read_answer(&answer("not json")),
            Some(Err(NotShared::Empty))
        );
        let big = Request {
            text: "x".repeat(sharing::MAX_SHARE_BYTES + 1),
            ..Request::default()
        };
        let json = serde_json::to_string(&big).expect("serialises");
        assert_eq!(
            read_answer(&answer(&json)),
            Some(Err(NotShared::TooLarge(sharing::MAX_SHARE_BYTES + 1)))
        );
        assert_eq!(read_answer("{\"Ok\":"), None);
    }

    /// The page's prose files are taken by their key; a bad key or text changes nothing.
    #[test]
    fn prose_files_are_adopted_by_key() {
        assert!(!files::adopt("fr/user-code-cme", "{}"));
        assert!(!files::adopt("en/no-such-rule", "{}"));
        assert!(!files::adopt("no-slash", "{}"));
        // The command line's rules carry their prose: a file is not needed, and not taken.
        let rule = &crate::rules::catalogue()[0];
        let (_, json) = files::of(&rule.def).remove(0);
        assert!(!files::adopt(&format!("en/{}", rule.def.id), &json));
    }

    /// The browser's raw failure messages are said in words (found by the stop-23 try-out: the
    /// panel ended in "Uncaught TypeError: Failed to fetch").
    #[test]
    fn worker_failures_are_said_in_words() {
        for raw in [
            "Uncaught TypeError: Failed to fetch",
            "NetworkError when attempting to fetch resource.",
            "TypeError: Load failed",
        ] {
            let said = plain_failure(raw);
            assert!(said.contains("could not be downloaded"), "{raw}: {said}");
            assert!(!said.contains("Uncaught"));
        }
        assert!(
            plain_failure("Uncaught CompileError: WebAssembly.instantiate(): bad magic")
                .starts_with("this browser refused")
        );
        assert_eq!(plain_failure("Uncaught RangeError: x"), "RangeError: x");
    }
}
