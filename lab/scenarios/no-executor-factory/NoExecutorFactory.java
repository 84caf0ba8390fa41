import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

public class NoExecutorFactory {
    public static void main(String[] args) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.fromSequence(1, 10).filter(v -> v % 2 == 0).print();
        env.execute("no-executor-factory");
    }
}
