import java.util.concurrent.CompletableFuture;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;

/** Flink 2.x: only triggerSavepoint(directory, formatType). */
final class Compat {
    static CompletableFuture<String> triggerSavepoint(JobClient client, String directory) {
        return client.triggerSavepoint(directory, SavepointFormatType.CANONICAL);
    }
}
