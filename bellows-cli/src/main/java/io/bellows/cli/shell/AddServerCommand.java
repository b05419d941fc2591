package io.bellows.cli.shell;

/**
 * {@code add_server 'ID', 'HOST:RAFTPORT', 'HOST:CLIENTPORT'} (Bellows' own), over a cluster: adds
 * member ID, its Raft port at the first address and its client port at the second. Meta records
 * it, every member learns its addresses, and meta's leader adds it to meta's group once it answers
 * (started with a member file that lists it); the command returns once it is a member of meta. New
 * regions may then be placed on it and {@code move} may put replicas there. An engine that is not a
 * cluster is refused.
 */
public record AddServerCommand(String id, String raftAddress, String clientAddress) implements Command {
  @Override
  public void execute(ShellContext ctx) {
    if (ctx.engine().clusterStatus().isEmpty()) {
      throw new ShellException("add_server: this engine is not a cluster: it has no members to add to");
    }
    ctx.engine().addServer(id, raftAddress, clientAddress);
    ctx.printer().line("Added " + id + " (raft " + raftAddress + ", clients " + clientAddress + "): it is a member"
        + " of meta; move puts replicas on it (list_regions shows where each region's replicas are)");
  }
}
