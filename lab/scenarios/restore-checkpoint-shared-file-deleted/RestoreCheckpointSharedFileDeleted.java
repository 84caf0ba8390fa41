import java.io.File;
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
 * Run 1: numbers -> keyBy -> "last-value" (keyed state, 1 kB per key) -> sink, on RocksDB with
 * incremental checkpoints that are retained on cancellation; cancelled after a few checkpoints.
 * Then the files of the checkpoints' shared/ directory are deleted. Run 2: the same job, started
 * from the last retained checkpoint.
 */
public class RestoreCheckpointSharedFileDeleted {

    public static class Mod200 implements KeySelector<Long, Long> {
        @Override
        public Long getKey(Long value) {
            return value % 200;
        }
    }

    /** Keeps 1 kB of random text per key, so that the RocksDB files are not inlined. */
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

    static Configuration conf(String checkpointDir, String restorePath) {
        Configuration conf = new Configuration();
        conf.setString("restart-strategy", "none"); // key up to 1.x
        conf.setString("restart-strategy.type", "none"); // key from 1.17
        conf.setString("state.backend", "rocksdb"); // key up to 1.x
        conf.setString("state.backend.type", "rocksdb"); // key from 1.17
        conf.setString("state.backend.incremental", "true");
        conf.setString("state.checkpoints.dir", checkpointDir);
        conf.setString("execution.checkpointing.interval", "500 ms");
        conf.setString(
                "execution.checkpointing.externalized-checkpoint-retention", "RETAIN_ON_CANCELLATION");
        if (restorePath != null) {
            conf.setString("execution.savepoint.path", restorePath);
        }
        return conf;
    }

    static StreamExecutionEnvironment job(String checkpointDir, String restorePath) {
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(conf(checkpointDir, restorePath));
        env.setParallelism(1);
        env.fromSequence(0, Long.MAX_VALUE).uid("numbers")
                .keyBy(new Mod200())
                .map(new LastValue()).uid("last-value")
                .filter(new DropAll()).uid("drop-all")
                .print().uid("print");
        return env;
    }

    /** The newest chk-N directory of the job that holds a _metadata file, or null. */
    static File latestCheckpoint(File jobDir) {
        File latest = null;
        long latestId = -1;
        File[] dirs = jobDir.listFiles();
        if (dirs == null) {
            return null;
        }
        for (File d : dirs) {
            if (d.getName().startsWith("chk-") && new File(d, "_metadata").isFile()) {
                long id = Long.parseLong(d.getName().substring(4));
                if (id > latestId) {
                    latestId = id;
                    latest = d;
                }
            }
        }
        return latest;
    }

    public static void main(String[] args) throws Exception {
        File checkpoints = new File(args[0], "checkpoints");
        String checkpointDir = checkpoints.toURI().toString();

        JobClient client = job(checkpointDir, null).executeAsync("restore-checkpoint-shared-file-deleted: first run");
        File jobDir = new File(checkpoints, client.getJobID().toString());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        File checkpoint = null;
        // wait for the third completed checkpoint
        while (checkpoint == null || Long.parseLong(checkpoint.getName().substring(4)) < 3) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no checkpoint completed in time");
            }
            Thread.sleep(200);
            checkpoint = latestCheckpoint(jobDir);
        }
        client.cancel().get(60, TimeUnit.SECONDS);
        try {
            while (client.getJobStatus().get() != JobStatus.CANCELED) {
                Thread.sleep(100);
            }
        } catch (Exception e) {
            // the job's local cluster has shut down: the job has ended
        }
        checkpoint = latestCheckpoint(jobDir);

        // Delete the shared files of the incremental checkpoints (the RocksDB files that several
        // checkpoints refer to).
        for (File f : new File(jobDir, "shared").listFiles()) {
            System.out.println("deleting " + f);
            f.delete();
        }

        job(checkpointDir, checkpoint.toURI().toString())
                .execute("restore-checkpoint-shared-file-deleted: second run");
    }
}
