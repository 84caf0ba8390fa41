import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

public class NativeThreadOom {

    /** Starts a thread per record for work it does not wait for (a thread per call, no pool). */
    public static class FireAndForget extends RichMapFunction<Long, Long> {
        @Override
        public Long map(Long value) throws Exception {
            Thread worker = new Thread(() -> {
                try {
                    Thread.sleep(5_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "notify-" + value);
            worker.setDaemon(true);
            worker.start();
            return value;
        }
    }

    public static void main(String[] args) throws Exception {
        Configuration conf = new Configuration();
        conf.setString("restart-strategy", "none");
        conf.setString("restart-strategy.type", "none");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(1);
        env.fromSequence(0, 1_000_000)
                .map(new FireAndForget())
                .filter(v -> v < 0)
                .print();
        env.execute("native-thread-oom");
    }
}
