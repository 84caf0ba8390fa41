import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/** The job inside job.jar; never reached, as the client finds no entry class. */
public class WordCountJob {
    public static void main(String[] args) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.fromElements("a", "b").print();
        env.execute("word-count");
    }
}
