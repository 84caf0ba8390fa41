import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

public class KeyedStateWithoutKeyBy {

    /** Counts per key with keyed state, but the stream is not keyed. */
    public static class RunningCount extends RichMapFunction<Long, Long> {
        private transient ValueState<Long> count;

        @Override
        public Long map(Long value) throws Exception {
            if (count == null) { // lazily, so one source compiles on 1.x (open(Configuration)) and 2.x (open(OpenContext))
                count = getRuntimeContext().getState(new ValueStateDescriptor<>("count", Long.class));
            }
            Long c = count.value();
            count.update(c == null ? 1L : c + 1);
            return c;
        }
    }

    public static void main(String[] args) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        env.fromSequence(0, 100)
                .map(new RunningCount()) // no keyBy(...) before it
                .print();
        env.execute("keyed-state-without-keyby");
    }
}
