import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;

public class SqlConnectorSourceOnly {
    public static void main(String[] args) throws Exception {
        TableEnvironment tEnv =
                TableEnvironment.create(EnvironmentSettings.newInstance().inStreamingMode().build());
        tEnv.executeSql(
                "CREATE TABLE orders (id BIGINT, amount DOUBLE) WITH ("
                        + " 'connector' = 'datagen', 'number-of-rows' = '10')");
        // datagen only has a source factory: it cannot be written to.
        tEnv.executeSql(
                "CREATE TABLE orders_copy (id BIGINT, amount DOUBLE) WITH ("
                        + " 'connector' = 'datagen')");
        tEnv.executeSql("INSERT INTO orders_copy SELECT id, amount FROM orders").await();
    }
}
