package io.bellows.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.util.Bytes;
import java.io.StringWriter;
import java.lang.reflect.Method;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's API example compiles as printed (its imports and statements, put in a main method)
 * and runs against a temporary directory, so that it cannot drift from the API.
 */
@Tag("needs-engine")
class ReadmeExampleTest {
  private static final String CLASS = "ReadmeExample";

  @TempDir
  Path tmp;

  @Test
  void apiExampleCompilesAndRuns() throws Exception {
    String example = javaBlockAfter(Files.readString(Path.of("..", "README.md")), "## Using the API");
    List<String> lines = example.lines().collect(Collectors.toList());
    String imports = lines.stream().filter(l -> l.startsWith("import ")).collect(Collectors.joining("\n"));
    String body = lines.stream().filter(l -> !l.startsWith("import ")).collect(Collectors.joining("\n"));
    // The example opens ./data; the run uses the temporary directory instead.
    assertThat(body).contains("Path.of(\"data\")");
    body = body.replace("Path.of(\"data\")", "Path.of(args[0])");
    String source = imports + "\n\npublic class " + CLASS + " {\n"
        + "  public static void main(String[] args) throws Exception {\n" + body + "\n  }\n}\n";

    Path classes = Files.createDirectories(tmp.resolve("classes"));
    StringWriter diagnostics = new StringWriter();
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    boolean compiled = javac.getTask(diagnostics, null, null,
        List.of("-d", classes.toString(), "-classpath", testClassPath()), null, List.of(new Source(source)))
        .call();
    assertThat(compiled).as("the README example must compile:\n%s\n%s", diagnostics, source).isTrue();

    try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()}, getClass().getClassLoader())) {
      Method main = loader.loadClass(CLASS).getMethod("main", String[].class);
      main.invoke(null, (Object) new String[] {tmp.resolve("data").toString()});
    }
    try (io.bellows.client.Bellows db = io.bellows.client.Bellows.open(tmp.resolve("data"),
        io.bellows.config.EngineOptions.defaults())) {
      assertThat(db.listTables()).containsExactly("metrics");
      // what the example leaves: the counter it incremented, and no cpu column after its delete
      io.bellows.client.Result row = db.getTable("metrics").get(new io.bellows.client.Get(Bytes.of("host1")));
      assertThat(Bytes.getLong(row.getValue(Bytes.of("m"), Bytes.of("hits")), 0)).isEqualTo(1);
      assertThat(row.getValue(Bytes.of("m"), Bytes.of("cpu"))).isNull();
    }
  }

  /** The first ```java block after the heading. */
  private static String javaBlockAfter(String markdown, String heading) {
    int at = markdown.indexOf(heading);
    assertThat(at).as("README heading " + heading).isNotNegative();
    Matcher m = Pattern.compile("```java\n(.*?)```", Pattern.DOTALL).matcher(markdown);
    assertThat(m.find(at)).as("a java block after " + heading).isTrue();
    return m.group(1);
  }

  /** Surefire may run tests from a manifest-only jar; it names the real class path in a property. */
  private static String testClassPath() {
    return System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
  }

  private static final class Source extends SimpleJavaFileObject {
    private final String code;

    Source(String code) {
      super(URI.create("string:///" + CLASS + ".java"), JavaFileObject.Kind.SOURCE);
      this.code = code;
    }

    @Override
    public CharSequence getCharContent(boolean ignoreEncodingErrors) {
      return code;
    }
  }
}
