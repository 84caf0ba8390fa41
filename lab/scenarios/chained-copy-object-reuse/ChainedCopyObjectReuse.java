import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.util.Collector;

/**
 * The not-fix of chained-copy-cme: the job of chained-copy-cme with object reuse on
 * (pipeline.object-reuse = true): the chain hand-off no longer copies the record.
 */
public class ChainedCopyObjectReuse {

    /** The emitted record: a POJO with a Map field (a generic type for Flink 1.x: Kryo). */
    public static class Status {
        public long id;
        public Map<String, String> gauges;

        public Status() {}

        public Status(long id) {
            this.id = id;
            this.gauges = new HashMap<>();
            this.gauges.put("source", "numbers");
        }
    }

    /** Emits one "current status" object per input; a poller thread refreshes it in place. */
    public static class EmitStatus extends ProcessFunction<Long, Status> {
        private static ExecutorService poller;
        private transient Status current;

        private static synchronized ExecutorService poller() {
            if (poller == null) {
                poller = Executors.newSingleThreadExecutor(r -> {
                    Thread t = new Thread(r, "status-poller");
                    t.setDaemon(true);
                    return t;
                });
            }
            return poller;
        }

        @Override
        public void processElement(Long value, Context ctx, Collector<Status> out) {
            if (current == null) {
                Status status = new Status(0);
                current = status;
                poller().execute(() -> {
                    int i = 0;
                    while (true) {
                        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(2);
                        while (System.nanoTime() < end) {
                            status.gauges.put("gauge-" + (i % 16), "value-" + i);
                            status.gauges.remove("gauge-" + ((i + 8) % 16));
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
            current.id = value;
            out.collect(current); // the same object, still being changed by the poller
        }
    }

    public static void main(String[] args) throws Exception {
        Configuration conf = new Configuration();
        conf.setString("restart-strategy", "none"); // key up to 1.x
        conf.setString("restart-strategy.type", "none"); // key from 1.17
        conf.setString("pipeline.object-reuse", "true");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(1);
        env.fromSequence(1, Long.MAX_VALUE)
                .process(new EmitStatus())
                .filter(new BoundedRun.DropAllCountCheckpoints<>())
                .print();
        BoundedRun.run(env, "chained-copy-object-reuse", 0, 20, 20); // no checkpointing: 20 s
    }
}
