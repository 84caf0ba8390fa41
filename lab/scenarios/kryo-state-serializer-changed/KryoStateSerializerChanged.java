import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
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
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * Run 1: numbers -> keyBy -> "last-reading" (keyed ValueState of a Kryo type with a registered
 * custom Kryo Serializer) -> sink, stopped with a savepoint. Run 2: the same job from that
 * savepoint after the serializer's format changed (it now writes and reads a timestamp too).
 */
public class KryoStateSerializerChanged {

    /** Not a POJO (no default constructor): serialized by Kryo, with ReadingSerializer. */
    public static class Reading {
        final String sensor;
        final double value;
        final long timestamp;

        public Reading(String sensor, double value, long timestamp) {
            this.sensor = sensor;
            this.value = value;
            this.timestamp = timestamp;
        }
    }

    /** Version 1 writes sensor and value; version 2 (the second run) also the timestamp. */
    public static class ReadingSerializer extends Serializer<Reading> {
        static volatile boolean version2 = false;

        @Override
        public void write(Kryo kryo, Output output, Reading r) {
            output.writeString(r.sensor);
            output.writeDouble(r.value);
            if (version2) {
                output.writeLong(r.timestamp);
            }
        }

        @Override
        @SuppressWarnings("rawtypes")
        public Reading read(Kryo kryo, Input input, Class type) {
            String sensor = input.readString();
            double value = input.readDouble();
            long timestamp = version2 ? input.readLong() : 0L;
            return new Reading(sensor, value, timestamp);
        }
    }

    public static class Mod10 implements KeySelector<Long, Long> {
        @Override
        public Long getKey(Long value) {
            return value % 10;
        }
    }

    public static class LastReading extends RichMapFunction<Long, Long> {
        private transient ValueState<Reading> last;

        @Override
        public Long map(Long n) throws Exception {
            if (last == null) {
                last = getRuntimeContext().getState(new ValueStateDescriptor<>("last", Reading.class));
            }
            Reading previous = last.value();
            last.update(new Reading("sensor-" + (n % 10), n * 0.5, 1_700_000_000_000L + n));
            return previous == null ? n : n + (long) previous.value;
        }
    }

    public static class DropAll implements FilterFunction<Long> {
        @Override
        public boolean filter(Long value) {
            return false;
        }
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

    static StreamExecutionEnvironment build(String savepoint) {
        Configuration conf = new Configuration();
        conf.setString("restart-strategy", "none"); // key up to 1.x
        conf.setString("restart-strategy.type", "none"); // key from 1.17
        if (savepoint != null) {
            conf.setString("execution.savepoint.path", savepoint);
        }
        Compat.configure(conf, Reading.class, ReadingSerializer.class);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        Compat.register(env, Reading.class, ReadingSerializer.class);
        env.setParallelism(1);
        env.fromSequence(0, Long.MAX_VALUE).uid("numbers")
                .keyBy(new Mod10())
                .map(new LastReading()).uid("last-reading")
                .filter(new DropAll()).uid("drop-all")
                .print().uid("print");
        return env;
    }

    public static void main(String[] args) throws Exception {
        String savepointDir = new File(args[0], "savepoints").toURI().toString();
        String savepoint =
                runUntilSavepoint(build(null), "kryo-state-serializer-changed: first run", savepointDir);
        // The second run: the same job and registration, the serializer's format changed.
        ReadingSerializer.version2 = true;
        build(savepoint).execute("kryo-state-serializer-changed: second run");
    }
}
