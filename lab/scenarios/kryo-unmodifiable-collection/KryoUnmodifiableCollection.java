import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/** A Kryo-serialized record holding Collections.unmodifiableList, copied between chained maps. */
public class KryoUnmodifiableCollection {

    /** Not a POJO (no default constructor): serialized by Kryo. */
    public static class Bag {
        private final List<String> items;

        public Bag(List<String> items) {
            this.items = items;
        }

        @Override
        public String toString() {
            return "Bag" + items;
        }
    }

    public static class ToBag implements MapFunction<Long, Bag> {
        @Override
        public Bag map(Long value) {
            List<String> items = new ArrayList<>();
            items.add("n" + value);
            return new Bag(Collections.unmodifiableList(items));
        }
    }

    public static class Same implements MapFunction<Bag, Bag> {
        @Override
        public Bag map(Bag value) {
            return value;
        }
    }

    public static void main(String[] args) throws Exception {
        Configuration conf = new Configuration();
        conf.setString("restart-strategy", "none"); // key up to 1.x
        conf.setString("restart-strategy.type", "none"); // key from 1.17
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(1);
        env.fromSequence(0, 10).map(new ToBag()).map(new Same()).print();
        env.execute("kryo-unmodifiable-collection");
    }
}
