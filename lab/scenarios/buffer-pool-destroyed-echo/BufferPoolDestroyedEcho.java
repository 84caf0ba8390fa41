import org.apache.flink.api.common.functions.FilterFunction;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

public class BufferPoolDestroyedEcho {

    /**
     * A legacy source that emits from its own thread (like a callback-based client): cancel() ends
     * run() but forgets to stop that thread, which keeps emitting after the task is cancelled.
     */
    public static class CallbackSource extends LegacySource<Long> {
        private static final Logger LOG = LoggerFactory.getLogger(CallbackSource.class);
        private volatile boolean running = true;

        @Override
        public void run(SourceContext<Long> ctx) throws Exception {
            Thread emitter = new Thread(() -> {
                long i = 0;
                try {
                    while (true) {
                        ctx.collect(i++); // a record per millisecond, as from a message client
                        Thread.sleep(1);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } catch (RuntimeException e) {
                    LOG.error("Emitter thread failed", e); // into the TaskManager log
                    throw e; // and uncaught: the JVM prints it on stderr
                }
            }, "lab-source-emitter");
            emitter.setDaemon(true);
            emitter.start();
            while (running) {
                Thread.sleep(10);
            }
            // returns without stopping the emitter thread
        }

        @Override
        public void cancel() {
            running = false;
        }
    }

    /** The real failure: a map in another task fails on a record. */
    public static class FailingMap implements MapFunction<Long, Long> {
        @Override
        public Long map(Long value) {
            if (value == 2_000L) {
                throw new IllegalStateException("LAB: record " + value + " cannot be processed");
            }
            return value;
        }
    }

    public static class DropAll implements FilterFunction<Long> {
        @Override
        public boolean filter(Long value) {
            return false;
        }
    }

    public static void main(String[] args) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        env.addSource(new CallbackSource())
                .rebalance() // source and map in two tasks
                .map(new FailingMap())
                .filter(new DropAll())
                .print();
        env.execute("buffer-pool-destroyed-echo");
        Thread.sleep(2000); // not reached: execute() throws
    }
}
