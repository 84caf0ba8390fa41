/** Flink 2.x reads conf/config.yaml. */
final class Compat {
    static final String CONFIG_FILE = "config.yaml";
}
