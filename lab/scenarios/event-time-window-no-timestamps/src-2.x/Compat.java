import java.time.Duration;
import org.apache.flink.streaming.api.windowing.assigners.TumblingEventTimeWindows;

/** Flink 2.x: Time is gone, window sizes are java.time.Duration. */
final class Compat {
    static TumblingEventTimeWindows tumblingEventTime(long seconds) {
        return TumblingEventTimeWindows.of(Duration.ofSeconds(seconds));
    }
}
