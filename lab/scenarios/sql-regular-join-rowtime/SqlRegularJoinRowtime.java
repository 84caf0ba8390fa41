import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;

public class SqlRegularJoinRowtime {
    public static void main(String[] args) throws Exception {
        TableEnvironment tEnv =
                TableEnvironment.create(EnvironmentSettings.newInstance().inStreamingMode().build());
        tEnv.executeSql(
                "CREATE TABLE orders (id BIGINT, ts TIMESTAMP(3),"
                        + " WATERMARK FOR ts AS ts - INTERVAL '5' SECOND) WITH ("
                        + " 'connector' = 'datagen', 'number-of-rows' = '10')");
        tEnv.executeSql(
                "CREATE TABLE shipments (order_id BIGINT, ts TIMESTAMP(3),"
                        + " WATERMARK FOR ts AS ts - INTERVAL '5' SECOND) WITH ("
                        + " 'connector' = 'datagen', 'number-of-rows' = '10')");
        tEnv.executeSql(
                "CREATE TABLE order_shipments (id BIGINT, order_ts TIMESTAMP(3), ship_ts TIMESTAMP(3))"
                        + " WITH ('connector' = 'blackhole')");
        // a regular join: its output keeps both rowtime attributes
        tEnv.executeSql(
                        "INSERT INTO order_shipments SELECT o.id, o.ts, s.ts"
                                + " FROM orders o JOIN shipments s ON o.id = s.order_id")
                .await();
    }
}
