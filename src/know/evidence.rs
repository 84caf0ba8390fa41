//! Flink evidence: what in a trace and in the log lines right around it shows that it comes
//! from Apache Flink, with where it was seen. The platform gate (`platform = "flink"` rules)
//! opens on any of it, and "Why this rule matched" shows the first.
//!
//! What counts: a frame or throwable class under `org.apache.flink.`; a message naming a Flink
//! class; a message only Flink prints; a Flink configuration key (`taskmanager.memory.*`, …);
//! a jar suffix naming a Flink jar (`[flink-dist-1.17.1.jar:1.17.1]`); and, on the trace's
//! first line and the log line just above it (the line that printed the trace), a logger or
//! class name under `org.apache.flink.`, a `flink:<version>` image, or a Docker Compose or
//! Kubernetes prefix naming a `jobmanager`/`taskmanager` container. Nothing further away counts,
//! so a Spark trace pasted under a Flink log stays Spark's.
//!
//! The messages and keys were checked in the release jars of 1.13.6, 1.17.2, 1.20.3, 2.0.1 and
//! 2.3.0 (`scripts/jar-strings.py` lists their string constants): each is a string constant
//! of a Flink class in all five, unless its comment says otherwise.

use crate::model::Trace;
use crate::span::Span;
use serde::Serialize;

/// What kind of evidence was seen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum EvidenceKind {
    /// A frame of a Flink class.
    Frame,
    /// A throwable of a Flink class.
    Class,
    /// A message naming a Flink class or an `akka.tcp://flink@` / `pekko.tcp://flink@` address.
    MessageNamesFlink,
    /// A message only Flink prints.
    FlinkMessage,
    /// A Flink configuration key.
    ConfigKey,
    /// A jar suffix naming a Flink jar.
    Jar,
    /// A log line whose logger (or text) names a Flink class, on or just above the trace.
    Logger,
    /// A Docker or Kubernetes prefix naming a Flink image or a JobManager/TaskManager container.
    Container,
    /// The SQL Client's error line above frameless exceptions.
    SqlClient,
    /// A thread named as Flink names a task's thread: `Map -> Sink: Print (1/2)#0`.
    TaskThread,
    /// A Kubernetes API path naming a resource after Flink
    /// (`/api/v1/namespaces/default/services/flink-session-cluster-rest`).
    KubernetesResource,
}

/// One piece of evidence.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Evidence {
    /// What it is.
    pub kind: EvidenceKind,
    /// What was seen, as printed (clipped to 120 characters).
    pub text: String,
    /// Where, in the original input (byte offsets).
    pub span: Span,
}

impl Evidence {
    /// In words, for "Why this rule matched": "a log line from `org.apache.flink.runtime…`".
    pub fn describe(&self) -> String {
        let what = match self.kind {
            EvidenceKind::Frame => "a Flink frame",
            EvidenceKind::Class => "a Flink exception class",
            EvidenceKind::MessageNamesFlink => "a message naming Flink",
            EvidenceKind::FlinkMessage => "a message only Flink prints",
            EvidenceKind::ConfigKey => "a Flink configuration key",
            EvidenceKind::Jar => "a Flink jar",
            EvidenceKind::Logger => "a Flink log line",
            EvidenceKind::Container => "a Flink container",
            EvidenceKind::SqlClient => "the Flink SQL Client's error line",
            EvidenceKind::TaskThread => "a thread named as Flink names a task's",
            EvidenceKind::KubernetesResource => "a Kubernetes resource named after Flink",
        };
        format!("{what}: {}", self.quoted())
    }

    /// What it is, as printed and clipped, in a code span: `` `taskmanager.memory.size` ``.
    pub fn quoted(&self) -> String {
        format!("`{}`", clip(&self.text))
    }

    /// [`Evidence::describe`] with the 1-based input line: "a Flink log line: `…` (line 12)".
    pub fn describe_at(&self, index: &crate::span::LineIndex) -> String {
        format!(
            "{} (line {})",
            self.describe(),
            index.line_of(self.span.start)
        )
    }
}

/// Messages only Flink prints (substrings of its string constants), with the releases whose
/// jars hold them.
pub const FLINK_MESSAGES: &[&str] = &[
    // NetworkBufferPool, 1.13.6–2.3.0.
    "Insufficient number of network buffers",
    "Could not allocate enough memory segments for NetworkBufferPool",
    // HeartbeatMonitorImpl / JobMaster / ResourceManager, 1.13.6–2.3.0 ("The heartbeat of
    // TaskManager with id … timed out." from 1.15; "Heartbeat of TaskManager with id" before).
    "Heartbeat of TaskManager with id",
    "heartbeat of TaskManager with id",
    "heartbeat of JobManager with id",
    "heartbeat of ResourceManager with id",
    // DefaultScheduler / slot pool.
    "Could not acquire the minimum required resources",
    "Slot request bulk is not fulfillable",
    "Could not allocate the required slot within slot request timeout",
    // CheckpointFailureManager / CheckpointFailureReason.
    "Exceeded checkpoint tolerable failure threshold",
    "Checkpoint expired before completing",
    "Checkpoint was declined",
    "Could not perform checkpoint",
    "Could not complete snapshot",
    "Could not materialize checkpoint",
    // FileSystem.
    "Could not find a file system implementation for scheme",
    // ExecutionFailureHandler.
    "Recovery is suppressed by",
    // NettyPartitionRequestClient / CreditBasedPartitionRequestClientHandler.
    "Connection unexpectedly closed by remote task manager",
    "Lost connection to task manager",
    // Task / StreamTask.
    "Could not forward element to next operator",
    "Task did not exit gracefully within",
    "The TaskExecutor is shutting down",
    // YarnClusterDescriptor ("Could not deploy Yarn job cluster" only up to 1.20: per-job mode
    // is gone in 2.0).
    "Could not deploy Yarn job cluster",
    "Couldn't deploy Yarn session cluster",
    // PyFlink: ProcessPythonEnvironmentManager / PythonDriver (1.13.6–2.3.0).
    "Failed to create stage bundle factory",
    "Python process exits with code",
    // Executors, planner, factories.
    "No ExecutorFactory found to execute the application",
    "Could not find any factory for identifier",
    // The planner's FlinkChangelogModeInferenceProgram builds it from parts (` doesn't support
    // consuming `, the change kind — `update`, `delete`, `update and delete` —, ` changes which is
    // produced by node `): the last part is a string constant of FlinkChangelogModeInferenceProgram
    // in the planner jars of 1.13.6, 1.17.2, 1.20.3, 2.0.1 and 2.3.0.
    " changes which is produced by node ",
    "Could not instantiate the executor. Make sure a planner module is on the classpath",
    // Checkpoints (restoring a savepoint into a changed job), 1.13.6–2.3.0.
    "Cannot map checkpoint/savepoint state for operator",
    "Failed to rollback to checkpoint/savepoint",
    // The event-time window assigners (1.13.6–2.3.0; the question after it changed in 2.0).
    "Record has Long.MIN_VALUE timestamp (= no timestamp marker)",
    // KeyGroupRangeAssignment / the state backends' key-group checks (1.13.6–2.3.0).
    "most likely caused by non-deterministic shuffle key",
    // FlinkUserCodeClassLoaders.SafetyNetWrapperClassLoader.
    "Trying to access closed classloader. Please check if you store classloaders",
    // HadoopRecoverableWriter ("Recoverable writers on Hadoop are only supported for HDFS", also
    // retyped "onHadoop") and FileSystem.createRecoverableWriter ("This file system does not
    // support recoverable writers."), 1.13.6–2.3.0; the S3 plugins' "This s3 file system
    // implementation does not support recoverable writers.".
    "Recoverable writers on",
    "does not support recoverable writers",
    // Metaspace / direct memory enrichment (TaskManagerExceptionUtils / ExceptionUtils).
    "The metaspace out-of-memory error has occurred",
    "The direct out-of-memory error has occurred",
];

/// Configuration key prefixes only Flink uses.
const CONFIG_KEYS: &[&str] = &[
    // Every `taskmanager.*` and `jobmanager.*` key (`taskmanager.memory.process.size`,
    // `taskmanager.log.path`, `jobmanager.rpc.address`): no other JVM software uses them.
    "taskmanager.",
    "jobmanager.",
    "state.backend",
    "state.checkpoints.dir",
    "state.savepoints.dir",
    "execution.checkpointing.",
    "high-availability.storageDir",
    "high-availability.cluster-id",
    "kubernetes.cluster-id",
    "kubernetes.jobmanager.",
    "kubernetes.taskmanager.",
    "table.exec.",
    "table.optimizer.",
    "pipeline.classpaths",
    "classloader.resolve-order",
    "classloader.check-leaked-classloader",
    "restart-strategy.",
    "akka.ask.timeout",
    "pekko.ask.timeout",
    "heartbeat.timeout",
    "slot.request.timeout",
    "yarn.application-attempts",
    "python.executable",
    "python.fn-execution.",
];

fn clip(s: &str) -> String {
    match s.char_indices().nth(120) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_owned(),
    }
}

/// `Map -> Sink: Print (1/2)#0`: a name, ` (`, subtask `/` parallelism, `)#`, the attempt —
/// how Flink names a task's thread since 1.11 (FLINK-16620).
fn is_task_thread_name(name: &str) -> bool {
    let Some((head, attempt)) = name.rsplit_once(")#") else {
        return false;
    };
    let Some((_, counts)) = head.rsplit_once(" (") else {
        return false;
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    digits(attempt)
        && counts
            .split_once('/')
            .is_some_and(|(a, b)| digits(a) && digits(b))
}

/// The first piece of evidence from the trace's own throwables, frames and messages.
fn in_trace(trace: &Trace) -> Option<Evidence> {
    const FLINK: &str = "org.apache.flink.";
    if let Some(th) = trace
        .thread
        .as_ref()
        .filter(|th| is_task_thread_name(&th.name))
    {
        return Some(Evidence {
            kind: EvidenceKind::TaskThread,
            text: clip(&th.name),
            span: th.header_span,
        });
    }
    for t in &trace.throwables {
        if t.class.starts_with(FLINK) {
            return Some(Evidence {
                kind: EvidenceKind::Class,
                text: t.class.clone(),
                span: t.class_span,
            });
        }
    }
    for t in &trace.throwables {
        if let Some(f) = t.frames.iter().find(|f| f.class.starts_with(FLINK)) {
            return Some(Evidence {
                kind: EvidenceKind::Frame,
                text: f.qualified_method(),
                span: f.span,
            });
        }
        if let Some(f) = t
            .frames
            .iter()
            .find(|f| f.jar.as_deref().is_some_and(|j| j.starts_with("flink-")))
        {
            return Some(Evidence {
                kind: EvidenceKind::Jar,
                text: f.jar.clone().unwrap_or_default(),
                span: f.span,
            });
        }
    }
    for t in &trace.throwables {
        let Some(m) = t.message.as_deref() else {
            continue;
        };
        let found = [
            FLINK,
            "org/apache/flink/",
            "akka.tcp://flink@",
            "pekko.tcp://flink@",
            "akka://flink/",
            "pekko://flink/",
        ]
        .iter()
        .find(|p| m.contains(*p));
        if let Some(p) = found {
            return Some(Evidence {
                kind: EvidenceKind::MessageNamesFlink,
                text: clip(&m[m.find(p).unwrap_or(0)..]),
                span: t.header_span,
            });
        }
        if let Some(p) = FLINK_MESSAGES.iter().find(|p| m.contains(*p)) {
            return Some(Evidence {
                kind: EvidenceKind::FlinkMessage,
                text: (*p).to_owned(),
                span: t.header_span,
            });
        }
        if let Some(k) = config_key(m) {
            return Some(Evidence {
                kind: EvidenceKind::ConfigKey,
                text: k.to_owned(),
                span: t.header_span,
            });
        }
    }
    None
}

/// The first Flink configuration key in `s`, as written there.
fn config_key(s: &str) -> Option<&str> {
    CONFIG_KEYS.iter().find_map(|k| {
        let at = s.find(k)?;
        // `xstate.backend` is not the key; the character before must not be part of a name.
        let before_ok = s[..at]
            .chars()
            .next_back()
            .is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '.' || c == '-' || c == '_'));
        let len = s[at..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_')))
            .unwrap_or(s.len() - at);
        let key = s[at..at + len].trim_end_matches('.');
        // A prefix (`taskmanager.`) must go on with a name: `taskmanager.x`, not `taskmanager.`.
        (before_ok && (!k.ends_with('.') || key.len() >= k.len())).then_some(key)
    })
}

/// How far before a trace's header the log prefix and the line above are read (bytes).
const REGION_BYTES: usize = 4096;
/// Container prefixes are looked for in this many of the trace's first lines…
const PREFIX_LINES: usize = 8;
/// …within this many bytes each, on average.
const PREFIX_BYTES: usize = 400;

/// Start of the line holding byte `at` (any byte offset: inside a character, the character's
/// line). Looks back at most [`REGION_BYTES`]: a longer line starts, for this purpose, there
/// (on a char boundary, not after a line break).
fn line_start(input: &str, at: usize) -> usize {
    let at = crate::span::floor_char_boundary(input, at.min(input.len()));
    let lo = crate::span::floor_char_boundary(input, at.saturating_sub(REGION_BYTES));
    input[lo..at].rfind('\n').map_or(lo, |i| lo + i + 1)
}

/// Evidence from the log lines right around the trace: the trace's first line (a log prefix
/// before the header) and the line just above it, and each line's prefix within the trace
/// (Docker Compose, Kubernetes).
fn around(input: &str, trace: &Trace, above_from: usize) -> Option<Evidence> {
    let start = trace.span.start.min(input.len());
    let above_from = if above_from <= start {
        crate::span::floor_char_boundary(input, above_from)
    } else {
        0
    };
    let first_line = line_start(input, start).max(above_from);
    // A line above only when the trace's line really starts after a line break (not where
    // `line_start` stopped looking back, possibly after half of a character), and not inside
    // the trace before.
    let above = if first_line > above_from && input.as_bytes()[first_line - 1] == b'\n' {
        let prev = line_start(input, first_line - 1).max(above_from);
        let text = &input[prev..first_line - 1];
        (!text.trim().is_empty()).then_some(prev)
    } else {
        None
    };
    // The region: the line above, and the first line up to where the header starts; at most
    // REGION_BYTES before the header (a log prefix and its line), so that many traces on one
    // huge line cost linear time.
    let from = crate::span::floor_char_boundary(
        input,
        above
            .unwrap_or(first_line)
            .max(start.saturating_sub(REGION_BYTES)),
    );
    let region = &input[from..start];
    let mut found = scan_log_text(region, from);
    if found.is_none() {
        // Container prefixes on the trace's own lines (`taskmanager_1  | …`): the first
        // PREFIX_BYTES of each of its first PREFIX_LINES lines.
        let end = crate::span::floor_char_boundary(
            input,
            trace
                .span
                .end
                .min(input.len())
                .min(first_line + PREFIX_LINES * PREFIX_BYTES),
        );
        found = container_prefix(&input[first_line.min(end)..end], first_line.min(end));
    }
    found
}

fn scan_log_text(region: &str, offset: usize) -> Option<Evidence> {
    if let Some(at) = region.find("org.apache.flink.") {
        let len = region[at..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '$' | '_')))
            .unwrap_or(region.len() - at);
        return Some(Evidence {
            kind: EvidenceKind::Logger,
            text: region[at..at + len].to_owned(),
            span: Span::new(offset + at, offset + at + len),
        });
    }
    if let Some(at) = region.find("Could not execute SQL statement. Reason:") {
        return Some(Evidence {
            kind: EvidenceKind::SqlClient,
            text: "Could not execute SQL statement. Reason:".to_owned(),
            span: Span::new(offset + at, offset + at + 40),
        });
    }
    if let Some(k) = config_key(region) {
        let at = region.find(k).unwrap_or(0);
        return Some(Evidence {
            kind: EvidenceKind::ConfigKey,
            text: k.to_owned(),
            span: Span::new(offset + at, offset + at + k.len()),
        });
    }
    if let Some(p) = FLINK_MESSAGES.iter().find(|p| region.contains(*p)) {
        let at = region.find(p).unwrap_or(0);
        return Some(Evidence {
            kind: EvidenceKind::FlinkMessage,
            text: (*p).to_owned(),
            span: Span::new(offset + at, offset + at + p.len()),
        });
    }
    container_prefix(region, offset)
}

/// `flink:1.17`, `apache/flink:…` images; Docker Compose service prefixes
/// (`jobmanager_1  | `, `flink-taskmanager-1  | `); Kubernetes pod names
/// (`flink-taskmanager-6c9f…`, `…-taskmanager-1-1`).
fn container_prefix(text: &str, offset: usize) -> Option<Evidence> {
    if let Some(e) = kubernetes_resource(text, offset) {
        return Some(e);
    }
    for (at, _) in text.match_indices("flink:") {
        let rest = &text[at + 6..];
        if rest.bytes().next().is_some_and(|b| b.is_ascii_digit()) {
            let len = 6 + rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_')))
                .unwrap_or(rest.len());
            return Some(Evidence {
                kind: EvidenceKind::Container,
                text: text[at..at + len].to_owned(),
                span: Span::new(offset + at, offset + at + len),
            });
        }
    }
    for line_at in std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)) {
        let line = &text[line_at..];
        let line = &line[..line.find('\n').unwrap_or(line.len())];
        let Some(bar) = line.find(" | ").or_else(|| line.find("  |")) else {
            continue;
        };
        let name = line[..bar].trim();
        let lower = name.to_ascii_lowercase();
        // Compose names containers `<project>-<service>-<n>` (v2) or `<project>_<service>_<n>`
        // (v1): `deploy-flink-jobmanager-1`, `taskmanager_1`.
        let service = !name.contains(' ')
            && lower
                .split(['-', '_'])
                .any(|part| part == "jobmanager" || part == "taskmanager");
        if service {
            let at = line_at + line.find(name).unwrap_or(0);
            return Some(Evidence {
                kind: EvidenceKind::Container,
                text: name.to_owned(),
                span: Span::new(offset + at, offset + at + name.len()),
            });
        }
    }
    None
}

/// A Kubernetes API path (as the fabric8 client prints it in `Failure executing: GET at: …`)
/// whose resource name has `flink` as one of its dash-separated parts
/// (`…/namespaces/default/services/flink-session-cluster-rest`, `…/pods/my-flink-taskmanager-1-1`).
fn kubernetes_resource(text: &str, offset: usize) -> Option<Evidence> {
    for (at, _) in text.match_indices("/namespaces/") {
        let path = &text[at..];
        let path = &path[..path
            .find(|c: char| c.is_whitespace() || matches!(c, '"' | '\'' | '?'))
            .unwrap_or(path.len())];
        let mut parts = path.split('/').skip(2);
        let (Some(_namespace), Some(_kind), Some(name)) =
            (parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        let name = name.trim_end_matches(['.', ',', ';', ':']);
        if name
            .split(['-', '.'])
            .any(|p| p.eq_ignore_ascii_case("flink"))
        {
            let from = at + path.find(name).unwrap_or(0);
            return Some(Evidence {
                kind: EvidenceKind::KubernetesResource,
                text: name.to_owned(),
                span: Span::new(offset + from, offset + from + name.len()),
            });
        }
    }
    None
}

/// Packages of other JVM data-processing software: a trace with their frames or classes and
/// none of Flink's is theirs.
const OTHER_PLATFORMS: &[&str] = &[
    "org.apache.spark.",
    "org.apache.kafka.streams.",
    "org.apache.kafka.connect.",
    "org.apache.beam.runners.direct.",
    "org.apache.beam.runners.dataflow.",
    "org.apache.beam.runners.spark.",
    "org.apache.hadoop.mapred.",
    "org.apache.hadoop.mapreduce.",
    "org.apache.hadoop.hive.ql.",
    "org.apache.storm.",
    "org.apache.samza.",
    "com.hazelcast.jet.",
    "io.trino.",
    "com.facebook.presto.",
    "io.confluent.ksql.",
];

fn shows_other_platform(trace: &Trace) -> bool {
    other_platform(trace).is_some()
}

/// The package of the first class or frame of `trace` that belongs to another JVM platform
/// ([`OTHER_PLATFORMS`]: Spark, Kafka Streams, Beam's own runners, …): a trace of that software,
/// not of a Flink job, whatever else it shows. `None` when there is none.
pub fn other_platform(trace: &Trace) -> Option<&'static str> {
    let other = |c: &str| OTHER_PLATFORMS.iter().copied().find(|p| c.starts_with(p));
    trace
        .throwables
        .iter()
        .find_map(|t| other(&t.class).or_else(|| t.frames.iter().find_map(|f| other(&f.class))))
}

/// Marks of other JVM software looked for anywhere in a text when a trace shows nothing of
/// Flink ([`other_software_in`]): the packages of [`OTHER_PLATFORMS`], application servers and
/// frameworks a Flink job does not run in, and Spark's name. Any of them anywhere in the text
/// keeps the Flink rules off a trace without Flink evidence.
const OTHER_SOFTWARE_MARKS: &[&str] = &[
    "org.apache.catalina.",
    "org.apache.tomcat.",
    "org.apache.coyote.",
    "org.springframework.",
    "org.elasticsearch.",
    "org.opensearch.",
    "io.quarkus.",
    "io.micronaut.",
    "io.vertx.core.",
    "org.jboss.",
    "org.wildfly.",
    "org.apache.ignite.",
    "org.apache.cassandra.",
    "org.apache.nifi.",
    "org.apache.camel.",
    "org.apache.hadoop.hbase.regionserver.",
    "org.apache.zookeeper.server.",
    "kafka.server.",
    "kafka.log.",
    "spark",
    "Spark",
    "SPARK",
    // Spark's scheduler, named without their package in its log lines
    // (`WARN TaskSetManager: Lost task 3.0 in stage 2.0 (TID 40, …): ExecutorLostFailure …`).
    "TaskSetManager",
    "ExecutorLostFailure",
    "BlockManagerMaster",
    // Spring Boot's default log layout: `… ERROR 1234 --- [main] o.s.boot.SpringApplication : …`.
    " --- [",
    "o.s.boot.",
    "o.s.b.",
];

/// Log4j's `%d{yy/MM/dd HH:mm:ss} %p` at the start of a line (`19/03/12 10:11:02 WARN …`): the
/// default layout of Spark and of Hadoop's tools; Flink's logs write the full year.
fn spark_style_log_line(line: &[u8]) -> bool {
    let digits = |r: std::ops::Range<usize>| {
        line.get(r)
            .is_some_and(|d| d.iter().all(u8::is_ascii_digit))
    };
    line.len() > 18
        && digits(0..2)
        && line[2] == b'/'
        && digits(3..5)
        && line[5] == b'/'
        && digits(6..8)
        && line[8] == b' '
        && digits(9..11)
        && line[11] == b':'
        && digits(12..14)
        && line[14] == b':'
        && digits(15..17)
        && line[17] == b' '
}

/// The first mark of other JVM software ([`OTHER_PLATFORMS`] and [`OTHER_SOFTWARE_MARKS`])
/// anywhere in `input`, or `None`. Used when a trace shows nothing of Flink: with no such
/// mark either, nothing says whose the trace is, and the Flink rules still apply to it, saying
/// so ([`crate::diagnose`]); with one, the trace is taken as that software's. Linear in the
/// input (one substring search per mark).
pub fn other_software_in(input: &str) -> Option<&'static str> {
    OTHER_PLATFORMS
        .iter()
        .chain(OTHER_SOFTWARE_MARKS)
        .copied()
        .find(|m| memchr::memmem::find(input.as_bytes(), m.as_bytes()).is_some())
        .or_else(|| {
            input
                .as_bytes()
                .split(|&b| b == b'\n')
                .any(spark_style_log_line)
                .then_some("a yy/MM/dd log line (Spark, Hadoop)")
        })
}

/// True when `trace`, which shows nothing of Flink, could still be a Flink job's: it is not a
/// program's uncaught exception in its `main` thread (`Exception in thread "main" …`: a Flink
/// job's `main` runs in Flink's client, whose frames would show), and every class and frame
/// is the JDK's or of a library or connector the component table knows
/// ([`crate::component::of_class`]): a frame of unknown code may be another application (Pinot,
/// Drill, a Spring service) as well as a Flink job's own. Classes written without a package
/// are not held against it.
pub fn could_be_flinks(input: &str, trace: &Trace) -> bool {
    use crate::component::ComponentKind;
    let start = trace.span.start.min(input.len());
    let from = line_start(input, start);
    let header = input[from..].lines().next().unwrap_or("");
    if header.contains("Exception in thread \"main\"") {
        return false;
    }
    let known = |class: &str| {
        if class.is_empty() || !class.contains('.') {
            return true;
        }
        let c = crate::component::of_class(class);
        match c.kind {
            ComponentKind::Jdk => true,
            ComponentKind::Library | ComponentKind::Connector => !c.id.starts_with("other:"),
            ComponentKind::Flink | ComponentKind::UserCode => false,
        }
    };
    trace
        .throwables
        .iter()
        .all(|t| known(&t.class) && t.frames.iter().all(|f| known(&f.class)))
}

/// All the evidence for `trace` in `input` (the text it was parsed from): from the trace
/// itself first, then from the log lines around it, read from byte `above_from` on (the end of
/// the trace before it, 0 for the first: another trace's frames are not this one's log). At
/// most one piece of each source; empty when nothing shows Flink.
pub fn gather(input: &str, trace: &Trace, above_from: usize) -> Vec<Evidence> {
    let mut out = Vec::new();
    if let Some(e) = in_trace(trace) {
        out.push(e);
    }
    // A trace whose own frames or classes show other JVM software (Spark, Kafka Streams, …) is
    // that software's, whatever log it was pasted under.
    let foreign = out.is_empty() && shows_other_platform(trace);
    if !foreign {
        if let Some(e) = around(input, trace, above_from) {
            out.push(e);
        }
    }
    if out.is_empty() && trace.flink_context {
        out.push(Evidence {
            kind: EvidenceKind::SqlClient,
            text: "Could not execute SQL statement. Reason:".to_owned(),
            span: trace.span,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first(input: &str) -> Vec<Evidence> {
        let t = &crate::parse::parse(input).traces[0];
        gather(input, t, 0)
    }

    #[test]
    fn a_long_line_of_two_byte_letters_before_the_trace_is_read_on_char_boundaries() {
        // Found by the pipeline fuzz target (a log line of over 4 KB, `é` and U+FFFD in it,
        // before a trace): the line above was looked for from the byte before the region's
        // start, inside a letter, and slicing there panicked.
        for pad in 0..4 {
            let input = format!(
                "{}{}java.lang.RuntimeException: boom\n\tat a.B.c(B.java:1)\n",
                "x".repeat(pad),
                "é".repeat(5000)
            );
            for t in &crate::parse::parse(&input).traces {
                let _ = gather(&input, t, 0);
            }
        }
    }

    #[test]
    fn a_one_line_message_only_flink_prints_is_evidence() {
        let e = first("java.io.IOException: Insufficient number of network buffers: required 17, but only 16 available.\n");
        assert_eq!(e[0].kind, EvidenceKind::FlinkMessage);
    }

    #[test]
    fn a_config_key_in_the_message_is_evidence() {
        let e = first("java.lang.IllegalArgumentException: bad value for taskmanager.memory.process.size: 1x\n");
        assert_eq!(e[0].kind, EvidenceKind::ConfigKey);
        assert_eq!(e[0].text, "taskmanager.memory.process.size");
    }

    #[test]
    fn the_log_line_above_is_read_but_not_further_up() {
        let input = "2023-01-01 10:00:00,000 WARN  org.apache.flink.runtime.taskmanager.Task [] - Map (1/1) switched from RUNNING to FAILED.\njava.lang.NullPointerException: x\n\tat com.acme.Job.map(Job.java:1)\n";
        let e = first(input);
        assert_eq!(e[0].kind, EvidenceKind::Logger);
        assert_eq!(
            &input[e[0].span.range()],
            "org.apache.flink.runtime.taskmanager.Task"
        );
        let spark = "2023-01-01 INFO org.apache.flink.runtime.Foo - something\n\n23/01/01 ERROR Executor: Exception in task 0.0\njava.lang.NullPointerException: x\n\tat com.acme.Job.map(Job.java:1)\n";
        assert!(first(spark).is_empty());
    }

    #[test]
    fn docker_compose_prefixes_name_the_container() {
        let input = "taskmanager_1  | java.lang.OutOfMemoryError: Java heap space\ntaskmanager_1  | \tat com.acme.Job.map(Job.java:1)\n";
        let e = first(input);
        assert_eq!(e[0].kind, EvidenceKind::Container);
        assert_eq!(e[0].text, "taskmanager_1");
        // Compose v2 names containers `<project>-<service>-<n>` (b-presto-s3-no-credentials-…).
        let v2 = "deploy-flink-jobmanager-1     | java.io.IOException: x\n";
        assert_eq!(first(v2)[0].text, "deploy-flink-jobmanager-1");
        let other = "deploy-kafka-1  | java.io.IOException: x\nmy-jobmanagers-1  | y\n";
        assert!(
            first(other).is_empty(),
            "only a whole part names the service"
        );
    }

    #[test]
    fn a_kubernetes_resource_named_after_flink_is_evidence() {
        let input = "io.fabric8.kubernetes.client.KubernetesClientException: Failure executing: GET at: https://10.100.0.1/api/v1/namespaces/default/services/flink-session-cluster-rest. Message: Forbidden!\n";
        let e = first(input);
        assert_eq!(e[0].kind, EvidenceKind::KubernetesResource);
        assert_eq!(&input[e[0].span.range()], "flink-session-cluster-rest");
        let other = "io.fabric8.kubernetes.client.KubernetesClientException: Failure executing: GET at: https://10.0.0.1/api/v1/namespaces/flink/pods/spark-driver. Message: Forbidden!\n";
        assert!(
            first(other).is_empty(),
            "a namespace named flink is not enough"
        );
    }

    #[test]
    fn a_spark_trace_under_a_flink_log_line_stays_spark_s() {
        let input = "2023-01-01 10:00:00 INFO org.apache.flink.runtime.taskmanager.Task - starting\norg.apache.spark.SparkException: Job aborted\n\tat org.apache.spark.scheduler.DAGScheduler.abortStage(DAGScheduler.scala:1)\n";
        assert!(first(input).is_empty());
    }

    #[test]
    fn a_task_thread_of_a_dump_is_flink_s() {
        assert!(is_task_thread_name("Map -> Sink: Unnamed (1/1)#0"));
        assert!(!is_task_thread_name("pool-1-thread-1"));
        assert!(!is_task_thread_name(
            "Executor task launch worker for task 0.0 (1/2)"
        ));
    }

    #[test]
    fn other_software_anywhere_in_the_text_is_found() {
        assert_eq!(
            other_software_in("java.lang.OutOfMemoryError: Metaspace\n"),
            None
        );
        assert_eq!(
            other_software_in(
                "x\n31-Mar-2017 SEVERE org.apache.catalina.loader.WebappClassLoaderBase y\n"
            ),
            Some("org.apache.catalina.")
        );
        assert_eq!(
            other_software_in("at org.apache.spark.rdd.RDD.iterator(RDD.scala:1)"),
            Some("org.apache.spark.")
        );
        // Seen by a tester (2026-12-02): Spark's scheduler line, Spring Boot's layout.
        assert!(other_software_in("19/03/12 10:11:02 WARN TaskSetManager: Lost task 3.0 in stage 2.0 (TID 40): ExecutorLostFailure (executor 2 exited) Reason: Container killed\n").is_some());
        assert!(
            other_software_in("19/03/12 10:11:02 WARN YarnAllocator: Container killed\n").is_some()
        );
        assert!(other_software_in("2024-01-01 10:00:00.000 ERROR 1234 --- [main] o.s.boot.SpringApplication : Application run failed\n").is_some());
        assert_eq!(
            other_software_in(
                "2024-01-01 10:00:00,000 WARN org.apache.flink.runtime.taskmanager.Task [] - x\n"
            ),
            None
        );
    }

    #[test]
    fn spark_text_has_none() {
        let input = "org.apache.spark.SparkException: Job aborted due to stage failure: Task 0 in stage 1.0 failed 4 times\n\tat org.apache.spark.scheduler.DAGScheduler.failJobAndIndependentStages(DAGScheduler.scala:1)\n";
        assert!(first(input).is_empty());
    }
}
