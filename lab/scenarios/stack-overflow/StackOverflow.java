import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

public class StackOverflow {

    /** A recursive helper whose end condition is never reached. */
    public static class Depth implements MapFunction<Long, Long> {
        static long depth(long n) {
            return n == Long.MIN_VALUE ? 0 : 1 + depth(n + 1);
        }

        @Override
        public Long map(Long value) {
            return depth(value);
        }
    }

    public static void main(String[] args) throws Exception {
        Configuration conf = new Configuration();
        conf.setString("restart-strategy", "none");
        conf.setString("restart-strategy.type", "none");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(1);
        env.fromSequence(1, 10)
                .map(new Depth())
                .print();
        env.execute("stack-overflow");
    }
}
