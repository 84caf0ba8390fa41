import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.datastream.BroadcastStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.co.BroadcastProcessFunction;
import org.apache.flink.util.Collector;

/**
 * The stop-gap of broadcast-state-copy-cme: the job of broadcast-state-copy-cme, but the map in the
 * broadcast state's value is a ConcurrentHashMap.
 */
public class BroadcastStateConcurrentMap {

    /** The broadcast rules: a POJO with a Map field (a generic type for Flink 1.x: Kryo). */
    public static class Rules {
        public String name;
        public Map<String, String> entries;

        public Rules() {}

        public Rules(String name) {
            this.name = name;
            this.entries = new ConcurrentHashMap<>();
            this.entries.put("version", "1");
        }
    }

    static final MapStateDescriptor<String, Rules> RULES =
            new MapStateDescriptor<>("rules", String.class, Rules.class);

    public static class Throttle implements MapFunction<Long, Long> {
        private final long millis;

        public Throttle(long millis) {
            this.millis = millis;
        }

        @Override
        public Long map(Long value) throws InterruptedException {
            Thread.sleep(millis);
            return value;
        }
    }

    public static class ApplyRules extends BroadcastProcessFunction<Long, Long, Long> {
        private static ExecutorService refresher;

        private static synchronized ExecutorService refresher() {
            if (refresher == null) {
                refresher = Executors.newSingleThreadExecutor(r -> {
                    Thread t = new Thread(r, "rules-refresher");
                    t.setDaemon(true);
                    return t;
                });
            }
            return refresher;
        }

        @Override
        public void processElement(Long value, ReadOnlyContext ctx, Collector<Long> out)
                throws Exception {
            Rules rules = ctx.getBroadcastState(RULES).get("current");
            if (rules != null && value < 0) {
                out.collect(value);
            }
        }

        @Override
        public void processBroadcastElement(Long value, Context ctx, Collector<Long> out)
                throws Exception {
            if (ctx.getBroadcastState(RULES).contains("current")) {
                return;
            }
            Rules rules = new Rules("current");
            ctx.getBroadcastState(RULES).put("current", rules);
            // keep the stored rules up to date in place, on the refresher's thread
            refresher().execute(() -> {
                int i = 0;
                while (true) {
                    long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(2);
                    while (System.nanoTime() < end) {
                        rules.entries.put("rule-" + (i % 16), "value-" + i);
                        rules.entries.remove("rule-" + ((i + 8) % 16));
                        i++;
                    }
                    try {
                        Thread.sleep(1);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
        }
    }

    public static void main(String[] args) throws Exception {
        Configuration conf = new Configuration();
        conf.setString("restart-strategy", "none"); // key up to 1.x
        conf.setString("restart-strategy.type", "none"); // key from 1.17
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(1);
        env.enableCheckpointing(20);
        BroadcastStream<Long> updates =
                env.fromSequence(1, Long.MAX_VALUE).map(new Throttle(10)).broadcast(RULES);
        env.fromSequence(1, Long.MAX_VALUE)
                .map(new Throttle(1))
                .connect(updates)
                .process(new ApplyRules())
                .filter(new BoundedRun.DropAllCountCheckpoints<>())
                .print();
        BoundedRun.run(env, "broadcast-state-concurrent-map", 200, 15, 150);
    }
}
