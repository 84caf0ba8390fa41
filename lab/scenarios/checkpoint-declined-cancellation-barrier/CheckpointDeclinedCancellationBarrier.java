import java.io.IOException;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.LongSerializer;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * A map (a CheckpointedFunction) whose operator state cannot be written: its serializer throws
 * in serialize(), which runs in the asynchronous part of every checkpoint. The task declines each
 * checkpoint (a failure in the synchronous part, snapshotState, would fail the task directly).
 * With execution.checkpointing.tolerable-failed-checkpoints = 2, the third failed checkpoint in a
 * row fails the job (no restarts).
 */
public class CheckpointDeclinedCancellationBarrier {

    /** A Long serializer that copies but cannot write: the async phase of the snapshot fails. */
    public static final class UnwritableLongSerializer extends TypeSerializerSingleton<Long> {
        @Override
        public boolean isImmutableType() {
            return true;
        }

        @Override
        public Long createInstance() {
            return 0L;
        }

        @Override
        public Long copy(Long from) {
            return from;
        }

        @Override
        public Long copy(Long from, Long reuse) {
            return from;
        }

        @Override
        public int getLength() {
            return 8;
        }

        @Override
        public void serialize(Long record, DataOutputView target) throws IOException {
            throw new IOException("LAB: this state cannot be written");
        }

        @Override
        public Long deserialize(DataInputView source) throws IOException {
            return source.readLong();
        }

        @Override
        public Long deserialize(Long reuse, DataInputView source) throws IOException {
            return source.readLong();
        }

        @Override
        public void copy(DataInputView source, DataOutputView target) throws IOException {
            target.writeLong(source.readLong());
        }

        @Override
        public TypeSerializerSnapshot<Long> snapshotConfiguration() {
            return new Snapshot();
        }

        public static final class Snapshot extends SimpleTypeSerializerSnapshot<Long> {
            public Snapshot() {
                super(UnwritableLongSerializer::new);
            }
        }
    }

    /** Passes every value on; keeps the last one in operator state that cannot be written. */
    public static class UnwritableState implements MapFunction<Long, Long>, CheckpointedFunction {
        private transient ListState<Long> last;

        @Override
        public Long map(Long value) throws Exception {
            last.update(java.util.Collections.singletonList(value));
            return value;
        }

        @Override
        public void snapshotState(FunctionSnapshotContext context) {}

        @Override
        public void initializeState(FunctionInitializationContext context) throws Exception {
            last = context.getOperatorStateStore()
                    .getListState(new ListStateDescriptor<>("last", new UnwritableLongSerializer()));
            last.add(0L);
        }
    }

    /** Busy for about 50 microseconds per record: backpressure, barriers wait behind data. */
    public static class Slow implements MapFunction<Long, Long> {
        @Override
        public Long map(Long value) {
            long end = System.nanoTime() + 50_000;
            while (System.nanoTime() < end) {
                Thread.onSpinWait();
            }
            return value;
        }
    }

    public static void main(String[] args) throws Exception {
        // DEBUG for the loggers that report a checkpoint declined on a cancellation barrier
        for (String logger : new String[] {
                "org.apache.flink.runtime.checkpoint.CheckpointCoordinator",
                "org.apache.flink.streaming.runtime.tasks.SubtaskCheckpointCoordinatorImpl",
                "org.apache.flink.streaming.runtime.io.checkpointing"}) {
            org.apache.logging.log4j.core.config.Configurator.setLevel(
                    logger, org.apache.logging.log4j.Level.DEBUG);
        }
        Configuration conf = new Configuration();
        conf.setString("restart-strategy", "none"); // key up to 1.x
        conf.setString("restart-strategy.type", "none"); // key from 1.17
        conf.setString("execution.checkpointing.tolerable-failed-checkpoints", "10");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(1);
        env.enableCheckpointing(300);
        env.fromSequence(1, Long.MAX_VALUE)
                .map(new UnwritableState()) // declines every checkpoint, after sending its barrier on
                .map(new Slow())
                .startNewChain() // its own task: the barrier waits behind buffered records
                .filter(v -> v < 0)
                .startNewChain() // its own task, downstream of the slow one
                .print();
        env.execute("checkpoint-declined-cancellation-barrier");
    }
}
