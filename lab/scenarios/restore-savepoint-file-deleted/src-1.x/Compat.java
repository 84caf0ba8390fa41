import java.util.concurrent.CompletableFuture;
import org.apache.flink.core.execution.JobClient;

/** Flink 1.x: stopWithSavepoint(advanceToEndOfEventTime, directory) (1.13+). */
final class Compat {
    static CompletableFuture<String> stopWithSavepoint(JobClient client, String directory) {
        return client.stopWithSavepoint(false, directory);
    }
}
