import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

public class NonDeterministicKey {

    /** A key whose hashCode is not derived from its content: equal keys hash differently. */
    public static class CustomerKey {
        public long id;

        public CustomerKey() {}

        public CustomerKey(long id) {
            this.id = id;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof CustomerKey && ((CustomerKey) o).id == id;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(this); // differs for every CustomerKey object
        }
    }

    /** Builds a new key object on every call: once in the sender's partitioner, once in the receiver. */
    public static class ByCustomer implements KeySelector<Long, CustomerKey> {
        @Override
        public CustomerKey getKey(Long value) {
            return new CustomerKey(value % 100);
        }
    }

    public static class CountPerCustomer extends RichMapFunction<Long, Long> {
        private transient ValueState<Long> count;

        @Override
        public Long map(Long value) throws Exception {
            if (count == null) {
                count = getRuntimeContext().getState(new ValueStateDescriptor<>("count", Long.class));
            }
            Long c = count.value();
            count.update(c == null ? 1L : c + 1);
            return c == null ? 1L : c + 1;
        }
    }

    public static void main(String[] args) throws Exception {
        Configuration conf = new Configuration();
        conf.setString("restart-strategy", "none");
        conf.setString("restart-strategy.type", "none");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);
        env.fromSequence(0, 100_000)
                .keyBy(new ByCustomer())
                .map(new CountPerCustomer())
                .filter(c -> c < 0)
                .print();
        env.execute("non-deterministic-key");
    }
}
