import java.io.File;
import java.io.FileInputStream;
import java.io.InputStream;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

public class TooManyOpenFiles {

    /** Opens the lookup file for every record and never closes it (a descriptor leak). */
    public static class Lookup extends RichMapFunction<Long, Long> {
        private final String path;
        private final List<InputStream> leaked = new ArrayList<>();

        Lookup(String path) {
            this.path = path;
        }

        @Override
        public Long map(Long value) throws Exception {
            InputStream in = new FileInputStream(path);
            leaked.add(in);
            return value + in.read();
        }
    }

    public static void main(String[] args) throws Exception {
        File lookup = new File(args[0], "lookup.txt");
        Files.write(lookup.toPath(), "x".getBytes());
        Configuration conf = new Configuration();
        conf.setString("restart-strategy", "none");
        conf.setString("restart-strategy.type", "none");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(1);
        env.fromSequence(0, 1_000_000)
                .map(new Lookup(lookup.getPath()))
                .filter(v -> v < 0)
                .print();
        env.execute("too-many-open-files");
    }
}
