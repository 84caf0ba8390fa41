import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * A producer and a consumer task on two TaskManagers (two slot sharing groups, one slot per
 * TaskManager). The producer task is slow to deploy: its task thread sleeps 8 s while
 * deserializing the job's ExecutionConfig (a registered Kryo serializer's readObject), before it
 * registers its result partition. The consumer asks for the partition at once and retries with
 * the backoff taskmanager.network.request-backoff.initial = 100 ms up to .max = 1000 ms.
 */
public class PartitionNotFound {

    public static class Identity implements MapFunction<Long, Long> {
        @Override
        public Long map(Long value) {
            return value;
        }
    }

    public static void main(String[] args) throws Exception {
        Configuration conf = new Configuration();
        conf.setString("restart-strategy", "none");
        conf.setString("restart-strategy.type", "none");
        conf.setString("taskmanager.network.request-backoff.initial", "100");
        conf.setString("taskmanager.network.request-backoff.max", "1000");
        // 1.19+: how long the producer's TaskManager waits for the partition per request
        conf.setString("taskmanager.network.partition-request-timeout", "500");
        MiniCluster cluster =
                new MiniCluster(
                        new MiniClusterConfiguration.Builder()
                                .setConfiguration(conf)
                                .setNumTaskManagers(2)
                                .setNumSlotsPerTaskManager(1)
                                .build());
        cluster.start();
        try {
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
            env.setParallelism(1);
            Compat.register(env);
            env.fromSequence(0, 1000)
                    .name("slow-producer")
                    .slotSharingGroup("producer")
                    .rebalance()
                    .map(new Identity())
                    .name("consumer")
                    .slotSharingGroup("consumer")
                    .filter(v -> v < 0)
                    .print();
            JobGraph jobGraph = env.getStreamGraph().getJobGraph();
            JobID id = cluster.submitJob(jobGraph).get().getJobID();
            JobResult result = cluster.requestJobResult(id).get();
            result.toJobExecutionResult(PartitionNotFound.class.getClassLoader());
            System.out.println("LAB: the job did not fail");
        } finally {
            cluster.close();
        }
    }
}
