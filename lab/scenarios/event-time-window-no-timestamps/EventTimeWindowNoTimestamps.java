import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

public class EventTimeWindowNoTimestamps {

    public static class ByUser implements KeySelector<String, String> {
        @Override
        public String getKey(String click) {
            return click.split(",")[0];
        }
    }

    public static void main(String[] args) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        env.fromElements("alice,/home", "bob,/cart", "alice,/checkout")
                // no assignTimestampsAndWatermarks(...): the records carry no timestamp
                .keyBy(new ByUser())
                .window(Compat.tumblingEventTime(5))
                .reduce((a, b) -> a + ";" + b)
                .print();
        env.execute("event-time-window-no-timestamps");
    }
}
