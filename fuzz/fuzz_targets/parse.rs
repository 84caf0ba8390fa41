//! The parser alone, fast (the whole pipeline is `pipeline`): arbitrary bytes, read as the CLI
//! reads a file, through `parse::parse`. Nothing may panic, and every span (traces, problems,
//! deadlocks) must slice the input on char boundaries.

#![no_main]

use libfuzzer_sys::fuzz_target;
use trace_doctor::{decode, parse};

#[path = "spans.rs"]
mod spans;
use spans::check_parsed;

fuzz_target!(|data: &[u8]| {
    let input = decode::bytes_to_text(data);
    let input = input.as_str();
    check_parsed(input, &parse::parse(input));
});
