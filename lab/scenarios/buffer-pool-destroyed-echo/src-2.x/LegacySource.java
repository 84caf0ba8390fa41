/** The legacy SourceFunction API, in its 2.x package. */
public abstract class LegacySource<T> implements org.apache.flink.streaming.api.functions.source.legacy.SourceFunction<T> {}
