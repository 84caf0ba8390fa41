//! What the page's Share panel shows for a text: the redaction preview, the share link (and past
//! [`link::MAIL_SAFE_LENGTH`] a shorter one and the rule's catalog page), and the reply
//! digests for mail and for GitHub — all from the redacted text when redaction is on. Pure:
//! the page renders the [`SharePanel`] it returns.

use crate::lang::Lang;
use crate::share::link;
use crate::{diagnose, digest, redact, report};
use serde::{Deserialize, Serialize};

/// Texts larger than this (bytes) are not put in links or digests: a link that long helps no
/// one, and building it would block the page.
pub const MAX_SHARE_BYTES: usize = 1_000_000;

/// Rows of the redaction preview listed (the summary counts them all).
pub const MAX_PREVIEW_ROWS: usize = 200;

/// Everything the Share panel shows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SharePanel {
    /// Whether what follows was made from the redacted text.
    pub redacted: bool,
    /// What redaction replaces (or would replace, when it is off), in text order, at most
    /// [`MAX_PREVIEW_ROWS`].
    pub preview: Vec<redact::PreviewItem>,
    /// How many values redaction replaces in all.
    pub redaction_count: usize,
    /// Counts per kind (`2 host names`).
    pub summary: Vec<redact::KindCount>,
    /// The link, its length, and when too long for mail, a shorter link and the catalog page.
    pub offer: link::LinkOffer,
    /// The link the digests end with: the full link when it is mail-safe, else the shorter one,
    /// else the catalog page, else none.
    pub digest_link: Option<String>,
    /// The short reply for mail (plain text, 72 columns, at most about 25 lines).
    pub plain_text: String,
    /// The short reply for GitHub (Markdown).
    pub markdown: String,
    /// The short reply for Apache's JIRA (its wiki markup).
    pub jira: String,
    /// The long reply for mail: every told trace, all fixes, what does not help.
    pub plain_text_long: String,
    /// The long reply for GitHub (Markdown).
    pub markdown_long: String,
}

/// Why there is nothing to share.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum NotShared {
    /// The input is empty.
    Empty,
    /// The input is larger than [`MAX_SHARE_BYTES`] (its size in bytes).
    TooLarge(usize),
}

impl NotShared {
    /// Why, in `lang` (the [`std::fmt::Display`] text is the English).
    pub fn message(&self, lang: Lang) -> String {
        match (lang, self) {
            (Lang::En, _) => self.to_string(),
            (Lang::Zh, NotShared::Empty) => "请先粘贴一段堆栈：现在还没有可分享的内容。".to_owned(),
            (Lang::Zh, NotShared::TooLarge(n)) => format!(
                "这段文本有 {} 字节，超过了链接或回复能携带的 {} 字节。只粘贴你要问的那个堆栈即可分享。",
                crate::wording::thousands(*n),
                crate::wording::thousands(MAX_SHARE_BYTES)
            ),
        }
    }
}

impl std::fmt::Display for NotShared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NotShared::Empty => write!(f, "Paste a trace first: there is nothing to share yet."),
            NotShared::TooLarge(n) => write!(
                f,
                "This text is {} bytes, over the {} a link or a reply can carry. Paste only the trace you ask about to share it.",
                crate::wording::thousands(*n),
                crate::wording::thousands(MAX_SHARE_BYTES)
            ),
        }
    }
}

/// Builds the panel for `text`, with links to the page at `base` (its address without the
/// fragment) that also carry `options` (the sections the person opened or closed). With
/// `redact_first`, links and digests carry the redacted text.
pub fn build(
    text: &str,
    base: &str,
    redact_first: bool,
    options: link::ViewOptions,
) -> Result<SharePanel, NotShared> {
    build_in(text, base, redact_first, options, Lang::En)
}

/// [`build`] with the replies in `lang`.
pub fn build_in(
    text: &str,
    base: &str,
    redact_first: bool,
    options: link::ViewOptions,
    lang: Lang,
) -> Result<SharePanel, NotShared> {
    if text.trim().is_empty() {
        return Err(NotShared::Empty);
    }
    if text.len() > MAX_SHARE_BYTES {
        return Err(NotShared::TooLarge(text.len()));
    }
    let redactions = redact::find(text);
    let summary = redact::summary(text, &redactions);
    let mut preview = redact::preview(text, &redactions);
    preview.truncate(MAX_PREVIEW_ROWS);
    let shared: std::borrow::Cow<str> = if redact_first {
        redact::apply(text, &redactions).into()
    } else {
        text.into()
    };
    let diagnosis = diagnose::diagnose(&shared);
    let state = link::SharedState {
        text: shared.to_string(),
        options,
        ..link::SharedState::default()
    };
    let offer = link::offer(base, &state, &diagnosis);
    // A reply goes to people on other machines: it carries a link only to a page they can
    // open (not `file:`, loopback or a private address, nor a bare `#/s/…`).
    let public = !base.is_empty() && !link::local_only(base);
    let digest_link = if !public {
        None
    } else if offer.length <= link::MAIL_SAFE_LENGTH {
        Some(offer.link.clone())
    } else {
        offer
            .shorter
            .as_ref()
            .filter(|s| s.length <= link::MAIL_SAFE_LENGTH)
            .map(|s| s.link.clone())
            .or_else(|| offer.catalog.clone())
    };
    let report = report::build_in(&shared, &diagnosis, lang);
    let mut told = digest::digest_in(&report, digest_link.as_deref(), lang);
    // A reply that ends with the shorter link says what the link leaves out.
    told.link_note = offer
        .shorter
        .as_ref()
        .filter(|s| digest_link.as_deref() == Some(s.link.as_str()))
        .map(|s| lang.shortened_link_note(&s.left_out.join("; ")));
    Ok(SharePanel {
        redacted: redact_first,
        redaction_count: redactions.len(),
        preview,
        summary,
        plain_text: digest::short_plain_text_of(&told),
        markdown: digest::short_markdown_of(&told),
        jira: digest::short_jira_of(&told),
        plain_text_long: digest::plain_text_of(&told),
        markdown_long: digest::markdown_of(&told),
        digest_link,
        offer,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const SEED: &str = include_str!("../../tests/cases/seed.txt");
    const BASE: &str = "https://example.org/trace-doctor/";

    #[test]
    fn replies_carry_no_link_that_others_cannot_open() {
        for base in ["http://127.0.0.1:8080/", "http://192.168.1.5/td/", ""] {
            let panel = build(SEED, base, true, Default::default()).expect("shared");
            assert_eq!(panel.digest_link, None, "{base}");
            assert!(!panel.plain_text.contains("#/s/"), "{base}");
            // The link itself is still offered (to open on this machine).
            assert!(panel.offer.link.contains("#/s/"));
        }
    }

    #[test]
    fn the_flagship_shares_as_a_mail_safe_link_that_opens_the_redacted_text() {
        let panel = build(SEED, BASE, true, Default::default()).expect("shared");
        assert!(panel.offer.link.starts_with(BASE));
        assert_eq!(panel.offer.length, panel.offer.link.chars().count());
        let opened = link::decode(&panel.offer.link).expect("the link opens");
        assert_eq!(opened.text, redact::redact(SEED));
        assert!(panel.plain_text.contains("ConcurrentModificationException"));
        assert!(panel.markdown.contains("```"));
        assert_eq!(
            panel.digest_link.as_deref(),
            Some(panel.offer.link.as_str())
        );
        assert!(panel.plain_text.contains(&panel.offer.link));
    }

    #[test]
    fn secrets_never_reach_the_link_or_the_digests_when_redaction_is_on() {
        let text = format!(
            "{SEED}\nCaused by: java.net.ConnectException: Connection refused: kafka-1.prod.acme.com/10.1.2.3:9092\n\tat com.acme.Job.main(Job.java:12)\n"
        );
        let on = build(&text, BASE, true, Default::default()).expect("shared");
        assert!(on.redaction_count >= 2, "{:?}", on.preview);
        let opened = link::decode(&on.offer.link).expect("opens");
        for secret in ["10.1.2.3", "kafka-1.prod.acme.com"] {
            assert!(!opened.text.contains(secret), "{secret} in the link");
            assert!(!on.plain_text.contains(secret), "{secret} in the digest");
            assert!(!on.markdown.contains(secret), "{secret} in the Markdown");
            assert!(on.preview.iter().any(|p| p.original.contains(secret)));
        }
        let off = build(&text, BASE, false, Default::default()).expect("shared");
        assert!(link::decode(&off.offer.link)
            .expect("opens")
            .text
            .contains("10.1.2.3"));
        assert_eq!(
            off.redaction_count, on.redaction_count,
            "the preview shows what it would do"
        );
    }

    #[test]
    fn a_reply_with_the_shorter_link_says_what_it_leaves_out() {
        let text = format!(
            "{SEED}\n{}\n{}",
            include_str!("../../tests/cases/seed-log4j.txt"),
            include_str!("../../tests/cases/seed-rest.json")
        );
        let panel = build(&text, BASE, true, Default::default()).expect("shared");
        let shorter = panel.offer.shorter.as_ref().expect("a shorter link");
        assert_eq!(panel.digest_link.as_deref(), Some(shorter.link.as_str()));
        assert!(panel
            .plain_text
            .contains("The link holds a shortened text: it leaves out"));
        assert!(panel.markdown.contains("it leaves out"));
    }

    #[test]
    fn view_options_travel_in_the_link() {
        let options = link::ViewOptions {
            opened: vec!["t1-e0".into()],
            closed: vec!["t1-e2".into()],
            all_traces: false,
        };
        let panel = build(SEED, BASE, true, options.clone()).expect("shared");
        assert_eq!(
            link::decode(&panel.offer.link).expect("opens").options,
            options
        );
    }

    #[test]
    fn empty_and_huge_texts_are_not_shared_and_say_why() {
        assert_eq!(
            build("  \n", BASE, true, Default::default()),
            Err(NotShared::Empty)
        );
        let huge = "x".repeat(MAX_SHARE_BYTES + 1);
        let err = build(&huge, BASE, true, Default::default()).expect_err("too large");
        assert_eq!(err, NotShared::TooLarge(MAX_SHARE_BYTES + 1));
        // Just over the limit reads as over it, not as "1.0 MB … (up to 1 MB)" (tester round 3).
        assert!(err
            .to_string()
            .starts_with("This text is 1,000,001 bytes, over the 1,000,000 a link"));
    }
}
