//! The no-rule answer ([`crate::answer::NoRuleAnswer`]) in words, in the page's language: who
//! threw and when, what that implies (or that it is a follow-on of an earlier failure), and
//! where to take it. English is [`crate::answer::sentences`]; this module adds the Chinese.

use super::Lang;
use crate::answer::{self, Basis, FollowOn, NoRuleAnswer, Phase, WhereTo};
use crate::component::Component;
use crate::model::Trace;

/// The answer's paragraphs (Markdown) in `lang`: the same parts, in the same order, as
/// [`crate::answer::sentences`]. Class names, frames, URLs and list addresses stay as printed.
pub fn no_rule_sentences(a: &NoRuleAnswer, trace: &Trace, lang: Lang) -> Vec<String> {
    if lang == Lang::En {
        return answer::sentences(a, trace);
    }
    let clip = answer::clip;
    let name = component_name(&a.component, a.flink);
    let at = answer::thrower_at(a, trace);
    let phase = a
        .phase
        .as_ref()
        .map(|p| format!("，{}", phase_label(p.phase)))
        .unwrap_or_default();
    let first = if let Some(th) = &trace.thread {
        let state = th.state.as_deref().unwrap_or("");
        let doing = if state.starts_with("BLOCKED") {
            "阻塞"
        } else if state.starts_with("WAITING") || state.starts_with("TIMED_WAITING") {
            "等待"
        } else {
            "运行"
        };
        format!(
            "线程 \"{}\" 正在 **{name}** 中{doing}{}。",
            clip(&th.name, 80),
            at.map(|x| format!("（{x}）")).unwrap_or_default()
        )
    } else {
        match &a.basis {
            Basis::Frame => format!(
                "异常由 **{name}** 抛出{}{phase}。",
                at.map(|x| format!("（{x}）")).unwrap_or_default()
            ),
            Basis::MessageClass(class) => format!(
                "它的消息中提到了 **{name}** 的一个类（`{}`）{phase}{}。",
                clip(class, 120),
                at.map(|x| format!("；抛出位置：{x}")).unwrap_or_default()
            ),
            Basis::OperatorName(task) => format!(
                "从 task 名称看，它发生在 **{name}** 的算子中（`{}`）{}{phase}。",
                clip(task, 120),
                at.map(|x| format!("；抛出它的帧属于 Flink（{x}）"))
                    .unwrap_or_default()
            ),
            Basis::ExceptionClass(class) => format!(
                "这个异常是 **{name}** 的类（`{}`）；文本中没有堆栈帧能说明它是在哪里抛出的。",
                clip(class, 120)
            ),
            Basis::Caller(wrapper, driver) => format!(
                "数据库拒绝了 **{name}** 的一次调用：它的 `{}` 包装了 JDBC 驱动的 `{}`，\
                 后者只是转述数据库的回答（请看它的消息）。",
                clip(wrapper, 120),
                clip(driver, 120)
            ),
            Basis::Logger(logger) => format!(
                "文本中没有异常，只有 **{name}** 打印的一行{}日志（`{}`）：线索在它的消息里，\
                 它前后的完整日志会显示异常（如果有的话）。",
                trace.throwables[trace.root_cause()]
                    .logged
                    .as_ref()
                    .map_or(String::new(), |l| format!(" {} ", l.level)),
                clip(logger, 120)
            ),
            Basis::Verdict(class) => format!(
                "构建作业时，Flink 拒绝了 **{name}** 交给它的函数或类型（`{}`）{}：\
                 检查是 Flink 做的，要改的是那段代码。",
                clip(class.rsplit('.').next().unwrap_or(class), 120),
                at.map(|x| format!("，位置：{x}")).unwrap_or_default()
            ),
            Basis::Nothing if trace.throwables.iter().all(|t| t.frames.is_empty()) => {
                "文本中没有堆栈帧，无法看出是哪段代码抛出的。".to_owned()
            }
            Basis::Nothing => format!("除 JDK 之外，没有任何帧能说明是哪段代码抛出的{phase}。"),
        }
    };
    let mut out = vec![first];
    if let Some(f) = a.follow_on {
        out.push(follow_on(f));
    } else if let Some(p) = &a.phase {
        out.push(phase_implies(p.phase).to_owned());
    }
    out.push(where_to(&a.where_to, &name, a.flink));
    out
}

/// [`crate::matcher::Culprit::sentence`] in `lang`: whose class (or table factory) the message
/// names, and what that means for the fix.
pub fn culprit_sentence(c: &crate::matcher::Culprit, flink: bool, lang: Lang) -> String {
    use crate::component::ComponentKind;
    if lang == Lang::En {
        return c.sentence(flink);
    }
    let comp = &c.component;
    let name = component_name(comp, flink);
    if c.connector {
        let whose = match comp.kind {
            ComponentKind::Flink => "是 Flink 自带的".to_owned(),
            _ => format!("来自 **{name}**"),
        };
        let docs = match &comp.tracker {
            Some(t) if comp.kind != ComponentKind::Flink => format!(
                "它的选项以你所用版本的文档为准；如果文档里写了的选项被它拒绝，那是它的 bug，请到 {t} 报告。"
            ),
            _ => "它的选项以你所用版本的文档为准。".into(),
        };
        return format!("消息中提到的 factory 是 `{}`，{whose}。{docs}", c.class);
    }
    match comp.kind {
        ComponentKind::UserCode => format!("这个类是 `{}`：你自己的代码。", c.class),
        ComponentKind::Flink => format!("这个类是 `{}`，属于 Flink 本身。", c.class),
        ComponentKind::Jdk => format!("这个类是 `{}`，是 JDK 的类。", c.class),
        ComponentKind::Connector | ComponentKind::Library => {
            let report = match &comp.tracker {
                Some(t) => format!("请找它的新版本，或者去报告（{t}）。"),
                None => "请找它的新版本，或者向它的项目报告。".into(),
            };
            format!(
                "这个类是 `{}`，属于 **{name}**：是那个项目的代码，不是你的。{report}",
                c.class
            )
        }
    }
}

/// [`crate::evidence::Evidence::describe_at`] in `lang`: what read the text as Flink's, the text
/// as printed, and its 1-based line.
pub fn evidence_at(
    e: &crate::evidence::Evidence,
    index: &crate::span::LineIndex,
    lang: Lang,
) -> String {
    use crate::evidence::EvidenceKind as K;
    if lang == Lang::En {
        return e.describe_at(index);
    }
    let what = match e.kind {
        K::Frame => "Flink 的堆栈帧",
        K::Class => "Flink 的异常类",
        K::MessageNamesFlink => "提到 Flink 的消息",
        K::FlinkMessage => "只有 Flink 会打印的消息",
        K::ConfigKey => "Flink 的配置项",
        K::Jar => "Flink 的 jar",
        K::Logger => "Flink 的日志行",
        K::Container => "Flink 的容器",
        K::SqlClient => "Flink SQL Client 的错误行",
        K::TaskThread => "按 Flink 命名 task 的方式命名的线程",
        K::KubernetesResource => "以 Flink 命名的 Kubernetes 资源",
    };
    format!(
        "{what}：{}（第 {} 行）",
        e.quoted(),
        index.line_of(e.span.start)
    )
}

/// The note on a finding whose rule probably does not apply to the trace's Flink version
/// (`summary`, as read) in `lang`: [`crate::version::Mismatch::sentence`] in English.
pub fn version_mismatch(m: &crate::version::Mismatch, summary: &str, lang: Lang) -> String {
    use crate::version::Mismatch;
    match (lang, m) {
        (Lang::En, m) => m.sentence(summary),
        (Lang::Zh, Mismatch::Before { since }) => format!(
            "这个问题从 Flink {since} 起才有，而这个堆栈显示的是 Flink {summary}：它多半不适用。"
        ),
        (Lang::Zh, Mismatch::Fixed { releases }) => format!(
            "这个问题已在 Flink {}{} 中修复，而这个堆栈显示的是 Flink {summary}：它多半不适用。",
            crate::wording::join_list(releases, " 和 "),
            if releases.len() > 1 {
                "（各版本线的修复版本）"
            } else {
                ""
            },
        ),
    }
}

/// The notes under a finding's title, in `lang`: that it assumes a Flink job, that the trace's
/// version is outside the rule's, and whose class the message names. The page and the report
/// both show them.
pub struct FindingNotes {
    /// The rule is Flink's and nothing in the text shows whose the trace is.
    pub platform_assumed: Option<String>,
    /// The rule probably does not apply to the trace's Flink version.
    pub version_mismatch: Option<String>,
    /// Whose class (or table factory) the message names.
    pub culprit: Option<String>,
}

/// [`FindingNotes`] of finding `f` of the trace diagnosis `d`.
pub fn finding_notes(
    f: &crate::matcher::Finding,
    d: &crate::diagnose::TraceDiagnosis,
    lang: Lang,
) -> FindingNotes {
    FindingNotes {
        platform_assumed: f
            .platform_assumed
            .as_ref()
            .map(|_| lang.msgs().platform_assumed.to_owned()),
        version_mismatch: f
            .version_mismatch
            .as_ref()
            .map(|m| version_mismatch(m, &d.flink_version.summary, lang)),
        culprit: f
            .culprit
            .as_ref()
            .map(|c| culprit_sentence(c, d.flink, lang)),
    }
}

/// A component's name in Chinese: the names the component table builds from a package, a
/// logger or a connector id are translated, proper names (`Apache Kafka's client`, `Debezium`)
/// stay as they are.
fn component_name(c: &Component, flink: bool) -> String {
    let en = c.name_for(flink);
    if let Some(rest) = en.strip_prefix("the library in ") {
        format!("{rest} 中的库")
    } else if let Some(rest) = en.strip_prefix("the library that logs as ") {
        format!("日志名为 {rest} 的库")
    } else if let Some(rest) = en.strip_prefix("the connector ") {
        format!("连接器 {rest}")
    } else if en == "your own code" {
        "你自己的代码".to_owned()
    } else if en == "the JDK" {
        "JDK".to_owned()
    } else {
        en
    }
}

/// [`Phase::label`] in Chinese.
fn phase_label(p: Phase) -> &'static str {
    match p {
        Phase::CheckpointSync => "发生在做 checkpoint 时（同步阶段，在 task 线程上）",
        Phase::CheckpointAsync => "发生在写出 checkpoint 时（异步阶段）",
        Phase::CheckpointComplete => "发生在 checkpoint 完成时（notifyCheckpointComplete）",
        Phase::Restore => "发生在恢复状态时（initializeState）",
        Phase::Open => "发生在打开算子或函数时（open）",
        Phase::Processing => "发生在处理记录时",
        Phase::Close => "发生在关闭或结束算子时",
        Phase::Submission => "发生在构建或提交作业时（在客户端）",
        Phase::SqlPlanning => "发生在解析、校验或规划 SQL 时",
        Phase::Deserialization => "发生在反序列化记录时",
        Phase::Rpc => "发生在 Flink 进程之间的 RPC 中",
        Phase::Startup => "发生在启动集群或 TaskManager 时",
    }
}

/// [`Phase::implies`] in Chinese.
fn phase_implies(p: Phase) -> &'static str {
    match p {
        Phase::CheckpointSync => "这次 checkpoint 被拒绝（declined）。作业是否也会 failover，取决于 `execution.checkpointing.tolerable-failed-checkpoints`；要看的是算子的 `snapshotState`，时有时无的失败常常意味着状态被另一个线程修改了。",
        Phase::CheckpointAsync => "快照已经做了，但没能写出去：该查的是 checkpoint 存储（文件系统、凭证、空间、超时），而不是算子的代码。",
        Phase::CheckpointComplete => "checkpoint 本身成功了；失败的是它之后运行的逻辑（sink 提交事务、source 提交 offset）。到这个 checkpoint 为止的数据是安全的；恢复时提交可能会重试。",
        Phase::Restore => "作业无法从它的 checkpoint 或 savepoint 启动：在状态、序列化器或作业图重新匹配之前，每次重启都会以同样的方式失败。",
        Phase::Open => "task 在处理任何记录之前就失败了：原因是配置、连通性或缺少某个类，而不是数据。",
        Phase::Processing => "它取决于记录：某条特定的记录或负载触发了它。每次从同一个 checkpoint 重启后都可能再次出现。",
        Phase::Close => "它发生在 task 关闭期间，常常是另一个失败的后果：请找这次 failover 的第一个异常。",
        Phase::Submission => "作业根本没有启动：问题在作业图、客户端的 classpath 或与集群的连接，而不在运行中的作业。",
        Phase::SqlPlanning => "语句根本没有运行：planner 拒绝了它。要改的是查询、表定义或连接器选项。",
        Phase::Deserialization => "有一条记录读不回来：schema 变了、序列化器不对称，或者数据损坏。",
        Phase::Rpc => "某个 Flink 进程没有及时应答或已经不在了：请看另一端（GC 停顿、被杀掉的容器、网络）。",
        Phase::Startup => "进程没能起来：原因是配置、资源或环境。",
    }
}

/// [`FollowOn::sentence`] in Chinese.
fn follow_on(f: FollowOn) -> String {
    let what = match f {
        FollowOn::TaskCancelled => "task 被取消了：这是 failover 或取消作业的后果，不是原因。",
        FollowOn::BuffersReleased => "task 的网络缓冲区因为 task 正在被取消而被释放：这是 failover 的后果，不是原因。",
        FollowOn::JobCancelled => "作业被取消了：请找出原因（有人取消了它，或者之前先发生了某个失败）。",
        FollowOn::TaskNotRunning => "这条消息到达时 task 已经不在运行：这是 failover 的后果。",
        FollowOn::Interrupted => "线程被中断了，Flink 取消 task 时就会这样做：通常是 failover 的后果。",
        FollowOn::Cancelled => "有东西被取消了，通常是因为 task 或作业正在被取消：这是后果，不是原因。",
        FollowOn::PeerGone => "另一个 TaskManager 没了：一个 TaskManager 挂掉时，它的对端看到的就是这个。请看那个 TaskManager 的日志（因内存被杀、崩溃、长时间 GC）。",
        FollowOn::TaskManagerShuttingDown => "TaskManager 正在关闭：请找出原因（它的日志，以及资源管理器的日志）。",
    };
    format!("{what}请在 JobManager 日志中找第一个失败：作业进入运行状态之后的第一个异常。")
}

/// [`WhereTo::sentence`] in Chinese.
fn where_to(w: &WhereTo, name: &str, flink: bool) -> String {
    match (w, flink) {
        (WhereTo::Settings { tracker }, _) => {
            let search = match tracker {
                Some(t) => format!("只有当消息看不明白时，再去搜它的 issue（{t}）。"),
                None => String::new(),
            };
            format!(
                "这个异常说的是传给 {name} 的配置或凭证不对，而不是 {name} 坏了：它的消息指出了要改什么\
                 （在 Flink 作业中，通常是透传给客户端的某个连接器选项）。{search}"
            )
        }
        (WhereTo::UserCode, true) => "这是你自己的代码：从那一帧看起。如果你的代码只是转发了 Flink 交给它的东西，请带上完整的堆栈和 Flink 版本到 user-zh@flink.apache.org（或 user@flink.apache.org）邮件列表提问。".to_owned(),
        (WhereTo::UserCode, false) => "这是你自己的代码：从那一帧看起。".to_owned(),
        (WhereTo::Flink { tracker }, _) => format!(
            "请在 Flink 的 JIRA（{tracker}）和 user@flink.apache.org、user-zh@flink.apache.org 的邮件归档中搜索这条消息；如果没有匹配的，带上完整的 JobManager 和 TaskManager 日志以及 Flink 版本到邮件列表提问。"
        ),
        (WhereTo::Jdk, true) => "线索在消息里。请带上它、完整的 JobManager 和 TaskManager 日志以及 Flink 版本到 user-zh@flink.apache.org（或 user@flink.apache.org）邮件列表提问。".to_owned(),
        (WhereTo::Jdk, false) => "线索在消息里。".to_owned(),
        (WhereTo::Component { tracker }, true) => match tracker {
            Some(t) => format!(
                "这是 {name} 的代码，不是 Flink 本身的：请核对它的版本与你的 Flink 版本是否匹配，搜索它的 issue（{t}），如果没有匹配的，就带上堆栈去那里报告。"
            ),
            None => format!(
                "这是 {name} 的代码，不是 Flink 本身的：请核对它的版本与你的 Flink 版本是否匹配，并搜索它的 issue tracker。"
            ),
        },
        (WhereTo::Component { tracker }, false) => match tracker {
            Some(t) => format!("这是 {name} 的代码：搜索它的 issue（{t}），如果没有匹配的，就带上堆栈去那里报告。"),
            None => format!("这是 {name} 的代码：请核对它的版本，并搜索它的 issue tracker。"),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trace(text: &str) -> Trace {
        crate::parse::parse(text).traces.remove(0)
    }

    fn has_latin_prose(s: &str) -> bool {
        // Three lower-case Latin words in a row outside code spans and URLs.
        let mut plain = String::new();
        let mut code = false;
        for c in s.chars() {
            if c == '`' {
                code = !code;
            } else if !code {
                plain.push(c);
            }
        }
        plain
            .split_whitespace()
            .filter(|w| !w.contains("://") && !w.contains('@'))
            .collect::<Vec<_>>()
            .windows(3)
            .any(|w| w.iter().all(|x| x.chars().all(|c| c.is_ascii_lowercase())))
    }

    #[test]
    fn every_part_of_the_answer_is_chinese_and_keeps_the_names() {
        let cases = [
            "java.lang.RuntimeException: Buffer pool is destroyed.\n\tat org.apache.flink.runtime.io.network.buffer.LocalBufferPool.requestMemorySegment(LocalBufferPool.java:1)\n",
            "java.lang.IllegalStateException: x\n\tat com.acme.Enricher.map(Enricher.java:12)\n\tat org.apache.flink.streaming.api.operators.StreamMap.processElement(StreamMap.java:38)\n",
            "org.apache.kafka.common.config.ConfigException: Missing required configuration \"bootstrap.servers\" which has no default value.\n\tat org.apache.kafka.common.config.ConfigDef.parse(ConfigDef.java:493)\n",
            "java.lang.OutOfMemoryError: Metaspace\n",
            "java.lang.NullPointerException\n\tat org.apache.paimon.flink.sink.StoreSinkWriteImpl.prepareCommit(StoreSinkWriteImpl.java:200)\n\tat org.apache.flink.streaming.runtime.tasks.SubtaskCheckpointCoordinatorImpl.checkpointState(SubtaskCheckpointCoordinatorImpl.java:300)\n",
        ];
        for text in cases {
            let t = trace(text);
            for flink in [true, false] {
                let a = answer::answer(&t, flink, None).expect("an answer");
                let en = answer::sentences(&a, &t);
                let zh = no_rule_sentences(&a, &t, Lang::Zh);
                assert_eq!(en.len(), zh.len(), "{text}");
                assert_eq!(no_rule_sentences(&a, &t, Lang::En), en);
                for s in &zh {
                    assert!(!has_latin_prose(s), "English left in {s:?}");
                    for code in s.split('`').skip(1).step_by(2) {
                        assert!(!code.is_empty());
                    }
                }
                // Every code span and URL of the English is in the Chinese too.
                let spans = |v: &[String]| -> Vec<String> {
                    v.iter()
                        .flat_map(|s| {
                            s.split('`')
                                .skip(1)
                                .step_by(2)
                                .map(str::to_owned)
                                .collect::<Vec<_>>()
                        })
                        .collect()
                };
                assert_eq!(spans(&en), spans(&zh), "{text}");
            }
        }
    }

    #[test]
    fn the_culprit_is_named_in_chinese_with_its_class_as_printed() {
        for (class, connector) in [
            ("org.apache.iceberg.common.DynClasses$Builder", false),
            ("com.acme.Job", false),
            ("postgres-cdc", true),
        ] {
            let c = crate::matcher::Culprit {
                class: class.to_owned(),
                connector,
                component: if connector {
                    crate::component::of_connector_identifier(class)
                } else {
                    crate::component::of_class(class)
                },
            };
            let zh = culprit_sentence(&c, true, Lang::Zh);
            assert!(zh.contains(&format!("`{class}`")), "{zh}");
            assert!(!has_latin_prose(&zh), "{zh}");
            assert_eq!(culprit_sentence(&c, true, Lang::En), c.sentence(true));
        }
    }

    #[test]
    fn what_read_the_text_as_flink_s_is_said_in_chinese_with_its_line() {
        // The metaspace message of Flink's TaskManager (tests/corpus/memory), as a mail quotes it.
        let text = "Error message:\njava.lang.OutOfMemoryError: Metaspace. The metaspace out-of-memory error has occurred. 'taskmanager.memory.jvm-metaspace.size' configuration option should be increased.\n";
        let d = crate::diagnose(text);
        let t = &d.traces[0];
        let e = t.evidence.first().expect("evidence of Flink");
        let index = crate::span::LineIndex::new(text);
        let zh = evidence_at(e, &index, Lang::Zh);
        assert!(zh.ends_with("（第 2 行）"), "{zh}");
        assert!(!has_latin_prose(&zh), "{zh}");
        assert_eq!(evidence_at(e, &index, Lang::En), e.describe_at(&index));
    }

    #[test]
    fn a_version_mismatch_is_said_in_chinese_for_every_rule_with_bounds() {
        let mut said = 0;
        for rule in crate::rules::catalogue() {
            for v in ["1.0.0", "9.9.0"] {
                let version = crate::version::FlinkVersion {
                    exact: Some(v.to_owned()),
                    min: Some(v.to_owned()),
                    max: Some(v.to_owned()),
                    summary: v.to_owned(),
                    reasons: Vec::new(),
                };
                let m = crate::version::mismatch(
                    rule.def.since.as_deref(),
                    &rule.def.fixed_in,
                    &version,
                );
                if let Some(m) = m {
                    assert_eq!(version_mismatch(&m, v, Lang::En), m.sentence(v));
                    let zh = version_mismatch(&m, v, Lang::Zh);
                    assert!(zh.contains(v) && !has_latin_prose(&zh), "{zh}");
                    said += 1;
                }
            }
        }
        assert!(said > 0, "no rule has version bounds to test");
    }

    #[test]
    fn made_up_component_names_are_translated_and_proper_names_kept() {
        let t = trace(
            "java.lang.IllegalStateException: x\n\tat io.grpc.internal.Foo.bar(Foo.java:1)\n",
        );
        let a = answer::answer(&t, false, None).expect("an answer");
        let zh = no_rule_sentences(&a, &t, Lang::Zh).join("\n");
        assert!(zh.contains("`io.grpc.internal` 中的库"), "{zh}");
        let t = trace("org.apache.kafka.common.errors.TimeoutException: Timeout expired\n");
        let a = answer::answer(&t, false, None).expect("an answer");
        assert!(no_rule_sentences(&a, &t, Lang::Zh)[0].contains(&a.component.name));
    }
}
