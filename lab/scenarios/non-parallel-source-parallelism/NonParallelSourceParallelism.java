import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

public class NonParallelSourceParallelism {

    public static void main(String[] args) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        env.fromElements(1L, 2L, 3L, 4L)
                .setParallelism(2) // fromElements was a non-parallel source in 1.x
                .print();
        env.execute("non-parallel-source-parallelism");
    }
}
