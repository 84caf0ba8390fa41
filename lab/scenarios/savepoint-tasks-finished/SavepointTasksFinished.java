import java.io.File;
import java.util.concurrent.TimeUnit;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.api.common.functions.FilterFunction;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * A bounded source unioned with an endless one; checkpoints after finished tasks disabled.
 * Once the bounded source has finished, a savepoint is triggered.
 */
public class SavepointTasksFinished {

    public static class Slow implements MapFunction<Long, Long> {
        @Override
        public Long map(Long value) throws Exception {
            Thread.sleep(10);
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
        String savepointDir = new File(args[0], "savepoints").toURI().toString();
        Configuration conf = new Configuration();
        conf.setString("restart-strategy", "none"); // key up to 1.x
        conf.setString("restart-strategy.type", "none"); // key from 1.17
        // 1.14+; the default is false in 1.14 and true from 1.15.
        conf.setString("execution.checkpointing.checkpoints-after-tasks-finish.enabled", "false");

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(1);
        DataStream<Long> bounded = env.fromSequence(1, 1);
        DataStream<Long> endless = env.fromSequence(0, Long.MAX_VALUE).map(new Slow());
        bounded.union(endless).filter(new DropAll()).print();

        JobClient client = env.executeAsync("savepoint-tasks-finished");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (client.getJobStatus().get() != JobStatus.RUNNING) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("job not RUNNING after 60 s");
            }
            Thread.sleep(200);
        }
        Thread.sleep(3000); // the bounded source finishes
        try {
            String savepoint = Compat.triggerSavepoint(client, savepointDir).get(60, TimeUnit.SECONDS);
            System.out.println("savepoint taken (not expected): " + savepoint);
        } finally {
            client.cancel().get(60, TimeUnit.SECONDS); // ends the mini-cluster, so the JVM exits
        }
    }
}
