import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;

public class SqlUnsupportedOptions {
    public static void main(String[] args) throws Exception {
        TableEnvironment tEnv =
                TableEnvironment.create(EnvironmentSettings.newInstance().inStreamingMode().build());
        // 'rows-per-sec' is a typo: the datagen option is 'rows-per-second'.
        tEnv.executeSql(
                "CREATE TABLE orders (id BIGINT, amount DOUBLE) WITH ("
                        + " 'connector' = 'datagen',"
                        + " 'number-of-rows' = '10',"
                        + " 'rows-per-sec' = '5')");
        tEnv.executeSql("SELECT id, amount FROM orders").print();
    }
}
