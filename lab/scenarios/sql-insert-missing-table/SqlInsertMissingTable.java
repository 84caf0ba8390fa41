import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;

public class SqlInsertMissingTable {
    public static void main(String[] args) throws Exception {
        TableEnvironment tEnv =
                TableEnvironment.create(EnvironmentSettings.newInstance().inStreamingMode().build());
        tEnv.executeSql(
                "CREATE TABLE orders (id BIGINT, amount DOUBLE) WITH ("
                        + " 'connector' = 'datagen', 'number-of-rows' = '10')");
        // order_totals was never created
        tEnv.executeSql("INSERT INTO order_totals SELECT id, amount FROM orders").await();
    }
}
