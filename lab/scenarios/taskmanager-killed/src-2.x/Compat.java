/** Flink 2.x: the configuration file is config.yaml (flink-conf.yaml is no longer read). */
final class Compat {
    static final String CONF_FILE = "config.yaml";
    static final String RESTART_NONE = "restart-strategy.type: none\n";
}
