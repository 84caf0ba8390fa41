//! The page's and the replies' languages: English and Simplified Chinese (for traces pasted
//! from the user-zh@flink.apache.org list), and every fixed text the page and the replies print,
//! in both.
//!
//! The texts are one struct of `&'static str` per language ([`Messages`], [`EN`], [`ZH`]): a
//! key missing from either language is a compile error, never a blank at run time. Texts with
//! numbers or names in them are methods of [`Lang`], one `match` each. Rule prose is not here:
//! a rule's Chinese is data beside it (`rules/<id>/rule.zh.toml`), read through [`rule_text`].
//! Pure: no Yew, no browser; the page, the CLI and the tests share it.

mod no_rule;

pub use no_rule::{
    culprit_sentence, evidence_at, finding_notes, no_rule_sentences, version_mismatch, FindingNotes,
};

use crate::number::OneDecimal;
use crate::rules::schema::{Diagram, Explanation, Prose};
use crate::rules::Rule;
use serde::{Deserialize, Serialize};

/// A language of the page and the replies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    /// English (the default, and the fallback of every rule without a translation).
    #[default]
    En,
    /// Simplified Chinese.
    Zh,
}

impl Lang {
    /// The language for a browser's preferred languages (`navigator.languages`, most preferred
    /// first, else `navigator.language`): Chinese when the first starts with `zh` (`zh`,
    /// `zh-CN`, `zh-Hans-CN`, any case), English otherwise.
    pub fn from_browser<'a>(tags: impl IntoIterator<Item = &'a str>) -> Lang {
        match tags.into_iter().map(str::trim).find(|t| !t.is_empty()) {
            Some(t) if t.get(..2).is_some_and(|p| p.eq_ignore_ascii_case("zh")) => Lang::Zh,
            _ => Lang::En,
        }
    }

    /// The code kept in the browser and given to `--lang`: `en` or `zh`.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh",
        }
    }

    /// The language of a [`Lang::code`] (`en`, `zh`; also `zh-CN`, `EN`…); `None` for others.
    pub fn from_code(code: &str) -> Option<Lang> {
        let base = code.trim().split(['-', '_']).next().unwrap_or("");
        if base.eq_ignore_ascii_case("zh") {
            Some(Lang::Zh)
        } else if base.eq_ignore_ascii_case("en") {
            Some(Lang::En)
        } else {
            None
        }
    }

    /// The value of `<html lang>`: `en` or `zh-CN`.
    pub fn html_lang(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh-CN",
        }
    }

    /// True for English (serde leaves the default language out).
    pub fn is_en(&self) -> bool {
        *self == Lang::En
    }

    /// The page's title on the diagnoser (`Trace Doctor — Flink and JVM stack traces explained`).
    pub fn home_title(self) -> String {
        format!("Trace Doctor — {}", self.msgs().title_home)
    }

    /// The fixed texts of this language.
    pub fn msgs(self) -> &'static Messages {
        match self {
            Lang::En => &EN,
            Lang::Zh => &ZH,
        }
    }

    /// `n` and its noun: `1 thread`, `2 threads` (Chinese: `2 个线程`, no plural).
    pub fn count(self, n: usize, one: &str, many: &str, zh: &str) -> String {
        match self {
            Lang::En => crate::wording::plural(n, one, many),
            Lang::Zh => format!("{n} {zh}"),
        }
    }

    /// A fold of `n` frames: `12 Flink runtime frames`, `3 frames shared with the enclosing
    /// exception ("... more")` when all were restored from `... N more`; `group` when all are
    /// of one kind of code.
    pub fn fold_label(
        self,
        n: usize,
        group: Option<crate::frames::FrameGroup>,
        restored: bool,
    ) -> String {
        use crate::frames::FrameGroup;
        match self {
            Lang::En => {
                let what = group.map(|g| format!("{} ", g.label())).unwrap_or_default();
                let s = if n == 1 { "" } else { "s" };
                if restored {
                    format!("{n} {what}frame{s} shared with the enclosing exception (\"... more\")")
                } else {
                    format!("{n} {what}frame{s}")
                }
            }
            Lang::Zh => {
                let what = match group {
                    Some(FrameGroup::Jdk) => " JDK ",
                    Some(FrameGroup::Flink) => " Flink 运行时",
                    Some(FrameGroup::Serialization) => "序列化库",
                    Some(FrameGroup::Scala) => " Scala / Akka ",
                    Some(FrameGroup::Library) => "库",
                    Some(FrameGroup::User) => "用户代码",
                    None => "",
                };
                if restored {
                    format!("{n} 个{what}帧，与外层异常共有（\"... more\"）")
                } else {
                    format!("{n} 个{what}帧")
                }
            }
        }
    }

    /// What a long message leaves out: `… 98,000 more characters (see the input, lines 3–9)`,
    /// or `left out here` when the message's end is shown after it (`tail`); `lines` as
    /// [`crate::view::LineRange::label`] prints them.
    pub fn chars_left_out(
        self,
        chars: usize,
        lines: &str,
        several_lines: bool,
        tail: bool,
    ) -> String {
        let n = crate::wording::thousands(chars);
        match self {
            Lang::En => {
                let s = if chars == 1 { "" } else { "s" };
                let l = if several_lines { "lines" } else { "line" };
                if tail {
                    format!("… {n} character{s} left out here (see the input, {l} {lines})")
                } else {
                    format!("… {n} more character{s} (see the input, {l} {lines})")
                }
            }
            Lang::Zh => {
                if tail {
                    format!("… 这里省略了 {n} 个字符（见输入的第 {lines} 行）")
                } else {
                    format!("… 还有 {n} 个字符（见输入的第 {lines} 行）")
                }
            }
        }
    }

    /// The full stop after `text` in a reply: Chinese `。` only when the language is Chinese and
    /// the text is (a rule without a translation keeps its English title, and its `.`).
    pub fn stop_after(self, text: &str) -> &'static str {
        if self == Lang::Zh && text.chars().any(crate::parse::is_cjk_ideograph) {
            "。"
        } else {
            "."
        }
    }

    /// A parser problem ([`crate::parse::Problem`]) as the page lists it.
    pub fn problem(self, p: &crate::parse::Problem) -> String {
        use crate::parse::ProblemKind as K;
        if self == Lang::En {
            return p.message.clone();
        }
        match p.kind {
            K::PythonTraceback => "Python traceback（PyFlink）：按文本显示，不作为 Java 堆栈读取".into(),
            K::FramesWithoutHeader => "这些堆栈帧上方没有异常行（堆栈被截断，或被其他行打断）".into(),
            K::HeaderWithoutClass => "异常行没有类名".into(),
            K::FrameWithoutLocation => "堆栈帧没有位置（没有 \"(\"）".into(),
            K::RestoreBudgetSpent { n, restored } => format!(
                "\"... {n} more\" 没有还原：这个堆栈已经从 \"... more\" 行还原了 {restored} 个帧（上限）"
            ),
            K::MoreThanEnclosing { n, has, restored } => format!(
                "\"... {n} more\"，但外层异常只有 {has} 个帧（还原了 {restored} 个）"
            ),
        }
    }

    /// What a title says of its lines to screen readers: `, line 42`, `, lines 46 to 48`.
    pub fn spoken_lines(self, first: usize, last: usize) -> String {
        match (self, first == last) {
            (Lang::En, true) => format!(", line {first}"),
            (Lang::En, false) => format!(", lines {first} to {last}"),
            (Lang::Zh, true) => format!("，第 {first} 行"),
            (Lang::Zh, false) => format!("，第 {first} 到 {last} 行"),
        }
    }

    /// Under a throwable whose frames were restored from `... n more`.
    pub fn restored_note(self, n: usize) -> String {
        match self {
            Lang::En => format!(
                "{} restored from \"... {n} more\" (shared with the enclosing exception, by Java's rule) {} marked ↻.",
                crate::wording::plural(n, "frame", "frames"),
                if n == 1 { "is" } else { "are" }
            ),
            Lang::Zh => format!(
                "从 \"... {n} more\" 还原的 {n} 个帧（按 Java 的规则与外层异常共有）标记为 ↻。"
            ),
        }
    }

    /// Under a list of throwables left out, when more are left out than listed.
    pub fn and_more_in_input(self, n: usize) -> String {
        match self {
            Lang::En => format!("… and {n} more (see the input)."),
            Lang::Zh => format!("… 还有 {n} 个（见输入）。"),
        }
    }

    /// A file that is not UTF-8 (nor GBK), read with `n` characters replaced.
    pub fn file_not_utf8(self, n: usize) -> String {
        match self {
            Lang::En => format!(
                "This file is not UTF-8: {} could not be read and show as �. If it is in another encoding (Latin-1, GBK), save it as UTF-8 and open it again.",
                crate::wording::plural(n, "character", "characters")
            ),
            Lang::Zh => format!(
                "这个文件不是 UTF-8 编码：有 {n} 个字符无法读取，显示为 �。如果它是其他编码（GBK、Latin-1），请另存为 UTF-8 后再打开。"
            ),
        }
    }

    /// A log line standing in for an exception: `ERROR log line of o.a.f.Foo`.
    pub fn logged_line(self, level: &str, logger: &str) -> String {
        match self {
            Lang::En => format!("{level} log line of {logger}"),
            Lang::Zh => format!("{logger} 打印的 {level} 日志"),
        }
    }

    /// Throwables of a long trace not shown in full: `478 more causes, not shown in full`;
    /// `kind` is `cause`, `suppressed` or anything else for throwables in general.
    pub fn more_throwables(self, n: usize, kind: &str) -> String {
        let count = crate::wording::thousands(n);
        match self {
            Lang::En => {
                let what = match (kind, n) {
                    ("cause", 1) => "cause",
                    ("cause", _) => "causes",
                    ("suppressed", 1) => "suppressed throwable",
                    ("suppressed", _) => "suppressed throwables",
                    (_, 1) => "throwable",
                    _ => "throwables",
                };
                format!("{count} more {what}, not shown in full")
            }
            Lang::Zh => {
                let what = match kind {
                    "cause" => " cause 异常",
                    "suppressed" => "被抑制（suppressed）的异常",
                    _ => "异常",
                };
                format!("还有 {count} 个{what}没有完整显示")
            }
        }
    }

    /// Status line while a big text is read: `Diagnosing 10.2 MB…`.
    pub fn diagnosing(self, size: &str) -> String {
        match self {
            Lang::En => format!("Diagnosing {size}…"),
            Lang::Zh => format!("正在诊断 {size}…"),
        }
    }

    /// Status line: the worker is reading the traces.
    pub fn diagnosing_reading(self, size: &str) -> String {
        match self {
            Lang::En => format!("Diagnosing {size}… reading the traces"),
            Lang::Zh => format!("正在诊断 {size}… 正在读取堆栈"),
        }
    }

    /// Status line: the worker is matching rules.
    pub fn diagnosing_matching(
        self,
        size: &str,
        percent: usize,
        done: usize,
        total: usize,
    ) -> String {
        match self {
            Lang::En => {
                format!("Diagnosing {size}… {percent}% — matching rules: {done} of {total} traces")
            }
            Lang::Zh => {
                format!("正在诊断 {size}… {percent}% — 匹配规则：第 {done} / {total} 个堆栈")
            }
        }
    }

    /// Status line: the worker is preparing the result.
    pub fn diagnosing_building(self, size: &str) -> String {
        match self {
            Lang::En => format!("Diagnosing {size}… 100% — preparing the result"),
            Lang::Zh => format!("正在诊断 {size}… 100% — 正在生成结果"),
        }
    }

    /// Status line when the diagnosis failed.
    pub fn could_not_diagnose(self, why: &str) -> String {
        match self {
            Lang::En => format!("Could not diagnose this text: {why}."),
            Lang::Zh => format!("无法诊断这段文本：{why}。"),
        }
    }

    /// Status line when done: `1 distinct trace read, diagnosed — 3.2 ms.`
    pub fn done(self, traces: usize, diagnosed: usize, ms: f64) -> String {
        match self {
            Lang::En => {
                let t = if traces == 1 {
                    "1 distinct trace".to_owned()
                } else {
                    format!("{traces} distinct traces")
                };
                let known = match (traces, diagnosed) {
                    (1, 1) => "diagnosed".to_owned(),
                    (1, _) => "no known diagnosis".to_owned(),
                    (_, f) => format!("{f} with a diagnosis"),
                };
                format!("{t} read, {known} — {} ms.", OneDecimal(ms))
            }
            Lang::Zh => {
                let known = match (traces, diagnosed) {
                    (1, 1) => "已诊断".to_owned(),
                    (1, _) => "没有已知诊断".to_owned(),
                    (_, f) => format!("其中 {f} 个有诊断"),
                };
                format!(
                    "读取了 {traces} 个不同的堆栈，{known} — {} ms。",
                    OneDecimal(ms)
                )
            }
        }
    }

    /// Status line when done with a thread dump.
    pub fn done_thread_dump(self, threads: usize, stacks: usize, ms: f64) -> String {
        match self {
            Lang::En => format!(
                "Thread dump: {}, {} — {} ms.",
                crate::wording::plural(threads, "thread", "threads"),
                crate::wording::plural(stacks, "distinct stack", "distinct stacks"),
                OneDecimal(ms)
            ),
            Lang::Zh => format!(
                "线程转储：{threads} 个线程，{stacks} 种不同的栈 — {} ms。",
                OneDecimal(ms)
            ),
        }
    }

    /// The "Rules (82)" link of the header.
    pub fn nav_rules(self, n: usize) -> String {
        match self {
            Lang::En => format!("Rules ({n})"),
            Lang::Zh => format!("规则（{n}）"),
        }
    }

    /// The note under the input when the text is too large to keep.
    pub fn kept_too_large(self, bytes: usize) -> String {
        let mb = bytes as f64 / 1e6;
        match self {
            Lang::En => format!(
                "This text ({mb:.1} MB) is too large to keep in the browser: a reload would lose it."
            ),
            Lang::Zh => format!("这段文本（{mb:.1} MB）太大，无法保存在浏览器中：刷新页面会丢失。"),
        }
    }

    /// The note under the input when a line of the text is longer than the text box can draw
    /// (`chars`: that line's length in characters; [`crate::app`]'s `LONG_LINE`): Chromium lays
    /// out no wider than 2^25 pixels, and leaves such a line, even wrapped, undrawn.
    pub fn line_too_long(self, chars: usize) -> String {
        let n = crate::wording::thousands(chars);
        match self {
            Lang::En => format!(
                "A line of this text is {n} characters long, more than the text box can draw: it may look empty. The diagnosis reads all of it."
            ),
            Lang::Zh => format!(
                "这段文本有一行长达 {n} 个字符，超出了文本框能绘制的长度，文本框可能看起来是空的。诊断会读取全部内容。"
            ),
        }
    }

    /// A file larger than the page reads ([`crate::app`]'s limit): its size and what to do.
    pub fn file_too_large(self, bytes: f64, limit_mb: usize) -> String {
        let mb = bytes / 1e6;
        match self {
            Lang::En => format!(
                "This file is {mb:.0} MB; the page reads files up to {limit_mb} MB. Open the part of the log around the failure instead (for example `grep -n -B 20 -A 200 Exception`)."
            ),
            Lang::Zh => format!(
                "这个文件有 {mb:.0} MB；本页面最多读取 {limit_mb} MB 的文件。请只打开日志中故障附近的部分（例如 `grep -n -B 20 -A 200 Exception` 的结果）。"
            ),
        }
    }

    /// A trace card's heading: `Trace 1 · lines 3–40 · seen 2 times`.
    pub fn trace_heading(
        self,
        number: usize,
        stack: bool,
        lines: Option<(usize, usize)>,
        seen: (usize, bool),
    ) -> String {
        match self {
            Lang::En => {
                let what = if stack { "Stack" } else { "Trace" };
                let lines = lines.map_or(String::new(), |(a, b)| format!(" · lines {a}–{b}"));
                let seen = match seen {
                    (1, _) => String::new(),
                    (n, true) => format!(" · {n} threads with this stack"),
                    (n, false) => format!(" · seen {n} times"),
                };
                format!("{what} {number}{lines}{seen}")
            }
            Lang::Zh => {
                let what = if stack { "栈" } else { "堆栈" };
                let lines = lines.map_or(String::new(), |(a, b)| format!(" · 第 {a}–{b} 行"));
                let seen = match seen {
                    (1, _) => String::new(),
                    (n, true) => format!(" · {n} 个线程是这个栈"),
                    (n, false) => format!(" · 出现 {n} 次"),
                };
                format!("{what} {number}{lines}{seen}")
            }
        }
    }

    /// A trace card's name for screen readers: `Trace 3`.
    pub fn trace_label(self, number: usize) -> String {
        match self {
            Lang::En => format!("Trace {number}"),
            Lang::Zh => format!("堆栈 {number}"),
        }
    }

    /// A thread's heading: `Thread "main"`.
    pub fn thread_heading(self, name: &str) -> String {
        match self {
            Lang::En => format!("Thread \"{name}\""),
            Lang::Zh => format!("线程 \"{name}\""),
        }
    }

    /// A thread's state: `State: RUNNABLE`.
    pub fn thread_state(self, state: Option<&str>) -> String {
        match (self, state) {
            (Lang::En, s) => format!("State: {}", s.unwrap_or("not printed")),
            (Lang::Zh, s) => format!("状态：{}", s.unwrap_or("未打印")),
        }
    }

    /// The summary of a finding's evidence: `Why this rule matched (rule-id)`.
    pub fn why_matched(self, rule: &str) -> String {
        match self {
            Lang::En => format!("Why this rule matched ({rule})"),
            Lang::Zh => format!("为什么匹配这条规则（{rule}）"),
        }
    }

    /// The link from a finding to its rule's page.
    pub fn about_rule(self, rule: &str) -> String {
        match self {
            Lang::En => format!("About this rule ({rule}) in the catalog"),
            Lang::Zh => format!("在规则库中查看这条规则（{rule}）"),
        }
    }

    /// ` line 42` after a frame's name.
    pub fn line_no(self, line: usize) -> String {
        match self {
            Lang::En => format!(" line {line}"),
            Lang::Zh => format!(" 第 {line} 行"),
        }
    }

    /// The catalog's heading: `The knowledge base: 82 rules`.
    pub fn catalog_title(self, n: usize) -> String {
        match self {
            Lang::En => format!("The knowledge base: {n} rules"),
            Lang::Zh => format!("知识库：{n} 条规则"),
        }
    }

    /// The catalog filter's count: ` 3 of 82`.
    pub fn shown_of(self, shown: usize, total: usize) -> String {
        match self {
            Lang::En => format!(" {shown} of {total}"),
            Lang::Zh => format!(" {shown} / {total}"),
        }
    }

    /// An unknown rule id on its page.
    pub fn no_rule_named(self, id: &str) -> String {
        match self {
            Lang::En => format!("Trace Doctor has no rule \"{id}\". "),
            Lang::Zh => format!("Trace Doctor 没有名为 \"{id}\" 的规则。"),
        }
    }

    /// A rule page's example heading.
    pub fn example_title(self, name: &str) -> String {
        match self {
            Lang::En => format!("Example, diagnosed live ({name})"),
            Lang::Zh => format!("示例，实时诊断（{name}）"),
        }
    }

    /// A rule page's example leads with another rule.
    pub fn example_other_rule(self, rule: &str) -> String {
        match self {
            Lang::En => format!(
                "This example now leads with another rule ({rule}): the rule or the example needs a look."
            ),
            Lang::Zh => format!("这个示例现在首先匹配的是另一条规则（{rule}）：规则或示例需要检查。"),
        }
    }

    /// The Share panel: the link's length.
    pub fn link_length(self, chars: usize, long: bool) -> String {
        match (self, long) {
            (Lang::En, true) => {
                format!("{chars} characters: mail clients often break links longer than 2,000.")
            }
            (Lang::En, false) => format!("{chars} characters."),
            (Lang::Zh, true) => {
                format!("{chars} 个字符：超过 2,000 个字符的链接常被邮件客户端截断。")
            }
            (Lang::Zh, false) => format!("{chars} 个字符。"),
        }
    }

    /// The Share panel: the shorter link and what it leaves out.
    pub fn shorter_link(self, chars: usize, left_out: &str) -> String {
        match self {
            Lang::En => format!(
                "A shorter link ({chars} characters) keeps only what matters; it leaves out {left_out}."
            ),
            Lang::Zh => format!("更短的链接（{chars} 个字符）只保留关键部分；它省略了：{left_out}。"),
        }
    }

    /// `… and 12 more.` under a list cut short.
    pub fn and_more(self, n: usize) -> String {
        match self {
            Lang::En => format!("… and {n} more."),
            Lang::Zh => format!("……另有 {n} 项。"),
        }
    }

    /// The problems list's summary: `2 parts of the text could not be read fully`.
    pub fn problems(self, n: usize) -> String {
        match self {
            Lang::En => format!(
                "{n} part{} of the text could not be read fully",
                if n == 1 { "" } else { "s" }
            ),
            Lang::Zh => format!("文本中有 {n} 处无法完整读取"),
        }
    }

    /// The trace index's summary.
    pub fn index_summary(self, n: usize, threads: bool) -> String {
        match (self, threads) {
            (Lang::En, true) => {
                format!("{n} distinct thread stacks, blocked and Flink task threads first")
            }
            (Lang::En, false) => {
                format!("{n} distinct traces in this text, most interesting first")
            }
            (Lang::Zh, true) => format!("{n} 种不同的线程栈，阻塞线程和 Flink task 线程在前"),
            (Lang::Zh, false) => format!("这段文本中有 {n} 个不同的堆栈，最值得看的在前"),
        }
    }

    /// The trace index: traces not listed.
    pub fn index_not_listed(self, n: usize) -> String {
        match self {
            Lang::En => format!("… and {n} more, not listed."),
            Lang::Zh => format!("……另有 {n} 个，未列出。"),
        }
    }

    /// The trace index: only the first are shown in full.
    pub fn index_first_shown(self, n: usize) -> String {
        match self {
            Lang::En => format!(
                "The first {n} are shown in full below; paste a smaller part of the text to see one of the others."
            ),
            Lang::Zh => format!("下面完整显示前 {n} 个；要查看其他的，请只粘贴文本的一部分。"),
        }
    }

    /// Reply: a thread dump without a diagnosis.
    pub fn thread_dump_opening(self, threads: usize) -> String {
        match self {
            Lang::En => format!(
                "The text is a thread dump of {}, with no known diagnosis.",
                crate::wording::plural(threads, "thread", "threads")
            ),
            Lang::Zh => format!("这段文本是一个包含 {threads} 个线程的线程转储，没有已知诊断。"),
        }
    }

    /// Reply: what else the text holds (`2 other traces without a known diagnosis`, `5
    /// threads of a thread dump`), one sentence; `None` when nothing.
    pub fn also_holds(self, traces: usize, threads: usize) -> Option<String> {
        let mut others = Vec::new();
        match self {
            Lang::En => {
                if traces > 0 {
                    others.push(format!(
                        "{} without a known diagnosis",
                        crate::wording::plural(traces, "other trace", "other traces")
                    ));
                }
                if threads > 0 {
                    others.push(format!(
                        "{} of a thread dump",
                        crate::wording::plural(threads, "thread", "threads")
                    ));
                }
                (!others.is_empty())
                    .then(|| format!("The text also holds {}.", others.join(" and ")))
            }
            Lang::Zh => {
                if traces > 0 {
                    others.push(format!("{traces} 个没有已知诊断的其他堆栈"));
                }
                if threads > 0 {
                    others.push(format!("线程转储中的 {threads} 个线程"));
                }
                (!others.is_empty()).then(|| format!("文本中还有{}。", others.join("和")))
            }
        }
    }

    /// Reply: a deadlock a thread dump reports, one sentence.
    pub fn deadlock_sentence(self, line: usize) -> String {
        match self {
            Lang::En => format!("The thread dump reports a Java-level deadlock (line {line})."),
            Lang::Zh => format!("线程转储报告了一个 Java 级死锁（第 {line} 行）。"),
        }
    }

    /// Reply: `The same diagnosis applies to traces 2, 3 and 4.` (`list` already joined).
    pub fn same_diagnosis(self, n: usize, list: &str) -> String {
        match self {
            Lang::En => {
                let traces = if n == 1 { "trace" } else { "traces" };
                format!("The same diagnosis applies to {traces} {list}.")
            }
            Lang::Zh => format!("同样的诊断也适用于堆栈 {list}。"),
        }
    }

    /// Reply: `2, 3 and 5 more` after ten numbers.
    pub fn and_n_more(self, list: &str, more: usize) -> String {
        match self {
            Lang::En => format!("{list} and {more} more"),
            Lang::Zh => format!("{list} 等（另有 {more} 个）"),
        }
    }

    /// Short reply: the traces not told.
    pub fn reply_others(self, untold: usize) -> String {
        match self {
            Lang::En => format!(
                "The text holds {} more; the full diagnosis tells {}.",
                crate::wording::plural(untold, "trace", "traces"),
                if untold == 1 { "it" } else { "them" }
            ),
            Lang::Zh => format!("文本中还有 {untold} 个堆栈，完整诊断中有说明。"),
        }
    }

    /// Replies: the Flink version read from the trace.
    pub fn reply_version(self, v: &str) -> String {
        match self {
            Lang::En => format!("Flink version {v}, as read from the trace (please confirm)."),
            Lang::Zh => format!("从堆栈推断的 Flink 版本：{v}（请确认）。"),
        }
    }

    /// Long reply: a told trace's heading among several.
    pub fn digest_trace_heading(self, n: usize, lines: [usize; 2], seen: usize) -> String {
        match self {
            Lang::En => {
                let mut h = format!("Trace {n}, lines {}–{}", lines[0], lines[1]);
                if seen > 1 {
                    h.push_str(&format!(" (seen {seen} times)"));
                }
                h
            }
            Lang::Zh => {
                let mut h = format!("堆栈 {n}，第 {}–{} 行", lines[0], lines[1]);
                if seen > 1 {
                    h.push_str(&format!("（出现 {seen} 次）"));
                }
                h
            }
        }
    }

    /// Long reply: one trace seen several times.
    pub fn appears_times(self, n: usize) -> String {
        match self {
            Lang::En => format!("(This trace appears {n} times.)"),
            Lang::Zh => format!("（这个堆栈出现了 {n} 次。）"),
        }
    }

    /// Long reply: the context facts (`checkpoint 575`, `operator chain a -> b`, `subtask 18
    /// of 60 (attempt 0)`, `logged at …`), the names already rendered.
    pub fn context_fact(self, fact: ContextFact<'_>) -> String {
        match (self, fact) {
            (Lang::En, ContextFact::Checkpoint(id)) => format!("checkpoint {id}"),
            (Lang::En, ContextFact::Operator(o)) => format!("operator {o}"),
            (Lang::En, ContextFact::Chain(c)) => format!("operator chain {c}"),
            (Lang::En, ContextFact::Task(t)) => format!("task {t}"),
            (Lang::En, ContextFact::Subtask(s, p, Some(a))) => {
                format!("subtask {s} of {p} (attempt {a})")
            }
            (Lang::En, ContextFact::Subtask(s, p, None)) => format!("subtask {s} of {p}"),
            (Lang::En, ContextFact::Logged(t)) => format!("logged at {t}"),
            (Lang::Zh, ContextFact::Checkpoint(id)) => format!("检查点 {id}"),
            (Lang::Zh, ContextFact::Operator(o)) => format!("算子 {o}"),
            (Lang::Zh, ContextFact::Chain(c)) => format!("算子链 {c}"),
            (Lang::Zh, ContextFact::Task(t)) => format!("task {t}"),
            (Lang::Zh, ContextFact::Subtask(s, p, Some(a))) => {
                format!("子任务 {s}/{p}（第 {a} 次尝试）")
            }
            (Lang::Zh, ContextFact::Subtask(s, p, None)) => format!("子任务 {s}/{p}"),
            (Lang::Zh, ContextFact::Logged(t)) => format!("日志时间 {t}"),
        }
    }

    /// Long reply: the other rules that match too (`list` already joined).
    pub fn other_rules(self, list: &str) -> String {
        match self {
            Lang::En => format!("Other rules that match too: {list}."),
            Lang::Zh => format!("同样匹配的其他规则：{list}。"),
        }
    }

    /// How the cause chain names a throwable, for its key in the view model (`root cause`,
    /// `last printed`, `wrapped by`, `suppressed`, `thread`); other keys as they are.
    pub fn relation(self, key: &str) -> &str {
        if self == Lang::En {
            return key;
        }
        match key {
            "root cause" => "根本原因",
            "last printed" => "最后打印",
            "wrapped by" => "包装于",
            "suppressed" => "被抑制",
            "thread" => "线程",
            other => other,
        }
    }

    /// A suppressed throwable's relation: `suppressed in IOException`.
    pub fn suppressed_in(self, parent: &str) -> String {
        match self {
            Lang::En => format!("suppressed in {parent}"),
            Lang::Zh => format!("被抑制于 {parent}"),
        }
    }

    /// A reply ending with the shorter link: what the link leaves out.
    pub fn shortened_link_note(self, left_out: &str) -> String {
        match self {
            Lang::En => format!("(The link holds a shortened text: it leaves out {left_out}.)"),
            Lang::Zh => format!("（链接中是缩短后的文本：省略了 {left_out}。）"),
        }
    }

    /// A deadlock a thread dump reports.
    pub fn deadlock(self, line: usize) -> String {
        match self {
            Lang::En => format!("The thread dump reports a Java-level deadlock (line {line}): the threads it names are below, with their states and the locks they wait for in the text."),
            Lang::Zh => format!("线程转储报告了一个 Java 级死锁（第 {line} 行）：它提到的线程在下面，文本中有它们的状态和正在等待的锁。"),
        }
    }
}

/// A fact of the context, for [`Lang::context_fact`].
#[derive(Clone, Copy, Debug)]
pub enum ContextFact<'a> {
    /// Checkpoint id.
    Checkpoint(u64),
    /// One operator's name.
    Operator(&'a str),
    /// The operator chain, joined.
    Chain(&'a str),
    /// The task's name.
    Task(&'a str),
    /// Subtask, parallelism, attempt.
    Subtask(u32, u32, Option<u32>),
    /// The time printed.
    Logged(&'a str),
}

/// Declares [`Messages`] with one field per key, its English ([`EN`]) and Chinese ([`ZH`]) text
/// side by side, and [`Messages::entries`].
macro_rules! messages {
    ($( $(#[doc = $doc:expr])+ $key:ident: $en:expr, $zh:expr; )+) => {
        /// Every fixed text of the page and the replies, in one language.
        #[derive(Debug)]
        pub struct Messages {
            $( $(#[doc = $doc])+ pub $key: &'static str, )+
        }

        /// The English texts.
        pub const EN: Messages = Messages { $( $key: $en, )+ };

        /// The Chinese (Simplified) texts.
        pub const ZH: Messages = Messages { $( $key: $zh, )+ };

        impl Messages {
            /// Every text with its key's name, in declaration order (for tests and checks).
            pub fn entries(&self) -> Vec<(&'static str, &'static str)> {
                vec![ $( (stringify!($key), self.$key), )+ ]
            }
        }
    };
}

messages! {
    /// A file read as GB18030 (GBK) because it is not UTF-8.
    file_read_as_gbk: "This file is not UTF-8; it was read as GB18030 (GBK), the encoding Chinese Windows saves.", "这个文件不是 UTF-8 编码，已按 GB18030（GBK）读取。";
    /// Tooltip of a frame restored from `... N more`.
    restored_badge: "restored from ... N more", "从 ... N more 还原";
    /// Stands in for the class of frames printed without an exception line.
    no_header_frames: "(frames without an exception line)", "（没有异常行的堆栈帧）";
    /// Stands in for the class of a message printed without one.
    no_header_message: "(a message printed without an exception class)", "（没有异常类的消息）";
    /// Stands in for a trace with nothing readable.
    nothing_readable: "(nothing readable)", "（没有可读的内容）";
    /// Stands in for the class of a thread dump's thread.
    thread_stack: "the thread's stack", "线程的堆栈";
    // --- the header, the pages, the footer ------------------------------------------------
    /// The tab's title on the diagnoser, after "Trace Doctor — ".
    title_home: "Flink and JVM stack traces explained", "Flink 与 JVM 异常堆栈诊断";
    /// The tab's title of the catalog.
    title_rules: "Rules", "规则";
    /// The tab's title of an unknown rule.
    title_unknown_rule: "Unknown rule", "未知规则";
    /// The tab's title of an unknown route.
    title_not_found: "Page not found", "页面不存在";
    /// The header's navigation (screen readers).
    nav_label: "Pages", "页面";
    /// The header's link to the diagnoser.
    nav_diagnose: "Diagnose", "诊断";
    /// The language switch (screen readers).
    lang_switch_label: "Language", "语言";
    /// The tagline under the title.
    tagline: "Paste a Flink or JVM stack trace: the root cause, the frames that matter, and the fix. Runs entirely in your browser; nothing is sent anywhere.",
        "粘贴一段 Flink 或 JVM 异常堆栈：给出根本原因、关键的堆栈帧和修复方法。完全在浏览器中运行，不向任何地方发送数据。";
    /// The footer.
    footer: "Trace Doctor parses the text in this page with WebAssembly. Diagnoses cite Flink's docs and JIRA; check them against your version.",
        "Trace Doctor 在本页面中用 WebAssembly 解析文本。诊断引用了 Flink 文档和 JIRA，请对照你使用的版本核实。";
    /// An empty share link: heading.
    empty_link_heading: "This share link is empty", "这个分享链接是空的";
    /// An empty share link: what happened.
    empty_link_body: "The link ends right after #/s/: the trace it should carry was cut off (mail clients cut long links). Ask for the link again, or for the trace itself. ",
        "链接在 #/s/ 之后就结束了：它应携带的堆栈被截掉了（邮件客户端会截断长链接）。请对方重新发送链接，或直接发送堆栈。";
    /// Link back to the diagnoser.
    go_to_diagnoser: "Go to the diagnoser", "返回诊断页";
    /// After the link back, on an empty share link.
    own_text_kept: " (your own text is there as you left it).", "（你自己的文本仍保留原样）。";
    /// Unknown route: heading.
    not_found_heading: "Page not found", "页面不存在";
    /// Unknown route: what happened.
    not_found_body: "This link points to no page of Trace Doctor. ", "这个链接不指向 Trace Doctor 的任何页面。";
    /// Between two links.
    or: " or ", " 或 ";
    /// Link to the catalog.
    browse_rules: "browse the rules", "浏览规则";
    /// End of a sentence after a link.
    full_stop: ".", "。";
    /// Closes a notice.
    dismiss: "Dismiss", "关闭";
    /// The result column (screen readers).
    result_label: "Diagnosis", "诊断结果";
    /// The progress bar (screen readers).
    progress_label: "Diagnosis progress", "诊断进度";

    // --- share links opened -------------------------------------------------------------------
    /// A share link opened whole.
    link_opened: "Opened from a share link: the trace below came with the link.",
        "从分享链接打开：下面的堆栈来自该链接。";
    /// After [`Messages::link_opened`], when the person's own text can be restored.
    link_own_text: " Your own text is one click away (Restore previous text).",
        "你自己的文本点一下即可恢复（“恢复之前的文本”）。";
    /// A shortened share link opened: before the list of what it leaves out.
    link_shortened: "Opened from a shortened share link: it leaves out ",
        "从缩短的分享链接打开：它省略了 ";
    /// A shortened share link opened: after the list.
    link_shortened_end: ". Ask for the whole trace if those parts matter.",
        "。如果这些部分重要，请向对方要完整的堆栈。";
    /// A damaged link: what could be read is in the input, the own text can be restored.
    link_partial_restorable: " The part that could be read is in the input below; your own text is one click away (Restore previous text).",
        "能读出的部分已放入下方输入框；你自己的文本点一下即可恢复（“恢复之前的文本”）。";
    /// A damaged link: what could be read is in the input.
    link_partial: " The part that could be read is in the input below.",
        "能读出的部分已放入下方输入框。";
    /// A damaged link: nothing could be read.
    link_nothing: " Your own text is left as it was.", "你自己的文本保持不变。";

    // --- the status line --------------------------------------------------------------------
    /// Nothing typed yet.
    status_idle: "Paste a stack trace, or try the example.", "粘贴一段异常堆栈，或试试示例。";
    /// The person is typing.
    status_pending: "Reading…", "正在读取…";
    /// Done: no trace in the text.
    status_no_trace: "No stack trace found.", "没有找到异常堆栈。";
    /// The worker failed without saying why.
    unknown_error: "unknown error", "未知错误";

    // --- no trace -----------------------------------------------------------------------------
    /// Heading when the text holds no trace.
    no_trace_heading: "No stack trace found", "没有找到异常堆栈";
    /// What is looked for, before a frame line.
    no_trace_looks_for: "Trace Doctor looks for frame lines such as ", "Trace Doctor 查找的是这样的堆栈帧行：";
    /// What is looked for, between the frame line and the exception line.
    no_trace_under: " under an exception line such as ", "，位于这样的异常行之下：";
    /// What to paste.
    no_trace_paste: "Paste the whole trace, including the lines that start with \"at\" and \"Caused by:\". Your text is kept as you typed it.",
        "请粘贴完整的堆栈，包括以 \"at\" 和 \"Caused by:\" 开头的行。你的文本会按原样保留。";

    // --- the input ----------------------------------------------------------------------------
    /// The input section (screen readers).
    input_section: "Stack trace input", "异常堆栈输入";
    /// The text area's label.
    input_label: "Stack trace", "异常堆栈";
    /// The text area's placeholder.
    input_placeholder: "Paste a stack trace (log, mail, Flink web UI, REST JSON)…",
        "粘贴异常堆栈（日志、邮件、Flink Web UI、REST JSON）…";
    /// Puts the flagship example in.
    try_example: "Try the example", "试试示例";
    /// Empties the input.
    clear: "Clear", "清空";
    /// Brings the replaced text back.
    restore: "Restore previous text", "恢复之前的文本";
    /// Tooltip of [`Messages::restore`].
    restore_title: "Swap back the text that was replaced", "换回被替换掉的文本";
    /// Share panel: the label of the public address setting.
    public_base_label: "Public address of this page, for links others can open:", "本页面的公开地址（用于生成别人也能打开的链接）：";
    /// Share panel: the button that keeps the public address.
    public_base_save: "Use this address", "使用这个地址";
    /// Share panel: the public address is not an http(s) URL.
    public_base_invalid: "Not an http:// or https:// address.", "这不是 http:// 或 https:// 地址。";
    /// Share panel: the public address ends in a fragment.
    public_base_fragment: "Leave out the part from # on: each link puts its own #/s/… there.", "请去掉从 # 开始的部分：每个链接都要在那里放上自己的 #/s/…。";
    /// Share panel: the public address names a user or a password.
    public_base_credentials: "This address names a user or a password (before the @): every link and reply would carry them. Leave them out.", "这个地址里有用户名或密码（@ 之前的部分）：每个链接和回复都会带上它们。请把它们去掉。";
    /// Share panel: the public address has spaces, quotes or angle brackets.
    public_base_not_one_url: "An address has no spaces, quotes or angle brackets: give one URL.", "地址中不能有空格、引号或尖括号：请只填一个网址。";
    /// Share panel: the replies leave the link out.
    reply_without_link: "The replies below leave the link out: it would point at this machine. Set the public address above to put a link in them.", "下面的回复中没有附上链接：它会指向本机。在上面设置公开地址后，回复中才会附上链接。";
    /// The button that opens a log file from disk.
    open_file: "Open a file…", "打开文件…";
    /// Its tooltip.
    open_file_title: "Read a log or trace file from your disk (or drop it on the text area); it stays in this browser", "从本地磁盘读取日志或堆栈文件（也可以拖放到文本框上）；文件内容只留在本浏览器中";
    /// An empty file was opened.
    file_empty: "The file is empty: the input was left as it was.", "文件是空的：输入框中的内容保持不变。";
    /// A file that is not text was opened.
    file_not_text: "This file does not look like text (a log or a trace): the input was left as it was.", "这个文件看起来不是文本（日志或堆栈）：输入框中的内容保持不变。";
    /// A file could not be read.
    file_read_error: "The file could not be read.", "无法读取这个文件。";
    /// What the example is.
    example_hint: "Example: a checkpoint failing with ConcurrentModificationException in an async I/O operator.",
        "示例：异步 I/O 算子中的检查点因 ConcurrentModificationException 失败。";
    /// The text is kept.
    kept_yes: "Kept in this browser only, so a reload does not lose it.",
        "只保存在这个浏览器中，刷新页面不会丢失。";
    /// The browser refused to keep the text.
    kept_refused: "The browser does not let this page keep the text (storage is off or full): a reload would lose it.",
        "浏览器不允许本页面保存文本（存储已关闭或已满）：刷新页面会丢失。";

    // --- a trace --------------------------------------------------------------------------------
    /// Heading of a trace no rule matched.
    no_known_diagnosis: "No known diagnosis", "没有已知诊断";
    /// Before the last exception of a cut text.
    last_printed_label: "Last exception printed (the root cause is not in the text): ",
        "打印出的最后一个异常（根本原因不在文本中）：";
    /// Before the root cause.
    root_cause_label: "Root cause: ", "根本原因：";
    /// Before the search terms.
    search_for: "Search for ", "搜索 ";
    /// Between the search terms and the places to search.
    search_in: " in: ", "，可以在：";
    /// What to send: summary.
    settles_summary: "What settles it: send these with your question", "要确定原因，提问时请附上这些信息";
    /// What to send: versions.
    settles_versions: "Your Flink version, and the versions of the connectors and libraries in the trace.",
        "你的 Flink 版本，以及堆栈中出现的连接器和库的版本。";
    /// What to send: the whole trace and logs.
    settles_logs: "The whole trace, down to its last \"Caused by:\", and the JobManager and TaskManager logs around the failure (the first error, not only the last).",
        "完整的堆栈（直到最后一个 \"Caused by:\"），以及故障前后的 JobManager 和 TaskManager 日志（要第一个错误，而不只是最后一个）。";
    /// What to send: what the job does.
    settles_job: "What the job does at the operator that failed: the function or SQL, and what changed before it started failing.",
        "作业在失败的算子处做了什么：函数或 SQL，以及开始失败之前改动了什么。";
    /// A trace that shows no Flink.
    not_flink: "This trace shows no Flink code, and no general JVM rule matches it. The root cause and where it was thrown are shown first below.",
        "这个堆栈中没有 Flink 的代码，也没有通用的 JVM 规则与之匹配。下面先显示根本原因及其抛出位置。";
    /// Before what made the trace Flink's.
    read_as_flink: "Read as Flink's: ", "判断为 Flink 堆栈的依据：";
    /// The facts card (screen readers).
    facts_label: "Read from the trace", "从堆栈中读取的信息";
    /// How the version was read: summary.
    version_how: "How the version was read", "版本是如何推断的";
    /// The no-rule answer (screen readers).
    no_rule_answer_label: "What the frames show (not a rule)", "堆栈帧显示的信息（非规则）";
    /// Fact label: checkpoint.
    fact_checkpoint: "Checkpoint", "检查点";
    /// Fact label: operator chain.
    fact_operators: "Operator chain", "算子链";
    /// Fact label: subtask.
    fact_subtask: "Subtask", "子任务";
    /// Fact value: `18 of 60`, between the two numbers.
    fact_subtask_of: " of ", " / ";
    /// Fact label: attempt.
    fact_attempt: "Attempt", "尝试次数";
    /// Fact label: time.
    fact_time: "Time", "时间";
    /// Fact label: Flink version.
    fact_version: "Flink version", "Flink 版本";

    // --- a finding ------------------------------------------------------------------------------
    /// Before the further rules that matched.
    also_consistent: "Also consistent with:", "同样相符的诊断：";
    /// Heading of the highlighted frames.
    frames_that_matter: "The frames that matter", "关键的堆栈帧";
    /// Before a rule's versions.
    versions_label: "Versions: ", "适用版本：";
    /// Explanation: summary of the mechanism.
    why_it_happens: "Why it happens", "为什么会发生";
    /// Explanation: the frames read bottom-up.
    reading_bottom_up: "Reading the root cause bottom-up", "自下而上解读根本原因";
    /// Explanation: the mechanism.
    mechanism: "The mechanism", "机制";
    /// Explanation: fixes.
    fixes_best_first: "Fixes, best first", "修复方法（按推荐程度排序）";
    /// Explanation: what does not help.
    not_help: "What does not help", "没有用的做法";
    /// Explanation: when the diagnosis may be wrong.
    may_be_wrong: "When this diagnosis may be wrong", "这个诊断可能不对的情况";
    /// Explanation: references.
    references: "References", "参考资料";
    /// The catalog while the rules' prose is being loaded.
    loading_rules: "Loading the rules' explanations…", "正在加载规则说明……";
    /// A finding whose rule's explanation could not be loaded (only its id is shown).
    prose_missing: "This rule's explanation could not be loaded: reload the page. If this copy of the page lacks its prose folder, the rule's id above still names the diagnosis.", "未能加载这条规则的说明：请重新加载页面。如果这份页面副本缺少 prose 文件夹，上面的规则 id 仍然指明了诊断结果。";

    // --- the cause chain ------------------------------------------------------------------------
    /// Heading of a thread's stack.
    chain_stack: "Stack", "栈";
    /// Heading of a cut cause chain.
    chain_cut: "Cause chain, last printed first (the root cause is not in the text)",
        "异常链，最后打印的在前（根本原因不在文本中）";
    /// Heading of a cause chain.
    chain_root_first: "Cause chain, root cause first", "异常链，根本原因在前";
    /// Selects one line in the input.
    select_it: "Select it in the input", "在输入框中选中它";
    /// Selects lines in the input.
    select_them: "Select them in the input", "在输入框中选中这些行";

    // --- the diagram ----------------------------------------------------------------------------
    /// Above a diagram on narrow screens.
    diagram_scroll_hint: "Scroll sideways for the whole timeline →", "左右滑动查看完整时间线 →";
    /// The diagram's scroll box (screen readers).
    diagram_label: "Diagram (scrolls sideways on narrow screens)", "示意图（窄屏上可左右滑动）";
    /// The diagram's time axis.
    diagram_time: "time →", "时间 →";

    // --- the Share panel ------------------------------------------------------------------------
    /// The panel's summary line.
    share_summary: "Share: a link, or a reply for the mailing list or GitHub", "分享：链接，或用于邮件列表、GitHub 的回复";
    /// A Flink rule's finding on a text that shows nothing of whose it is
    /// ([`crate::diagnose::PLATFORM_ASSUMED`] in English).
    platform_assumed: "Nothing in this text shows which software printed it (no Flink frame, class, log line or message, and nothing of other JVM software): this finding assumes it comes from a Flink job. If it does not, the finding does not apply.",
        "这段文本看不出是哪个软件打印的（没有 Flink 的堆栈帧、类、日志行或消息，也没有其他 JVM 软件的痕迹）：这个诊断假定它来自 Flink 作业。如果不是，这个诊断就不适用。";
    /// The first screen's button to the Share panel.
    to_share: "Share / Reply", "分享 / 回复";
    /// Copying worked.
    copied: " Copied.", " 已复制。";
    /// Copying failed.
    copy_failed: " The browser did not let the page copy: select the text and copy it by hand.",
        " 浏览器不允许本页面复制：请选中文本手动复制。";
    /// Redaction found nothing.
    nothing_to_hide: "Nothing to hide was found (host names, IP and e-mail addresses, home paths, ids, secrets).",
        "没有发现需要隐藏的内容（主机名、IP 和邮箱地址、家目录路径、各类 ID、密钥）。";
    /// The panel is being updated.
    share_updating: "Updating for the text you changed…", "正在根据你修改后的文本更新…";
    /// The Share worker is making the link and the replies.
    share_preparing: "Making the link and the replies…", "正在生成链接和回复…";
    /// The Share worker could not start or answer (followed by the reason).
    share_failed: "The link and the replies could not be made in this browser: ", "无法在此浏览器中生成链接和回复：";
    /// Redaction: legend.
    before_sharing: "Before sharing", "分享之前";
    /// Redaction: the checkbox.
    hide_label: " Hide host names, IP and e-mail addresses, home paths, ids, tokens and passwords",
        " 隐藏主机名、IP 和邮箱地址、家目录路径、各类 ID、令牌和密码";
    /// Redaction: the preview's summary.
    preview_summary: "Preview what is replaced", "预览会被替换的内容";
    /// Preview column: line.
    col_line: "Line", "行";
    /// Preview column: what.
    col_what: "What", "类型";
    /// Preview column: original.
    col_in_text: "In your text", "你的文本中";
    /// Preview column: replacement.
    col_in_link: "In the link", "链接中";
    /// The link's label.
    link_label: "Link to this page with the trace in it (kept in the link's #fragment: no server sees it)",
        "包含堆栈的本页面链接（保存在链接的 # 片段中：服务器看不到）";
    /// Copies the link.
    copy_link: "Copy link", "复制链接";
    /// The page is served locally.
    local_link_note: "This page is served from this machine (or a private network), so the link opens only here: others cannot open it. Send the reply's text, or open the page from its public address to make a link for others.",
        "本页面来自本机（或内网），所以这个链接只能在这里打开，别人打不开。请发送回复的文本，或者从公开地址打开本页面来生成给别人的链接。";
    /// The page was opened from a file.
    file_link_note: "This page was opened from a file, so the link is only the part from # on: your file's folder stays out of it. Add it to the address of a Trace Doctor page on the web, or to this file's address on a machine that has it.",
        "本页面是从文件打开的，所以链接只有 # 之后的部分：不包含你的文件所在目录。请把它接在网上某个 Trace Doctor 页面的地址后面，或接在有这个文件的机器上该文件的地址后面。";
    /// Copies the shorter link.
    copy_short_link: "Copy the shorter link", "复制更短的链接";
    /// Copies the rule page's link.
    copy_catalog_link: "Copy a link to the rule's page (no trace in it)", "复制规则页面的链接（不含堆栈）";
    /// The short reply: what it is.
    short_reply_intro: "A short reply, as a committer writes it: the diagnosis, the decisive lines, the best fix, a question to confirm it, and the link:",
        "一份简短回复，就像 committer 写的那样：诊断、关键的几行、最佳修复、一个用于确认的问题，以及链接：";
    /// Copies the short reply as plain text.
    copy_plain: "Copy as plain text (mail)", "复制为纯文本（邮件）";
    /// Copies the short reply as Markdown.
    copy_markdown: "Copy as Markdown (GitHub)", "复制为 Markdown（GitHub）";
    /// Copies the short reply as JIRA markup.
    copy_jira: "Copy as JIRA markup", "复制为 JIRA 标记";
    /// Shows the short reply.
    show_reply: "Show the reply", "显示回复";
    /// The long reply's summary.
    long_reply_summary: "The long reply: every trace, all fixes, what does not help", "完整回复：所有堆栈、所有修复方法、没有用的做法";
    /// Copies the long reply as plain text.
    copy_plain_long: "Copy the long reply (mail)", "复制完整回复（邮件）";
    /// Copies the long reply as Markdown.
    copy_markdown_long: "Copy the long reply as Markdown", "复制完整回复为 Markdown";

    // --- the keyboard shortcuts ---------------------------------------------------------------
    /// The list's heading and the header's button.
    shortcuts_title: "Keyboard shortcuts", "键盘快捷键";
    /// Under the list.
    shortcuts_hint: "Shortcuts do not fire while you type in the trace input or a text box: Tab leaves it. Tab and Shift+Tab reach every control; Enter or Space opens and closes a section.",
        "在堆栈输入框或文本框中输入时快捷键不起作用：按 Tab 离开。Tab 和 Shift+Tab 可以到达每个控件；Enter 或空格键展开和收起一个区块。";
    /// Closes the list.
    close: "Close", "关闭";
    /// Shortcut: `/`.
    key_focus_input: "Go to the trace input (on the rules page: the filter)", "跳到堆栈输入框（在规则页面：跳到筛选框）";
    /// Shortcut: `j`/`n`.
    key_next_frame: "Next frame the diagnosis highlights", "下一个诊断高亮的堆栈帧";
    /// Shortcut: `k`/`p`.
    key_previous_frame: "Previous highlighted frame", "上一个高亮的堆栈帧";
    /// Shortcut: `o`.
    key_toggle: "Expand or collapse the focused group of frames, exception or section (Enter on its title does too)",
        "展开或收起当前聚焦的堆栈帧组、异常或区块（在标题上按 Enter 也可以）";
    /// Shortcut: `?`.
    key_help: "Show or hide this list", "显示或隐藏这个列表";
    /// Shortcut: `Esc`.
    key_close: "Close this list", "关闭这个列表";

    // --- the rule catalog ----------------------------------------------------------------------
    /// The catalog's introduction.
    catalog_intro: "Each rule names a failure Flink users bring to the mailing lists, how to recognise it in a stack trace, and how to fix it. Each page diagnoses the rule's example trace live, in this page.",
        "每条规则描述一种 Flink 用户在邮件列表中常问的故障：如何从异常堆栈中识别它，以及如何修复。每个规则页面都会在本页中实时诊断该规则的示例堆栈。";
    /// The filter's label.
    filter_label: "Filter ", "筛选 ";
    /// A rule for any JVM software (short).
    any_jvm: "any JVM", "任意 JVM";
    /// A rule for any JVM software (long).
    any_jvm_software: "any JVM software", "任意 JVM 软件";
    /// An unknown rule: heading.
    no_such_rule: "No such rule", "没有这条规则";
    /// Link to the catalog from an unknown rule.
    see_all_rules: "See all rules.", "查看所有规则。";
    /// Breadcrumb to the catalog.
    all_rules: "All rules", "所有规则";
    /// Rule fact: id.
    rule_id: "Id", "ID";
    /// Rule fact: category.
    rule_category: "Category", "类别";
    /// Rule fact: severity.
    rule_severity: "Severity", "严重程度";
    /// Rule fact: platform.
    rule_applies_to: "Applies to", "适用于";
    /// Rule fact: versions.
    rule_versions: "Flink versions", "Flink 版本";
    /// Rule fact: since.
    rule_since: "Since", "始于";
    /// Rule fact: fixed in.
    rule_fixed_in: "Fixed in", "修复于";
    /// Rule page: conditions heading.
    what_it_looks_for: "What it looks for", "匹配条件";
    /// Rule page: the example leads with its rule.
    example_ok: "This example is diagnosed by this rule, right now, in your browser.",
        "这个示例此刻正在你的浏览器中由这条规则诊断。";
    /// Rule page: no rule matches the example.
    example_none: "No rule matches this example any more: the rule or the example needs a look.",
        "已经没有规则匹配这个示例：规则或示例需要检查。";
    /// Rule page: the example (in the rule's prose file, like its explanation) could not be had.
    example_unavailable: "This rule's example could not be loaded: reload the page.",
        "未能加载这条规则的示例：请重新加载页面。";
    /// Rule page: opens the example in the diagnoser.
    open_example: "Open this example in the diagnoser", "在诊断页中打开这个示例";
    /// Rule page: the example's text.
    example_text: "The example's text", "示例文本";

    // --- the replies --------------------------------------------------------------------------
    /// Reply: no trace.
    reply_no_trace: "No stack trace found in the text.", "文本中没有找到异常堆栈。";
    /// Reply: asks for the trace.
    reply_ask_trace: "Could you send the whole stack trace, from the JobManager or TaskManager log, and your Flink version?",
        "能否发一下完整的异常堆栈（JobManager 或 TaskManager 日志里的）以及你用的 Flink 版本？";
    /// Reply: before the rule's title.
    reply_diagnosis: "Diagnosis: ", "诊断：";
    /// The short reply's lead when the finding assumes a Flink job (nothing in the text shows whose it is).
    reply_diagnosis_assumed: "Diagnosis, if this comes from a Flink job (nothing in the text shows it): ", "诊断（假定这段文本来自 Flink 作业，文本本身看不出）：";
    /// Reply: end of a sentence.
    reply_stop: ".", "。";
    /// Reply: asks for the rest of a cut trace.
    reply_ask_rest: "Could you send the rest of the trace, down to its last Caused by, and your Flink version?",
        "能否把堆栈剩下的部分（直到最后一个 Caused by）和你用的 Flink 版本发一下？";
    /// Reply: the general confirm question.
    reply_confirm: "Does this match what your job does? If not, please send the whole log and your Flink version.",
        "这和你的作业逻辑相符吗？如果不相符，请发一下完整日志和 Flink 版本。";
    /// Reply: no rule matched.
    reply_no_rule: "No known diagnosis: no rule of Trace Doctor matches this trace.",
        "没有已知诊断：Trace Doctor 没有规则与这个堆栈匹配。";
    /// Reply: no rule, cut text: asks for the rest.
    reply_ask_rest_versions: "Could you send the rest of the trace, and your Flink and connector versions?",
        "能否把堆栈剩下的部分，以及 Flink 和连接器的版本发一下？";
    /// Reply: no rule: asks for the logs.
    reply_ask_logs: "Could you send the whole JobManager and TaskManager logs around the failure, and your Flink and connector versions?",
        "能否发一下故障前后完整的 JobManager 和 TaskManager 日志，以及 Flink 和连接器的版本？";
    /// Reply label: the best fix.
    reply_fix: "Fix: ", "修复：";
    /// Reply label: a further fix.
    reply_also: "Also: ", "另外：";
    /// Reply label: the docs link.
    reply_docs: "Docs: ", "文档：";
    /// Reply label: when the diagnosis may be wrong.
    reply_may_not_apply: "It may not apply: ", "可能不适用的情况：";
    /// Reply label: the link.
    reply_full: "Full diagnosis: ", "完整诊断：";
    /// Reply: the link's text in Markdown and JIRA.
    reply_full_link: "Full diagnosis (Trace Doctor)", "完整诊断（Trace Doctor）";
    /// Reply: `: ` after a label.
    colon: ": ", "：";
    /// Long reply: before a version mismatch.
    digest_note: "Note: ", "注意：";
    /// Long reply: the root cause label.
    digest_root_cause: "Root cause", "根本原因";
    /// Long reply: the last printed exception of a cut text.
    digest_last_printed: "Last exception printed", "打印出的最后一个异常";
    /// Long reply: the version label.
    digest_version: "Flink version", "Flink 版本";
    /// Long reply: unknown version.
    digest_version_unknown: "not shown by the trace (which one do you run?)", "堆栈中看不出来（你用的是哪个版本？）";
    /// Long reply: the context label.
    digest_context: "Context", "上下文";
    /// Long reply: the quote's heading.
    digest_decisive: "The decisive lines of the trace", "堆栈中的关键行";
    /// Long reply: after the quote's heading when lines are marked.
    digest_marks_below: " ([n] is explained below)", "（[n] 的含义见下文）";
    /// Long reply: fixes heading.
    digest_fixes: "Fixes, best first", "修复方法（按推荐程度排序）";
    /// Long reply: what does not help heading.
    digest_not_fixes: "What does not help", "没有用的做法";
    /// Long reply: references heading.
    digest_references: "References", "参考资料";
    /// Long reply: search terms heading.
    digest_search: "Search the mailing-list archives and JIRA for", "可以在邮件列表归档和 JIRA 中搜索";
    /// Replies, no rule: the root cause's mark.
    mark_root_cause: "the root cause", "根本原因";
    /// Replies, no rule: where the root cause was thrown, in the person's code.
    mark_thrown_own: "where it was thrown, in your own code: look here first", "抛出位置，在你自己的代码中：先看这里";
    /// Replies, no rule: where the root cause was thrown.
    mark_thrown: "where it was thrown", "抛出位置";
    /// The page, no rule: the innermost frame of the person's code.
    innermost_own_frame: "the innermost frame of your code", "你自己代码中最内层的堆栈帧";
    /// Replies, no rule: the innermost frame of the person's code.
    mark_own_frame: "the innermost frame of your own code: look here first", "你自己代码中最内层的堆栈帧：先看这里";
}

/// A rule's prose in a language: its translation where it has one, else its English.
#[derive(Clone, Copy, Debug)]
pub struct RuleText<'a> {
    /// The title (the rule's id while its prose is not loaded).
    pub title: &'a str,
    /// The summary.
    pub summary: &'a Prose,
    /// The versions, in words.
    pub versions: &'a str,
    /// The question that confirms the diagnosis.
    pub confirm: Option<&'a str>,
    /// The explanation (why, sections, fixes, what does not help, false alarms).
    pub explanation: &'a Explanation,
    /// The docs pages and issues the facts come from.
    pub references: &'a [crate::rules::schema::Reference],
    /// The diagram.
    pub diagram: Option<&'a Diagram>,
    /// True when this is a translation (not the English fallback).
    pub translated: bool,
    /// False while the page has not loaded the rule's prose ([`crate::rules::Rule::prose`]):
    /// everything but the title (the id) is empty then.
    pub loaded: bool,
}

static NO_PROSE: Prose = Prose {
    md: String::new(),
    html: String::new(),
    text: String::new(),
};
static NO_EXPLANATION: Explanation = Explanation {
    why: Prose {
        md: String::new(),
        html: String::new(),
        text: String::new(),
    },
    sections: Vec::new(),
    fixes: Vec::new(),
    not_fixes: Vec::new(),
    false_alarms: None,
};

/// `rule`'s prose in `lang`: the translation (`rules/<id>/rule.zh.toml`) when `lang` is Chinese
/// and the rule has one, else the English of `rule.toml`.
pub fn rule_text(rule: &Rule, lang: Lang) -> RuleText<'_> {
    match rule.prose(lang) {
        Some(p) => RuleText {
            title: &p.title,
            summary: &p.summary,
            versions: &p.versions,
            confirm: p.confirm.as_deref(),
            explanation: &p.explanation,
            references: &p.references,
            diagram: p.diagram.as_ref(),
            translated: p.translated,
            loaded: true,
        },
        None => RuleText {
            title: &rule.def.id,
            summary: &NO_PROSE,
            versions: "",
            confirm: None,
            explanation: &NO_EXPLANATION,
            references: &[],
            diagram: None,
            translated: false,
            loaded: false,
        },
    }
}

/// A role label of `rule` (`the map being iterated`) in `lang`, the English when untranslated.
pub fn role<'a>(rule: Option<&'a Rule>, role: &'a str, lang: Lang) -> &'a str {
    match rule.and_then(|r| r.prose(lang)) {
        Some(p) => p.roles.get(role).map_or(role, String::as_str),
        None => role,
    }
}

/// A step's explanation of `rule` (by the step's frame glob) in `lang` (the English where the
/// translation gives none), with `{frame}` filled in: `(Markdown, HTML)`; `None` when the rule
/// has no explanation of that step, or its prose is not loaded.
pub fn step_note(
    rule: Option<&Rule>,
    step: &str,
    frame: &str,
    lang: Lang,
) -> Option<(String, String)> {
    let p = rule?.prose(lang)?.steps.get(step)?;
    let escaped = frame
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    Some((
        p.md.replace("{frame}", &format!("`{frame}`")),
        p.html
            .replace("{frame}", &format!("<code>{escaped}</code>")),
    ))
}

/// The Flink version as read ([`crate::version::FlinkVersion::summary`]) in `lang`. The summary
/// is releases and ranges (`1.13.0 – 1.13.2`, language-neutral) or one of the English forms
/// `version` writes with its `SUMMARY_*` words: `unknown`, `<v> or later`, `before <v>`,
/// `<v> or earlier`.
pub fn version_summary(summary: &str, lang: Lang) -> String {
    use crate::version::{SUMMARY_BEFORE, SUMMARY_OR_EARLIER, SUMMARY_OR_LATER, SUMMARY_UNKNOWN};
    if lang == Lang::En {
        return summary.to_owned();
    }
    if summary == SUMMARY_UNKNOWN {
        return "未知".to_owned();
    }
    if let Some(v) = summary.strip_suffix(SUMMARY_OR_LATER) {
        return format!("{v} 或更高");
    }
    if let Some(v) = summary.strip_suffix(SUMMARY_OR_EARLIER) {
        return format!("{v} 或更早");
    }
    if let Some(v) = summary.strip_prefix(SUMMARY_BEFORE) {
        return format!("{v} 之前");
    }
    summary.to_owned()
}

/// What is said first about a text cut before its root cause ([`crate::cut::Cut::sentence`]),
/// in `lang`: one Markdown paragraph with a bold lead and code spans.
pub fn cut_sentence(cut: &crate::cut::Cut, trace: &crate::model::Trace, lang: Lang) -> String {
    use crate::cut::CutKind;
    if lang == Lang::En {
        return cut.sentence(trace);
    }
    const REST: &str = "请把堆栈剩下的部分贴出来，直到最后一个 `Caused by:`（JobManager 或 \
        TaskManager 日志中有完整的堆栈）。";
    let (simple, start) = cut.names(trace);
    match &cut.kind {
        CutKind::CauseNamed { class } => format!(
            "**这段文本在根本原因之前就结束了**。打印出的最后一个异常 `{simple}` 是由 `{class}` \
             引起的（它的消息里写着这个类），但文本中没有 `Caused by: {class}` 这部分。{REST}"
        ),
        CutKind::Wrapper => format!(
            "**这段文本在根本原因之前就结束了**。Flink 抛出 `{simple}: {start}` 时总会带上引起它的\
             异常，打印在它下面的 `Caused by:` 中，而文本里没有这部分。{REST}"
        ),
        CutKind::MidFrame => {
            "**文本在一行堆栈帧的中间结束了**。之后打印的内容都缺失了：如果后面还有 \
            `Caused by:`，真正的原因就在其中。如果堆栈还有后续，请把剩下的部分贴出来。"
                .to_owned()
        }
        CutKind::FramelessCause => format!(
            "**最后一个 `Caused by:` 没有堆栈帧**。Java 打印每个 cause 时都会带上它的堆栈帧，所以要么\
             文本在 `{simple}` 这一行之后就结束了（请把后面的内容贴出来），要么 JVM 抛出它时没有\
             堆栈：同一位置反复抛出的 `NullPointerException`、`ClassCastException`、\
             `ArrayIndexOutOfBoundsException` 等，经 HotSpot 的 JIT 优化后会不带堆栈帧地抛出\
             （`OmitStackTraceInFastThrow`）。日志中更早的一次会有完整的堆栈帧；也可以用 \
             `-XX:-OmitStackTraceInFastThrow` 启动 TaskManager（`env.java.opts.taskmanager`）。"
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_version_as_read_is_said_in_chinese_too() {
        // A helper's try-out: the Chinese page said "Flink 版本 unknown".
        for (en, zh) in [
            ("unknown", "未知"),
            ("1.11 or later", "1.11 或更高"),
            ("before 2.0", "2.0 之前"),
            ("1.12.7 or earlier", "1.12.7 或更早"),
            ("1.13.0 – 1.13.2", "1.13.0 – 1.13.2"),
        ] {
            assert_eq!(version_summary(en, Lang::Zh), zh);
            assert_eq!(version_summary(en, Lang::En), en);
        }
    }

    #[test]
    fn every_key_has_a_chinese_text_of_its_own() {
        let en = EN.entries();
        let zh = ZH.entries();
        assert_eq!(en.len(), zh.len());
        for ((key, e), (_, z)) in en.iter().zip(&zh) {
            assert!(!z.trim().is_empty(), "{key}: no Chinese text");
            assert!(!e.trim().is_empty(), "{key}: no English text");
            // Punctuation alone may be shared (` or `, `.`); a sentence may not.
            let words = e.chars().filter(|c| c.is_ascii_alphabetic()).count();
            if words > 3 {
                assert_ne!(e, z, "{key}: the Chinese is a copy of the English");
                assert!(
                    z.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
                    "{key}: {z:?} holds no Chinese"
                );
            }
        }
    }

    #[test]
    fn the_assumed_platform_note_is_the_pipeline_s() {
        assert_eq!(EN.platform_assumed, crate::diagnose::PLATFORM_ASSUMED);
    }

    #[test]
    fn the_browser_language_picks_chinese_for_zh_only() {
        assert_eq!(Lang::from_browser(["zh-CN", "en"]), Lang::Zh);
        assert_eq!(Lang::from_browser(["ZH"]), Lang::Zh);
        assert_eq!(Lang::from_browser(["zh-Hant-TW"]), Lang::Zh);
        assert_eq!(Lang::from_browser(["en-US", "zh-CN"]), Lang::En);
        assert_eq!(Lang::from_browser(["de"]), Lang::En);
        assert_eq!(Lang::from_browser([]), Lang::En);
        assert_eq!(Lang::from_browser(["", "zh"]), Lang::Zh);
        assert_eq!(Lang::from_code("zh"), Some(Lang::Zh));
        assert_eq!(Lang::from_code("zh-CN"), Some(Lang::Zh));
        assert_eq!(Lang::from_code("en"), Some(Lang::En));
        assert_eq!(Lang::from_code("fr"), None);
        assert_eq!(Lang::Zh.html_lang(), "zh-CN");
    }

    #[test]
    fn the_flagship_rule_reads_in_chinese_and_others_fall_back_to_english() {
        let rule = crate::rules::by_id("async-wait-inflight-cme").expect("flagship rule");
        let zh = rule_text(rule, Lang::Zh);
        assert!(zh.translated);
        assert!(zh.title.contains("在途记录"), "{}", zh.title);
        assert!(zh.summary.html.contains("<code>ResultFuture</code>"));
        assert_eq!(zh.explanation.fixes.len(), rule.def.explanation.fixes.len());
        assert_eq!(rule_text(rule, Lang::En).title, rule.def.title);
        assert_eq!(
            role(Some(rule), "the map being iterated", Lang::Zh),
            "正在被迭代的 map"
        );
        let other = crate::rules::catalogue()
            .iter()
            .find(|r| r.def.zh.is_none())
            .expect("an untranslated rule");
        let t = rule_text(other, Lang::Zh);
        assert!(!t.translated);
        assert_eq!(t.title, other.def.title);
    }
}
