import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.api.common.functions.FilterFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/** Triggers a savepoint of a running job but names no directory, and none is configured. */
public class NoSavepointDirectoryTrigger {

    public static class DropAll implements FilterFunction<Long> {
        @Override
        public boolean filter(Long value) {
            return false;
        }
    }

    public static void main(String[] args) throws Exception {
        Configuration conf = new Configuration();
        conf.setString("restart-strategy", "none"); // key up to 1.x
        conf.setString("restart-strategy.type", "none"); // key from 1.17
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(1);
        env.fromSequence(0, Long.MAX_VALUE).filter(new DropAll()).print();
        JobClient client = env.executeAsync("no-savepoint-directory");
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (client.getJobStatus().get() != JobStatus.RUNNING && System.nanoTime() < deadline) {
                Thread.sleep(200);
            }
            Thread.sleep(2_000); // let the tasks start
            // No target directory, as `flink savepoint <jobId>` without one.
            Compat.triggerSavepoint(client, null).get(60, TimeUnit.SECONDS);
        } finally {
            client.cancel().get(60, TimeUnit.SECONDS);
        }
    }
}
