import java.io.File;
import java.net.URI;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.api.common.functions.FilterFunction;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * Run 1: numbers -> keyBy -> "last-value" (keyed state, 1 kB per key) -> sink, stopped with a
 * savepoint (default hashmap/heap state backend). Then the savepoint's state files are deleted,
 * only its _metadata is left. Run 2: the same job, started from that savepoint.
 */
public class RestoreSavepointFileDeleted {

    public static class Mod200 implements KeySelector<Long, Long> {
        @Override
        public Long getKey(Long value) {
            return value % 200;
        }
    }

    /** Keeps 1 kB of random text per key, so that the state is written to files of its own. */
    public static class LastValue extends RichMapFunction<Long, Long> {
        private transient ValueState<String> last;

        @Override
        public Long map(Long value) throws Exception {
            if (last == null) {
                last = getRuntimeContext().getState(new ValueStateDescriptor<>("last", String.class));
            }
            Random random = new Random(value);
            StringBuilder text = new StringBuilder(1024);
            for (int i = 0; i < 1024; i++) {
                text.append((char) ('a' + random.nextInt(26)));
            }
            last.update(text.toString());
            return value;
        }
    }

    public static class DropAll implements FilterFunction<Long> {
        @Override
        public boolean filter(Long value) {
            return false;
        }
    }

    static String checkpointDir;

    static Configuration conf(String savepointPath) {
        Configuration conf = new Configuration();
        // checkpoints and savepoints on the file system (without a checkpoint directory, a local
        // cluster keeps all state inside the _metadata file)
        conf.setString("state.checkpoints.dir", checkpointDir);
        conf.setString("restart-strategy", "none"); // key up to 1.x
        conf.setString("restart-strategy.type", "none"); // key from 1.17
        if (savepointPath != null) {
            conf.setString("execution.savepoint.path", savepointPath);
        }
        return conf;
    }

    static StreamExecutionEnvironment job(String savepointPath) {
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(conf(savepointPath));
        env.setParallelism(1);
        env.fromSequence(0, Long.MAX_VALUE).uid("numbers")
                .keyBy(new Mod200())
                .map(new LastValue()).uid("last-value")
                .filter(new DropAll()).uid("drop-all")
                .print().uid("print");
        return env;
    }

    static String runUntilSavepoint(StreamExecutionEnvironment env, String name, String dir)
            throws Exception {
        JobClient client = env.executeAsync(name);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            if (client.getJobStatus().get() == JobStatus.RUNNING) {
                // let every key get its state before the savepoint
                Thread.sleep(3000);
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

    public static void main(String[] args) throws Exception {
        checkpointDir = new File(args[0], "checkpoints").toURI().toString();
        String savepointDir = new File(args[0], "savepoints").toURI().toString();
        String savepoint = runUntilSavepoint(job(null), "restore-savepoint-file-deleted: first run", savepointDir);

        // Delete the savepoint's state files; keep its _metadata.
        File[] files = new File(new URI(savepoint)).listFiles();
        for (File f : files) {
            if (!f.getName().equals("_metadata")) {
                System.out.println("deleting " + f);
                f.delete();
            }
        }

        job(savepoint).execute("restore-savepoint-file-deleted: second run");
    }
}
