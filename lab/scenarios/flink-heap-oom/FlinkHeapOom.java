import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

public class FlinkHeapOom {

    /** Keeps 1 mb per record it sees, e.g. a cache that is never evicted. */
    public static class Remember implements MapFunction<Long, Long> {
        private final List<byte[]> cache = new ArrayList<>();

        @Override
        public Long map(Long value) {
            cache.add(new byte[1024 * 1024]);
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
                .map(new Remember())
                .filter(v -> v < 0)
                .print();
        env.execute("flink-heap-oom");
    }
}
