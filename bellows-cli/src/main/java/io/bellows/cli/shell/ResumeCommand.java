package io.bellows.cli.shell;

/**
 * {@code resume}: retries every failing flush and compaction at once, after the cause (a full disk,
 * a permission) was fixed; writes are accepted again if they work. An error says what still fails.
 */
public record ResumeCommand() implements Command {
  @Override
  public void execute(ShellContext ctx) {
    ctx.engine().resume();
    ctx.printer().line("Resumed: no background error stops writes");
  }
}
