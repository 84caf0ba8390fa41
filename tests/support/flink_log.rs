//! A deterministic generator of a realistic Flink TaskManager log (log4j2 pattern layout) with
//! stack traces sprinkled in, built in memory from a seed. Shared by `benches/throughput.rs`
//! and `tests/pathological.rs` (each includes it with `#[path]`; it is not a test on its own).
//!
//! About 2–5 % of the lines belong to stack traces of several shapes: a trace starting mid-line
//! after "with failure cause: ", a trace on the line after an ERROR line, `Caused by:` chains
//! with `... N more`, `Suppressed:` blocks, hard-wrapped messages, Java 11 module frames.
//! Frames are taken from the shared cases (`tests/cases/*.txt`) and get log4j2's extended
//! `~[flink-dist_2.12-1.15.4.jar:1.15.4]` suffixes the way log4j2 prints them.

#![allow(dead_code)]

use std::fmt::Write;

/// splitmix64: small, fast, deterministic; good enough to vary a log.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }

    /// True with probability `per_mille / 1000`.
    pub fn chance(&mut self, per_mille: usize) -> bool {
        self.below(1000) < per_mille
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    pub fn hex(&mut self, out: &mut String, digits: usize) {
        for _ in 0..digits {
            let d = self.below(16) as u32;
            out.push(char::from_digit(d, 16).unwrap_or('0'));
        }
    }
}

/// The shared cases whose frames feed the generator (plain text: no quoting, no HTML).
const CASES: &[&str] = &[
    include_str!("../cases/seed.txt"),
    include_str!("../cases/lookalike-broadcast.txt"),
    include_str!("../cases/lookalike-chaining.txt"),
    include_str!("../cases/negative-spark-kryo.txt"),
    include_str!("../cases/negative-user-cme.txt"),
];

/// Runs of consecutive frames (the text after `at `, log4j2 suffix removed) of the cases: each
/// run is the printed frames of one throwable, innermost first.
pub fn frame_runs() -> Vec<Vec<String>> {
    let mut runs = Vec::new();
    for case in CASES {
        let mut run: Vec<String> = Vec::new();
        for line in case.lines() {
            match line.trim().strip_prefix("at ") {
                Some(frame) if frame.contains('(') => {
                    let frame = match frame.find(" ~[").or_else(|| frame.find(" [")) {
                        Some(i) => &frame[..i],
                        None => frame,
                    };
                    run.push(frame.to_owned());
                }
                _ => {
                    if run.len() >= 3 {
                        runs.push(std::mem::take(&mut run));
                    }
                    run.clear();
                }
            }
        }
        if run.len() >= 3 {
            runs.push(run);
        }
    }
    assert!(runs.len() >= 5, "the shared cases hold frame runs");
    runs
}

const LOGGERS: &[&str] = &[
    "org.apache.flink.runtime.taskmanager.Task",
    "org.apache.flink.runtime.taskexecutor.TaskExecutor",
    "org.apache.flink.runtime.taskexecutor.slot.TaskSlotTableImpl",
    "org.apache.flink.streaming.runtime.tasks.StreamTask",
    "org.apache.flink.runtime.state.heap.HeapKeyedStateBackendBuilder",
    "org.apache.flink.contrib.streaming.state.RocksDBKeyedStateBackendBuilder",
    "org.apache.flink.runtime.checkpoint.channel.ChannelStateWriteRequestExecutorImpl",
    "org.apache.flink.connector.kafka.source.reader.KafkaSourceReader",
    "org.apache.kafka.clients.consumer.internals.ConsumerCoordinator",
    "org.apache.flink.runtime.io.network.netty.NettyPartitionRequestClient",
    "org.apache.flink.runtime.taskexecutor.DefaultJobLeaderService",
    "org.apache.flink.runtime.state.TaskExecutorLocalStateStoresManager",
];

const OPERATORS: &[&str] = &[
    "Source: kafka-events -> Filter -> Map",
    "ual_transform_UserLogBlackUidJudger -> ual_transform_IpLabel",
    "Window(TumblingEventTimeWindows(60000), EventTimeTrigger, AggregateFunction$1, PassThroughWindowFunction)",
    "async-enrich -> Sink: kafka-out",
    "KeyedProcess -> Timestamps/Watermarks",
    "rules-join -> alerts",
];

const STATES: &[(&str, &str)] = &[
    ("CREATED", "DEPLOYING"),
    ("DEPLOYING", "INITIALIZING"),
    ("INITIALIZING", "RUNNING"),
    ("RUNNING", "CANCELING"),
    ("CANCELING", "CANCELED"),
];

/// Exceptions a trace may start with (class, message template; `{cp}` is a checkpoint id).
const TOP: &[(&str, &str)] = &[
    (
        "java.io.IOException",
        "Could not perform checkpoint {cp} for operator {task}.",
    ),
    (
        "org.apache.flink.streaming.runtime.tasks.ExceptionInChainedOperatorException",
        "Could not forward element to next operator",
    ),
    (
        "org.apache.flink.runtime.checkpoint.CheckpointException",
        "Asynchronous task checkpoint failed.",
    ),
    (
        "java.lang.RuntimeException",
        "Error while processing record {cp}",
    ),
    (
        "org.apache.kafka.common.errors.TimeoutException",
        "Timeout of 60000ms expired before the position for partition events-{cp} could be determined",
    ),
];

const CAUSES: &[(&str, &str)] = &[
    ("java.util.ConcurrentModificationException", ""),
    ("java.lang.NullPointerException", ""),
    (
        "com.esotericsoftware.kryo.KryoException",
        "java.lang.IndexOutOfBoundsException: Index: 97, Size: 14",
    ),
    (
        "java.lang.IllegalStateException",
        "Buffer pool is destroyed.",
    ),
    (
        "org.apache.flink.runtime.checkpoint.CheckpointException",
        "Could not complete snapshot {cp} for operator {task}. Failure reason: Checkpoint was declined.",
    ),
];

/// What the generator produced, to check the 2–5 % target.
#[derive(Clone, Copy, Debug, Default)]
pub struct Stats {
    pub lines: usize,
    pub trace_lines: usize,
    pub traces: usize,
}

struct Gen {
    rng: Rng,
    runs: Vec<Vec<String>>,
    out: String,
    stats: Stats,
    millis: u64,
}

impl Gen {
    fn timestamp(&mut self) {
        self.millis += self.rng.below(40) as u64;
        let ms = self.millis % 1000;
        let s = self.millis / 1000;
        let (h, m, s) = ((6 + s / 3600) % 24, (18 + s / 60) % 60, (37 + s) % 60);
        let day = 18 + (self.millis / 86_400_000) % 10;
        let _ = write!(self.out, "2021-08-{day:02} {h:02}:{m:02}:{s:02},{ms:03} ");
    }

    fn prefix(&mut self, level: &str, logger: &str) {
        self.timestamp();
        let _ = write!(self.out, "{level:<5} {logger:<60} [] - ");
    }

    fn task(&mut self) -> String {
        let op = *self.rng.pick(OPERATORS);
        let p = *self.rng.pick(&[4usize, 8, 16, 60, 128]);
        let s = self.rng.range(1, p);
        let a = self.rng.below(3);
        format!("{op} ({s}/{p})#{a}")
    }

    fn id(&mut self) -> String {
        let mut s = String::with_capacity(32);
        self.rng.hex(&mut s, 32);
        s
    }

    /// One ordinary (non-trace) log line.
    fn plain_line(&mut self) {
        let level = match self.rng.below(100) {
            0..=84 => "INFO",
            85..=94 => "DEBUG",
            _ => "WARN",
        };
        let logger = *self.rng.pick(LOGGERS);
        self.prefix(level, logger);
        let cp = self.rng.range(1, 20_000);
        match self.rng.below(10) {
            0 | 1 => {
                let (a, b) = *self.rng.pick(STATES);
                let (task, id) = (self.task(), self.id());
                let _ = write!(self.out, "{task} ({id}) switched from {a} to {b}.");
            }
            2 => {
                let (task, id) = (self.task(), self.id());
                let _ = write!(
                    self.out,
                    "Loading JAR files for task {task} ({id}) [DEPLOYING]."
                );
            }
            3 => {
                let (task, id, slot) = (self.task(), self.id(), self.id());
                let _ = write!(
                    self.out,
                    "Received task {task} ({id}), deploy into slot with allocation id {slot}."
                );
            }
            4 => {
                let (job, h) = (self.id(), self.id());
                let _ = write!(
                    self.out,
                    "Finished restoring from state handle: KeyGroupsStateHandle{{groupRangeOffsets=KeyGroupRangeOffsets{{keyGroupRange=KeyGroupRange{{startKeyGroup=0, endKeyGroup=127}}}}, stateHandle=File State: hdfs://namenode:8020/flink/checkpoints/{job}/chk-{cp}/{h} [{} bytes]}}.",
                    self.rng.range(1000, 90_000_000)
                );
            }
            5 => {
                let n = self.rng.below(64);
                let _ = write!(
                    self.out,
                    "[Consumer clientId=consumer-enrich-{n}, groupId=enrich] Seeking to offset {} for partition events-{}",
                    self.rng.range(0, 1 << 40),
                    self.rng.below(32)
                );
            }
            6 => {
                let (task, id) = (self.task(), self.id());
                let _ = write!(self.out, "Freeing task resources for {task} ({id}).");
            }
            7 => {
                let job = self.id();
                let _ = write!(
                    self.out,
                    "Checkpoint {cp} of job {job} acknowledged, sync duration {} ms, async duration {} ms.",
                    self.rng.below(200),
                    self.rng.below(5000)
                );
            }
            8 => {
                let _ = write!(
                    self.out,
                    "Using application-defined state backend: EmbeddedRocksDBStateBackend{{, localRocksDbDirectories=null, enableIncrementalCheckpointing=TRUE, numberOfTransferThreads={}, writeBatchSize=2097152}}",
                    self.rng.range(1, 8)
                );
            }
            _ => {
                let (task, id) = (self.task(), self.id());
                let _ = write!(
                    self.out,
                    "Un-registering task and sending final execution state FINISHED to JobManager for task {task} {id}."
                );
            }
        }
        self.out.push('\n');
        self.stats.lines += 1;
    }

    /// The log4j2 extended-info suffix for a frame.
    fn suffix(&mut self, frame: &str) -> &'static str {
        if frame.starts_with("org.apache.flink.") || frame.starts_with("com.esotericsoftware.") {
            " ~[flink-dist_2.12-1.15.4.jar:1.15.4]"
        } else if frame.starts_with("java.") || frame.starts_with("sun.") {
            if self.rng.chance(500) {
                " [?:1.8.0_292]"
            } else {
                " ~[?:1.8.0_292]"
            }
        } else if frame.starts_with("org.apache.kafka.") {
            " ~[blob_p-3f2a-kafka-clients-2.8.1.jar:?]"
        } else {
            " ~[job.jar:?]"
        }
    }

    /// Prints `count` frames from a random run, with log4j2 suffixes (and sometimes Java 11
    /// module prefixes). Returns how many were printed.
    fn frames(&mut self, indent: &str, count: usize, java11: bool) -> usize {
        let run = self.rng.below(self.runs.len());
        let len = self.runs[run].len();
        let count = count.min(len);
        let from = self.rng.below(len - count + 1);
        for k in from..from + count {
            let frame = self.runs[run][k].clone();
            let module = if java11 && frame.starts_with("java.") {
                "java.base/"
            } else {
                ""
            };
            let suffix = if java11 && !module.is_empty() {
                " ~[?:?]"
            } else {
                self.suffix(&frame)
            };
            let _ = writeln!(self.out, "{indent}at {module}{frame}{suffix}");
            self.stats.trace_lines += 1;
            self.stats.lines += 1;
        }
        count
    }

    fn fill(&mut self, template: &str) -> String {
        let cp = self.rng.range(1, 20_000).to_string();
        let task = self.task();
        template.replace("{cp}", &cp).replace("{task}", &task)
    }

    fn header(&mut self, class: &str, message: &str) {
        if message.is_empty() {
            let _ = writeln!(self.out, "{class}");
        } else {
            let _ = writeln!(self.out, "{class}: {message}");
        }
    }

    /// `Caused by:` throwables with frames and `... N more` (N never above what the enclosing
    /// throwable printed, as Java prints it).
    fn causes(&mut self, mut enclosing: usize, java11: bool) {
        for _ in 0..self.rng.below(3) {
            let (class, msg) = *self.rng.pick(CAUSES);
            let msg = self.fill(msg);
            let wrapped = !msg.is_empty() && self.rng.chance(150);
            if wrapped {
                // A message hard-wrapped onto the next line (as CheckpointException prints).
                let _ = writeln!(self.out, "Caused by: {class}:\n{msg}");
                self.stats.trace_lines += 2;
                self.stats.lines += 2;
            } else {
                self.out.push_str("Caused by: ");
                self.header(class, &msg);
                self.stats.trace_lines += 1;
                self.stats.lines += 1;
            }
            let n = self.rng.range(3, 18);
            let printed = self.frames("\t", n, java11);
            let more = self.rng.below(enclosing + 1);
            if more > 0 {
                let _ = writeln!(self.out, "\t... {more} more");
                self.stats.trace_lines += 1;
                self.stats.lines += 1;
            }
            enclosing = printed + more;
        }
    }

    fn suppressed(&mut self, enclosing: usize) {
        let _ = writeln!(
            self.out,
            "\tSuppressed: java.io.IOException: Stream closed."
        );
        self.stats.trace_lines += 1;
        self.stats.lines += 1;
        let n = self.rng.range(2, 6);
        self.frames("\t\t", n, false);
        let more = self.rng.below(enclosing + 1);
        let _ = writeln!(self.out, "\t\t... {more} more");
        self.stats.trace_lines += 1;
        self.stats.lines += 1;
    }

    /// One stack trace of a random shape.
    fn trace(&mut self) {
        self.stats.traces += 1;
        let java11 = self.rng.chance(200);
        let (class, msg) = *self.rng.pick(TOP);
        let msg = self.fill(msg);
        match self.rng.below(4) {
            0 | 1 => {
                // Mid-line: the Task's state change, then the trace on the same line.
                self.prefix("WARN", "org.apache.flink.runtime.taskmanager.Task");
                let (task, id) = (self.task(), self.id());
                let _ = write!(
                    self.out,
                    "{task} ({id}) switched from RUNNING to FAILED with failure cause: "
                );
            }
            2 => {
                // An ERROR line, the trace on the next line.
                self.prefix(
                    "ERROR",
                    "org.apache.flink.streaming.runtime.tasks.StreamTask",
                );
                self.out
                    .push_str("Error during disposal of stream operator.\n");
                self.stats.lines += 1;
            }
            _ => {
                self.prefix("INFO", "org.apache.flink.runtime.taskmanager.Task");
                let (task, id) = (self.task(), self.id());
                let _ = writeln!(
                    self.out,
                    "{task} ({id}) switched from RUNNING to CANCELING due to failure:"
                );
                self.stats.lines += 1;
            }
        }
        self.header(class, &msg);
        self.stats.trace_lines += 1;
        self.stats.lines += 1;
        let n = self.rng.range(4, 28);
        let printed = self.frames("\t", n, java11);
        if self.rng.chance(150) {
            self.suppressed(printed);
        }
        self.causes(printed, java11);
    }
}

/// About `target_bytes` of TaskManager log (it stops at the first line past the target).
/// Deterministic for a given `seed`.
pub fn flink_log(target_bytes: usize, seed: u64) -> (String, Stats) {
    let mut g = Gen {
        rng: Rng::new(seed),
        runs: frame_runs(),
        out: String::with_capacity(target_bytes + 16 * 1024),
        stats: Stats::default(),
        millis: 0,
    };
    while g.out.len() < target_bytes {
        // ~1 trace per 700 plain lines; a trace is ~5–60 lines: 2–5 % of the lines.
        if g.rng.below(700) == 0 {
            g.trace();
        } else {
            g.plain_line();
        }
    }
    (g.out, g.stats)
}
