//! The answer when no rule knows a trace: which component threw (from the package of the frame
//! that threw, [`crate::component`]), the phase Flink was in (from its frames), what that
//! implies, whether the trace is a follow-on of an earlier failure, and where to take it.
//!
//! It is a finding of its own kind, never a rule: it says what the frames show, not a cause.
//! Phase markers are Flink's method names, stable since 1.x (checked in the 1.13.6 and 2.3.0
//! release jars: `StreamTask.performCheckpoint`, `SubtaskCheckpointCoordinatorImpl`,
//! `AsyncCheckpointRunnable`, `notifyCheckpointComplete`, `initializeState`,
//! `StreamTask.restore`, `FunctionUtils.openFunction`, `processElement`).

use crate::component::{self, Component, ComponentKind};
use crate::model::Trace;
use serde::Serialize;

/// The phase of the job's life a failure happened in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Phase {
    /// The synchronous part of a checkpoint (`snapshotState` on the task thread).
    CheckpointSync,
    /// The asynchronous part of a checkpoint (writing the snapshot out).
    CheckpointAsync,
    /// `notifyCheckpointComplete` (a sink's commit, a source's offset commit).
    CheckpointComplete,
    /// Restoring state (`initializeState`).
    Restore,
    /// Opening an operator or function (`open`).
    Open,
    /// Processing records.
    Processing,
    /// Closing or finishing an operator.
    Close,
    /// Building or submitting the job on the client.
    Submission,
    /// SQL parsing, validation or planning.
    SqlPlanning,
    /// Reading records off the network or a source (deserialization).
    Deserialization,
    /// An RPC between Flink's processes.
    Rpc,
    /// Starting the cluster or a TaskManager.
    Startup,
}

impl Phase {
    /// The id used in the corpus and the JSON (`checkpoint-sync`).
    pub fn id(self) -> &'static str {
        match self {
            Phase::CheckpointSync => "checkpoint-sync",
            Phase::CheckpointAsync => "checkpoint-async",
            Phase::CheckpointComplete => "checkpoint-complete",
            Phase::Restore => "restore",
            Phase::Open => "open",
            Phase::Processing => "processing",
            Phase::Close => "close",
            Phase::Submission => "submission",
            Phase::SqlPlanning => "sql-planning",
            Phase::Deserialization => "deserialization",
            Phase::Rpc => "rpc",
            Phase::Startup => "startup",
        }
    }

    /// In words: "while taking a checkpoint (its synchronous part, on the task thread)".
    pub fn label(self) -> &'static str {
        match self {
            Phase::CheckpointSync => {
                "while taking a checkpoint (the synchronous part, on the task thread)"
            }
            Phase::CheckpointAsync => "while writing a checkpoint out (the asynchronous part)",
            Phase::CheckpointComplete => "when a checkpoint completed (notifyCheckpointComplete)",
            Phase::Restore => "while restoring state (initializeState)",
            Phase::Open => "while opening an operator or function (open)",
            Phase::Processing => "while processing records",
            Phase::Close => "while closing or finishing an operator",
            Phase::Submission => "while building or submitting the job (on the client)",
            Phase::SqlPlanning => "while parsing, validating or planning SQL",
            Phase::Deserialization => "while deserializing records",
            Phase::Rpc => "in an RPC between Flink's processes",
            Phase::Startup => "while starting the cluster or a TaskManager",
        }
    }

    /// What failing in this phase implies, in one or two sentences (Markdown).
    pub fn implies(self) -> &'static str {
        match self {
            Phase::CheckpointSync => "The checkpoint is declined. Whether the job fails over as well depends on `execution.checkpointing.tolerable-failed-checkpoints`; the operator's `snapshotState` is where to look, and a failure that comes and goes often means state changed by another thread.",
            Phase::CheckpointAsync => "The snapshot was taken but could not be written out: look at the checkpoint storage (file system, credentials, space, timeouts) rather than the operator's code.",
            Phase::CheckpointComplete => "The checkpoint itself succeeded; what failed ran after it (a sink committing a transaction, a source committing offsets). Data up to that checkpoint is safe; the commit may be retried on recovery.",
            Phase::Restore => "The job cannot start from its checkpoint or savepoint: every restart will fail the same way until the state, the serializers or the job graph match again.",
            Phase::Open => "The task failed before it processed any record: configuration, connectivity or a missing class, not the data.",
            Phase::Processing => "It depends on the records: a particular record, or the load, triggers it. It may recur after every restart from the same checkpoint.",
            Phase::Close => "It happened while the task was shutting down, often as a consequence of another failure: look for the first exception of the failover.",
            Phase::Submission => "The job never started: the job graph, the client's class path or the connection to the cluster is at fault, not the running job.",
            Phase::SqlPlanning => "The statement never ran: the planner rejected it. The fix is in the query, the table definitions or the connector options.",
            Phase::Deserialization => "A record could not be read back: a schema that changed, a serializer that is not symmetric, or corrupt data.",
            Phase::Rpc => "A Flink process did not answer in time or was gone: look at the other side (GC pauses, a killed container, the network).",
            Phase::Startup => "The process did not come up: configuration, resources or the environment.",
        }
    }
}

/// A frame that shows the phase.
#[derive(Clone, Debug, Serialize)]
pub struct PhaseEvidence {
    /// The phase.
    pub phase: Phase,
    /// Index of the throwable and of the frame in its `frames`.
    pub throwable: usize,
    /// Index of the frame.
    pub frame: usize,
}

/// What the component of a no-rule answer was read from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "from", content = "text")]
pub enum Basis {
    /// The frame that threw ([`NoRuleAnswer::thrower`]).
    Frame,
    /// A class the root cause's message names (the class as written).
    MessageClass(String),
    /// The failed operator's name (the task name as printed).
    OperatorName(String),
    /// The class of an exception printed without frames.
    ExceptionClass(String),
    /// A log line's logger, when the text holds no exception (the logger as printed).
    Logger(String),
    /// An exception of another component wrapping a JDBC driver's, which only relays the
    /// database's answer: `(wrapper class, driver's class)`.
    Caller(String, String),
    /// Flink rejected the job's own functions or types while building it (the verdict's class,
    /// one of [`VERDICTS`]): the blame is the code that handed them to Flink.
    Verdict(String),
    /// Nothing in the text says: Flink when the text is Flink's, else the JDK.
    Nothing,
}

/// Exceptions with which Flink rejects the job's functions and types while the job is built
/// (`TypeExtractor`, `ClosureCleaner`, the operators' type checks): thrown by Flink, but a
/// verdict on the code that called it, not a failure of Flink.
const VERDICTS: &[&str] = &[
    "org.apache.flink.api.common.functions.InvalidTypesException",
    "org.apache.flink.api.common.InvalidProgramException",
];

/// The no-rule answer for one trace.
#[derive(Clone, Debug, Serialize)]
pub struct NoRuleAnswer {
    /// The component that threw.
    pub component: Component,
    /// What the component was read from.
    pub basis: Basis,
    /// The frame it threw from: `(throwable, frame)` indices, when the trace has frames.
    pub thrower: Option<(usize, usize)>,
    /// The phase Flink was in, from its frames.
    pub phase: Option<PhaseEvidence>,
    /// Set when the root cause is a known consequence of an earlier failure (a cancellation,
    /// a lost TaskManager).
    pub follow_on: Option<FollowOn>,
    /// Where to take it.
    pub where_to: WhereTo,
    /// True when the answer speaks of the trace as Flink's (it shows Flink).
    pub flink: bool,
}

/// The phase a frame shows, by its method and class names; [`phase`] takes the first frame that
/// shows one, innermost first. The lifecycle and function names any class may have (`open`,
/// `close`, `map`, …) tell a phase only on a class of Flink, a connector or the job: the JDK's
/// `FileInputStream.open` under a `map` opens a file while the record is processed, and a
/// library's `close` is not the operator's.
fn phase_of_frame(class: &str, method: &str) -> Option<Phase> {
    let m = method;
    let simple = class.rsplit('.').next().unwrap_or(class);
    let flink = class.starts_with("org.apache.flink.");
    const GENERIC: [&str; 9] = [
        "open", "close", "finish", "dispose", "map", "flatMap", "filter", "reduce", "apply",
    ];
    if GENERIC.contains(&m)
        && matches!(
            crate::component::kind_of_class(class),
            crate::component::ComponentKind::Jdk | crate::component::ComponentKind::Library
        )
    {
        return None;
    }
    if m.starts_with("notifyCheckpointComplete") {
        return Some(Phase::CheckpointComplete);
    }
    if simple.starts_with("AsyncCheckpointRunnable")
        || (flink
            && (simple.contains("SnapshotStrategy")
                || simple.starts_with("FullSnapshotAsyncWriter"))
            && m == "get")
        || simple.starts_with("RocksDBStateUploader")
        || simple.starts_with("RocksDBStateDataTransfer")
    {
        return Some(Phase::CheckpointAsync);
    }
    if m == "snapshotState"
        || m == "prepareSnapshotPreBarrier"
        || m == "performCheckpoint"
        || m == "checkpointState"
        || m == "triggerCheckpointOnBarrier"
        || m.starts_with("lambda$performCheckpoint")
        || m == "syncPrepareResources"
    {
        return Some(Phase::CheckpointSync);
    }
    if m == "initializeState"
        || m == "restoreState"
        || (flink && m == "restore")
        || m == "initializeOperatorState"
        || simple.contains("RestoreOperation")
    {
        return Some(Phase::Restore);
    }
    if m == "open" || m == "openFunction" || m == "initializeStateAndOpenOperators" {
        return Some(Phase::Open);
    }
    if m == "close"
        || m == "finish"
        || m == "closeOperators"
        || m == "finishOperators"
        || m == "dispose"
        || m == "endInput"
    {
        return Some(Phase::Close);
    }
    if m == "deserialize" && (flink || simple.contains("Deserializ")) {
        return Some(Phase::Deserialization);
    }
    if class.starts_with("org.apache.flink.table.planner.")
        || class.starts_with("org.apache.calcite.")
        || class.starts_with("org.apache.flink.sql.parser.")
        || (simple == "TableEnvironmentImpl" && (m == "executeSql" || m == "sqlQuery"))
    {
        return Some(Phase::SqlPlanning);
    }
    if m == "processElement"
        || m == "processElement1"
        || m == "processElement2"
        || m == "processWatermark"
        || m == "onEventTime"
        || m == "onProcessingTime"
        || m == "pollNext"
        || m == "emitRecord"
        || (flink && (m == "processInput" || m == "collect"))
        || m == "invoke" && simple.contains("Sink")
        || m == "map"
        || m == "flatMap"
        || m == "filter"
        || m == "reduce"
        || m == "apply" && simple.contains("Window")
    {
        return Some(Phase::Processing);
    }
    if simple == "CliFrontend"
        || simple == "PackagedProgram"
        || simple == "ClientUtils"
        || simple == "RestClusterClient"
        || (simple.ends_with("ExecutionEnvironment") && m == "execute")
        || simple == "StreamGraphGenerator"
        || simple == "JobGraphGenerator"
        || simple == "TypeExtractor"
    {
        return Some(Phase::Submission);
    }
    if simple.starts_with("AkkaRpcActor")
        || simple.starts_with("PekkoRpcActor")
        || simple.starts_with("AkkaInvocationHandler")
        || simple.starts_with("PekkoInvocationHandler")
    {
        return Some(Phase::Rpc);
    }
    if simple == "TaskManagerRunner" && m.starts_with("run")
        || simple == "ClusterEntrypoint" && m.starts_with("start")
        || simple.ends_with("ClusterDescriptor") && m.starts_with("deploy")
    {
        return Some(Phase::Startup);
    }
    None
}

/// The phase, read from the root cause's frames innermost first, then from each enclosing
/// throwable's.
pub fn phase(trace: &Trace) -> Option<PhaseEvidence> {
    // State that cannot be read back fails while it is restored, whichever method asked for it
    // first (keyed state is often first touched in `open`).
    let state_mismatch = trace.throwables.iter().any(|t| {
        t.simple_class() == "StateMigrationException"
            || t.message.as_deref().is_some_and(|m| {
                m.contains("serializer must not be incompatible")
                    || m.contains("must be compatible")
                    || m.contains("restore state")
            })
    });
    for &t in trace.cause_chain().iter().rev() {
        for (k, f) in trace.throwables[t].frames.iter().enumerate() {
            if let Some(mut phase) = phase_of_frame(&f.class, &f.method) {
                if state_mismatch && matches!(phase, Phase::Open | Phase::Processing) {
                    phase = Phase::Restore;
                }
                return Some(PhaseEvidence {
                    phase,
                    throwable: t,
                    frame: k,
                });
            }
        }
    }
    None
}

/// A root cause that is a known consequence of an earlier failure: what it is, and that the
/// first failure is the one to look for ([`FollowOn::sentence`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FollowOn {
    /// `CancelTaskException`.
    TaskCancelled,
    /// "Buffer pool is destroyed" / "… has already been destroyed".
    BuffersReleased,
    /// `JobCancellationException`.
    JobCancelled,
    /// `TaskNotRunningException`.
    TaskNotRunning,
    /// `InterruptedException`, `ClosedByInterruptException`.
    Interrupted,
    /// `CancellationException`.
    Cancelled,
    /// "Connection unexpectedly closed by remote task manager".
    PeerGone,
    /// "The TaskExecutor is shutting down".
    TaskManagerShuttingDown,
}

impl FollowOn {
    /// What it is, then where to look (Markdown, English).
    pub fn sentence(self) -> String {
        let what = match self {
            FollowOn::TaskCancelled => "The task was cancelled: this is a consequence of a failover or of cancelling the job, not its cause.",
            FollowOn::BuffersReleased => "The task's network buffers were released because the task was being cancelled: a consequence of a failover, not its cause.",
            FollowOn::JobCancelled => "The job was cancelled: look for why (a user's cancel, or a failure that came first).",
            FollowOn::TaskNotRunning => "The task was no longer running when this arrived: a consequence of a failover.",
            FollowOn::Interrupted => "The thread was interrupted, which Flink does when it cancels a task: usually a consequence of a failover.",
            FollowOn::Cancelled => "Something was cancelled, usually because the task or job was being cancelled: a consequence, not the cause.",
            FollowOn::PeerGone => "The other TaskManager went away: this is what its peers see when a TaskManager dies. Look at that TaskManager's log (killed for memory, a crash, a long GC).",
            FollowOn::TaskManagerShuttingDown => "The TaskManager was shutting down: look at why (its log, the resource manager's).",
        };
        format!("{what} Look for the first failure in the JobManager log: the first exception after the job was running.")
    }
}

/// Root causes that are consequences of an earlier failure, by class or message. Checked in the
/// release jars of 1.13.6, 1.17.2, 1.20.3, 2.0.1 and 2.3.0: the messages are string constants of
/// Flink classes in all five ("Buffer pool has already been destroyed" from 1.17 on), and
/// `CancelTaskException`, `TaskNotRunningException` and `JobCancellationException` exist in
/// 1.13.6 and 2.3.0.
const FOLLOW_ONS: &[(&str, &str, FollowOn)] = &[
    ("CancelTaskException", "", FollowOn::TaskCancelled),
    ("", "Buffer pool is destroyed", FollowOn::BuffersReleased),
    (
        "",
        "Buffer pool has already been destroyed",
        FollowOn::BuffersReleased,
    ),
    ("JobCancellationException", "", FollowOn::JobCancelled),
    ("TaskNotRunningException", "", FollowOn::TaskNotRunning),
    ("InterruptedException", "", FollowOn::Interrupted),
    ("ClosedByInterruptException", "", FollowOn::Interrupted),
    ("CancellationException", "", FollowOn::Cancelled),
    (
        "",
        "Connection unexpectedly closed by remote task manager",
        FollowOn::PeerGone,
    ),
    (
        "",
        "The TaskExecutor is shutting down",
        FollowOn::TaskManagerShuttingDown,
    ),
];

fn follow_on(trace: &Trace) -> Option<FollowOn> {
    let root = &trace.throwables[trace.root_cause()];
    let message = root.message.as_deref().unwrap_or("");
    FOLLOW_ONS
        .iter()
        .find(|(class, msg, _)| {
            (!class.is_empty() && root.simple_class() == *class)
                || (!msg.is_empty() && message.contains(msg))
        })
        .map(|&(_, _, f)| f)
}

/// Class names a message names (`org.apache.paimon.Foo`, `org/apache/flink/Bar`), in order.
fn classes_in(message: &str) -> Vec<String> {
    let mut out = Vec::new();
    for word in
        message.split(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '.' | '/' | '$' | '_')))
    {
        let name = word.trim_matches(['.', '/']).replace('/', ".");
        let segments = name.split('.').count();
        let simple = name.rsplit('.').next().unwrap_or("");
        if segments >= 3
            && name.bytes().next().is_some_and(|b| b.is_ascii_lowercase())
            && simple
                .bytes()
                .next()
                .is_some_and(|b| b.is_ascii_uppercase())
        {
            out.push(name);
        }
    }
    out
}

/// Which component threw, or is to blame, for a committer reading the trace:
/// 1. a connector or your own class that the root cause's message names (a Kryo or
///    class-loading error names the type or class it failed on);
/// 2. else the innermost connector frame of the cause chain, root cause first (a Flink or
///    library frame inside a connector's call is the connector's failure);
/// 3. else a library class the message names;
/// 4. else the root cause's innermost frame that is not the JDK's or a pass-through library's,
///    walking up the chain (a throwable printed without frames: its class);
/// 5. where that leaves Flink or nothing: the connector the failed operator's name names
///    (`task`, e.g. `Sink: bucket_write(table=hudi_orders)`);
/// 6. else Flink, when the trace is Flink's (a JDK exception Flink threw), or the JDK.
pub fn thrower(
    trace: &Trace,
    flink: bool,
    task: Option<&str>,
) -> (Component, Option<(usize, usize)>, Basis) {
    let chain: Vec<usize> = trace.cause_chain().into_iter().rev().collect();
    let root = &trace.throwables[trace.root_cause()];
    if let Some(l) = &root.logged {
        return (
            component::of_logger(&l.logger),
            None,
            Basis::Logger(l.logger.clone()),
        );
    }
    let named: Vec<(String, Component)> = classes_in(root.message.as_deref().unwrap_or(""))
        .into_iter()
        .filter(|n| !component::passes_through(n))
        .map(|n| {
            let c = component::of_class(&n);
            (n, c)
        })
        .collect();
    if let Some((n, c)) = named
        .iter()
        .find(|(_, c)| matches!(c.kind, ComponentKind::Connector | ComponentKind::UserCode))
    {
        return (c.clone(), None, Basis::MessageClass(n.clone()));
    }
    for &t in &chain {
        for (k, f) in trace.throwables[t].frames.iter().enumerate() {
            if component::kind_of_class(&f.class) == ComponentKind::Connector {
                return (component::of_class(&f.class), Some((t, k)), Basis::Frame);
            }
        }
    }
    if let Some((n, c)) = named.iter().find(|(_, c)| c.kind == ComponentKind::Library) {
        return (c.clone(), None, Basis::MessageClass(n.clone()));
    }
    if VERDICTS.contains(&root.class.as_str()) {
        // The caller: the innermost frame of code that is neither Flink's, the JDK's nor a
        // pass-through library's; the job's own code when the text shows none.
        let caller = chain.iter().find_map(|&t| {
            let th = &trace.throwables[t];
            crate::matcher::foreign_frame(th)
                .map(|k| (component::of_class(&th.frames[k].class), (t, k)))
        });
        return match caller {
            Some((c, at)) => (c, Some(at), Basis::Verdict(root.class.clone())),
            None => (
                component::user_code(),
                None,
                Basis::Verdict(root.class.clone()),
            ),
        };
    }
    let by_operator = || {
        task.and_then(|name| {
            component::of_operator_name(name).map(|c| (c, Basis::OperatorName(name.to_owned())))
        })
    };
    for &t in &chain {
        let th = &trace.throwables[t];
        let own = th.frames.iter().enumerate().find(|(_, f)| {
            component::kind_of_class(&f.class) != ComponentKind::Jdk
                && !component::passes_through(&f.class)
        });
        if let Some((k, f)) = own {
            let c = component::of_class(&f.class);
            // As below for a frameless one: a JDBC driver's exception with frames, wrapped by
            // another component's exception, is that component's call.
            if c.id == "jdbc-driver" {
                if let Some((o, oc)) = jdbc_caller(trace, &chain, t) {
                    return (oc, Some((t, k)), Basis::Caller(o, th.class.clone()));
                }
            }
            if c.kind == ComponentKind::Flink {
                if let Some((op, basis)) = by_operator() {
                    return (op, Some((t, k)), basis);
                }
            }
            return (c, Some((t, k)), Basis::Frame);
        }
        // A class written without its package (in prose) names no project.
        if th.frames.is_empty() && th.class.contains('.') {
            let c = component::of_class(&th.class);
            // A JDBC driver's exception relays the database's answer (`ERROR: replication slot
            // "debezium" already exists`): the component that made the call is the wrapper
            // around it, when the chain names one (`io.debezium.DebeziumException`).
            if c.id == "jdbc-driver" {
                if let Some((o, oc)) = jdbc_caller(trace, &chain, t) {
                    return (oc, None, Basis::Caller(o, th.class.clone()));
                }
            }
            if c.kind == ComponentKind::Flink {
                if let Some((op, basis)) = by_operator() {
                    return (op, None, basis);
                }
            }
            if c.kind != ComponentKind::Jdk {
                return (c, None, Basis::ExceptionClass(th.class.clone()));
            }
        }
    }
    if let Some((op, basis)) = by_operator() {
        return (op, None, basis);
    }
    if flink {
        (component::flink(), None, Basis::Nothing)
    } else {
        (
            component::of_class("java.lang.Object"),
            None,
            Basis::Nothing,
        )
    }
}

/// The component that called a JDBC driver whose exception is `chain[t]`: the first throwable
/// outside it in the chain whose first frame outside the JDK and the driver, or else whose
/// class, belongs to a connector or a library (`io.debezium.DebeziumException`); with that
/// throwable's class.
fn jdbc_caller(trace: &Trace, chain: &[usize], t: usize) -> Option<(String, Component)> {
    let wanted = |c: &Component| {
        matches!(c.kind, ComponentKind::Connector | ComponentKind::Library) && c.id != "jdbc-driver"
    };
    chain
        .iter()
        .skip_while(|&&u| u != t)
        .skip(1)
        .map(|&u| &trace.throwables[u])
        .find_map(|o| {
            let by_class =
                Some(component::of_class(&o.class)).filter(|c| o.class.contains('.') && wanted(c));
            let by_frame = || {
                o.frames
                    .iter()
                    .map(|f| component::of_class(&f.class))
                    .find(|c| c.kind != ComponentKind::Jdk && c.id != "jdbc-driver")
                    .filter(wanted)
            };
            // Where it was thrown first: Debezium throws Kafka Connect's `ConnectException`.
            by_frame().or(by_class).map(|c| (o.class.clone(), c))
        })
}

/// Exceptions whose class says the caller's settings or input are wrong, not that the code
/// throwing them is broken: Kafka's `ConfigException`, `…ConfigurationException`s,
/// `ValidationException`s, authentication and authorization failures.
fn is_usage_error(class: &str) -> bool {
    let simple = class.rsplit('.').next().unwrap_or(class);
    simple.ends_with("ConfigException")
        || simple.ends_with("ConfigurationException")
        || simple.ends_with("ValidationException")
        || simple.ends_with("AuthenticationException")
        || simple.ends_with("AuthorizationException")
}

/// Where to take a no-rule answer: which tracker or list, by the kind of code that threw.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "to")]
pub enum WhereTo {
    /// The job's own code: start at its frame (and the user list, for a Flink trace).
    UserCode,
    /// Flink's JIRA (the URL) and the user list.
    Flink {
        /// Flink's JIRA.
        tracker: String,
    },
    /// The JDK threw: the message is the clue (and the user list, for a Flink trace).
    Jdk,
    /// A connector's or library's tracker, when the component table knows it.
    Component {
        /// Its issue tracker.
        tracker: Option<String>,
    },
    /// A connector or library says its settings or credentials are wrong
    /// ([`is_usage_error`]): the fix is in them; its tracker only if the message is unclear.
    Settings {
        /// Its issue tracker.
        tracker: Option<String>,
    },
}

impl WhereTo {
    /// One sentence (Markdown, English); `name` is the component as named
    /// ([`Component::name_for`]), `flink` whether the trace shows Flink.
    pub fn sentence(&self, name: &str, flink: bool) -> String {
        match (self, flink) {
            (WhereTo::Settings { tracker }, _) => {
                let search = match tracker {
                    Some(t) => format!(" Search its issues ({t}) only if the message is unclear."),
                    None => String::new(),
                };
                format!(
                    "The exception says that the settings or credentials given to {name} are wrong, not that {name} is broken: its message names what to change (in a Flink job, usually a connector option passed on to the client).{search}"
                )
            }
            (WhereTo::UserCode, true) => "This is your own code: start at that frame. If your code only passes on what Flink handed it, ask on the user@flink.apache.org list with the full trace and your Flink version.".to_owned(),
            (WhereTo::UserCode, false) => "This is your own code: start at that frame.".to_owned(),
            (WhereTo::Flink { tracker }, _) => format!(
                "Search Flink's JIRA ({tracker}) and the user@flink.apache.org archives for the message; if nothing matches, ask on the list with the full JobManager and TaskManager logs and your Flink version."
            ),
            (WhereTo::Jdk, true) => "The message is the clue. Ask on the user@flink.apache.org list with it, the full JobManager and TaskManager logs and your Flink version.".to_owned(),
            (WhereTo::Jdk, false) => "The message is the clue.".to_owned(),
            (WhereTo::Component { tracker }, true) => match tracker {
                Some(t) => format!(
                    "This is code of {name}, not of Flink itself: check its version against your Flink version, search its issues ({t}), and report it there with the trace if nothing matches."
                ),
                None => format!(
                    "This is code of {name}, not of Flink itself: check its version against your Flink version and search its issue tracker."
                ),
            },
            (WhereTo::Component { tracker }, false) => match tracker {
                Some(t) => format!("This is code of {name}: search its issues ({t}), and report it there with the trace if nothing matches."),
                None => format!("This is code of {name}: check its version and search its issue tracker."),
            },
        }
    }
}

/// The component's issue tracker to point at: Flink's JIRA is where Flink's copies of Kryo and
/// RocksDB are reported, so only for a trace that shows Flink.
fn tracker_for(c: &Component, flink: bool) -> Option<String> {
    c.tracker
        .as_deref()
        .filter(|t| flink || !t.contains("projects/FLINK"))
        .map(str::to_owned)
}

/// Where to take an answer whose root cause is of class `root` and whose thrower is `c`.
fn where_to(c: &Component, flink: bool, root: &str) -> WhereTo {
    match c.kind {
        ComponentKind::Connector | ComponentKind::Library if is_usage_error(root) => {
            WhereTo::Settings {
                tracker: tracker_for(c, flink),
            }
        }
        ComponentKind::Connector | ComponentKind::Library => WhereTo::Component {
            tracker: tracker_for(c, flink),
        },
        ComponentKind::UserCode => WhereTo::UserCode,
        ComponentKind::Jdk => WhereTo::Jdk,
        ComponentKind::Flink => WhereTo::Flink {
            tracker: c
                .tracker
                .clone()
                .unwrap_or_else(|| "https://issues.apache.org/jira/projects/FLINK".to_owned()),
        },
    }
}

/// `s` cut after `max` characters, with `…` when cut (a frame can be megabytes long in a
/// damaged paste).
pub(crate) fn clip(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}…", &s[..i]),
        None => s.to_owned(),
    }
}

/// The no-rule answer for `trace`; `flink` is whether the trace shows Flink (the platform gate);
/// `task` the failed task's name as the text prints it. For a thread of a thread dump, the
/// component is where the thread stands (its innermost own frame). `None` for an empty trace.
pub fn answer(trace: &Trace, flink: bool, task: Option<&str>) -> Option<NoRuleAnswer> {
    if trace.throwables.is_empty() {
        return None;
    }
    let (component, thrower, basis) = thrower(trace, flink, task);
    let root = &trace.throwables[trace.root_cause()].class;
    let where_to = where_to(&component, flink, root);
    Some(NoRuleAnswer {
        basis,
        phase: if flink { phase(trace) } else { None },
        follow_on: if flink { follow_on(trace) } else { None },
        component,
        thrower,
        where_to,
        flink,
    })
}

/// The frame that threw, as the sentences quote it: `` `Class.method`, File.java:12 ``.
pub(crate) fn thrower_at(a: &NoRuleAnswer, trace: &Trace) -> Option<String> {
    a.thrower.map(|(t, k)| {
        let f = &trace.throwables[t].frames[k];
        format!(
            "`{}`, {}",
            clip(&format!("{}.{}", f.simple_class(), f.method), 120),
            clip(&f.location_text(), 80)
        )
    })
}

/// The answer in words, as the CLI and the replies print it (Markdown, one paragraph per
/// part). `trace` is the trace the answer is about.
pub fn sentences(a: &NoRuleAnswer, trace: &Trace) -> Vec<String> {
    let mut out = Vec::new();
    let name = a.component.name_for(a.flink);
    let at = thrower_at(a, trace);
    let phase = a
        .phase
        .as_ref()
        .map(|p| format!(", {}", p.phase.label()))
        .unwrap_or_default();
    let first = if let Some(th) = &trace.thread {
        let state = th.state.as_deref().unwrap_or("");
        let doing = if state.starts_with("BLOCKED") {
            "blocked"
        } else if state.starts_with("WAITING") || state.starts_with("TIMED_WAITING") {
            "waiting"
        } else {
            "running"
        };
        format!(
            "\"{}\" is {doing} in **{name}**{}.",
            clip(&th.name, 80),
            at.map(|x| format!(" ({x})")).unwrap_or_default()
        )
    } else {
        match &a.basis {
            Basis::Frame => format!(
                "It was thrown by **{name}**{}{phase}.",
                at.map(|x| format!(" ({x})")).unwrap_or_default()
            ),
            Basis::MessageClass(class) => format!(
                "Its message names a class of **{name}** (`{}`){phase}{}.",
                clip(class, 120),
                at.map(|x| format!("; thrown at {x}")).unwrap_or_default()
            ),
            Basis::OperatorName(task) => format!(
                "It happened in an operator of **{name}**, as its task's name says (`{}`){}{phase}.",
                clip(task, 120),
                at.map(|x| format!("; the frame that threw is Flink's ({x})")).unwrap_or_default()
            ),
            Basis::ExceptionClass(class) => format!(
                "The exception is a class of **{name}** (`{}`); the text has no frames to show where it was thrown.",
                clip(class, 120)
            ),
            Basis::Caller(wrapper, driver) => format!(
                "The database refused a call of **{name}**: its `{}` wraps the JDBC driver's `{}`, which only passes on the database's answer (read its message).",
                clip(wrapper, 120),
                clip(driver, 120)
            ),
            Basis::Logger(logger) => format!(
                "The text holds no exception, only {} line logged by **{name}** (`{}`): its message is the clue, and the full log around it shows the exception, if any.",
                trace.throwables[trace.root_cause()]
                    .logged
                    .as_ref()
                    .map_or("a log".to_owned(), |l| {
                        let an = if l.level.starts_with(['E', 'F']) { "an" } else { "a" };
                        format!("{an} {}", l.level)
                    }),
                clip(logger, 120)
            ),
            Basis::Verdict(class) => format!(
                "Flink rejected a function or type that **{name}** gave it while the job was built (`{}`){}: the check is Flink's, the thing to fix is in that code.",
                clip(class.rsplit('.').next().unwrap_or(class), 120),
                at.map(|x| format!(", at {x}")).unwrap_or_default()
            ),
            Basis::Nothing if trace.throwables.iter().all(|t| t.frames.is_empty()) => {
                "The text has no frames to show which code threw it.".to_owned()
            }
            Basis::Nothing => format!(
                "No frame outside the JDK's shows which code threw it{phase}."
            ),
        }
    };
    out.push(first);
    if let Some(f) = a.follow_on {
        out.push(f.sentence());
    } else if let Some(p) = &a.phase {
        out.push(p.phase.implies().to_owned());
    }
    out.push(a.where_to.sentence(&name, a.flink));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trace(text: &str) -> Trace {
        crate::parse::parse(text).traces.remove(0)
    }

    #[test]
    fn a_connector_failing_in_snapshot_state_is_named_with_the_phase() {
        let t = trace("java.lang.NullPointerException\n\tat org.apache.paimon.flink.sink.StoreSinkWriteImpl.prepareCommit(StoreSinkWriteImpl.java:200)\n\tat org.apache.paimon.flink.sink.TableWriteOperator.prepareCommit(TableWriteOperator.java:120)\n\tat org.apache.paimon.flink.sink.RowDataStoreWriteOperator.prepareCommit(RowDataStoreWriteOperator.java:189)\n\tat org.apache.paimon.flink.sink.PrepareCommitOperator.emitCommittables(PrepareCommitOperator.java:100)\n\tat org.apache.paimon.flink.sink.PrepareCommitOperator.prepareSnapshotPreBarrier(PrepareCommitOperator.java:80)\n\tat org.apache.flink.streaming.runtime.tasks.RegularOperatorChain.prepareSnapshotPreBarrier(RegularOperatorChain.java:89)\n\tat org.apache.flink.streaming.runtime.tasks.SubtaskCheckpointCoordinatorImpl.checkpointState(SubtaskCheckpointCoordinatorImpl.java:300)\n");
        let a = answer(&t, true, None).unwrap();
        assert_eq!(a.component.id, "paimon");
        assert_eq!(a.thrower, Some((0, 0)));
        assert_eq!(a.phase.unwrap().phase, Phase::CheckpointSync);
    }

    #[test]
    fn jdk_and_pass_through_frames_are_skipped_to_the_thrower() {
        let t = trace("java.lang.IllegalStateException: x\n\tat org.apache.flink.shaded.guava30.com.google.common.base.Preconditions.checkState(Preconditions.java:1)\n\tat java.util.Objects.requireNonNull(Objects.java:1)\n\tat com.acme.Enricher.map(Enricher.java:12)\n\tat org.apache.flink.streaming.api.operators.StreamMap.processElement(StreamMap.java:38)\n");
        let a = answer(&t, true, None).unwrap();
        assert_eq!(a.component.id, "user-code");
        assert_eq!(a.thrower, Some((0, 2)));
        assert_eq!(a.phase.unwrap().phase, Phase::Processing);
    }

    #[test]
    fn a_jdk_or_library_method_named_like_a_lifecycle_step_is_not_the_phase() {
        // A helper's try-out: a file opened in a `map` read as "while opening an operator".
        let t = trace("java.io.FileNotFoundException: /data/lookup/users.csv (No such file or directory)\n\tat java.io.FileInputStream.open0(Native Method)\n\tat java.io.FileInputStream.open(FileInputStream.java:195)\n\tat java.io.FileInputStream.<init>(FileInputStream.java:138)\n\tat com.acme.jobs.EnrichMapper.map(EnrichMapper.java:41)\n\tat org.apache.flink.streaming.api.operators.StreamMap.processElement(StreamMap.java:38)\n");
        let p = phase(&t).unwrap();
        assert_eq!((p.phase, p.frame), (Phase::Processing, 3));
        // A library's close, under the operator's open: the phase is the open.
        let t = trace("java.io.IOException: x\n\tat org.apache.kafka.clients.producer.KafkaProducer.close(KafkaProducer.java:1)\n\tat com.acme.MyRichMapper.open(MyRichMapper.java:9)\n\tat org.apache.flink.api.common.functions.util.FunctionUtils.openFunction(FunctionUtils.java:34)\n");
        let p = phase(&t).unwrap();
        assert_eq!((p.phase, p.frame), (Phase::Open, 1));
    }

    #[test]
    fn flink_s_verdict_on_the_job_s_types_blames_the_code_that_called_it() {
        // tests/corpus/serialization/n-tuple-arity-mismatch-resulttypequeryable-blog (real).
        let t = trace("org.apache.flink.api.common.functions.InvalidTypesException: Input mismatch: Tuple arity '3' expected but was '4'.\n\tat org.apache.flink.api.java.typeutils.TypeExtractor.validateInputType(TypeExtractor.java:1436)\n\tat org.apache.flink.streaming.api.datastream.DataStream.map(DataStream.java:581)\n");
        let a = answer(&t, true, None).unwrap();
        assert_eq!(a.component.id, "user-code");
        assert!(matches!(a.basis, Basis::Verdict(_)));
        let with_caller = trace("org.apache.flink.api.common.functions.InvalidTypesException: x\n\tat org.apache.flink.api.java.typeutils.TypeExtractor.validateInputType(TypeExtractor.java:1436)\n\tat org.apache.flink.streaming.api.datastream.DataStream.map(DataStream.java:581)\n\tat com.acme.Job.main(Job.java:20)\n");
        let a = answer(&with_caller, true, None).unwrap();
        assert_eq!(a.component.id, "user-code");
        assert_eq!(a.thrower, Some((0, 2)));
    }

    #[test]
    fn a_cancellation_is_called_a_follow_on() {
        let t = trace("java.lang.RuntimeException: Buffer pool is destroyed.\n\tat org.apache.flink.runtime.io.network.buffer.LocalBufferPool.requestMemorySegment(LocalBufferPool.java:1)\n");
        let a = answer(&t, true, None).unwrap();
        assert_eq!(a.follow_on, Some(FollowOn::BuffersReleased));
        assert!(a.follow_on.unwrap().sentence().contains("consequence"));
    }

    #[test]
    fn a_configuration_error_of_a_library_is_not_sent_to_its_tracker_first() {
        let t = trace("org.apache.kafka.common.config.ConfigException: Missing required configuration \"bootstrap.servers\" which has no default value.\n\tat org.apache.kafka.common.config.ConfigDef.parse(ConfigDef.java:493)\n");
        let a = answer(&t, false, None).unwrap();
        assert_eq!(a.component.id, "kafka-client");
        assert!(
            matches!(a.where_to, WhereTo::Settings { .. }),
            "{:?}",
            a.where_to
        );
        let said = a.where_to.sentence("Apache Kafka's client", false);
        assert!(said.contains("settings or credentials"), "{said}");
        assert!(!said.contains("report it there"));
    }

    #[test]
    fn a_frameless_client_exception_is_named_by_its_class() {
        let t = trace("org.apache.kafka.common.errors.TimeoutException: Timeout expired while fetching topic metadata\n");
        let a = answer(&t, false, None).unwrap();
        assert_eq!(a.component.id, "kafka-client");
        assert!(!a.flink);
        assert!(a.phase.is_none());
    }
}
