package io.bellows.cluster.region;

import io.bellows.cell.Cell;
import io.bellows.engine.CallId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * A replicated region's table of answered calls: for each client that names its writes ({@link
 * CallId}), the calls whose entries were applied, each with its log index and its answer (the
 * cells an increment or append wrote, as the first call returned them). It is part of the region's
 * state machine: changed only by {@link #apply}, in log order, from the entries alone, so every
 * replica holds the same table.
 *
 * <p>An entry whose call was applied before, at another index, is a duplicate (a client's retry of
 * a call whose answer it lost): its cells are skipped and its writer gets the first answer. An entry
 * at or below {@link #position()} is one this table has seen already (a restart's replay of the log
 * after a checkpoint, with the table loaded from its file, {@link AnsweredCallsFile}): it is applied
 * unless the table skipped it the first time, which the table remembers ({@code skipped}) for the
 * entries the replay can meet.
 *
 * <p>Forgetting is deterministic: a client's answers below the lowest call it says it still waits
 * for (its watermark) go, and so do its lowest ones beyond {@link #maxCallsPerClient} (raising its
 * watermark past them); a call below its client's watermark that the table does not hold is refused
 * ({@link Decision#STALE}: a retry the client gave up on, never applied twice). Beyond {@link
 * #maxClients} clients, the one whose latest call has the lowest log index goes (a bound by log
 * position, not by wall time, which replicas do not share); a retry from a client forgotten so is
 * applied again, which is why the bound is large. Thread-safe (the apply thread changes it; writers
 * look it up).
 */
final class AnsweredCalls {
  /** Clients remembered at most (the least recently heard of, by log index, go first). */
  static final int MAX_CLIENTS = 10_000;
  /** Answers remembered per client at most (the lowest call ids go first). */
  static final int MAX_CALLS_PER_CLIENT = 1_000;

  /** What to do with an entry that names its call. */
  enum Decision {
    /** Apply its cells: its call is new, or this is the replay of the entry that applied it. */
    APPLY,
    /** Skip its cells: its call applied at another index; its writer gets the first answer. */
    DUPLICATE,
    /** Skip its cells: its call lies below its client's watermark and is not held. */
    STALE
  }

  /** A call's answer: the index of the entry that applied it and the cells it answered. */
  record Answer(long index, List<Cell> values) {}

  /** One client's state. */
  static final class Client {
    final long high;
    final long low;
    /** The lowest call id the client may still send; answers below it are gone. */
    long watermark = 1;
    /** The index of the latest entry of this client; 0 for a client taken over from a split parent and not heard from since. */
    long lastIndex;
    /** Taken over from a split parent ({@link #forNewLog}) and not heard from in this log since: not in {@code byLastIndex}. */
    boolean inherited;
    final TreeMap<Long, Answer> answers = new TreeMap<>();

    Client(long high, long low) {
      this.high = high;
      this.low = low;
    }
  }

  private final int maxClients;
  private final int maxCallsPerClient;
  /** Client id (two longs as a 32-hex-digit string, deterministic order) → its state. */
  private final Map<String, Client> clients = new TreeMap<>();
  /** The index of each client's latest entry → the client, for the bound on clients. */
  private final TreeMap<Long, Client> byLastIndex = new TreeMap<>();
  /** Indexes of entries this table skipped (duplicates, stale calls), above the checkpoint before the last. */
  private final TreeSet<Long> skipped = new TreeSet<>();
  /** The index of the last entry the table decided on (0: none). */
  private long position;
  /**
   * Clients with no entry in this log (last index 0): taken over from a split parent's table
   * ({@link #forNewLog}). They are not in {@link #byLastIndex} and go first under the bound on clients.
   */
  private int unindexed;

  AnsweredCalls() {
    this(MAX_CLIENTS, MAX_CALLS_PER_CLIENT);
  }

  AnsweredCalls(int maxClients, int maxCallsPerClient) {
    if (maxClients < 1 || maxCallsPerClient < 1) {
      throw new IllegalArgumentException("the bounds on clients and calls must be at least 1");
    }
    this.maxClients = maxClients;
    this.maxCallsPerClient = maxCallsPerClient;
  }

  private static String key(long high, long low) {
    return String.format("%016x%016x", high, low);
  }

  /**
   * Decides on the entry at {@code index} that names {@code call}, and records a new call with its
   * answer ({@code answer}, asked only then). Called in log order, indexes rising.
   */
  synchronized Decision apply(long index, CallId call, Supplier<List<Cell>> answer) {
    if (index <= position) {
      // Seen before the restart: what the table decided then, it decides again (it holds the state
      // after this entry already, so it changes nothing).
      return skipped.contains(index) ? duplicateOrStale(call) : Decision.APPLY;
    }
    position = index;
    String key = key(call.clientHigh(), call.clientLow());
    Client c = clients.get(key);
    if (c != null && !c.answers.containsKey(call.call()) && call.call() < c.watermark) {
      skipped.add(index);
      return Decision.STALE;
    }
    Decision d;
    if (c != null && c.answers.containsKey(call.call())) {
      skipped.add(index);
      d = Decision.DUPLICATE;
    } else {
      if (c == null) {
        c = new Client(call.clientHigh(), call.clientLow());
        clients.put(key, c);
      }
      c.answers.put(call.call(), new Answer(index, List.copyOf(answer.get())));
      d = Decision.APPLY;
    }
    heard(c, index, call.lowestOutstanding());
    return d;
  }

  private Decision duplicateOrStale(CallId call) {
    Client c = clients.get(key(call.clientHigh(), call.clientLow()));
    return c != null && c.answers.containsKey(call.call()) ? Decision.DUPLICATE : Decision.STALE;
  }

  /** The client's latest entry is at {@code index}: its watermark rises, and the bounds apply. */
  private void heard(Client c, long index, long lowestOutstanding) {
    if (lowestOutstanding > c.watermark) {
      c.watermark = lowestOutstanding;
      c.answers.headMap(lowestOutstanding, false).clear();
    }
    while (c.answers.size() > maxCallsPerClient) {
      long dropped = c.answers.pollFirstEntry().getKey();
      c.watermark = Math.max(c.watermark, dropped + 1);
    }
    if (c.lastIndex > 0) {
      byLastIndex.remove(c.lastIndex);
    } else if (c.inherited) {
      c.inherited = false;
      unindexed--;
    }
    c.lastIndex = index;
    byLastIndex.put(index, c);
    while (clients.size() > maxClients) {
      Client gone = unindexed > 0 ? takeInherited() : byLastIndex.pollFirstEntry().getValue();
      clients.remove(key(gone.high, gone.low));
    }
  }

  /** A client taken over from a split parent that has no entry in this log yet: the first to go. */
  private Client takeInherited() {
    for (Client c : clients.values()) {
      if (c.inherited) {
        c.inherited = false;
        unindexed--;
        return c;
      }
    }
    throw new IllegalStateException(unindexed + " clients counted without an entry in the log, none found");
  }

  /**
   * This table for the log of a split's daughter, a new log whose indexes start again: the same
   * clients, watermarks and answers (a call the parent applied is answered, not applied again, when
   * its client retries it in the daughter), but no position and no skipped entries (those were the
   * parent log's indexes: kept, the daughter's first entries would be taken for a replay and their
   * calls not recorded), and each client's latest entry as before the daughter's log (index 0).
   */
  synchronized AnsweredCalls forNewLog() {
    AnsweredCalls t = new AnsweredCalls(maxClients, maxCallsPerClient);
    for (Client c : clients.values()) {
      Client k = new Client(c.high, c.low);
      k.watermark = c.watermark;
      k.answers.putAll(c.answers);
      k.inherited = true;
      t.clients.put(key(c.high, c.low), k);
      t.unindexed++;
    }
    return t;
  }

  /**
   * The first answer of {@code call}, if it was applied and is remembered; null if the table does
   * not hold it (it may be new).
   *
   * @throws StaleCallException if it lies below its client's watermark and is not held
   */
  synchronized Answer answered(CallId call) {
    Client c = clients.get(key(call.clientHigh(), call.clientLow()));
    if (c == null) {
      return null;
    }
    Answer a = c.answers.get(call.call());
    if (a == null && call.call() < c.watermark) {
      throw new StaleCallException(call);
    }
    return a;
  }

  /** The answer the table holds for {@code call}, or null (the reply of a duplicate). */
  synchronized Answer lookup(CallId call) {
    Client c = clients.get(key(call.clientHigh(), call.clientLow()));
    return c == null ? null : c.answers.get(call.call());
  }

  /** The index of the last entry the table decided on; 0 if none. */
  synchronized long position() {
    return position;
  }

  /** Forgets which entries at or below {@code index} were skipped: a restart never replays them. */
  synchronized void forgetSkippedThrough(long index) {
    skipped.headSet(index, true).clear();
  }

  // ------------------------------------------------------------------ for the file and tests

  /** A copy of the table's state, consistent (taken under its lock). */
  synchronized State state() {
    List<Client> copy = new ArrayList<>(clients.size());
    for (Client c : clients.values()) {
      Client k = new Client(c.high, c.low);
      k.watermark = c.watermark;
      k.lastIndex = c.lastIndex;
      k.answers.putAll(c.answers);
      copy.add(k);
    }
    return new State(position, List.copyOf(skipped), copy);
  }

  /** The table's state: its position, the entries it skipped, its clients in id order. */
  record State(long position, List<Long> skipped, List<Client> clients) {}

  /**
   * Takes the state of {@code other} in place of its own (a checkpoint installed from another
   * replica: its file read, {@link AnsweredCallsFile#read}), so that whoever holds this table sees it.
   */
  synchronized void replaceWith(AnsweredCalls other) {
    State s = other.state();
    clients.clear();
    byLastIndex.clear();
    skipped.clear();
    position = s.position();
    skipped.addAll(s.skipped());
    unindexed = 0;
    for (Client c : s.clients()) {
      clients.put(key(c.high, c.low), c);
      if (c.lastIndex > 0) {
        byLastIndex.put(c.lastIndex, c);
      } else {
        c.inherited = true;
        unindexed++;
      }
    }
  }

  /** A table holding {@code state} (read from its file), with the default bounds. */
  static AnsweredCalls of(State state) {
    AnsweredCalls t = new AnsweredCalls();
    t.position = state.position();
    t.skipped.addAll(state.skipped());
    for (Client c : state.clients()) {
      t.clients.put(key(c.high, c.low), c);
      if (c.lastIndex > 0) {
        t.byLastIndex.put(c.lastIndex, c);
      } else {
        c.inherited = true; // a split parent's client, with no entry in this log yet
        t.unindexed++;
      }
    }
    return t;
  }
}
