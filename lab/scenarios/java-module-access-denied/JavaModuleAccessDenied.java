import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

public class JavaModuleAccessDenied {

    /** Not a POJO (no default constructor): Flink serializes it with Kryo, field by field. */
    public static class Holder {
        final Object values;

        Holder(Object values) {
            this.values = values;
        }
    }

    /** Emits a Holder of a JDK class with private fields (Kryo has no serializer of its own for it). */
    public static class Wrap implements MapFunction<Long, Holder> {
        @Override
        public Holder map(Long value) {
            return new Holder(new AtomicLong(value));
        }
    }

    public static void main(String[] args) throws Exception {
        Configuration conf = new Configuration();
        conf.setString("restart-strategy", "none");
        conf.setString("restart-strategy.type", "none");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);
        env.fromSequence(0, 1_000)
                .map(new Wrap())
                .rebalance()
                .filter(h -> h.values == null)
                .print();
        env.execute("java-module-access-denied");
    }
}
