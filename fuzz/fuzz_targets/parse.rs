//! The parser alone, fast (the whole pipeline is `pipeline`): arbitrary bytes, read as the CLI
//! reads a file, through `parse::parse`. Nothing may panic, and every span must slice the
//! input on char boundaries.

#![no_main]

use libfuzzer_sys::fuzz_target;
use trace_doctor::{decode, parse};

#[path = "spans.rs"]
mod spans;
use spans::check_trace;

fuzz_target!(|data: &[u8]| {
    let input = decode::bytes_to_text(data);
    let input = input.as_str();
    let parsed = parse::parse(input);
    for t in &parsed.traces {
        check_trace(input, t);
    }
    for p in &parsed.problems {
        spans::check(input, p.span, "problem");
    }
});
