import java.io.File;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/**
 * A standalone session cluster of three JVMs started by this program: a JobManager
 * (StandaloneSessionClusterEntrypoint) and two TaskManagers (TaskManagerRunner) of one slot each.
 * A job of two independent pipelines (parallelism 2, no shuffle, so the TaskManagers exchange no
 * data) runs on both; once every task runs, one TaskManager process is killed with SIGKILL
 * (Process.destroyForcibly), as a crashed or OOM-killed TaskManager is lost.
 */
public class TaskManagerKilled {

    public static class Slow implements MapFunction<Long, Long> {
        @Override
        public Long map(Long value) throws Exception {
            Thread.sleep(1);
            return value;
        }
    }

    static final List<Process> PROCESSES = new ArrayList<>();

    static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    static Process start(File dir, String logName, String mainClass, File confDir) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(System.getProperty("java.home") + "/bin/java");
        for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (!a.startsWith("-Dlog.file=") && !a.startsWith("-Dlog4j.configurationFile=")) {
                cmd.add(a);
            }
        }
        cmd.add("-Xmx512m");
        cmd.add("-XX:MaxDirectMemorySize=512m");
        cmd.add("-Dlog4j.configurationFile=" + new File(dir, "log4j-cluster.properties").getPath());
        cmd.add("-Dlog.file=" + new File(dir, logName).getPath());
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(mainClass);
        cmd.add("--configDir");
        cmd.add(confDir.getPath());
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.redirectErrorStream(true);
        pb.redirectOutput(new File(dir, logName.replace(".log", ".out")));
        Process p = pb.start();
        PROCESSES.add(p);
        return p;
    }

    static String get(String url) {
        try {
            HttpURLConnection c = (HttpURLConnection) new URL(url).openConnection();
            c.setConnectTimeout(1000);
            c.setReadTimeout(2000);
            try (InputStream in = c.getInputStream()) {
                return new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
        } catch (Exception e) {
            return "";
        }
    }

    public static void main(String[] args) throws Exception {
        File dir = new File(args[0]);
        // the JobManager logs to flink.log (the file the lab cuts); this client and the
        // TaskManagers log to files of their own
        System.setProperty("log.file", new File(dir, "client.log").getPath());
        Runtime.getRuntime().addShutdownHook(new Thread(() -> PROCESSES.forEach(Process::destroyForcibly)));

        // the lab's log4j configuration with append = true: a second logger context in these
        // processes would otherwise truncate the file
        String lab = System.getProperty("log4j.configurationFile");
        String log4j = new String(Files.readAllBytes(new File(lab).toPath()), StandardCharsets.UTF_8);
        Files.write(
                new File(dir, "log4j-cluster.properties").toPath(),
                log4j.replace("appender.main.append = false", "appender.main.append = true")
                        .getBytes(StandardCharsets.UTF_8));
        int rpcPort = freePort();
        int restPort = freePort();
        File confDir = new File(dir, "conf");
        confDir.mkdirs();
        String conf =
                "jobmanager.rpc.address: localhost\n"
                        + "jobmanager.rpc.port: " + rpcPort + "\n"
                        + "jobmanager.bind-host: localhost\n"
                        + "rest.address: localhost\n"
                        + "rest.bind-address: localhost\n"
                        + "rest.port: " + restPort + "\n"
                        + "taskmanager.host: localhost\n"
                        + "taskmanager.bind-host: localhost\n"
                        + "jobmanager.memory.process.size: 1g\n"
                        // what the start scripts pass as dynamic properties (BashJavaUtils)
                        + "taskmanager.cpu.cores: 1.0\n"
                        + "taskmanager.memory.framework.heap.size: 128m\n"
                        + "taskmanager.memory.task.heap.size: 128m\n"
                        + "taskmanager.memory.managed.size: 64m\n"
                        + "taskmanager.memory.framework.off-heap.size: 128m\n"
                        + "taskmanager.memory.task.off-heap.size: 0m\n"
                        + "taskmanager.memory.network.min: 64m\n"
                        + "taskmanager.memory.network.max: 64m\n"
                        + "taskmanager.memory.jvm-metaspace.size: 256m\n"
                        + "taskmanager.memory.jvm-overhead.min: 192m\n"
                        + "taskmanager.memory.jvm-overhead.max: 192m\n"
                        + "taskmanager.numberOfTaskSlots: 1\n"
                        + "heartbeat.interval: 1000\n"
                        + "heartbeat.timeout: 20000\n"
                        + Compat.RESTART_NONE;
        Files.write(new File(confDir, Compat.CONF_FILE).toPath(), conf.getBytes(StandardCharsets.UTF_8));

        start(dir, "flink.log", "org.apache.flink.runtime.entrypoint.StandaloneSessionClusterEntrypoint", confDir);
        start(dir, "taskmanager-1.log", "org.apache.flink.runtime.taskexecutor.TaskManagerRunner", confDir);
        Process victim =
                start(dir, "taskmanager-2.log", "org.apache.flink.runtime.taskexecutor.TaskManagerRunner", confDir);

        String rest = "http://localhost:" + restPort;
        for (int i = 0; !get(rest + "/taskmanagers").contains("\"slotsNumber\""); i++) {
            if (i > 600) throw new IllegalStateException("LAB: no TaskManager registered");
            Thread.sleep(100);
        }
        for (int i = 0; get(rest + "/taskmanagers").split("\"slotsNumber\"").length < 3; i++) {
            if (i > 600) throw new IllegalStateException("LAB: second TaskManager not registered");
            Thread.sleep(100);
        }

        Configuration clientConf = new Configuration();
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.createRemoteEnvironment("localhost", restPort, clientConf);
        env.setParallelism(2);
        env.fromSequence(0, Long.MAX_VALUE).map(new Slow()).filter(v -> v < 0).print();
        JobClient client = env.executeAsync("taskmanager-killed");
        String jobUrl = rest + "/jobs/" + client.getJobID();
        for (int i = 0; ; i++) {
            String job = get(jobUrl);
            if (job.contains("\"state\":\"RUNNING\"") && job.contains("\"RUNNING\":2")
                    && !job.matches("(?s).*\"status\":\"(CREATED|SCHEDULED|DEPLOYING|INITIALIZING)\".*")) {
                break;
            }
            if (i > 600) throw new IllegalStateException("LAB: tasks not running: " + job);
            Thread.sleep(100);
        }
        Thread.sleep(2000);
        System.out.println("LAB: every task runs; killing TaskManager 2 (SIGKILL)");
        victim.destroyForcibly();
        long t0 = System.nanoTime();
        try {
            client.getJobExecutionResult().get();
            System.out.println("LAB: the job did not fail");
        } finally {
            System.out.println("LAB: the job ended " + (System.nanoTime() - t0) / 1_000_000 + " ms after the kill");
            PROCESSES.forEach(Process::destroyForcibly);
        }
    }
}
