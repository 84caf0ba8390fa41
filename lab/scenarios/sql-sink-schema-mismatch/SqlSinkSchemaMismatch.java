import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;

public class SqlSinkSchemaMismatch {
    public static void main(String[] args) throws Exception {
        TableEnvironment tEnv =
                TableEnvironment.create(EnvironmentSettings.newInstance().inStreamingMode().build());
        tEnv.executeSql(
                "CREATE TABLE orders (id BIGINT, customer STRING, amount DOUBLE) WITH ("
                        + " 'connector' = 'datagen', 'number-of-rows' = '10')");
        tEnv.executeSql(
                "CREATE TABLE order_totals (id BIGINT, customer STRING) WITH ("
                        + " 'connector' = 'blackhole')");
        // three columns selected, the sink has two
        tEnv.executeSql("INSERT INTO order_totals SELECT id, customer, amount FROM orders").await();
    }
}
