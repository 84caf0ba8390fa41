import java.io.File;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;

/** A window TVF (TABLE(TUMBLE(...))) over a TIMESTAMP(3) column of a table declared without WATERMARK. */
public class SqlWindowTvfOnPlainTimestamp {
    public static void main(String[] args) throws Exception {
        TableEnvironment tEnv =
                TableEnvironment.create(EnvironmentSettings.newInstance().inStreamingMode().build());
        String path = new File(args[0], "orders").toURI().toString();
        // order_time is an ordinary TIMESTAMP(3): no WATERMARK FOR order_time in the DDL
        tEnv.executeSql(
                "CREATE TABLE orders (id BIGINT, amount DOUBLE, order_time TIMESTAMP(3)) WITH ("
                        + " 'connector' = 'filesystem', 'path' = '" + path + "', 'format' = 'csv')");
        tEnv.executeSql(
                "CREATE TABLE totals (window_start TIMESTAMP(3), window_end TIMESTAMP(3), total DOUBLE)"
                        + " WITH ('connector' = 'blackhole')");
        tEnv.executeSql(
                        "INSERT INTO totals"
                                + " SELECT window_start, window_end, SUM(amount)"
                                + " FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(order_time), INTERVAL '1' MINUTE))"
                                + " GROUP BY window_start, window_end")
                .await();
    }
}
