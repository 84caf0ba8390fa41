import java.io.File;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.nio.file.Files;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.apache.flink.client.cli.CliFrontend;

public class JarWithoutMainClass {

    public static void main(String[] args) throws Exception {
        File dir = new File(args[0]);
        // The job jar: one class, a manifest without Main-Class / program-class.
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        File jar = new File(dir, "job.jar");
        try (JarOutputStream out = new JarOutputStream(new FileOutputStream(jar), manifest);
                InputStream in = JarWithoutMainClass.class.getResourceAsStream("/WordCountJob.class")) {
            out.putNextEntry(new JarEntry("WordCountJob.class"));
            in.transferTo(out);
            out.closeEntry();
        }
        // An empty Flink configuration in ./conf, CliFrontend's fallback configuration directory.
        File conf = new File(dir, "conf");
        conf.mkdirs();
        Files.write(new File(conf, Compat.CONFIG_FILE).toPath(), new byte[0]);
        CliFrontend.main(new String[] {"run", jar.getPath()});
    }
}
