package io.bellows.bench;

import java.util.HashSet;
import java.util.Set;

/**
 * A key trace for the KV cache's replacement policies: the key and the row size of each request, in
 * order, generated once so that every policy replays exactly the same requests. Keys are boxed up
 * front so that replaying allocates nothing. Immutable after construction (the arrays are not
 * handed out for writing).
 */
final class KvCacheTrace {
  /** Concurrent users of the CBMG trace, their sessions interleaved request by request. */
  static final int CBMG_USERS = 16;

  final String name;
  final Long[] keys;
  final int[] sizes;
  final long distinctKeys;
  final long distinctBytes;
  final long requestedBytes;

  private KvCacheTrace(String name, long[] ids) {
    this.name = name;
    this.keys = new Long[ids.length];
    this.sizes = new int[ids.length];
    Set<Long> seen = new HashSet<>();
    long distinct = 0;
    long requested = 0;
    for (int i = 0; i < ids.length; i++) {
      keys[i] = ids[i];
      sizes[i] = RowSizes.of(ids[i]);
      requested += sizes[i];
      if (seen.add(keys[i])) {
        distinct += sizes[i];
      }
    }
    this.distinctKeys = seen.size();
    this.distinctBytes = distinct;
    this.requestedBytes = requested;
  }

  int length() {
    return keys.length;
  }

  /** YCSB's scrambled Zipf, θ 0.99, over {@code keySpace} rows. */
  static KvCacheTrace zipf(int requests, long keySpace, long seed) {
    return of("zipf", new ScrambledZipfKeys(keySpace, seed), requests);
  }

  /** Uniform over {@code keySpace} rows. */
  static KvCacheTrace uniform(int requests, long keySpace, long seed) {
    return of("uniform", new UniformKeys(keySpace, seed), requests);
  }

  /**
   * {@link #CBMG_USERS} users' sessions ({@link CbmgKeys} with its default probabilities, a tenth
   * of the key space hot), interleaved round-robin as concurrent users' requests reach a server.
   * Row ids are the items themselves, so a neighbour request is for an adjacent row.
   */
  static KvCacheTrace cbmg(int requests, long keySpace, long seed) {
    CbmgKeys[] users = new CbmgKeys[CBMG_USERS];
    for (int u = 0; u < users.length; u++) {
      users[u] = new CbmgKeys(keySpace, Math.max(2, keySpace / 10), CbmgKeys.DEFAULT_P_NEAR, CbmgKeys.DEFAULT_P_HOT,
          CbmgKeys.DEFAULT_MEAN_SESSION, seed + u);
    }
    long[] ids = new long[requests];
    for (int i = 0; i < requests; i++) {
      ids[i] = users[i % users.length].next();
    }
    return new KvCacheTrace("cbmg", ids);
  }

  private static KvCacheTrace of(String name, KeyChooser keys, int requests) {
    long[] ids = new long[requests];
    for (int i = 0; i < requests; i++) {
      ids[i] = keys.nextRowId();
    }
    return new KvCacheTrace(name, ids);
  }
}
