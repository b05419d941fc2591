package io.bellows.cluster.checkpoint;

import java.io.IOException;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Checkpoints from members running in this JVM (a test's replicas): the leader's {@link
 * CheckpointProvider}, found by its node id, is called directly; the chunks and their checksums go
 * through the same {@link CheckpointFetcher} as over the network.
 */
public final class LocalCheckpointSource implements CheckpointSource {
  private final Map<String, CheckpointProvider> members = new ConcurrentHashMap<>();

  /** Makes {@code provider} the member {@code node} (again, after a restart). */
  public void register(String node, CheckpointProvider provider) {
    members.put(node, provider);
  }

  /** The member {@code node} stopped. */
  public void unregister(String node) {
    members.remove(node);
  }

  @Override
  public CheckpointSession open(UUID group, String leader) throws IOException {
    CheckpointProvider p = members.get(leader);
    if (p == null) {
      throw new IOException("member " + leader + " is not running in this JVM");
    }
    return p.open(group);
  }
}
