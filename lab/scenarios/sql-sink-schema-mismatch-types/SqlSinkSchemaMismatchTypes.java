import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;

public class SqlSinkSchemaMismatchTypes {
    public static void main(String[] args) throws Exception {
        TableEnvironment tEnv =
                TableEnvironment.create(EnvironmentSettings.newInstance().inStreamingMode().build());
        tEnv.executeSql(
                "CREATE TABLE orders (id BIGINT, customer STRING, amount DOUBLE) WITH ("
                        + " 'connector' = 'datagen', 'number-of-rows' = '10')");
        tEnv.executeSql(
                "CREATE TABLE order_totals (id BIGINT, customer STRING, amount DOUBLE) WITH ("
                        + " 'connector' = 'blackhole')");
        // same number of columns, in the wrong order: a STRING goes into the BIGINT column
        tEnv.executeSql("INSERT INTO order_totals SELECT customer, id, amount FROM orders").await();
    }
}
