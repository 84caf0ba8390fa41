/** The legacy SourceFunction API, in its 1.x package. */
public abstract class LegacySource<T> implements org.apache.flink.streaming.api.functions.source.SourceFunction<T> {}
