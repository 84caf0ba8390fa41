import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.datastream.AsyncDataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.ProcessFunction;
import org.apache.flink.streaming.api.functions.async.AsyncFunction;
import org.apache.flink.streaming.api.functions.async.ResultFuture;
import org.apache.flink.util.Collector;

/**
 * Object reuse on: a function emits the same record object again and again while a thread of its
 * own keeps changing the record's map; the async I/O operator chained after it copies each input
 * record on arrival. No checkpointing.
 */
public class AsyncInputCopyCme {

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

    /** Answers at once with the record's id. */
    public static class Lookup implements AsyncFunction<Status, Long> {
        @Override
        public void asyncInvoke(Status input, ResultFuture<Long> resultFuture) {
            resultFuture.complete(Collections.singleton(input.id));
        }
    }

    public static void main(String[] args) throws Exception {
        Configuration conf = new Configuration();
        conf.setString("restart-strategy", "none"); // key up to 1.x
        conf.setString("restart-strategy.type", "none"); // key from 1.17
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.getConfig().enableObjectReuse();
        env.setParallelism(1);
        System.out.println("LAB: object reuse enabled = " + env.getConfig().isObjectReuseEnabled());
        AsyncDataStream.unorderedWait(
                        env.fromSequence(1, Long.MAX_VALUE).process(new EmitStatus()),
                        new Lookup(),
                        10,
                        TimeUnit.SECONDS,
                        100) // chained after the ProcessFunction (the default since Flink 1.11)
                .filter(v -> v < 0)
                .print();
        env.execute("async-input-copy-cme");
    }
}
