import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

public class UidHashCollision {

    public static class PlusOne implements MapFunction<Long, Long> {
        @Override
        public Long map(Long value) {
            return value + 1;
        }
    }

    public static class TimesTwo implements MapFunction<Long, Long> {
        @Override
        public Long map(Long value) {
            return value * 2;
        }
    }

    public static void main(String[] args) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        env.fromSequence(0, 100)
                .map(new PlusOne()).uid("enrich")
                .map(new TimesTwo()).uid("enrich") // copy-pasted: the same uid twice
                .print();
        env.execute("uid-hash-collision");
    }
}
