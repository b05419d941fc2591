package io.bellows.cli.shell;

/**
 * {@code whoami}: the user in HBase's layout ({@code user (auth:KIND)}, then an indented line; HBase
 * lists the user's groups there, Bellows names the engine the shell uses).
 */
public record WhoamiCommand() implements Command {
  @Override
  public void execute(ShellContext ctx) {
    Session s = ctx.session();
    ctx.printer().line(s.user() + " (auth:" + s.auth() + ")");
    ctx.printer().line("    engine: " + s.engine());
  }
}
