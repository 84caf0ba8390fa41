//! Which project a class belongs to: the table of well-known connectors, formats, CDC sources,
//! client libraries and runtimes, by package prefix, with where each takes its bug reports.
//!
//! Used by the no-rule answer ([`crate::answer`]) to say which component threw. The issue
//! trackers are the projects' own (checked on their sites: Flink and its externalized connectors
//! use Apache JIRA project FLINK; Flink CDC moved to the ASF in 2024 and files issues in FLINK
//! JIRA under "Flink CDC"; Paimon, Iceberg, Hudi, Beam, Doris and StarRocks use GitHub issues).

use serde::Serialize;

/// A project whose code can throw inside a Flink job.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Component {
    /// Stable id (`kafka-connector`, `paimon`, `user-code`, `flink`, or `other:<package>`).
    pub id: String,
    /// The project's name as people write it (`Flink's Kafka connector`, `Apache Paimon`).
    pub name: String,
    /// The package prefix that identified it (`org.apache.paimon.`), empty for `user-code`.
    pub package: String,
    /// Where bugs of this component are reported (a URL), when known.
    pub tracker: Option<String>,
    /// What kind of component this is.
    pub kind: ComponentKind,
}

impl Component {
    /// The name to show: as in the table for a Flink trace; for a trace from other software,
    /// without the parenthesis that speaks of Flink (`Akka (Flink's RPC before 1.18)` → `Akka`).
    pub fn name_for(&self, flink: bool) -> String {
        match self.name.find(" (") {
            Some(i) if !flink && self.name[i..].contains("Flink") => self.name[..i].to_owned(),
            _ => self.name.clone(),
        }
    }
}

/// What kind of code a component is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ComponentKind {
    /// Flink's own runtime, planner or APIs.
    Flink,
    /// A Flink connector or format (Flink's own, or another project's Flink integration).
    Connector,
    /// A library or client used by the job or a connector (Kafka clients, JDBC drivers, AWS).
    Library,
    /// The JDK.
    Jdk,
    /// The job's own code.
    UserCode,
}

const FLINK_JIRA: &str = "https://issues.apache.org/jira/projects/FLINK";

/// `(package prefix, id, name, tracker, kind)`; the longest matching prefix wins, so Flink's
/// connector packages come before `org.apache.flink.`.
const TABLE: &[(&str, &str, &str, &str, ComponentKind)] = &[
    // Flink's connectors (packages of the connector jars, old and new APIs).
    (
        "org.apache.flink.connector.kafka.",
        "kafka-connector",
        "Flink's Kafka connector",
        FLINK_JIRA,
        ComponentKind::Connector,
    ),
    (
        "org.apache.flink.streaming.connectors.kafka.",
        "kafka-connector",
        "Flink's Kafka connector",
        FLINK_JIRA,
        ComponentKind::Connector,
    ),
    (
        "org.apache.flink.kafka.shaded.org.apache.kafka.",
        "kafka-client",
        "Apache Kafka's client (shaded in Flink's Kafka connector)",
        "https://issues.apache.org/jira/projects/KAFKA",
        ComponentKind::Library,
    ),
    (
        "org.apache.flink.connector.jdbc.",
        "jdbc-connector",
        "Flink's JDBC connector",
        FLINK_JIRA,
        ComponentKind::Connector,
    ),
    (
        "org.apache.flink.connector.elasticsearch.",
        "elasticsearch",
        "Flink's Elasticsearch connector",
        FLINK_JIRA,
        ComponentKind::Connector,
    ),
    (
        "org.apache.flink.streaming.connectors.elasticsearch",
        "elasticsearch",
        "Flink's Elasticsearch connector",
        FLINK_JIRA,
        ComponentKind::Connector,
    ),
    (
        "org.apache.flink.connector.opensearch.",
        "opensearch",
        "Flink's OpenSearch connector",
        FLINK_JIRA,
        ComponentKind::Connector,
    ),
    (
        "org.apache.flink.connector.pulsar.",
        "pulsar",
        "Flink's Pulsar connector",
        FLINK_JIRA,
        ComponentKind::Connector,
    ),
    (
        "org.apache.flink.connector.kinesis.",
        "kinesis",
        "Flink's Kinesis connector",
        FLINK_JIRA,
        ComponentKind::Connector,
    ),
    (
        "org.apache.flink.streaming.connectors.kinesis.",
        "kinesis",
        "Flink's Kinesis connector",
        FLINK_JIRA,
        ComponentKind::Connector,
    ),
    (
        "org.apache.flink.connector.aws.",
        "kinesis",
        "Flink's AWS connectors",
        FLINK_JIRA,
        ComponentKind::Connector,
    ),
    (
        "org.apache.flink.streaming.connectors.rabbitmq.",
        "rabbitmq",
        "Flink's RabbitMQ connector",
        FLINK_JIRA,
        ComponentKind::Connector,
    ),
    (
        "org.apache.flink.connector.hbase",
        "hbase",
        "Flink's HBase connector",
        FLINK_JIRA,
        ComponentKind::Connector,
    ),
    (
        "org.apache.flink.connectors.hive.",
        "hive",
        "Flink's Hive connector",
        FLINK_JIRA,
        ComponentKind::Connector,
    ),
    (
        "org.apache.flink.table.catalog.hive.",
        "hive",
        "Flink's Hive catalog",
        FLINK_JIRA,
        ComponentKind::Connector,
    ),
    (
        "org.apache.flink.connector.mongodb.",
        "mongodb",
        "Flink's MongoDB connector",
        FLINK_JIRA,
        ComponentKind::Connector,
    ),
    (
        "org.apache.flink.fs.s3",
        "s3-filesystem",
        "Flink's S3 file system plugin",
        FLINK_JIRA,
        ComponentKind::Connector,
    ),
    (
        "org.apache.flink.fs.",
        "s3-filesystem",
        "a Flink file system plugin",
        FLINK_JIRA,
        ComponentKind::Connector,
    ),
    (
        "org.apache.flink.contrib.streaming.state.",
        "rocksdb",
        "Flink's RocksDB state backend",
        FLINK_JIRA,
        ComponentKind::Flink,
    ),
    (
        "org.apache.flink.state.rocksdb.",
        "rocksdb",
        "Flink's RocksDB state backend",
        FLINK_JIRA,
        ComponentKind::Flink,
    ),
    (
        "org.apache.flink.python.",
        "pyflink",
        "PyFlink",
        FLINK_JIRA,
        ComponentKind::Flink,
    ),
    (
        "org.apache.flink.client.python.",
        "pyflink",
        "PyFlink",
        FLINK_JIRA,
        ComponentKind::Flink,
    ),
    (
        "org.apache.flink.streaming.api.runners.python.",
        "pyflink",
        "PyFlink",
        FLINK_JIRA,
        ComponentKind::Flink,
    ),
    (
        "org.apache.flink.table.runtime.runners.python.",
        "pyflink",
        "PyFlink",
        FLINK_JIRA,
        ComponentKind::Flink,
    ),
    (
        "org.apache.flink.cdc.",
        "flink-cdc",
        "Flink CDC",
        "https://issues.apache.org/jira/projects/FLINK (component Flink CDC)",
        ComponentKind::Connector,
    ),
    (
        "org.apache.flink.",
        "flink",
        "Apache Flink",
        FLINK_JIRA,
        ComponentKind::Flink,
    ),
    (
        "com.ververica.cdc.",
        "flink-cdc",
        "Flink CDC (Ververica, before 3.1)",
        // The project's issues moved to Apache's JIRA (project FLINK, component Flink CDC)
        // with 3.1; its GitHub repository's issue template sends reports there.
        "https://issues.apache.org/jira/projects/FLINK (component Flink CDC)",
        ComponentKind::Connector,
    ),
    (
        "io.debezium.",
        "debezium",
        "Debezium",
        "https://issues.redhat.com/projects/DBZ",
        ComponentKind::Library,
    ),
    (
        "com.github.shyiko.mysql.binlog.",
        "debezium",
        "the MySQL binlog client (mysql-binlog-connector-java)",
        "https://github.com/osheroff/mysql-binlog-connector-java",
        ComponentKind::Library,
    ),
    // Flink's example programs are jobs, written as a user writes one: their classes are job
    // code, not Flink's runtime (`flink-examples` in the Flink repository).
    (
        "org.apache.flink.streaming.examples.",
        "user-code",
        "the example job's own code",
        "",
        ComponentKind::UserCode,
    ),
    (
        "org.apache.flink.examples.",
        "user-code",
        "the example job's own code",
        "",
        ComponentKind::UserCode,
    ),
    // Projects that run Flink jobs or bring their own Flink connectors (data integration,
    // job platforms), and the Flink Kubernetes Operator.
    (
        "org.apache.fluss.",
        "fluss",
        "Apache Fluss",
        "https://github.com/apache/fluss/issues",
        ComponentKind::Connector,
    ),
    (
        "com.alibaba.fluss.",
        "fluss",
        "Fluss (now Apache Fluss)",
        "https://github.com/apache/fluss/issues",
        ComponentKind::Connector,
    ),
    (
        "org.apache.amoro.",
        "amoro",
        "Apache Amoro",
        "https://github.com/apache/amoro/issues",
        ComponentKind::Connector,
    ),
    (
        "com.netease.arctic.",
        "amoro",
        "Arctic (now Apache Amoro)",
        "https://github.com/apache/amoro/issues",
        ComponentKind::Connector,
    ),
    (
        "com.bytedance.bitsail.",
        "bitsail",
        "BitSail",
        "https://github.com/bytedance/bitsail/issues",
        ComponentKind::Connector,
    ),
    (
        "com.dtstack.chunjun.",
        "chunjun",
        "ChunJun",
        "https://github.com/DTStack/chunjun/issues",
        ComponentKind::Connector,
    ),
    (
        "com.dtstack.flinkx.",
        "chunjun",
        "FlinkX (now ChunJun)",
        "https://github.com/DTStack/chunjun/issues",
        ComponentKind::Connector,
    ),
    (
        "org.apache.seatunnel.",
        "seatunnel",
        "Apache SeaTunnel",
        "https://github.com/apache/seatunnel/issues",
        ComponentKind::Connector,
    ),
    (
        "org.apache.inlong.",
        "inlong",
        "Apache InLong",
        "https://github.com/apache/inlong/issues",
        ComponentKind::Connector,
    ),
    (
        "org.apache.streampark.",
        "streampark",
        "Apache StreamPark",
        "https://github.com/apache/streampark/issues",
        ComponentKind::Library,
    ),
    (
        "com.streamxhub.streamx.",
        "streampark",
        "StreamX (now Apache StreamPark)",
        "https://github.com/apache/streampark/issues",
        ComponentKind::Library,
    ),
    (
        "org.dinky.",
        "dinky",
        "Dinky",
        "https://github.com/DataLinkDC/dinky/issues",
        ComponentKind::Library,
    ),
    (
        "com.dlink.",
        "dinky",
        "Dlink (now Dinky)",
        "https://github.com/DataLinkDC/dinky/issues",
        ComponentKind::Library,
    ),
    // Flink integrations of other projects, seen in real traces (tests/corpus): the NATS
    // connector (synadia-io/flink-connector-nats) and its client; Yauaa's Flink/SQL UDFs.
    (
        "io.synadia.flink.",
        "nats-connector",
        "Synadia's NATS connector for Flink",
        "https://github.com/synadia-io/flink-connector-nats/issues",
        ComponentKind::Connector,
    ),
    (
        "io.nats.client.",
        "nats-client",
        "the NATS Java client",
        "https://github.com/nats-io/nats.java/issues",
        ComponentKind::Library,
    ),
    (
        "nl.basjes.parse.useragent.",
        "yauaa",
        "Yauaa (a user-agent parser with Flink and SQL functions)",
        "https://github.com/nielsbasjes/yauaa/issues",
        ComponentKind::Library,
    ),
    (
        "org.apache.flink.kubernetes.operator.",
        "flink-kubernetes-operator",
        "the Flink Kubernetes Operator",
        "https://issues.apache.org/jira/projects/FLINK",
        ComponentKind::Library,
    ),
    (
        "org.apache.paimon.",
        "paimon",
        "Apache Paimon",
        "https://github.com/apache/paimon/issues",
        ComponentKind::Connector,
    ),
    (
        "org.apache.iceberg.",
        "iceberg",
        "Apache Iceberg",
        "https://github.com/apache/iceberg/issues",
        ComponentKind::Connector,
    ),
    (
        "org.apache.hudi.",
        "hudi",
        "Apache Hudi",
        "https://github.com/apache/hudi/issues",
        ComponentKind::Connector,
    ),
    (
        "io.delta.",
        "delta",
        "Delta Lake",
        "https://github.com/delta-io/delta/issues",
        ComponentKind::Connector,
    ),
    (
        "org.apache.doris.",
        "doris",
        "Apache Doris' Flink connector",
        "https://github.com/apache/doris-flink-connector/issues",
        ComponentKind::Connector,
    ),
    (
        "com.starrocks.",
        "starrocks",
        "StarRocks' Flink connector",
        "https://github.com/StarRocks/starrocks-connector-for-apache-flink/issues",
        ComponentKind::Connector,
    ),
    (
        "org.apache.beam.",
        "beam",
        "Apache Beam",
        "https://github.com/apache/beam/issues",
        ComponentKind::Connector,
    ),
    (
        // Another platform (a trace of Spark is not a Flink job's): named, with its tracker.
        "org.apache.spark.",
        "spark",
        "Apache Spark",
        "https://issues.apache.org/jira/projects/SPARK",
        ComponentKind::Library,
    ),
    (
        "org.apache.kafka.",
        "kafka-client",
        "Apache Kafka's client",
        "https://issues.apache.org/jira/projects/KAFKA",
        ComponentKind::Library,
    ),
    (
        "org.apache.pulsar.",
        "pulsar",
        "Apache Pulsar's client",
        "https://github.com/apache/pulsar/issues",
        ComponentKind::Library,
    ),
    (
        "org.apache.hadoop.hbase.",
        "hbase",
        "Apache HBase's client",
        "https://issues.apache.org/jira/projects/HBASE",
        ComponentKind::Library,
    ),
    (
        "org.apache.hadoop.hive.",
        "hive",
        "Apache Hive",
        "https://issues.apache.org/jira/projects/HIVE",
        ComponentKind::Library,
    ),
    (
        "org.apache.hive.",
        "hive",
        "Apache Hive",
        "https://issues.apache.org/jira/projects/HIVE",
        ComponentKind::Library,
    ),
    (
        "org.apache.hadoop.fs.s3a.",
        "hadoop",
        "Hadoop's S3A file system",
        "https://issues.apache.org/jira/projects/HADOOP",
        ComponentKind::Library,
    ),
    (
        "org.apache.hadoop.",
        "hadoop",
        "Apache Hadoop (HDFS, YARN)",
        "https://issues.apache.org/jira/projects/HADOOP",
        ComponentKind::Library,
    ),
    (
        "org.apache.parquet.",
        "parquet",
        "Apache Parquet",
        "https://github.com/apache/parquet-java/issues",
        ComponentKind::Library,
    ),
    (
        "org.apache.orc.",
        "orc",
        "Apache ORC",
        "https://github.com/apache/orc/issues",
        ComponentKind::Library,
    ),
    (
        "org.apache.avro.",
        "avro",
        "Apache Avro",
        "https://issues.apache.org/jira/projects/AVRO",
        ComponentKind::Library,
    ),
    (
        "org.apache.zookeeper.",
        "zookeeper",
        "Apache ZooKeeper's client",
        "https://issues.apache.org/jira/projects/ZOOKEEPER",
        ComponentKind::Library,
    ),
    (
        "org.apache.curator.",
        "zookeeper",
        "Apache Curator (ZooKeeper client)",
        "https://issues.apache.org/jira/projects/CURATOR",
        ComponentKind::Library,
    ),
    (
        "org.apache.calcite.",
        "flink",
        "Apache Calcite (Flink's SQL parser and optimizer)",
        FLINK_JIRA,
        ComponentKind::Flink,
    ),
    (
        "org.apache.pekko.",
        "pekko-akka",
        "Apache Pekko (Flink's RPC from 1.18)",
        FLINK_JIRA,
        ComponentKind::Flink,
    ),
    (
        "akka.",
        "pekko-akka",
        "Akka (Flink's RPC before 1.18)",
        FLINK_JIRA,
        ComponentKind::Flink,
    ),
    (
        "org.rocksdb.",
        "rocksdb",
        "RocksDB",
        FLINK_JIRA,
        ComponentKind::Library,
    ),
    (
        "com.esotericsoftware.kryo.",
        "kryo",
        "Kryo",
        FLINK_JIRA,
        ComponentKind::Library,
    ),
    (
        "com.twitter.chill.",
        "kryo",
        "Chill (Kryo serializers for Scala)",
        FLINK_JIRA,
        ComponentKind::Library,
    ),
    (
        "com.google.protobuf.",
        "protobuf",
        "Protocol Buffers",
        "https://github.com/protocolbuffers/protobuf/issues",
        ComponentKind::Library,
    ),
    (
        "com.fasterxml.jackson.",
        "jackson",
        "Jackson (JSON)",
        "https://github.com/FasterXML/jackson-databind/issues",
        ComponentKind::Library,
    ),
    (
        "io.netty.",
        "netty",
        "Netty",
        "https://github.com/netty/netty/issues",
        ComponentKind::Library,
    ),
    (
        "io.fabric8.kubernetes.",
        "kubernetes-client",
        "the fabric8 Kubernetes client",
        FLINK_JIRA,
        ComponentKind::Library,
    ),
    (
        "software.amazon.awssdk.",
        "aws-sdk",
        "the AWS SDK",
        "https://github.com/aws/aws-sdk-java-v2/issues",
        ComponentKind::Library,
    ),
    (
        "com.amazonaws.",
        "aws-sdk",
        "the AWS SDK",
        "https://github.com/aws/aws-sdk-java/issues",
        ComponentKind::Library,
    ),
    (
        "com.google.cloud.",
        "gcs",
        "Google Cloud's client",
        "https://github.com/googleapis/java-storage/issues",
        ComponentKind::Library,
    ),
    (
        "com.azure.",
        "azure",
        "the Azure SDK",
        "https://github.com/Azure/azure-sdk-for-java/issues",
        ComponentKind::Library,
    ),
    (
        "com.microsoft.azure.",
        "azure",
        "the Azure SDK",
        "https://github.com/Azure/azure-sdk-for-java/issues",
        ComponentKind::Library,
    ),
    (
        "org.elasticsearch.",
        "elasticsearch",
        "Elasticsearch's client",
        "https://github.com/elastic/elasticsearch/issues",
        ComponentKind::Library,
    ),
    (
        "org.opensearch.",
        "opensearch",
        "OpenSearch's client",
        "https://github.com/opensearch-project/OpenSearch/issues",
        ComponentKind::Library,
    ),
    (
        "com.clickhouse.",
        "clickhouse",
        "ClickHouse's JDBC driver",
        "https://github.com/ClickHouse/clickhouse-java/issues",
        ComponentKind::Library,
    ),
    (
        "ru.yandex.clickhouse.",
        "clickhouse",
        "ClickHouse's JDBC driver",
        "https://github.com/ClickHouse/clickhouse-java/issues",
        ComponentKind::Library,
    ),
    (
        "com.mongodb.",
        "mongodb",
        "MongoDB's Java driver",
        "https://jira.mongodb.org/projects/JAVA",
        ComponentKind::Library,
    ),
    (
        "redis.clients.",
        "redis",
        "Jedis (Redis client)",
        "https://github.com/redis/jedis/issues",
        ComponentKind::Library,
    ),
    (
        "io.lettuce.",
        "redis",
        "Lettuce (Redis client)",
        "https://github.com/redis/lettuce/issues",
        ComponentKind::Library,
    ),
    (
        "com.datastax.",
        "cassandra",
        "DataStax's Cassandra driver",
        "https://github.com/apache/cassandra-java-driver",
        ComponentKind::Library,
    ),
    (
        "com.mysql.",
        "jdbc-driver",
        "MySQL Connector/J (the JDBC driver)",
        "https://bugs.mysql.com/",
        ComponentKind::Library,
    ),
    (
        "org.postgresql.",
        "jdbc-driver",
        "the PostgreSQL JDBC driver",
        "https://github.com/pgjdbc/pgjdbc/issues",
        ComponentKind::Library,
    ),
    (
        "oracle.jdbc.",
        "jdbc-driver",
        "Oracle's JDBC driver",
        "",
        ComponentKind::Library,
    ),
    (
        "com.microsoft.sqlserver.",
        "jdbc-driver",
        "Microsoft's SQL Server JDBC driver",
        "https://github.com/microsoft/mssql-jdbc/issues",
        ComponentKind::Library,
    ),
    (
        "org.mariadb.jdbc.",
        "jdbc-driver",
        "the MariaDB JDBC driver",
        "https://jira.mariadb.org/projects/CONJ",
        ComponentKind::Library,
    ),
    (
        "com.zaxxer.hikari.",
        "jdbc-driver",
        "HikariCP (a JDBC connection pool)",
        "https://github.com/brettwooldridge/HikariCP/issues",
        ComponentKind::Library,
    ),
    ("java.", "jdk", "the JDK", "", ComponentKind::Jdk),
    ("javax.", "jdk", "the JDK", "", ComponentKind::Jdk),
    ("jdk.", "jdk", "the JDK", "", ComponentKind::Jdk),
    ("sun.", "jdk", "the JDK", "", ComponentKind::Jdk),
    ("com.sun.", "jdk", "the JDK", "", ComponentKind::Jdk),
];

/// Libraries that carry no blame of their own: their frames are passed over when looking for
/// the component that threw (a Guava precondition, a Scala collection, a logging call).
const PASS_THROUGH: &[&str] = &[
    "scala.",
    "kotlin.",
    "com.google.common.",
    "org.apache.commons.",
    "org.slf4j.",
    "org.apache.logging.",
    "org.apache.flink.util.Preconditions",
    "org.apache.flink.util.ExceptionUtils",
    "org.apache.flink.shaded.guava",
];

/// The component a class belongs to, by the longest package prefix in the table; a class of
/// no known project is the job's own code (`user-code`). Planner-generated classes
/// (`StreamExecCalc$35`) are Flink's.
pub fn of_class(class: &str) -> Component {
    match classify(class) {
        Class::Flink => flink(),
        Class::Known(&(prefix, id, name, tracker, kind)) => Component {
            id: id.to_owned(),
            name: name.to_owned(),
            package: prefix.to_owned(),
            tracker: (!tracker.is_empty()).then(|| tracker.to_owned()),
            kind,
        },
        Class::User => user_code(),
        Class::Other => {
            // A well-known library without an entry of its own: name it by its package.
            let package: String = class.split('.').take(3).collect::<Vec<_>>().join(".");
            Component {
                id: format!("other:{package}"),
                name: format!("the library in `{package}`"),
                package: format!("{package}."),
                tracker: None,
                kind: ComponentKind::Library,
            }
        }
    }
}

/// The kind of [`of_class`]'s component, without building it (the no-rule answer asks this of
/// every frame of a cause chain).
pub fn kind_of_class(class: &str) -> ComponentKind {
    match classify(class) {
        Class::Flink => ComponentKind::Flink,
        Class::Known(&(.., kind)) => kind,
        Class::User => ComponentKind::UserCode,
        Class::Other => ComponentKind::Library,
    }
}

/// Whose a class is, as [`of_class`] decides it.
enum Class {
    /// Flink's, outside `org.apache.flink.` (generated code, shaded packages).
    Flink,
    /// The longest [`TABLE`] entry whose package prefix the class starts with.
    Known(
        &'static (
            &'static str,
            &'static str,
            &'static str,
            &'static str,
            ComponentKind,
        ),
    ),
    /// The job's own code.
    User,
    /// A well-known library without an entry of its own.
    Other,
}

fn classify(class: &str) -> Class {
    let group = crate::frames::group_of(class);
    if group == crate::frames::FrameGroup::Flink && !class.starts_with("org.apache.flink.") {
        return Class::Flink;
    }
    let best = TABLE
        .iter()
        .filter(|(prefix, ..)| class.starts_with(prefix))
        .max_by_key(|(prefix, ..)| prefix.len());
    match best {
        Some(entry) => Class::Known(entry),
        None if group == crate::frames::FrameGroup::User => Class::User,
        None => Class::Other,
    }
}

/// Logger prefixes as Log4j's and Logback's `%c{1.}` / `%logger{20}` abbreviate them.
const ABBREVIATED_LOGGERS: &[(&str, &str)] = &[
    ("o.a.f.", "org.apache.flink."),
    ("o.a.k.", "org.apache.kafka."),
    ("o.a.h.", "org.apache.hadoop."),
    ("i.d.", "io.debezium."),
];

/// The component of a log line's logger (usually the class that logged): as [`of_class`], with
/// abbreviated package names (`o.a.f.r.j.JobMaster`) read by their known prefix; an abbreviated
/// logger of no known prefix is a library named by the logger as printed, never "your own code".
pub fn of_logger(logger: &str) -> Component {
    let parts: Vec<&str> = logger.split('.').collect();
    let abbreviated = parts.len() > 1 && parts[..parts.len() - 1].iter().all(|p| p.len() == 1);
    if !abbreviated {
        return of_class(logger);
    }
    match ABBREVIATED_LOGGERS
        .iter()
        .find(|(short, _)| logger.starts_with(short))
    {
        Some((short, long)) => of_class(&format!("{long}{}", &logger[short.len()..])),
        None => Component {
            id: format!("other:{logger}"),
            name: format!("the library that logs as `{logger}`"),
            package: String::new(),
            tracker: None,
            kind: ComponentKind::Library,
        },
    }
}

/// Words in an operator's name that name a connector (`Sink: bucket_write(table=hudi_orders)`,
/// `IcebergStreamWriter`, `Source: MySQL CDC Source`), lower case, with the component's class
/// prefix: the task the failure happened in, when its frames show only Flink.
const OPERATOR_WORDS: &[(&str, &str)] = &[
    ("hudi", "org.apache.hudi."),
    ("iceberg", "org.apache.iceberg."),
    ("paimon", "org.apache.paimon."),
    ("mysql cdc", "com.ververica.cdc."),
    ("mysqlsource", "com.ververica.cdc."),
    ("cdc source", "com.ververica.cdc."),
    ("doris", "org.apache.doris."),
    ("starrocks", "com.starrocks."),
    ("elasticsearch", "org.apache.flink.connector.elasticsearch."),
    ("kafkasource", "org.apache.flink.connector.kafka."),
    ("kafka", "org.apache.flink.connector.kafka."),
    ("jdbc", "org.apache.flink.connector.jdbc."),
];

/// The connector an operator's name names, if any (see [`OPERATOR_WORDS`]).
pub fn of_operator_name(name: &str) -> Option<Component> {
    let lower = name.to_ascii_lowercase();
    OPERATOR_WORDS
        .iter()
        .find(|(word, _)| lower.contains(word))
        .map(|(_, class)| of_class(class))
}

/// Table connector and format identifiers (the `'connector' = '…'` / `'format' = '…'` options,
/// as FactoryUtil's messages quote them) with a class of the project that ships each: Flink CDC's `*-cdc` sources, Flink's own and
/// externalized connectors, and the lakehouse formats' Flink connectors.
const CONNECTOR_IDENTIFIERS: &[(&str, &str)] = &[
    ("kafka", "org.apache.flink.connector.kafka."),
    ("upsert-kafka", "org.apache.flink.connector.kafka."),
    ("jdbc", "org.apache.flink.connector.jdbc."),
    (
        "elasticsearch-6",
        "org.apache.flink.connector.elasticsearch.",
    ),
    (
        "elasticsearch-7",
        "org.apache.flink.connector.elasticsearch.",
    ),
    ("opensearch", "org.apache.flink.connector.opensearch."),
    ("kinesis", "org.apache.flink.connector.kinesis."),
    ("mongodb", "org.apache.flink.connector.mongodb."),
    ("hive", "org.apache.flink.connectors.hive."),
    ("paimon", "org.apache.paimon."),
    ("iceberg", "org.apache.iceberg."),
    ("hudi", "org.apache.hudi."),
    ("doris", "org.apache.doris."),
    ("starrocks", "com.starrocks."),
    ("filesystem", "org.apache.flink."),
    ("datagen", "org.apache.flink."),
    ("print", "org.apache.flink."),
    ("blackhole", "org.apache.flink."),
    // Flink's formats, named the same way in the same messages.
    ("json", "org.apache.flink.formats."),
    ("csv", "org.apache.flink.formats."),
    ("avro", "org.apache.flink.formats."),
    ("avro-confluent", "org.apache.flink.formats."),
    ("debezium-json", "org.apache.flink.formats."),
    ("canal-json", "org.apache.flink.formats."),
    ("maxwell-json", "org.apache.flink.formats."),
    ("parquet", "org.apache.flink.formats."),
    ("orc", "org.apache.flink.orc."),
    ("raw", "org.apache.flink.formats."),
    ("protobuf", "org.apache.flink.formats."),
];

/// The project that ships the table connector with this identifier (`postgres-cdc` → Flink CDC,
/// `kafka` → Flink's Kafka connector); an identifier of no known project is named as it is.
pub fn of_connector_identifier(identifier: &str) -> Component {
    let id = identifier.trim().to_ascii_lowercase();
    let known = CONNECTOR_IDENTIFIERS
        .iter()
        .find(|(name, _)| *name == id)
        .map(|(_, class)| *class)
        .or_else(|| id.ends_with("-cdc").then_some("org.apache.flink.cdc."));
    match known {
        Some(class) => of_class(class),
        None => Component {
            id: format!("other:{id}"),
            name: format!("the connector `{id}`"),
            package: String::new(),
            tracker: None,
            kind: ComponentKind::Connector,
        },
    }
}

/// The job's own code.
pub fn user_code() -> Component {
    Component {
        id: "user-code".to_owned(),
        name: "your own code".to_owned(),
        package: String::new(),
        tracker: None,
        kind: ComponentKind::UserCode,
    }
}

/// Flink itself.
pub fn flink() -> Component {
    Component {
        id: "flink".to_owned(),
        name: "Apache Flink".to_owned(),
        package: "org.apache.flink.".to_owned(),
        tracker: Some(FLINK_JIRA.to_owned()),
        kind: ComponentKind::Flink,
    }
}

/// True for frames of code that only passes an exception on (Guava's preconditions, Scala's
/// collections, logging): the component that threw is further out.
pub fn passes_through(class: &str) -> bool {
    PASS_THROUGH.iter().any(|p| class.starts_with(p))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connector_identifiers_name_the_project_that_ships_them() {
        assert_eq!(of_connector_identifier("postgres-cdc").id, "flink-cdc");
        assert_eq!(of_connector_identifier("kafka").id, "kafka-connector");
        assert_eq!(of_connector_identifier("datagen").id, "flink");
        assert_eq!(of_connector_identifier("acme-db").id, "other:acme-db");
    }

    #[test]
    fn abbreviated_loggers_are_read_by_their_prefix() {
        assert_eq!(of_logger("o.a.f.r.j.JobMaster").id, "flink");
        assert_eq!(of_logger("o.a.k.c.NetworkClient").id, "kafka-client");
        assert_eq!(of_logger("x.y.Z").kind, ComponentKind::Library);
        assert_eq!(
            of_logger("org.apache.kafka.clients.ClientUtils").id,
            of_class("org.apache.kafka.clients.ClientUtils").id
        );
    }

    #[test]
    fn the_longest_prefix_wins() {
        assert_eq!(
            of_class("org.apache.flink.connector.kafka.source.reader.KafkaSourceReader").id,
            "kafka-connector"
        );
        assert_eq!(
            of_class("org.apache.flink.runtime.taskmanager.Task").id,
            "flink"
        );
        assert_eq!(
            of_class("org.apache.paimon.flink.sink.StoreSinkWrite").id,
            "paimon"
        );
        assert_eq!(
            of_class("com.ververica.cdc.connectors.mysql.source.MySqlSource").id,
            "flink-cdc"
        );
        assert_eq!(
            of_class("org.apache.flink.cdc.connectors.mysql.Foo").id,
            "flink-cdc"
        );
        assert_eq!(
            of_class("io.debezium.connector.mysql.MySqlStreamingChangeEventSource").id,
            "debezium"
        );
        assert_eq!(
            of_class("com.mysql.cj.jdbc.ConnectionImpl").id,
            "jdbc-driver"
        );
        assert_eq!(of_class("StreamExecCalc$35").id, "flink");
    }

    #[test]
    fn unknown_classes_are_your_code_and_known_libraries_are_named_by_package() {
        let c = of_class("com.acme.pipeline.Enricher");
        assert_eq!(
            (c.id.as_str(), c.kind),
            ("user-code", ComponentKind::UserCode)
        );
        let c = of_class("io.vertx.core.impl.ContextImpl");
        assert_eq!(c.id, "other:io.vertx.core");
    }
}
