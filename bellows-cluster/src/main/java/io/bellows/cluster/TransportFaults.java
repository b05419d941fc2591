package io.bellows.cluster;

/**
 * Which Raft messages between nodes the transport drops: the network partitions of a test's
 * nemesis. A node given one ({@link RaftNode#start(String, RaftSettings, java.util.function.Function,
 * TransportFaults)}) refuses every request from a peer it is cut off from, as if the network lost
 * it; the peer sees the call fail and retries, as it would on a real partition.
 */
@FunctionalInterface
public interface TransportFaults {
  /** Whether messages from node {@code from} to node {@code to} are lost now. */
  boolean drops(String from, String to);
}
