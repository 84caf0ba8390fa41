import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

public class NetworkBuffersInsufficient {

    public static class Mod1000 implements KeySelector<Long, Long> {
        @Override
        public Long getKey(Long value) {
            return value % 1000;
        }
    }

    public static void main(String[] args) throws Exception {
        Configuration conf = new Configuration();
        conf.setString("restart-strategy", "none");
        conf.setString("restart-strategy.type", "none");
        // 2 mb of network memory = 64 buffers of 32 kb for the whole (mini-cluster) TaskManager
        conf.setString("taskmanager.memory.network.min", "2mb");
        conf.setString("taskmanager.memory.network.max", "2mb");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(16); // 16 x 16 channels for the keyBy
        env.fromSequence(0, 1_000_000)
                .keyBy(new Mod1000())
                .reduce((a, b) -> a + b)
                .filter(v -> v < 0)
                .print();
        env.execute("network-buffers-insufficient");
    }
}
