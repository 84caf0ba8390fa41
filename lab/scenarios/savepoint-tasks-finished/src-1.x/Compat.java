import java.util.concurrent.CompletableFuture;
import org.apache.flink.core.execution.JobClient;

/** Flink 1.x: triggerSavepoint(directory) (1.13+). */
final class Compat {
    static CompletableFuture<String> triggerSavepoint(JobClient client, String directory) {
        return client.triggerSavepoint(directory);
    }
}
