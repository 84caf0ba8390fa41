import java.io.File;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;

/**
 * Two tables with event-time attributes (WATERMARK declared), joined by a regular join; then a
 * window TVF (TABLE(TUMBLE(...))) over the order's rowtime taken from the join's output.
 */
public class SqlWindowAfterRegularJoin {
    public static void main(String[] args) throws Exception {
        TableEnvironment tEnv =
                TableEnvironment.create(EnvironmentSettings.newInstance().inStreamingMode().build());
        String orders = new File(args[0], "orders").toURI().toString();
        String customers = new File(args[0], "customers").toURI().toString();
        tEnv.executeSql(
                "CREATE TABLE orders (id BIGINT, customer_id BIGINT, amount DOUBLE, order_time TIMESTAMP(3),"
                        + " WATERMARK FOR order_time AS order_time - INTERVAL '5' SECOND) WITH ("
                        + " 'connector' = 'filesystem', 'path' = '" + orders + "', 'format' = 'csv')");
        tEnv.executeSql(
                "CREATE TABLE customers (customer_id BIGINT, country STRING, updated TIMESTAMP(3),"
                        + " WATERMARK FOR updated AS updated - INTERVAL '5' SECOND) WITH ("
                        + " 'connector' = 'filesystem', 'path' = '" + customers + "', 'format' = 'csv')");
        tEnv.executeSql(
                "CREATE TABLE totals (country STRING, window_start TIMESTAMP(3), window_end TIMESTAMP(3), total DOUBLE) WITH ("
                        + " 'connector' = 'blackhole')");
        // a regular join: no time bounds, no FOR SYSTEM_TIME AS OF
        tEnv.executeSql(
                "CREATE VIEW enriched AS SELECT o.order_time, o.amount, c.country"
                        + " FROM orders o JOIN customers c ON o.customer_id = c.customer_id");
        tEnv.executeSql(
                        "INSERT INTO totals"
                                + " SELECT country, window_start, window_end, SUM(amount)"
                                + " FROM TABLE(TUMBLE(TABLE enriched, DESCRIPTOR(order_time), INTERVAL '1' MINUTE))"
                                + " GROUP BY country, window_start, window_end")
                .await();
    }
}
