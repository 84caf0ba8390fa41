import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * A type serialized by Kryo with a custom Kryo Serializer registered for it, whose read expects a
 * field (a timestamp) that its write does not write: read consumes more bytes than write produced.
 */
public class KryoMisalignedNetwork {

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

        @Override
        public String toString() {
            return sensor + "=" + value + "@" + timestamp;
        }
    }

    /** write() was not updated when the timestamp was added; read() was. */
    public static class ReadingSerializer extends Serializer<Reading> {
        @Override
        public void write(Kryo kryo, Output output, Reading r) {
            output.writeString(r.sensor);
            output.writeDouble(r.value);
        }

        @Override
        @SuppressWarnings("rawtypes")
        public Reading read(Kryo kryo, Input input, Class type) {
            String sensor = input.readString();
            double value = input.readDouble();
            long timestamp = input.readLong();
            return new Reading(sensor, value, timestamp);
        }
    }

    public static class ToReading implements MapFunction<Long, Reading> {
        @Override
        public Reading map(Long n) {
            return new Reading("sensor-" + (n % 4), n * 0.5, 1_700_000_000_000L + n);
        }
    }

    public static class Describe implements MapFunction<Reading, String> {
        @Override
        public String map(Reading r) {
            return r.toString();
        }
    }

    public static void main(String[] args) throws Exception {
        Configuration conf = new Configuration();
        conf.setString("restart-strategy", "none"); // key up to 1.x
        conf.setString("restart-strategy.type", "none"); // key from 1.17
        Compat.configure(conf, Reading.class, ReadingSerializer.class);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        Compat.register(env, Reading.class, ReadingSerializer.class);
        env.setParallelism(2);
        // rebalance: every record crosses the network between the two maps; the receiving task
        // deserializes it with the type's serializer (KryoSerializer.deserialize).
        env.fromSequence(0, 1000).map(new ToReading()).rebalance().map(new Describe()).print();
        env.execute("kryo-misaligned-network");
    }
}
