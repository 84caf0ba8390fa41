import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.connector.sink2.Committer;
import org.apache.flink.api.connector.sink2.SinkWriter;
import org.apache.flink.api.connector.sink2.TwoPhaseCommittingSink;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.streaming.api.connector.sink2.CommittableMessage;
import org.apache.flink.streaming.api.connector.sink2.StandardSinkTopologies;
import org.apache.flink.streaming.api.connector.sink2.WithPostCommitTopology;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * A Sink V2 (TwoPhaseCommittingSink) at parallelism 2 with a global committer added as its
 * post-commit topology (StandardSinkTopologies.addGlobalCommitter, parallelism 1): the global
 * committer's state holds the committables of both writer subtasks. Checkpoints every 200 ms; a
 * map fails once 3 s after its first record, and the job restarts once from the latest checkpoint.
 */
public class SinkCommitterRestore {

    static final AtomicBoolean FAILED = new AtomicBoolean();
    static final java.util.concurrent.atomic.AtomicLong FIRST = new java.util.concurrent.atomic.AtomicLong();

    public static class FailOnce implements MapFunction<Long, Long> {
        @Override
        public Long map(Long value) throws Exception {
            Thread.sleep(1);
            long now = System.currentTimeMillis();
            FIRST.compareAndSet(0, now);
            if (now - FIRST.get() > 3000 && FAILED.compareAndSet(false, true)) {
                throw new RuntimeException("LAB: failing once to restore from the latest checkpoint");
            }
            return value;
        }
    }

    public static class StringSerializer implements SimpleVersionedSerializer<String> {
        @Override
        public int getVersion() {
            return 1;
        }

        @Override
        public byte[] serialize(String obj) {
            return obj.getBytes(StandardCharsets.UTF_8);
        }

        @Override
        public String deserialize(int version, byte[] serialized) {
            return new String(serialized, StandardCharsets.UTF_8);
        }
    }

    public static class NoOpCommitter implements Committer<String> {
        @Override
        public void commit(Collection<CommitRequest<String>> requests) {}

        @Override
        public void close() {}
    }

    public static class CountingWriter
            implements TwoPhaseCommittingSink.PrecommittingSinkWriter<Long, String> {
        long count;

        @Override
        public void write(Long element, SinkWriter.Context context) {
            count++;
        }

        @Override
        public void flush(boolean endOfInput) {}

        @Override
        public Collection<String> prepareCommit() {
            return new ArrayList<>(Collections.singletonList("records-" + count));
        }

        @Override
        public void close() {}
    }

    public static class CountingSink implements WithPostCommitTopology<Long, String> {
        @Override
        public PrecommittingSinkWriter<Long, String> createWriter(InitContext context) {
            return new CountingWriter();
        }

        @Override
        public Committer<String> createCommitter() {
            return new NoOpCommitter();
        }

        @Override
        public SimpleVersionedSerializer<String> getCommittableSerializer() {
            return new StringSerializer();
        }

        @Override
        public void addPostCommitTopology(DataStream<CommittableMessage<String>> committables) {
            StandardSinkTopologies.addGlobalCommitter(
                    committables, NoOpCommitter::new, StringSerializer::new);
        }
    }

    public static void main(String[] args) throws Exception {
        Configuration conf = new Configuration();
        conf.setString("restart-strategy", "fixed-delay");
        conf.setString("restart-strategy.fixed-delay.attempts", "1");
        conf.setString("restart-strategy.fixed-delay.delay", "0 ms");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);
        env.enableCheckpointing(200);
        env.fromSequence(0, Long.MAX_VALUE).map(new FailOnce()).sinkTo(new CountingSink());
        env.execute("sink-committer-restore");
    }
}
