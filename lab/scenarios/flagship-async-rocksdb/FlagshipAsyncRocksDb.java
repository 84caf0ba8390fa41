import java.util.Collections;
import java.util.HashMap;
import org.apache.flink.api.java.functions.KeySelector;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.datastream.AsyncDataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.async.AsyncFunction;
import org.apache.flink.streaming.api.functions.async.ResultFuture;

/**
 * Claim of the flagship rule: switching the state backend has no effect, operator state always
 * lives in the default operator state backend. The failing flagship job
 * (flagship-async-mutates-input) with the RocksDB state backend, and keyed (keyBy id % 8) so that
 * the async operator's task really builds a RocksDB keyed state backend.
 */
public class FlagshipAsyncRocksDb {

    /** The user's record: a POJO with a Map field (a generic type for Flink 1.x: Kryo). */
    public static class Event {
        public long id;
        public Map<String, String> tags;

        public Event() {}

        public Event(long id) {
            this.id = id;
            this.tags = new HashMap<>();
            this.tags.put("source", "numbers");
        }
    }

    public static class ToEvent implements MapFunction<Long, Event> {
        @Override
        public Event map(Long value) throws InterruptedException {
            Thread.sleep(1); // about 1000 events a second: no backpressure, barriers pass quickly
            return new Event(value);
        }
    }

    public static class ByBucket implements KeySelector<Event, Long> {
        @Override
        public Long getKey(Event event) {
            return event.id % 8;
        }
    }

    /** Enriches the INPUT in place (puts and removes keys), then completes with it. */
    public static class Enrich implements AsyncFunction<Event, Event> {
        private static ExecutorService callbacks;

        private static synchronized ExecutorService callbacks() {
            if (callbacks == null) {
                callbacks = Executors.newFixedThreadPool(4, r -> {
                    Thread t = new Thread(r, "lookup-callback");
                    t.setDaemon(true);
                    return t;
                });
            }
            return callbacks;
        }

        @Override
        public void asyncInvoke(Event input, ResultFuture<Event> resultFuture) {
            callbacks().execute(() -> {
                // the lookup's answer arrives in pieces for about 2 ms: each piece is a new key
                long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(2);
                int i = 0;
                while (System.nanoTime() < end) {
                    input.tags.put("lookup-" + (i % 16), "value-" + i);
                    input.tags.remove("lookup-" + ((i + 8) % 16));
                    i++;
                }
                input.tags.put("enriched", "true");
                try {
                    resultFuture.complete(Collections.singleton(input));
                } catch (RejectedExecutionException taskGone) {
                    // the task already failed and closed its mailbox: nothing to complete
                }
            });
        }
    }

    public static void main(String[] args) throws Exception {
        Configuration conf = new Configuration();
        conf.setString("restart-strategy", "none"); // key up to 1.x
        conf.setString("restart-strategy.type", "none"); // key from 1.17
        conf.setString("state.backend", "rocksdb"); // key up to 1.x
        conf.setString("state.backend.type", "rocksdb"); // key from 1.17
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(1);
        env.enableCheckpointing(20);
        AsyncDataStream.unorderedWait(
                        env.fromSequence(1, Long.MAX_VALUE).map(new ToEvent()).keyBy(new ByBucket()),
                        new Enrich(),
                        10,
                        TimeUnit.SECONDS,
                        100)
                .startNewChain() // after keyBy: its own task anyway, fed over the network
                .filter(new BoundedRun.DropAllCountCheckpoints<>())
                .print();
        BoundedRun.run(env, "flagship-async-rocksdb", 200, 15, 150);
    }
}
