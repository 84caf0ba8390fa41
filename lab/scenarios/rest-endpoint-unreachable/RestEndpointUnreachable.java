import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * Submits a job to a JobManager at localhost:8081 where nothing listens: the REST client's
 * connection is refused and it retries until it gives up.
 */
public class RestEndpointUnreachable {
    public static void main(String[] args) throws Exception {
        Configuration conf = new Configuration();
        // fewer and shorter retries than the defaults (20 attempts, 3 s apart), to end sooner
        conf.setString("rest.retry.max-attempts", "2");
        conf.setString("rest.retry.delay", "200"); // milliseconds
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.createRemoteEnvironment("localhost", 8081, conf);
        env.fromSequence(0, 10).print();
        env.execute("rest-endpoint-unreachable");
    }
}
