//! Grouping frames by who wrote the code, so the page can dim and fold what rarely matters.

use serde::Serialize;

/// Who a frame's code belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FrameGroup {
    /// The JDK (`java.`, `javax.`, `jdk.`, `sun.`, `com.sun.`).
    Jdk,
    /// Apache Flink (`org.apache.flink.`, and its shaded dependencies).
    Flink,
    /// Serialization libraries (Kryo, Chill, Objenesis, Avro, Protobuf, Jackson).
    Serialization,
    /// The Scala standard library and Akka/Pekko.
    Scala,
    /// Other well-known libraries (Kafka, Hadoop, Netty, Guava, …).
    Library,
    /// Anything else: most likely the user's own code.
    User,
}

impl FrameGroup {
    /// Label shown in the page (`Flink runtime`).
    pub fn label(self) -> &'static str {
        match self {
            FrameGroup::Jdk => "JDK",
            FrameGroup::Flink => "Flink runtime",
            FrameGroup::Serialization => "serialization library",
            FrameGroup::Scala => "Scala / Akka",
            FrameGroup::Library => "library",
            FrameGroup::User => "user code",
        }
    }
}

const GROUPS: &[(&str, FrameGroup)] = &[
    ("org.apache.flink.", FrameGroup::Flink),
    ("java.", FrameGroup::Jdk),
    ("javax.", FrameGroup::Jdk),
    ("jdk.", FrameGroup::Jdk),
    ("sun.", FrameGroup::Jdk),
    ("com.sun.", FrameGroup::Jdk),
    ("com.esotericsoftware.", FrameGroup::Serialization),
    ("com.twitter.chill.", FrameGroup::Serialization),
    ("org.objenesis.", FrameGroup::Serialization),
    ("org.apache.avro.", FrameGroup::Serialization),
    ("com.google.protobuf.", FrameGroup::Serialization),
    ("com.fasterxml.jackson.", FrameGroup::Serialization),
    ("scala.", FrameGroup::Scala),
    ("akka.", FrameGroup::Scala),
    ("org.apache.pekko.", FrameGroup::Scala),
    ("org.apache.kafka.", FrameGroup::Library),
    ("org.apache.hadoop.", FrameGroup::Library),
    ("io.netty.", FrameGroup::Library),
    ("com.google.common.", FrameGroup::Library),
    ("org.apache.commons.", FrameGroup::Library),
    ("org.slf4j.", FrameGroup::Library),
    ("org.apache.logging.", FrameGroup::Library),
    ("org.apache.spark.", FrameGroup::Library),
    ("org.springframework.", FrameGroup::Library),
    ("io.grpc.", FrameGroup::Library),
    ("okhttp3.", FrameGroup::Library),
    ("org.apache.beam.", FrameGroup::Library),
    ("org.apache.zookeeper.", FrameGroup::Library),
    ("org.apache.curator.", FrameGroup::Library),
    ("org.apache.iceberg.", FrameGroup::Library),
    ("org.apache.hudi.", FrameGroup::Library),
    ("org.apache.paimon.", FrameGroup::Library),
    ("org.apache.calcite.", FrameGroup::Library),
    ("org.codehaus.janino.", FrameGroup::Library),
    ("org.rocksdb.", FrameGroup::Library),
    ("io.debezium.", FrameGroup::Library),
    ("io.confluent.", FrameGroup::Library),
    ("io.fabric8.", FrameGroup::Library),
    ("com.amazonaws.", FrameGroup::Library),
    ("software.amazon.", FrameGroup::Library),
    ("org.eclipse.jetty.", FrameGroup::Library),
    ("org.postgresql.", FrameGroup::Library),
    ("com.mysql.", FrameGroup::Library),
    ("py4j.", FrameGroup::Library),
    ("org.apache.http.", FrameGroup::Library),
    ("org.jline.", FrameGroup::Library),
    ("com.ververica.cdc.", FrameGroup::Library),
    ("com.zaxxer.hikari.", FrameGroup::Library),
    ("org.apache.catalina.", FrameGroup::Library),
    ("org.apache.tomcat.", FrameGroup::Library),
    ("org.apache.parquet.", FrameGroup::Library),
    ("org.apache.orc.", FrameGroup::Library),
    ("org.apache.hive.", FrameGroup::Library),
    ("org.apache.pulsar.", FrameGroup::Library),
    ("org.apache.thrift.", FrameGroup::Library),
    ("org.apache.log4j.", FrameGroup::Library),
    ("ch.qos.logback.", FrameGroup::Library),
    ("org.mariadb.", FrameGroup::Library),
    ("oracle.jdbc.", FrameGroup::Library),
    ("com.microsoft.sqlserver.", FrameGroup::Library),
    ("org.elasticsearch.", FrameGroup::Library),
    ("co.elastic.", FrameGroup::Library),
    ("redis.clients.", FrameGroup::Library),
    ("io.lettuce.", FrameGroup::Library),
    ("com.datastax.", FrameGroup::Library),
    ("com.mongodb.", FrameGroup::Library),
    ("org.xerial.snappy.", FrameGroup::Library),
    ("net.jpountz.", FrameGroup::Library),
    ("com.github.luben.", FrameGroup::Library),
    ("org.yaml.snakeyaml.", FrameGroup::Library),
    ("com.typesafe.", FrameGroup::Library),
    ("org.hibernate.", FrameGroup::Library),
    ("io.micrometer.", FrameGroup::Library),
    ("io.vertx.", FrameGroup::Library),
    ("io.nats.client.", FrameGroup::Library),
    ("io.synadia.flink.", FrameGroup::Library),
    ("nl.basjes.parse.useragent.", FrameGroup::Library),
    ("reactor.", FrameGroup::Library),
    ("kotlin.", FrameGroup::Library),
    ("kotlinx.", FrameGroup::Library),
];

/// The group of a frame's fully qualified class.
///
/// A class with no package whose name ends in `$<digits>` (`StreamExecCalc$35`,
/// `LookupFunction$31`) is code the Flink planner generated and compiled with Janino: Flink.
pub fn group_of(class: &str) -> FrameGroup {
    if is_generated(class) {
        return FrameGroup::Flink;
    }
    GROUPS
        .iter()
        .find(|(prefix, _)| class.starts_with(prefix))
        .map_or(FrameGroup::User, |&(_, g)| g)
}

/// `StreamExecCalc$35`: no package, and a numeric suffix after the last `$`.
fn is_generated(class: &str) -> bool {
    !class.contains('.')
        && class.rsplit_once('$').is_some_and(|(name, n)| {
            !name.is_empty() && !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())
        })
}

/// True for a frame of user code printed where it stands (not restored from `... N more`).
pub fn is_printed_user_code(f: &crate::model::Frame) -> bool {
    f.expanded_from.is_none() && group_of(&f.class) == FrameGroup::User
}

/// The frame to look at first when no rule explains a trace: the innermost frame of user code
/// in the root cause, or else the frame that threw it (index into its `frames`).
pub fn decisive_frame(trace: &crate::model::Trace) -> Option<usize> {
    let root = &trace.throwables[trace.root_cause()];
    root.frames
        .iter()
        .position(is_printed_user_code)
        .or((!root.frames.is_empty()).then_some(0))
}

/// What to search the mailing-list archives and JIRA for when no rule explains a trace: the
/// root cause's simple class, its message's first words, and the decisive frame
/// (`"ConcurrentModificationException" "RuleMatcher.processElement"`).
pub fn search_terms(trace: &crate::model::Trace) -> String {
    let root = &trace.throwables[trace.root_cause()];
    let mut terms = Vec::new();
    if !root.class.is_empty() {
        terms.push(format!("\"{}\"", root.simple_class()));
    }
    if let Some(m) = &root.message {
        // The words before the first detail that differs between runs (numbers, ids, paths).
        let words: Vec<&str> = m
            .split_whitespace()
            .take_while(|w| {
                // A "word" longer than any word (encoded data, a pasted blob) ends the phrase.
                w.len() <= MAX_WORD_BYTES
                    && w.chars()
                        .all(|c| c.is_alphabetic() || matches!(c, '\'' | '-' | ','))
            })
            .take(8)
            .collect();
        if words.len() >= 2 {
            terms.push(format!("\"{}\"", words.join(" ").trim_end_matches(',')));
        } else if let Some(name) = qualified_name(m) {
            // No phrase to search for: the message's first qualified name (the method a
            // NoSuchMethodError names, the class a ClassNotFoundException names).
            terms.push(format!("\"{name}\""));
        }
    }
    if let Some(k) = decisive_frame(trace) {
        let f = &root.frames[k];
        terms.push(format!("\"{}.{}\"", f.simple_class(), f.method));
    }
    terms.join(" ")
}

/// The longest word or name [`search_terms`] takes from a message, in bytes: longer than any
/// Java identifier a person would search for, short enough to keep a search query short.
const MAX_WORD_BYTES: usize = 80;

/// The longest dotted name [`search_terms`] takes from a message, in bytes (a package, a class
/// and a method of [`MAX_WORD_BYTES`]-long parts and more).
const MAX_NAME_BYTES: usize = 4 * MAX_WORD_BYTES;

/// The first dotted Java name in `message` (`sun.misc.Unsafe.monitorEnter` in
/// `'void sun.misc.Unsafe.monitorEnter(java.lang.Object)'`), with at least two dots.
fn qualified_name(message: &str) -> Option<&str> {
    message
        .split(|c: char| !(c.is_alphanumeric() || matches!(c, '.' | '_' | '$')))
        .map(|t| t.trim_matches('.'))
        .find(|t| {
            t.len() <= MAX_NAME_BYTES
                && t.matches('.').count() >= 2
                && t.starts_with(|c: char| c.is_alphabetic())
                && !t.split('.').any(str::is_empty)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_without_a_phrase_is_searched_by_the_name_it_holds() {
        assert_eq!(
            qualified_name("'void sun.misc.Unsafe.monitorEnter(java.lang.Object)'"),
            Some("sun.misc.Unsafe.monitorEnter")
        );
        assert_eq!(qualified_name("disk full"), None);
        assert_eq!(qualified_name("version 1.2"), None);
    }

    #[test]
    fn planner_generated_classes_are_flink_and_sql_client_frames_a_library() {
        assert_eq!(group_of("StreamExecCalc$35"), FrameGroup::Flink);
        assert_eq!(group_of("LookupFunction$31"), FrameGroup::Flink);
        assert_eq!(
            group_of("org.jline.reader.impl.LineReaderImpl"),
            FrameGroup::Library
        );
        assert_eq!(group_of("com.acme.Job$1"), FrameGroup::User);
        assert_eq!(group_of("Main"), FrameGroup::User);
        assert_eq!(group_of("Main$"), FrameGroup::User);
    }

    #[test]
    fn groups() {
        assert_eq!(group_of("java.util.HashMap$HashIterator"), FrameGroup::Jdk);
        assert_eq!(
            group_of("org.apache.flink.runtime.taskmanager.Task"),
            FrameGroup::Flink
        );
        assert_eq!(
            group_of("com.esotericsoftware.kryo.Kryo"),
            FrameGroup::Serialization
        );
        assert_eq!(
            group_of("com.example.pipeline.SessionEnricher"),
            FrameGroup::User
        );
        assert_eq!(group_of("javaxx.Foo"), FrameGroup::User);
    }

    #[test]
    fn search_terms_name_the_root_cause_and_the_innermost_user_frame() {
        let input = "java.lang.RuntimeException: wrapper\n\tat a.B.c(B.java:1)\nCaused by: java.lang.IllegalStateException: Buffer pool is destroyed 42\n\tat org.apache.flink.X.y(X.java:1)\n\tat com.acme.Job.map(Job.java:12)\n";
        let t = &crate::parse::parse(input).traces[0];
        assert_eq!(decisive_frame(t), Some(1));
        assert_eq!(
            search_terms(t),
            "\"IllegalStateException\" \"Buffer pool is destroyed\" \"Job.map\""
        );
        // A pasted blob in the message (a helper's 5 MB one-line paste put all of it in the
        // query): the phrase ends before it, and a name that long is no name.
        let blob = format!(
            "java.lang.RuntimeException: Could not read {}\n\tat com.acme.Job.map(Job.java:12)\n",
            "a".repeat(100_000)
        );
        assert_eq!(
            search_terms(&crate::parse::parse(&blob).traces[0]),
            "\"RuntimeException\" \"Could not read\" \"Job.map\""
        );
        let dotted = format!("java.lang.RuntimeException: {}", "ab.".repeat(10_000));
        assert_eq!(
            search_terms(&crate::parse::parse(&dotted).traces[0]),
            "\"RuntimeException\""
        );
        let no_user = "java.lang.Error: x\n\tat java.util.A.b(A.java:1)\n";
        assert_eq!(
            decisive_frame(&crate::parse::parse(no_user).traces[0]),
            Some(0)
        );
    }
}
