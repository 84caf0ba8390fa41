import com.esotericsoftware.kryo.Serializer;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/** Flink 1.x: ExecutionConfig.registerTypeWithKryoSerializer. */
public class Compat {
    static void configure(Configuration conf, Class<?> type, Class<? extends Serializer> serializer) {}

    static void register(
            StreamExecutionEnvironment env, Class<?> type, Class<? extends Serializer> serializer) {
        env.getConfig().registerTypeWithKryoSerializer(type, serializer);
    }
}
