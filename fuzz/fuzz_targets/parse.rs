//! The parser alone, fast (the whole pipeline is `pipeline`): arbitrary bytes, read as the CLI
//! reads a file, through `parse::parse`. Nothing may panic, and every span must slice the
//! input on char boundaries.

#![no_main]

use libfuzzer_sys::fuzz_target;
use trace_doctor::span::Span;
use trace_doctor::{decode, parse};

fn check(input: &str, span: Span, what: &str) {
    assert!(
        input.get(span.range()).is_some(),
        "{what} span {span:?} does not slice the input ({} bytes)",
        input.len()
    );
}

fuzz_target!(|data: &[u8]| {
    let input = decode::bytes_to_text(data);
    let input = input.as_str();
    let parsed = parse::parse(input);
    for t in &parsed.traces {
        check(input, t.span, "trace");
        for th in &t.throwables {
            check(input, th.header_span, "throwable header");
            check(input, th.class_span, "throwable class");
            for f in &th.frames {
                check(input, f.span, "frame");
            }
        }
    }
    for p in &parsed.problems {
        check(input, p.span, "problem");
    }
});
