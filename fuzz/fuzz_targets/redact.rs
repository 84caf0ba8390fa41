//! Redaction: any text. The redactions found are sorted, never overlap, never empty, never span
//! a line break and slice the text on char boundaries; applying them, the preview and the
//! summary never panic; the redacted text holds none of the values hidden.

#![no_main]

use libfuzzer_sys::fuzz_target;
use trace_doctor::redact;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let text = text.as_ref();
    let found = redact::find(text);
    let mut end = 0;
    for r in &found {
        let value = text
            .get(r.span.range())
            .unwrap_or_else(|| panic!("{:?} does not slice the text", r.span));
        assert!(!value.is_empty(), "an empty redaction");
        assert!(!value.contains('\n'), "a redaction across a line break");
        assert!(r.span.start >= end, "redactions overlap or are out of order");
        end = r.span.end;
    }
    let out = redact::apply(text, &found);
    let _ = redact::preview(text, &found);
    let _ = redact::summary(text, &found);
    // Every hidden value of 6 bytes or more is gone from the output, unless the text around
    // the redactions holds it too or a placeholder happens to spell it.
    for r in &found {
        let value = &text[r.span.range()];
        let spelled = found.iter().any(|x| x.replacement.contains(value));
        if value.len() >= 6 && !spelled && out.contains(value) {
            let elsewhere = text.match_indices(value).any(|(i, _)| {
                !found.iter().any(|x| x.span.start <= i && i + value.len() <= x.span.end)
            });
            assert!(elsewhere, "{value:?} is still in the redacted text");
        }
    }
});
