//! Parse and diagnose the flagship trace and each shared case; the reply digests of the
//! flagship (native).
//! Run: `cargo bench --bench diagnose`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::hint::black_box;

const CASES: &[(&str, &str)] = &[
    ("seed", include_str!("../tests/cases/seed.txt")),
    (
        "seed-quoted",
        include_str!("../tests/cases/seed-quoted.txt"),
    ),
    ("seed-log4j", include_str!("../tests/cases/seed-log4j.txt")),
    ("seed-rest", include_str!("../tests/cases/seed-rest.json")),
];

fn bench(c: &mut Criterion) {
    // Load and compile the rules once, outside the measurement.
    let _ = trace_doctor::rules::catalogue();
    let mut group = c.benchmark_group("diagnose");
    for (name, input) in CASES {
        group.throughput(Throughput::Bytes(input.len() as u64));
        group.bench_with_input(BenchmarkId::new("parse", name), input, |b, i| {
            b.iter(|| trace_doctor::parse::parse(black_box(i)))
        });
        group.bench_with_input(BenchmarkId::new("diagnose", name), input, |b, i| {
            b.iter(|| trace_doctor::diagnose(black_box(i)))
        });
    }
    group.finish();
    // The stages of `diagnose` on the flagship trace, apart.
    let seed = CASES[0].1;
    let parsed = trace_doctor::parse::parse(seed);
    let trace = &parsed.traces[0];
    let rules = trace_doctor::rules::catalogue();
    c.bench_function("stage/version-infer/seed", |b| {
        b.iter(|| trace_doctor::version::infer(black_box(trace), Some("2021-08-18 06:18:37")))
    });
    c.bench_function("stage/match-rules/seed", |b| {
        b.iter(|| trace_doctor::matcher::diagnose(black_box(trace), rules))
    });
    c.bench_function("stage/context/seed", |b| {
        b.iter(|| trace_doctor::context::read(black_box(seed), trace, 0))
    });
    // Sharing: redaction, the link, and the whole Share panel.
    c.bench_function("share/redact/seed", |b| {
        b.iter(|| trace_doctor::redact::redact(black_box(seed)))
    });
    c.bench_function("share/panel/seed", |b| {
        b.iter(|| {
            trace_doctor::sharing::build(
                black_box(seed),
                "https://x.test/",
                true,
                Default::default(),
            )
        })
    });
    // The reply digests of the flagship trace, from its report (what the page's copy buttons do).
    let report = trace_doctor::report::build(seed, &trace_doctor::diagnose(seed));
    c.bench_function("digest/plain-text/seed", |b| {
        b.iter(|| trace_doctor::digest::plain_text(black_box(&report), Some("https://x.test/#s")))
    });
    c.bench_function("digest/markdown/seed", |b| {
        b.iter(|| trace_doctor::digest::markdown(black_box(&report), Some("https://x.test/#s")))
    });
    c.bench_function("rules/compile-catalogue", |b| {
        b.iter(|| {
            trace_doctor::rules::bundled_json()
                .map(|json| {
                    let def: trace_doctor::rules::schema::RuleDef =
                        serde_json::from_str(json).expect("bundled rules parse");
                    trace_doctor::rules::Rule::compile(def)
                })
                .count()
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
