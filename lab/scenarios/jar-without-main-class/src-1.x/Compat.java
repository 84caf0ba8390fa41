/** Flink 1.x reads conf/flink-conf.yaml. */
final class Compat {
    static final String CONFIG_FILE = "flink-conf.yaml";
}
