import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

public class KeyByArrayKey {

    /** Keys by a long[] (region, customer): arrays hash by identity. */
    public static class ByRegionAndCustomer implements KeySelector<Long, long[]> {
        @Override
        public long[] getKey(Long value) {
            return new long[] {value % 3, value % 100};
        }
    }

    public static void main(String[] args) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.fromSequence(0, 1000)
                .keyBy(new ByRegionAndCustomer())
                .reduce((a, b) -> a + b)
                .print();
        env.execute("keyby-array-key");
    }
}
