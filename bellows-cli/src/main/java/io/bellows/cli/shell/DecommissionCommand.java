package io.bellows.cli.shell;

import io.bellows.engine.ClusterStatus;
import java.util.ArrayList;
import java.util.List;

/**
 * HBase's {@code decommission_regionservers 'SERVER'} (or {@code ['S1', 'S2']}), {@code
 * recommission_regionserver 'SERVER'} and {@code list_decommissioned_regionservers}, over a
 * cluster: a decommissioned member takes no new replica, and meta's leader moves its replicas to
 * the other members in the background (HBase's {@code offload}; there is no other kind); a
 * recommissioned one may take replicas again. SERVER names a member as {@code move} takes it. An
 * engine that is not a cluster is refused.
 */
public record DecommissionCommand(Kind kind, List<String> servers) implements Command {
  /** Which of the three commands. */
  public enum Kind { DECOMMISSION, RECOMMISSION, LIST }

  @Override
  public void execute(ShellContext ctx) {
    String name = switch (kind) {
      case DECOMMISSION -> "decommission_regionservers";
      case RECOMMISSION -> "recommission_regionserver";
      case LIST -> "list_decommissioned_regionservers";
    };
    ClusterStatus c = ctx.engine().clusterStatus().orElseThrow(() -> new ShellException(
        name + ": this engine is not a cluster: it has no members to decommission"));
    List<String> ids = new ArrayList<>();
    for (String s : servers) {
      try {
        ids.add(MoveCommand.member(c, s));
      } catch (ShellException e) {
        throw new ShellException(e.getMessage().replaceFirst("^move:", name + ":"));
      }
    }
    switch (kind) {
      case DECOMMISSION -> {
        ctx.engine().decommission(ids);
        ctx.printer().line("Decommissioned " + String.join(", ", ids) + ": their replicas move to the other members"
            + " (list_regions shows where each region's replicas are)");
      }
      case RECOMMISSION -> {
        ctx.engine().recommission(ids.get(0));
        ctx.printer().line("Recommissioned " + ids.get(0) + ": new replicas may go on it again");
      }
      case LIST -> {
        List<String> out = ctx.engine().decommissioned();
        for (String id : out) {
          String address = c.members().stream().filter(m -> m.id().equals(id)).map(ClusterStatus.Member::address)
              .findFirst().orElse("");
          ctx.printer().line(id + " " + address);
        }
        ctx.printer().line(out.size() + (out.size() == 1 ? " member" : " members") + " decommissioned");
      }
    }
  }
}
