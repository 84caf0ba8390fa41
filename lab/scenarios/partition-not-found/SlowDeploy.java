import java.io.IOException;
import java.io.ObjectInputStream;

/** Sleeps while the task thread of the "slow-producer" task deserializes the ExecutionConfig. */
final class SlowDeploy {
    static final long DELAY_MS = 8000;

    static void maybeSleep(ObjectInputStream in) throws IOException, ClassNotFoundException {
        in.defaultReadObject();
        if (Thread.currentThread().getName().contains("slow-producer")) {
            try {
                Thread.sleep(DELAY_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** A type only used to register the serializer. */
    public static class Marker {}
}
