import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

public class FunctionNotSerializableInnerClass {

    /** A job-building class that is not Serializable, with a setting its function reads. */
    static class PipelineBuilder {
        private final String prefix;

        PipelineBuilder(String prefix) {
            this.prefix = prefix;
        }

        void build(StreamExecutionEnvironment env) {
            env.fromSequence(1, 10)
                    .map(new MapFunction<Long, String>() {
                        @Override
                        public String map(Long value) {
                            return prefix + value; // reads PipelineBuilder.this.prefix
                        }
                    })
                    .print();
        }
    }

    public static void main(String[] args) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        new PipelineBuilder("value-").build(env);
        env.execute("function-not-serializable-inner-class");
    }
}
