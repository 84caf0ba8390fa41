//! Throughput on a ~50 MB Flink TaskManager log (log4j2 lines, 2–5 % of them stack-trace lines),
//! generated in memory from a seed (`tests/support/flink_log.rs`): a plain memchr line count of
//! the same bytes as the floor, then `parse::parse`, then `diagnose`, then `redact::redact`
//! (find what to hide and write the redacted copy).
//!
//! Run: `cargo bench --bench throughput -- --noplot` (about 20 s once built). At the end it
//! prints the MB/s (MiB/s) of each and how parse and diagnose compare with the line count.

#[path = "../tests/support/flink_log.rs"]
mod flink_log;

use criterion::{criterion_group, criterion_main, Criterion, SamplingMode, Throughput};
use std::cell::RefCell;
use std::hint::black_box;
use std::time::{Duration, Instant};

const TARGET_BYTES: usize = 50 << 20;
const SEED: u64 = 0x5EED_F11C;

/// Per-iteration times seen by criterion, per benchmark (warm-up included), for the summary.
struct Seen {
    name: &'static str,
    times: Vec<Duration>,
}

fn timed<'a, O>(
    seen: &'a RefCell<Vec<Seen>>,
    slot: usize,
    input: &'a str,
    f: impl Fn(&str) -> O + 'a,
) -> impl FnMut(u64) -> Duration + 'a {
    move |iters| {
        let start = Instant::now();
        for _ in 0..iters {
            black_box(f(black_box(input)));
        }
        let elapsed = start.elapsed();
        let per_iter = Duration::from_secs_f64(elapsed.as_secs_f64() / iters.max(1) as f64);
        seen.borrow_mut()[slot].times.push(per_iter);
        elapsed
    }
}

fn count_lines(s: &str) -> usize {
    memchr::memchr_iter(b'\n', s.as_bytes()).count()
}

fn bench(c: &mut Criterion) {
    let t = Instant::now();
    let (log, stats) = flink_log::flink_log(TARGET_BYTES, SEED);
    let generated = t.elapsed();
    let mb = log.len() as f64 / (1024.0 * 1024.0);
    // Compile the rule catalogue once, outside the measurement; check what the log holds.
    let parsed = trace_doctor::parse::parse(&log);
    let diagnosis = trace_doctor::diagnose(&log);
    eprintln!(
        "input: {mb:.1} MB, {} lines, {} trace lines ({:.1} %), {} traces generated; \
         parse found {} traces ({} problems), diagnose {} distinct; generated in {generated:.2?}",
        stats.lines,
        stats.trace_lines,
        100.0 * stats.trace_lines as f64 / stats.lines as f64,
        stats.traces,
        parsed.traces.len(),
        parsed.problems.len(),
        diagnosis.traces.len(),
    );
    assert_eq!(count_lines(&log), stats.lines);
    drop((parsed, diagnosis));

    let seen = RefCell::new(vec![
        Seen {
            name: "memchr line count",
            times: Vec::new(),
        },
        Seen {
            name: "parse::parse",
            times: Vec::new(),
        },
        Seen {
            name: "diagnose",
            times: Vec::new(),
        },
        Seen {
            name: "redact",
            times: Vec::new(),
        },
    ]);
    {
        let mut group = c.benchmark_group("throughput");
        group
            .throughput(Throughput::Bytes(log.len() as u64))
            .sample_size(10)
            .sampling_mode(SamplingMode::Flat)
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(4));
        group.bench_function("memchr-lines", |b| {
            b.iter_custom(timed(&seen, 0, &log, count_lines))
        });
        group.bench_function("parse", |b| {
            b.iter_custom(timed(&seen, 1, &log, trace_doctor::parse::parse))
        });
        group.bench_function("diagnose", |b| {
            b.iter_custom(timed(&seen, 2, &log, trace_doctor::diagnose))
        });
        group.bench_function("redact", |b| {
            b.iter_custom(timed(&seen, 3, &log, trace_doctor::redact::redact))
        });
        group.finish();
    }

    // Summary: median per-iteration time of everything criterion ran.
    let seen = seen.into_inner();
    let rate: Vec<f64> = seen
        .iter()
        .map(|s| {
            let mut times = s.times.clone();
            times.sort();
            let median = times.get(times.len() / 2).copied().unwrap_or(Duration::MAX);
            mb / median.as_secs_f64()
        })
        .collect();
    eprintln!("\nthroughput on {mb:.1} MB of TaskManager log (median of all iterations):");
    for (s, r) in seen.iter().zip(&rate) {
        eprintln!(
            "  {:<18} {r:>9.1} MB/s  ({} timed samples)",
            s.name,
            s.times.len()
        );
    }
    eprintln!(
        "  parse/memchr    = {:.4} (memchr is {:.0}x faster)\n  diagnose/memchr = {:.4} (memchr is {:.0}x faster)",
        rate[1] / rate[0],
        rate[0] / rate[1],
        rate[2] / rate[0],
        rate[0] / rate[2],
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
