package io.bellows.cli.shell;

import java.nio.file.Path;

/**
 * Who runs the shell and on what, for {@code whoami}: the operating-system user, how the shell
 * authenticates ({@code SIMPLE}: the local user, {@code TOKEN}: a bearer token, {@code NONE}: no
 * credentials to a server) and the engine it uses. The client does not learn a token's role (the
 * server checks it at each call), so it is not shown.
 */
public record Session(String user, String auth, String engine) {
  /** An embedded engine on a data directory (null: unknown). */
  public static Session embedded(Path directory) {
    return new Session(osUser(), "SIMPLE", directory == null ? "an engine given to the shell"
        : "the embedded engine on " + directory.toAbsolutePath());
  }

  /** A server at {@code address}, reached with or without a bearer token, over TLS or not. */
  public static Session remote(String address, boolean token, boolean tls) {
    return new Session(osUser(), token ? "TOKEN" : "NONE", "the server at " + address + (tls ? " (TLS)" : "")
        + (token ? "; the token's role is checked by the server and not known to the shell" : ""));
  }

  private static String osUser() {
    return System.getProperty("user.name", "unknown");
  }
}
