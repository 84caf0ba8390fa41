import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * Look-alike of checkpoint-tolerable-failures-exceeded: a map whose snapshotState
 * (CheckpointedFunction) throws on every checkpoint, with
 * execution.checkpointing.tolerable-failed-checkpoints = 2. A failure in the synchronous part of
 * the checkpoint fails the task at once: the threshold is never reached.
 */
public class CheckpointSnapshotStateThrows {

    /** Passes every value on; cannot take a snapshot of its state. */
    public static class FailingSnapshot implements MapFunction<Long, Long>, CheckpointedFunction {
        @Override
        public Long map(Long value) throws InterruptedException {
            Thread.sleep(1); // about 1000 records a second
            return value;
        }

        @Override
        public void snapshotState(FunctionSnapshotContext context) {
            throw new IllegalStateException(
                    "LAB: snapshotState fails on checkpoint " + context.getCheckpointId());
        }

        @Override
        public void initializeState(FunctionInitializationContext context) {}
    }

    public static void main(String[] args) throws Exception {
        Configuration conf = new Configuration();
        conf.setString("restart-strategy", "none"); // key up to 1.x
        conf.setString("restart-strategy.type", "none"); // key from 1.17
        conf.setString("execution.checkpointing.tolerable-failed-checkpoints", "2");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(1);
        env.enableCheckpointing(200);
        System.out.println("LAB: tolerable checkpoint failures = "
                + env.getCheckpointConfig().getTolerableCheckpointFailureNumber());
        env.fromSequence(1, Long.MAX_VALUE)
                .map(new FailingSnapshot())
                .filter(v -> v < 0)
                .startNewChain() // its own task, fed over the network: barriers reach it as events
                .print();
        env.execute("checkpoint-snapshot-state-throws");
    }
}
