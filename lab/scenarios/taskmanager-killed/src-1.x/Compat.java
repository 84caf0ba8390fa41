/** Flink 1.x: the configuration file is flink-conf.yaml; 1.13 reads restart-strategy. */
final class Compat {
    static final String CONF_FILE = "flink-conf.yaml";
    static final String RESTART_NONE = "restart-strategy: none\nrestart-strategy.type: none\n";
}
