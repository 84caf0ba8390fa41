import java.util.concurrent.CompletableFuture;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.core.execution.SavepointFormatType;

/** Flink 2.x: only stopWithSavepoint(advanceToEndOfEventTime, directory, formatType). */
final class Compat {
    static CompletableFuture<String> stopWithSavepoint(JobClient client, String directory) {
        return client.stopWithSavepoint(false, directory, SavepointFormatType.CANONICAL);
    }
}
