package io.bellows.cli.shell;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * {@code version}: Bellows' version in the layout of HBase's ({@code VERSION, rREVISION, DATE}):
 * the version, the Java runtime it runs on. The version comes from {@code bellows-version.properties},
 * which the build fills in from the project's version, so it is the same in the jar and in tests.
 * Over {@code --connect} it is the shell's version; the server's may differ.
 */
public record VersionCommand() implements Command {
  static final String RESOURCE = "/io/bellows/cli/shell/bellows-version.properties";

  @Override
  public void execute(ShellContext ctx) {
    ctx.printer().line(version() + ", Java " + Runtime.version() + " (" + System.getProperty("java.vendor") + ")");
  }

  /** The project's version, from the resource the build writes. */
  static String version() {
    Properties p = new Properties();
    try (InputStream in = VersionCommand.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("the build left out " + RESOURCE);
      }
      p.load(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return p.getProperty("version");
  }
}
