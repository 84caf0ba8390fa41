import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.Serializable;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/** Flink 2.x (Kryo 5): SerializerConfigImpl.registerTypeWithKryoSerializer. */
final class Compat {
    public static class SlowSerializer extends Serializer<SlowDeploy.Marker> implements Serializable {
        private static final long serialVersionUID = 1L;

        @Override
        public void write(Kryo kryo, Output output, SlowDeploy.Marker object) {}

        @Override
        public SlowDeploy.Marker read(Kryo kryo, Input input, Class<? extends SlowDeploy.Marker> type) {
            return new SlowDeploy.Marker();
        }

        private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
            SlowDeploy.maybeSleep(in);
        }
    }

    static void register(StreamExecutionEnvironment env) {
        ((SerializerConfigImpl) env.getConfig().getSerializerConfig())
                .registerTypeWithKryoSerializer(SlowDeploy.Marker.class, new SlowSerializer());
    }
}
