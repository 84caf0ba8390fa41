import java.io.File;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.api.common.functions.FilterFunction;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * Run 1: numbers -> keyBy -> "count-per-key" (keyed state) -> sink, max parallelism 128,
 * stopped with a savepoint. Run 2: the same job with max parallelism 256, from that savepoint.
 */
public class MaxParallelismChanged {

    public static class Mod10 implements KeySelector<Long, Long> {
        @Override
        public Long getKey(Long value) {
            return value % 10;
        }
    }

    public static class CountPerKey extends RichMapFunction<Long, Long> {
        private transient ValueState<Long> count;

        @Override
        public Long map(Long value) throws Exception {
            if (count == null) {
                count = getRuntimeContext().getState(new ValueStateDescriptor<>("count", Long.class));
            }
            Long c = count.value();
            count.update(c == null ? 1L : c + 1);
            return value;
        }
    }

    public static class DropAll implements FilterFunction<Long> {
        @Override
        public boolean filter(Long value) {
            return false;
        }
    }

    static Configuration conf(String savepointPath) {
        Configuration conf = new Configuration();
        conf.setString("restart-strategy", "none"); // key up to 1.x
        conf.setString("restart-strategy.type", "none"); // key from 1.17
        if (savepointPath != null) {
            conf.setString("execution.savepoint.path", savepointPath);
        }
        return conf;
    }

    static String runUntilSavepoint(StreamExecutionEnvironment env, String name, String dir)
            throws Exception {
        JobClient client = env.executeAsync(name);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            if (client.getJobStatus().get() == JobStatus.RUNNING) {
                try {
                    return Compat.stopWithSavepoint(client, dir).get(60, TimeUnit.SECONDS);
                } catch (Exception e) {
                    // tasks not all running yet: try again
                    if (System.nanoTime() > deadline) {
                        throw e;
                    }
                }
            }
            Thread.sleep(200);
        }
    }

    static StreamExecutionEnvironment build(String savepoint, int maxParallelism) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf(savepoint));
        env.setParallelism(1);
        env.setMaxParallelism(maxParallelism);
        DataStream<Long> numbers = env.fromSequence(0, Long.MAX_VALUE).uid("numbers");
        numbers.keyBy(new Mod10())
                .map(new CountPerKey()).uid("count-per-key")
                .filter(new DropAll()).uid("drop-all")
                .print().uid("print");
        return env;
    }

    public static void main(String[] args) throws Exception {
        String savepointDir = new File(args[0], "savepoints").toURI().toString();

        String savepoint = runUntilSavepoint(build(null, 128), "max-parallelism-changed: first run", savepointDir);
        // The second run of the same job changes the maximum parallelism (the number of key groups).
        build(savepoint, 256).execute("max-parallelism-changed: second run");
    }
}
