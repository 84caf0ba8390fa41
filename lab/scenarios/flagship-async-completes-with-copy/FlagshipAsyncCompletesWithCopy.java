import java.util.Collections;
import java.util.HashMap;
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
 * Claim (b), the rule's first fix: the callback builds a NEW output object (the input is only read)
 * and enriches that one, exactly as the flagship job enriches the input, then completes with it.
 */
public class FlagshipAsyncCompletesWithCopy {

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

    /** Reads the input, enriches a new output object on the callback thread, completes with the output. */
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
                // a NEW output object: the input is only read, the copy is enriched
                Event output = new Event();
                output.id = input.id;
                output.tags = new HashMap<>(input.tags);
                // the lookup's answer arrives in pieces for about 2 ms: each piece is a new key
                long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(2);
                int i = 0;
                while (System.nanoTime() < end) {
                    output.tags.put("lookup-" + (i % 16), "value-" + i);
                    output.tags.remove("lookup-" + ((i + 8) % 16));
                    i++;
                }
                output.tags.put("enriched", "true");
                try {
                    resultFuture.complete(Collections.singleton(output));
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
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(1);
        env.enableCheckpointing(20);
        AsyncDataStream.unorderedWait(
                        env.fromSequence(1, Long.MAX_VALUE).map(new ToEvent()),
                        new Enrich(),
                        10,
                        TimeUnit.SECONDS,
                        100)
                .startNewChain() // its own task, fed over the network: checkpoints arrive as barriers
                .filter(new BoundedRun.DropAllCountCheckpoints<>())
                .print();
        BoundedRun.run(env, "flagship-async-completes-with-copy", 200, 15, 150);
    }
}
