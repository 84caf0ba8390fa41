import java.io.File;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;

/** A group window (GROUP BY TUMBLE) over a TIMESTAMP(3) column of a table declared without WATERMARK. */
public class SqlWindowOnPlainTimestamp {
    public static void main(String[] args) throws Exception {
        TableEnvironment tEnv =
                TableEnvironment.create(EnvironmentSettings.newInstance().inStreamingMode().build());
        String path = new File(args[0], "orders").toURI().toString();
        // order_time is an ordinary TIMESTAMP(3): no WATERMARK FOR order_time in the DDL
        tEnv.executeSql(
                "CREATE TABLE orders (id BIGINT, amount DOUBLE, order_time TIMESTAMP(3)) WITH ("
                        + " 'connector' = 'filesystem', 'path' = '" + path + "', 'format' = 'csv')");
        tEnv.executeSql(
                "CREATE TABLE totals (window_start TIMESTAMP(3), total DOUBLE) WITH ("
                        + " 'connector' = 'blackhole')");
        tEnv.executeSql(
                        "INSERT INTO totals"
                                + " SELECT TUMBLE_START(order_time, INTERVAL '1' MINUTE), SUM(amount)"
                                + " FROM orders GROUP BY TUMBLE(order_time, INTERVAL '1' MINUTE)")
                .await();
    }
}
