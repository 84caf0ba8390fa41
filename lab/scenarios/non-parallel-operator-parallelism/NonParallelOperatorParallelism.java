import org.apache.flink.api.common.functions.ReduceFunction;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.windowing.assigners.GlobalWindows;
import org.apache.flink.streaming.api.windowing.triggers.CountTrigger;

public class NonParallelOperatorParallelism {

    public static class Sum implements ReduceFunction<Long> {
        @Override
        public Long reduce(Long a, Long b) {
            return a + b;
        }
    }

    public static void main(String[] args) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        env.fromSequence(0, 100)
                .windowAll(GlobalWindows.create())
                .trigger(CountTrigger.of(10))
                .reduce(new Sum())
                .setParallelism(2) // a windowAll operator runs in one instance only
                .print();
        env.execute("non-parallel-operator-parallelism");
    }
}
