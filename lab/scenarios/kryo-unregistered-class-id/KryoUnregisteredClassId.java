import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * A type serialized by Kryo with a custom Kryo Serializer registered for it, whose write and read
 * disagree on the order of the fields: write writes the id (a number) first, read expects the
 * payload's class first, so Kryo takes the id for a class ID.
 */
public class KryoUnregisteredClassId {

    /** Not a POJO (no default constructor): serialized by Kryo, with EventSerializer. */
    public static class Event {
        final long id;
        final Object payload;

        public Event(long id, Object payload) {
            this.id = id;
            this.payload = payload;
        }

        @Override
        public String toString() {
            return id + ":" + payload;
        }
    }

    /** write: id, then the payload with its class; read: the payload with its class, then id. */
    public static class EventSerializer extends Serializer<Event> {
        @Override
        public void write(Kryo kryo, Output output, Event e) {
            output.writeVarLong(e.id, true);
            kryo.writeClassAndObject(output, e.payload);
        }

        @Override
        @SuppressWarnings("rawtypes")
        public Event read(Kryo kryo, Input input, Class type) {
            Object payload = kryo.readClassAndObject(input);
            long id = input.readVarLong(true);
            return new Event(id, payload);
        }
    }

    public static class ToEvent implements MapFunction<Long, Event> {
        @Override
        public Event map(Long n) {
            return new Event(1000 + n, "payload-" + n);
        }
    }

    public static class Describe implements MapFunction<Event, String> {
        @Override
        public String map(Event e) {
            return e.toString();
        }
    }

    public static void main(String[] args) throws Exception {
        Configuration conf = new Configuration();
        conf.setString("restart-strategy", "none"); // key up to 1.x
        conf.setString("restart-strategy.type", "none"); // key from 1.17
        Compat.configure(conf, Event.class, EventSerializer.class);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        Compat.register(env, Event.class, EventSerializer.class);
        env.setParallelism(2);
        // rebalance: every Event crosses the network; the receiving task deserializes it with the
        // type's serializer (KryoSerializer.deserialize -> EventSerializer.read).
        env.fromSequence(0, 1000).map(new ToEvent()).rebalance().map(new Describe()).print();
        env.execute("kryo-unregistered-class-id");
    }
}
