import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;

public class SqlNotNullColumn {
    public static void main(String[] args) throws Exception {
        TableEnvironment tEnv =
                TableEnvironment.create(EnvironmentSettings.newInstance().inStreamingMode().build());
        tEnv.executeSql(
                "CREATE TABLE customers (id BIGINT NOT NULL, email STRING NOT NULL) WITH ("
                        + " 'connector' = 'blackhole')");
        // the second row has no e-mail
        tEnv.executeSql(
                        "INSERT INTO customers SELECT id, email FROM (VALUES"
                                + " (CAST(1 AS BIGINT), 'a@example.com'),"
                                + " (CAST(2 AS BIGINT), CAST(NULL AS STRING))) AS t (id, email)")
                .await();
    }
}
