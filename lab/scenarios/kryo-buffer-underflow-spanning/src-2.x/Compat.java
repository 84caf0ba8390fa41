import com.esotericsoftware.kryo.Serializer;
import java.util.Collections;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.PipelineOptions;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * Flink 2.x (no ExecutionConfig.registerTypeWithKryoSerializer): pipeline.serialization-config
 * with {type: kryo, kryo-type: registered, class: ...}.
 */
public class Compat {
    static void configure(Configuration conf, Class<?> type, Class<? extends Serializer> serializer) {
        conf.set(
                PipelineOptions.SERIALIZATION_CONFIG,
                Collections.singletonList(
                        type.getName()
                                + ": {type: kryo, kryo-type: registered, class: "
                                + serializer.getName()
                                + "}"));
    }

    static void register(
            StreamExecutionEnvironment env, Class<?> type, Class<? extends Serializer> serializer) {}
}
