import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.functions.FilterFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.client.JobCancellationException;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.ExceptionUtils;

/**
 * The lab's bounded run, for jobs that might not fail: runs the job until it has completed
 * {@code minCheckpoints} checkpoints and {@code minSeconds} have passed (at most
 * {@code maxSeconds}), then cancels it and prints "LAB-NO-FAILURE: ...". If the job fails first,
 * the failure is thrown out of main as StreamExecutionEnvironment.execute() would throw it (the
 * JobExecutionException, stripped of the future's ExecutionException).
 */
final class BoundedRun {
    static final AtomicLong COMPLETED_CHECKPOINTS = new AtomicLong();

    /** Drops every record; counts the completed checkpoints it is told about. */
    public static class DropAllCountCheckpoints<T> implements FilterFunction<T>, CheckpointListener {
        @Override
        public boolean filter(T value) {
            return false;
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) {
            COMPLETED_CHECKPOINTS.incrementAndGet();
        }
    }

    static void run(StreamExecutionEnvironment env, String name, long minCheckpoints,
            int minSeconds, int maxSeconds) throws Exception {
        JobClient client = env.executeAsync(name);
        CompletableFuture<JobExecutionResult> result = client.getJobExecutionResult();
        long start = System.nanoTime();
        double seconds = 0;
        while (!result.isDone()) {
            seconds = (System.nanoTime() - start) / 1e9;
            if ((COMPLETED_CHECKPOINTS.get() >= minCheckpoints && seconds >= minSeconds)
                    || seconds >= maxSeconds) {
                break;
            }
            Thread.sleep(100);
        }
        long completed = COMPLETED_CHECKPOINTS.get();
        if (!result.isDone()) {
            client.cancel();
        }
        try {
            result.get(60, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            Throwable t = ExceptionUtils.stripExecutionException(e);
            if (!(t instanceof JobCancellationException)) {
                if (t instanceof Exception) {
                    throw (Exception) t;
                }
                throw (Error) t;
            }
        }
        if (completed < minCheckpoints) {
            System.out.printf("LAB-TOO-FEW-CHECKPOINTS: %d checkpoints completed in %.0f s (wanted %d)%n",
                    completed, seconds, minCheckpoints);
            System.exit(3);
        }
        System.out.printf("LAB-NO-FAILURE: %d checkpoints completed in %.0f s without a failure; job cancelled%n",
                completed, seconds);
        System.exit(0);
    }
}
