import org.apache.flink.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import org.apache.flink.streaming.api.windowing.time.Time;

/** Flink 1.x: window sizes are org.apache.flink.streaming.api.windowing.time.Time. */
final class Compat {
    static TumblingEventTimeWindows tumblingEventTime(long seconds) {
        return TumblingEventTimeWindows.of(Time.seconds(seconds));
    }
}
