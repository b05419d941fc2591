package io.bellows.cli.shell;

/**
 * {@code balancer}: runs a leader-balancing pass of a cluster now (HBase's name): the members that
 * lead the most regions hand leaderships over to those that lead fewer. Prints how many moved; an
 * engine that is not a cluster has nothing to balance.
 */
public record BalancerCommand() implements Command {
  @Override
  public void execute(ShellContext ctx) {
    int moved = ctx.engine().balance();
    ctx.printer().line(moved == 0 ? "Balanced: no leadership handed over"
        : "Balanced: " + moved + (moved == 1 ? " region's leadership" : " regions' leaderships")
            + " handed over to members that led fewer");
  }
}
