import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.execution.ExecutionState;
import org.apache.flink.runtime.executiongraph.AccessExecutionGraph;
import org.apache.flink.runtime.executiongraph.AccessExecutionVertex;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * A job at parallelism 2 on a mini-cluster with two TaskManagers of one slot each; once every
 * task runs, TaskManager 1 is terminated (MiniCluster.terminateTaskManager).
 */
public class TaskManagerLost {

    public static class Slow implements MapFunction<Long, Long> {
        @Override
        public Long map(Long value) throws Exception {
            Thread.sleep(1);
            return value;
        }
    }

    public static class Mod100 implements KeySelector<Long, Long> {
        @Override
        public Long getKey(Long value) {
            return value % 100;
        }
    }

    static Configuration configuration() {
        Configuration conf = new Configuration();
        conf.setString("restart-strategy", "none");
        conf.setString("restart-strategy.type", "none");
        conf.setString("heartbeat.interval", "500");
        conf.setString("heartbeat.timeout", "3000");
        return conf;
    }

    static void awaitAllRunning(MiniCluster cluster, JobID id) throws Exception {
        for (int i = 0; i < 600; i++) {
            AccessExecutionGraph graph = cluster.getExecutionGraph(id).get();
            // an initializing job's graph has no vertices yet
            boolean all = false;
            for (AccessExecutionVertex v : graph.getAllExecutionVertices()) {
                if (v.getExecutionState() != ExecutionState.RUNNING) {
                    all = false;
                    break;
                }
                all = true;
            }
            if (all) {
                return;
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("LAB: tasks not running after 60 s");
    }

    public static void main(String[] args) throws Exception {
        Configuration conf = configuration();
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
            env.setParallelism(2);
            env.fromSequence(0, Long.MAX_VALUE)
                    .map(new Slow())
                    .keyBy(new Mod100())
                    .filter(v -> v < 0)
                    .print();
            JobGraph jobGraph = env.getStreamGraph().getJobGraph();
            JobID id = cluster.submitJob(jobGraph).get().getJobID();
            awaitAllRunning(cluster, id);
            Thread.sleep(2000);
            System.out.println("LAB: every task runs; terminating TaskManager 1");
            cluster.terminateTaskManager(1).get();
            JobResult result = cluster.requestJobResult(id).get();
            result.toJobExecutionResult(TaskManagerLost.class.getClassLoader());
            System.out.println("LAB: the job did not fail");
        } finally {
            cluster.close();
        }
    }
}
