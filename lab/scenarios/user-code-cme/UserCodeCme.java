import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

public class UserCodeCme {

    /** Keeps the last values and drops the even ones while iterating: a classic CME. */
    public static class RecentOdd implements MapFunction<Long, Integer> {
        private final List<Long> recent = new ArrayList<>();

        @Override
        public Integer map(Long value) {
            recent.add(value);
            for (Long v : recent) {
                if (v % 2 == 0) {
                    recent.remove(v); // structural change during the for-each
                }
            }
            return recent.size();
        }
    }

    public static void main(String[] args) throws Exception {
        Configuration conf = new Configuration();
        conf.setString("restart-strategy", "none");
        conf.setString("restart-strategy.type", "none");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(1);
        env.fromSequence(1, 100)
                .map(new RecentOdd())
                .filter(v -> v < 0)
                .print();
        env.execute("user-code-cme");
    }
}
