import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

public class FunctionNotSerializable {

    /** Stands for a client object (a connection, a cache) that is not Serializable. */
    static class Connection {
        String lookup(long key) {
            return "value-" + key;
        }
    }

    static class EnrichFunction implements MapFunction<Long, String> {
        private final Connection connection;

        EnrichFunction(Connection connection) {
            this.connection = connection;
        }

        @Override
        public String map(Long value) {
            return connection.lookup(value);
        }
    }

    public static void main(String[] args) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.fromSequence(1, 10).map(new EnrichFunction(new Connection())).print();
        env.execute("function-not-serializable");
    }
}
