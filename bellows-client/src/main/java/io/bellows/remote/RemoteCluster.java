package io.bellows.remote;

import io.bellows.atomic.Outcome;
import io.bellows.cell.Cell;
import io.bellows.config.EngineOptions;
import io.bellows.engine.CallId;
import io.bellows.engine.ChainedScanner;
import io.bellows.engine.ClusterStatus;
import io.bellows.engine.Engine;
import io.bellows.engine.RegionInfo;
import io.bellows.engine.RowMutation;
import io.bellows.engine.RowOperation;
import io.bellows.engine.RowRanges;
import io.bellows.engine.TableRef;
import io.bellows.scan.Consistency;
import io.bellows.scan.RowScanner;
import io.bellows.scan.ScanQuery;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.BackgroundError;
import io.bellows.util.EngineClosedException;
import io.bellows.util.StorageException;
import io.bellows.util.TableNotFoundException;
import io.bellows.wire.NotLeaderRefusal;
import io.bellows.wire.RemoteCallException;
import io.grpc.Status;
import java.net.ConnectException;
import java.security.SecureRandom;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.LongSupplier;

/**
 * An {@link Engine} over the servers of a replicated cluster (docs/SERVER.md): each call goes to
 * the server that leads its row's region as far as this client knows (a table's regions asked once
 * and kept; the leader cached per region; the catalog's leader for creating a table; a batch, a
 * multi-get or a scan over several regions as one call per region, a scan's in its order), follows a NOT_LEADER answer to the leader it names, and
 * tries another server at once when one cannot be reached, does not answer within the attempt
 * deadline, or knows no leader yet (an election), pausing with backoff only after a round of them,
 * until the call's deadline. A call that runs out of time ends with the error of its last attempt,
 * which carries what every attempt met (member, answer, time) as a suppressed {@code AttemptTrail}.
 *
 * <p>A call that reached a server that then died, or whose leader stepped down with it pending,
 * may or may not have been applied. Reads and plain writes (puts and deletes: the same cells
 * again) are sent again. Every write carries this client's id and the call's ({@link CallId}), and
 * the servers of a cluster deduplicate by them: an atomic row operation (increment, append,
 * check-and-mutate) lost in flight is sent again with the same ids, and applies once, until the
 * call's deadline, which ends it with an {@link OutcomeUnknownException}. Before any server said it
 * deduplicates (a {@code MutateRow} answer with {@code deduplicated}; a single server does not), such
 * a call fails with an {@link OutcomeUnknownException} at once, as it always did. Thread-safe.
 */
public final class RemoteCluster implements Engine {
  /** The key of the catalog's leader in the leader cache (no table has a name with a space). */
  private static final String CATALOG = " catalog";

  private final RemoteOptions options;
  private final RemoteOptions perServer;
  private final List<String> servers;
  private final Map<String, RemoteEngine> engines = new ConcurrentHashMap<>();
  /** The leader as far as this client knows, per table of one region, region ({@link #key}) or the catalog. */
  private final Map<String, String> leaders = new ConcurrentHashMap<>();
  /** Each table's regions as this client learned them (per name; a table of another id is asked again). */
  private final Map<String, Layout> layouts = new ConcurrentHashMap<>();
  /** This client's id ({@link CallId}): 128 random bits. */
  private final long clientHigh;
  private final long clientLow;
  private final AtomicLong callIds = new AtomicLong();
  private final CallStats stats = new CallStats();
  /** Members that failed an attempt, until when ({@link System#nanoTime()}) they are passed over. */
  private final Map<String, Long> suspects = new ConcurrentHashMap<>();
  private final Sleeper sleeper;
  /** The ids of the calls waiting for an answer: the lowest travels with each call. */
  private final ConcurrentSkipListSet<Long> outstanding = new ConcurrentSkipListSet<>();
  private volatile boolean closed;

  /** A table's regions: their row ranges, in key order, and their ids. */
  private record Layout(int tableId, RowRanges ranges, List<RegionInfo> regions) {}

  /** A call whose outcome is unknown: it reached a server that then failed; it may have applied. */
  public static final class OutcomeUnknownException extends StorageException {
    public OutcomeUnknownException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /**
   * What each attempt of a call that ran out of time met, member by member, attached to the error
   * it ends with (as a suppressed exception), so that an operator sees which members failed how.
   */
  static final class AttemptTrail extends RuntimeException {
    private static final int KEPT = 24;
    private final long startNanos = System.nanoTime();
    private final Deque<String> steps = new ArrayDeque<>();
    private int dropped;

    AttemptTrail() {
      super(null, null, false, false);
    }

    void add(String member, String outcome, long attemptStartNanos) {
      if (steps.size() == KEPT) {
        steps.removeFirst();
        dropped++;
      }
      steps.addLast(String.format("%+d ms %s: %s after %d ms", (attemptStartNanos - startNanos) / 1_000_000, member,
          outcome, (System.nanoTime() - attemptStartNanos) / 1_000_000));
    }

    void pause(long millis) {
      steps.addLast("pause " + millis + " ms");
      if (steps.size() > KEPT) {
        steps.removeFirst();
        dropped++;
      }
    }

    @Override
    public String getMessage() {
      return "the call's attempts" + (dropped > 0 ? " (the first " + dropped + " left out)" : "") + ": "
          + String.join("; ", steps);
    }
  }

  /** How a call pauses between rounds of the members (a test's records the pauses instead). */
  interface Sleeper {
    void sleep(long millis) throws InterruptedException;
  }

  private RemoteCluster(List<String> servers, RemoteOptions options, Sleeper sleeper) {
    if (servers.isEmpty()) {
      throw new IllegalArgumentException("no server to connect to");
    }
    this.servers = new CopyOnWriteArrayList<>(servers);
    this.options = options;
    this.sleeper = sleeper;
    // One attempt per server: going to another server is this class's business.
    this.perServer = options.withRetries(1, options.initialBackoff(), options.maxBackoff());
    SecureRandom random = new SecureRandom();
    this.clientHigh = random.nextLong();
    this.clientLow = random.nextLong();
  }

  /** A client of the cluster whose servers include {@code servers} ("host:port" each). */
  public static RemoteCluster open(List<String> servers, RemoteOptions options) {
    return new RemoteCluster(servers, options, Thread::sleep);
  }

  /** As {@link #open(List, RemoteOptions)}, pausing through {@code sleeper} (tests). */
  static RemoteCluster open(List<String> servers, RemoteOptions options, Sleeper sleeper) {
    return new RemoteCluster(servers, options, sleeper);
  }

  private RemoteEngine engine(String server) {
    if (closed) {
      throw new EngineClosedException("the connection to the cluster is closed");
    }
    return engines.computeIfAbsent(server, s -> RemoteEngine.open(s, perServer));
  }

  /**
   * The next member to ask after {@code from}, in the list's order round and round: one not {@code
   * tried} since the call's last pause and not suspected; null when none is left (the round is over).
   */
  private String next(String from, Set<String> tried) {
    int i = servers.indexOf(from);
    for (int k = 1; k <= servers.size(); k++) {
      String s = servers.get(Math.floorMod(i + k, servers.size()));
      if (!tried.contains(s) && !suspected(s)) {
        return s;
      }
    }
    return null;
  }

  /** A member to start a call at when no leader is known: any not suspected, else any. */
  private String start() {
    List<String> fine = servers.stream().filter(s -> !suspected(s)).toList();
    List<String> from = fine.isEmpty() ? servers : fine;
    return from.get(ThreadLocalRandom.current().nextInt(from.size()));
  }

  /** Whether {@code server} failed an attempt within the last attempt deadline and has not answered since. */
  private boolean suspected(String server) {
    Long until = suspects.get(server);
    if (until == null) {
      return false;
    }
    if (until - System.nanoTime() > 0) {
      return true;
    }
    suspects.remove(server, until);
    return false;
  }

  /** {@code server} did not answer (in time), or refused the connection, or is stopping. */
  private void suspect(String server) {
    suspects.put(server, System.nanoTime() + options.attemptDeadline().toNanos());
  }

  /**
   * What a call is, for going round the members: whether it may be sent again after a failure in
   * flight ({@code idempotent}), whether it carries its ids ({@code named}), whether any member may
   * answer it ({@code timeline}), and whether it is an admin {@code lookup}.
   */
  private enum Kind {
    /** A write to the catalog or a region's shape: creating a table, a split. */
    ADMIN(false, false, false, false),
    /** Reads (gets, scans) and admin calls that do no harm twice (a flush, a compaction). */
    REPEATABLE(true, false, false, false),
    /** An admin call a live member answers at once (a table's descriptor, the list of tables). */
    LOOKUP(true, false, false, true),
    /** Puts and deletes: the same cells again. */
    PUT(true, true, false, false),
    /** Increment, append, check-and-mutate: applied once by their ids, or of unknown outcome. */
    ATOMIC(false, true, false, false),
    /** A read any member may answer from its own replica. */
    TIMELINE_READ(true, false, true, false);

    final boolean idempotent;
    final boolean named;
    final boolean timeline;
    final boolean lookup;

    Kind(boolean idempotent, boolean named, boolean timeline, boolean lookup) {
      this.idempotent = idempotent;
      this.named = named;
      this.timeline = timeline;
      this.lookup = lookup;
    }
  }

  /**
   * Runs {@code op} on the leader of {@code key} (a table, or the catalog), following hints and
   * going round the servers until it succeeds or the deadline passes.
   */
  private <T> T call(String key, boolean idempotent, Function<Engine, T> op) {
    return call(key, idempotent ? Kind.REPEATABLE : Kind.ADMIN, op);
  }

  /**
   * As {@link #call(String, boolean, Function)}, for a call of the given kind. A {@code named} call
   * carries its ids, so once the cluster said it deduplicates, it is sent again after a failure in
   * flight like an idempotent one, and its deadline passing after such a failure is an {@link
   * OutcomeUnknownException}. A {@code
   * timeline} read is answered by whichever server it reaches (the leader as far as this client
   * knows, else the next one that answers), so its answer teaches nothing about who leads. A {@code
   * lookup} is an admin call a live member answers at once (a table's descriptor, the list of
   * tables), bounded by the attempt deadline like a data call; other admin calls (a flush, a
   * compaction, creating a table) may take long on a live leader and have the admin deadline alone.
   *
   * <p>Each attempt at a member (a data call, a lookup, a scan until its first answer) ends by the
   * attempt deadline (twice as long for each earlier attempt of this call that ran out of time
   * there), within the call's. A member that fails an attempt
   * (no answer in time, connection refused or lost, stopping) is suspected for an attempt deadline:
   * calls neither start there nor follow another member's NOT_LEADER to it (during an election
   * the others still name the leader that stopped), so a stopped leader costs one attempt deadline,
   * not one per hint. After a failure the call goes to the next member at once; it pauses only once
   * every member it may ask failed since its last pause (a round: no leader is known, an election is
   * under way), the pauses doubling from the initial backoff to the longest, with jitter.
   */
  private <T> T call(String key, Kind kind, Function<Engine, T> op) {
    int[] attempts = new int[1];
    try {
      return attempt(key, kind, op, attempts);
    } finally {
      stats.recordCall(attempts[0]);
    }
  }

  /** {@link #call}, counting its attempts in {@code attempts[0]}. */
  private <T> T attempt(String key, Kind kind, Function<Engine, T> op, int[] attempts) {
    boolean idempotent = kind.idempotent;
    boolean named = kind.named;
    boolean timeline = kind.timeline;
    boolean lostInFlight = false;
    long deadline = System.nanoTime() + options.dataDeadline().toNanos();
    long attemptNanos = options.attemptDeadline().toNanos();
    Map<String, Integer> timedOut = new HashMap<>(); // per member, the attempts of this call that ran out of time
    Set<String> tried = new HashSet<>(); // the members that failed this call since its last pause
    int pauses = 0;
    Set<String> lacking = new HashSet<>(); // members that did not know the table
    Set<String> down = new HashSet<>(); // members that refused this call's connection: they know nothing now
    TableNotFoundException missing = null;
    String target = leaders.get(key);
    if (target == null || suspected(target)) {
      target = start();
    }
    RuntimeException last = null;
    AttemptTrail trail = new AttemptTrail();
    while (true) {
      attempts[0]++;
      String at = target;
      long now = System.nanoTime();
      long span = attemptNanos;
      for (int k = timedOut.getOrDefault(at, 0); k > 0 && span < deadline - now; k--) {
        span = span > Long.MAX_VALUE / 2 ? Long.MAX_VALUE : span * 2;
      }
      long end = now + Math.min(span, deadline - now);
      String next;
      try {
        T result = RemoteEngine.withAttemptDeadline(end, kind.lookup, () -> {
          RemoteEngine member = engine(at);
          member.reconnectIfFailed(); // it may be back: connect now, not after gRPC's reconnect backoff
          return op.apply(member);
        });
        suspects.remove(at);
        if (!timeline) {
          leaders.put(key, at);
        }
        return result;
      } catch (NotLeaderRefusal e) {
        if (!key.equals(CATALOG) && io.bellows.engine.SplitRefusal.in(e.getMessage())) {
          layouts.remove(tableOf(key));
          stats.recordSplitReroute();
          throw new RegionSplit(e); // nothing applied: the caller routes it anew over the table's regions now
        }
        last = e;
        trail.add(at, "not the leader (names " + e.leaderAddress() + ")", now);
        suspects.remove(at); // it answered
        leaders.remove(key, at);
        tried.add(at);
        String hint = e.leaderAddress();
        if (hint != null && !tried.contains(hint) && !suspected(hint)) {
          if (!servers.contains(hint)) {
            servers.add(hint);
          }
          next = hint;
        } else {
          next = next(at, tried); // no leader known, or one that failed: an election is under way
        }
      } catch (RemoteCallException e) {
        // A server that died: UNAVAILABLE, or UNKNOWN ("channel closed") when its connection closed
        // under a call in flight; or no answer within the attempt's deadline (stopped, cut off, slow).
        if (e.code() != Status.Code.UNAVAILABLE && e.code() != Status.Code.UNKNOWN
            && e.code() != Status.Code.DEADLINE_EXCEEDED) {
          throw e;
        }
        if (!idempotent && !refused(e)) {
          if (!named || !deduplicatesCalls()) {
            throw new OutcomeUnknownException("the server " + at + " failed with the call in flight ("
                + e.getMessage() + "); it may or may not have been applied", e);
          }
          lostInFlight = true; // sent again with the same ids: the cluster applies it once
        }
        last = e;
        trail.add(at, e.code().toString(), now);
        if (e.code() == Status.Code.DEADLINE_EXCEEDED) {
          timedOut.merge(at, 1, Integer::sum);
        }
        suspect(at);
        leaders.remove(key, at);
        tried.add(at);
        next = next(at, tried);
        if (refused(e)) {
          down.add(at);
          if (missing != null && everyMemberLacks(lacking, down)) {
            throw missing;
          }
        }
      } catch (TableNotFoundException e) {
        // A member whose catalog has not yet applied a table just created answers so (nothing
        // applied); the table is missing once every member said it, but for members down.
        lacking.add(at);
        missing = e;
        if (everyMemberLacks(lacking, down)) {
          throw e;
        }
        last = e;
        trail.add(at, "does not know the table yet", now);
        tried.add(at);
        next = next(at, tried);
      } catch (EngineClosedException e) {
        if (closed) {
          throw e;
        }
        last = e; // that server is stopping: nothing applied
        trail.add(at, "stopping", now);
        suspect(at);
        leaders.remove(key, at);
        tried.add(at);
        next = next(at, tried);
      }
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        last.addSuppressed(trail);
        if (lostInFlight) {
          throw new OutcomeUnknownException("the call's deadline passed after a server failed with it in flight ("
              + last.getMessage() + "); it may or may not have been applied", last);
        }
        throw last;
      }
      if (next == null) { // a round without a leader: pause, then go round again
        trail.pause(pause(++pauses, left, last));
        tried.clear();
        next = next(at, tried);
        if (next == null) {
          next = servers.get(Math.floorMod(servers.indexOf(at) + 1, servers.size())); // every member suspected
        }
      }
      target = next;
    }
  }

  /** The table of a leader cache's key ({@link #key}): table names hold no spaces. */
  private static String tableOf(String key) {
    int space = key.indexOf(' ');
    return space < 0 ? key : key.substring(0, space);
  }

  /**
   * A call reached a region that has been split: nothing was applied, and the table's regions are
   * asked again for the call's next route ({@link #acrossSplits}).
   */
  private static final class RegionSplit extends RuntimeException {
    final NotLeaderRefusal refusal;

    RegionSplit(NotLeaderRefusal refusal) {
      super(refusal.getMessage(), null, false, false);
      this.refusal = refusal;
    }
  }

  /**
   * Runs {@code op} until it does not meet a split region: after such a refusal the table's regions
   * are asked again (a member whose catalog has not applied the split yet may still list the
   * parent: then after a pause), until the call's deadline, when the refusal is thrown.
   */
  private <T> T acrossSplits(Supplier<T> op) {
    long deadline = System.nanoTime() + options.dataDeadline().toNanos();
    for (int n = 1; ; n++) {
      try {
        return op.get();
      } catch (RegionSplit e) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          throw e.refusal;
        }
        if (n > 1) {
          pause(n - 1, left, e.refusal);
        }
      }
    }
  }

  /**
   * Whether every member said a table is missing ({@code lacking}) or refused the connection
   * ({@code down}): a table dropped, or never there, while a member is down is missing, not a
   * call to go on with until its deadline.
   */
  private boolean everyMemberLacks(Set<String> lacking, Set<String> down) {
    for (String s : servers) {
      if (!lacking.contains(s) && !down.contains(s)) {
        return false;
      }
    }
    return true;
  }

  /**
   * The {@code n}th pause of a call: the initial backoff doubled n - 1 times, at most the longest
   * backoff and what is left of the call, jittered over its upper half.
   */
  private long pause(int n, long leftNanos, RuntimeException last) {
    long base = options.initialBackoff().toMillis() << Math.min(n - 1, 20);
    long millis = Math.min(Math.min(base, options.maxBackoff().toMillis()), leftNanos / 1_000_000 + 1);
    long pause = millis / 2 + ThreadLocalRandom.current().nextLong(millis / 2 + 1);
    try {
      sleeper.sleep(pause);
    } catch (InterruptedException ie) {
      Thread.currentThread().interrupt();
      throw last;
    }
    return pause;
  }

  /** Whether the call certainly never reached the server: the connection was refused. */
  private static boolean refused(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof ConnectException) {
        return true;
      }
    }
    return false;
  }

  /**
   * For calls a member answers from its own catalog: asked of meta's leader as far as this client
   * knows, which has applied every table it created (another member may apply a new table later).
   */
  private <T> T any(Function<Engine, T> op) {
    return lookup(CATALOG, op);
  }

  /** An admin call that a live member answers at once: its attempts are bounded like a data call's. */
  private <T> T lookup(String key, Function<Engine, T> op) {
    return call(key, Kind.LOOKUP, op);
  }

  @Override
  public void createTable(TableDescriptor descriptor) {
    call(CATALOG, false, e -> {
      e.createTable(descriptor);
      return null;
    });
  }

  @Override
  public void createTable(TableDescriptor descriptor, List<byte[]> splitKeys) {
    call(CATALOG, false, e -> {
      e.createTable(descriptor, splitKeys);
      return null;
    });
  }

  @Override
  public List<RegionInfo> regions(String table) {
    return lookup(table, e -> e.regions(table));
  }

  @Override
  public TableDescriptor describeTable(String name) {
    return any(e -> e.describeTable(name));
  }

  @Override
  public List<String> listTables() {
    return any(Engine::listTables);
  }

  @Override
  public boolean tableExists(String name) {
    return any(e -> e.tableExists(name));
  }

  @Override
  public void disableTable(String name) {
    call(CATALOG, false, e -> {
      e.disableTable(name);
      return null;
    });
  }

  @Override
  public void enableTable(String name) {
    call(CATALOG, false, e -> {
      e.enableTable(name);
      return null;
    });
  }

  @Override
  public boolean isTableEnabled(String name) {
    return any(e -> e.isTableEnabled(name));
  }

  @Override
  public void dropTable(String name) {
    call(CATALOG, false, e -> {
      e.dropTable(name);
      return null;
    });
  }

  @Override
  public TableRef table(String name) {
    return any(e -> e.table(name));
  }

  /** Flushes the leader's replica. */
  @Override
  public void flush(String table) {
    call(table, true, e -> {
      e.flush(table);
      return null;
    });
  }

  @Override
  public void split(String table) {
    call(CATALOG, false, e -> {
      e.split(table);
      return null;
    });
    layouts.remove(table);
  }

  @Override
  public void split(String table, byte[] splitKey) {
    call(CATALOG, false, e -> {
      e.split(table, splitKey);
      return null;
    });
    layouts.remove(table);
  }

  @Override
  public void compact(String table) {
    call(table, true, e -> {
      e.compact(table);
      return null;
    });
  }

  @Override
  public void majorCompact(String table) {
    call(table, true, e -> {
      e.majorCompact(table);
      return null;
    });
  }

  /**
   * Puts and deletes: sent again after a failure in flight (the same cells again; with the same
   * ids, so a cluster applies a one-row call once).
   */
  @Override
  public void mutate(TableRef table, List<RowMutation> rows) {
    acrossSplits(() -> {
      mutateByRegion(table, rows);
      return null;
    });
  }

  /** Each region's rows to its leader; a part that meets a split region is routed again by itself (nothing of it applied). */
  private void mutateByRegion(TableRef table, List<RowMutation> rows) {
    Layout l = layout(table);
    if (l.ranges().size() == 1 || rows.isEmpty()) {
      mutate(table, key(table, l, 0), rows);
      return;
    }
    // Each region's rows to its leader, one call per region (in key order): not atomic across
    // regions, as a batch is not on one server.
    Map<Integer, List<RowMutation>> byRegion = new TreeMap<>();
    for (RowMutation m : rows) {
      byRegion.computeIfAbsent(l.ranges().indexOf(m.row()), i -> new ArrayList<>()).add(m);
    }
    for (Map.Entry<Integer, List<RowMutation>> part : byRegion.entrySet()) {
      try {
        mutate(table, key(table, l, part.getKey()), part.getValue());
      } catch (RegionSplit e) {
        mutate(table, part.getValue()); // the parts before it are applied: only this one again, over the new regions
      }
    }
  }

  private void mutate(TableRef table, String key, List<RowMutation> rows) {
    named((call, lowest) -> call(key, Kind.PUT, e -> {
      e.mutate(table, rows, new CallId(clientHigh, clientLow, call, lowest.getAsLong()));
      return null;
    }));
  }

  /** Sent again after a failure in flight, with the same ids, once the cluster said it deduplicates. */
  @Override
  public Outcome mutateRow(TableRef table, RowOperation op) {
    // The same ids after a split: the daughter holds the parent's answered calls, so a call the parent
    // applied before its answer was lost is answered, not applied again.
    return named((call, lowest) -> acrossSplits(() -> call(keyOfRow(table, op.mutation().row()), Kind.ATOMIC,
        e -> e.mutateRow(table, op, new CallId(clientHigh, clientLow, call, lowest.getAsLong())))));
  }

  /**
   * The table's regions, asked of the catalog's leader the first time (any member's catalog knows
   * them once it applied the table) and kept until a call meets a region that was split.
   */
  private Layout layout(TableRef table) {
    Layout l = layouts.get(table.name());
    if (l != null && l.tableId() == table.id()) {
      return l;
    }
    List<RegionInfo> regions = any(e -> e.regions(table.name()));
    List<byte[]> starts = new ArrayList<>(regions.size());
    for (RegionInfo r : regions) {
      starts.add(r.startKey());
    }
    l = new Layout(table.id(), RowRanges.ofStarts(starts), List.copyOf(regions));
    layouts.put(table.name(), l);
    return l;
  }

  /** The leader cache's key of region {@code i}: the table's name for a table of one region (as before regions), else name and region id. */
  private static String key(TableRef table, Layout l, int i) {
    return l.ranges().size() == 1 ? table.name() : table.name() + " " + l.regions().get(i).id();
  }

  private String keyOfRow(TableRef table, byte[] row) {
    Layout l = layout(table);
    return key(table, l, l.ranges().indexOf(row));
  }

  /**
   * Runs a call named by the next call id, outstanding until it returns; {@code body} gets the id
   * and the lowest outstanding one (asked at each attempt: it rises as other calls end).
   */
  private <T> T named(BiFunction<Long, LongSupplier, T> body) {
    long call;
    synchronized (outstanding) {
      // One step: a call given a higher id must find this one outstanding, or it could report a lowest
      // outstanding call above this one, and the members would refuse this one as a retry given up on.
      call = callIds.incrementAndGet();
      outstanding.add(call);
    }
    try {
      return body.apply(call, () -> outstanding.first());
    } finally {
      outstanding.remove(call);
    }
  }

  /** Whether some server of the cluster said it deduplicates calls by their ids. */
  @Override
  public boolean deduplicatesCalls() {
    for (RemoteEngine e : engines.values()) {
      if (e.deduplicatesCalls()) {
        return true;
      }
    }
    return false;
  }

  /**
   * A scan opened on the leader: the first row is read there before the scanner is handed over, so
   * a refusal of a server that does not lead sends the scan to the leader, and a member that does
   * not answer within the attempt deadline is left for the next. A scan that fails later is not moved. A {@link Consistency#TIMELINE} scan is answered by the first server it reaches
   * (the leader as far as this client knows, then the others in turn), which a follower does from
   * its own replica without asking the leader: {@link RowScanner#mayBeStale} says which answered.
   */
  @Override
  public RowScanner scan(TableRef table, ScanQuery query) {
    return acrossSplits(() -> scanByRegion(table, query));
  }

  /** The scan over the table's regions as this client knows them; a part that meets a split region is scanned anew. */
  private RowScanner scanByRegion(TableRef table, ScanQuery query) {
    Kind kind = query.consistency() == Consistency.TIMELINE ? Kind.TIMELINE_READ : Kind.REPEATABLE;
    Layout l = layout(table);
    List<Integer> wanted = l.ranges().wanted(query);
    if (wanted.size() == 1) {
      return scan(table, key(table, l, wanted.get(0)), kind, query);
    }
    // Region by region, in scan order, each part's rows (and the rows still allowed) from its leader.
    return new ChainedScanner((k, left) -> {
      if (k >= wanted.size()) {
        return null;
      }
      ScanQuery q = l.ranges().within(query, wanted.get(k));
      ScanQuery part = left == query.limit() ? q : q.toBuilder().limit(left).build();
      try {
        return scan(table, key(table, l, wanted.get(k)), kind, part);
      } catch (RegionSplit e) {
        return scan(table, part); // that region was split: its rows over the new regions
      }
    }, query.limit());
  }

  private RowScanner scan(TableRef table, String key, Kind kind, ScanQuery query) {
    return call(key, kind, e -> {
      RowScanner s = e.scan(table, query);
      List<Cell> first = new ArrayList<>();
      boolean has;
      try {
        has = s.nextRow(first);
      } catch (RuntimeException failure) {
        s.close();
        throw failure;
      }
      return new RowScanner() {
        private boolean pending = has;

        @Override
        public boolean nextRow(List<Cell> out) {
          if (pending) {
            pending = false;
            out.addAll(first);
            return true;
          }
          return has && s.nextRow(out);
        }

        @Override
        public boolean mayBeStale() {
          return s.mayBeStale();
        }

        @Override
        public void close() {
          s.close();
        }
      };
    });
  }

  /** Each region's rows from its leader, one call per region, the answers put back in the queries' order. */
  @Override
  public List<List<Cell>> getAll(TableRef table, List<ScanQuery> singleRowQueries) {
    boolean timeline = !singleRowQueries.isEmpty()
        && singleRowQueries.stream().allMatch(q -> q.consistency() == Consistency.TIMELINE);
    Kind kind = timeline ? Kind.TIMELINE_READ : Kind.REPEATABLE;
    Layout l = layout(table);
    if (l.ranges().size() == 1 || singleRowQueries.isEmpty()) {
      try {
        return call(key(table, l, 0), kind, e -> e.getAll(table, singleRowQueries));
      } catch (RegionSplit e) {
        return acrossSplits(() -> getAll(table, singleRowQueries)); // the table has several regions now
      }
    }
    Map<Integer, List<Integer>> byRegion = new TreeMap<>(); // region -> indexes of its queries
    for (int i = 0; i < singleRowQueries.size(); i++) {
      ScanQuery q = singleRowQueries.get(i);
      if (!q.isSingleRow()) {
        throw new IllegalArgumentException("getAll takes single-row queries only");
      }
      byRegion.computeIfAbsent(l.ranges().indexOf(q.startRow()), r -> new ArrayList<>()).add(i);
    }
    List<List<Cell>> out = new ArrayList<>(java.util.Collections.nCopies(singleRowQueries.size(), (List<Cell>) null));
    for (Map.Entry<Integer, List<Integer>> part : byRegion.entrySet()) {
      List<ScanQuery> qs = part.getValue().stream().map(singleRowQueries::get).toList();
      List<List<Cell>> rows;
      try {
        rows = call(key(table, l, part.getKey()), kind, e -> e.getAll(table, qs));
      } catch (RegionSplit e) {
        rows = acrossSplits(() -> getAll(table, qs)); // that region was split: its gets over the new regions
      }
      for (int k = 0; k < qs.size(); k++) {
        out.set(part.getValue().get(k), rows.get(k));
      }
    }
    return out;
  }

  @Override
  public Optional<BackgroundError> backgroundError() {
    return any(Engine::backgroundError);
  }

  @Override
  public void resume() {
    any(e -> {
      e.resume();
      return null;
    });
  }

  /** On meta's leader, which the members' NOT_LEADER answers name. */
  @Override
  public int balance() {
    return call(CATALOG, false, Engine::balance);
  }

  /**
   * On meta's leader, which the members' NOT_LEADER answers name. It may take about 70 s there (the
   * new member catches up and joins meta first), under the admin deadline as a flush, not the
   * attempt deadline. Sent again after a failure in flight, like a flush (within the call's
   * deadline): a repeat for a member already added with the same addresses succeeds, so a retry at
   * meta's next leader finishes the addition rather than refusing it.
   */
  @Override
  public void addServer(String id, String raftAddress, String clientAddress) {
    call(CATALOG, true, e -> {
      e.addServer(id, raftAddress, clientAddress);
      return null;
    });
  }

  @Override
  public void decommission(List<String> members) {
    call(CATALOG, false, e -> {
      e.decommission(members);
      return null;
    });
  }

  @Override
  public void recommission(String member) {
    call(CATALOG, false, e -> {
      e.recommission(member);
      return null;
    });
  }

  @Override
  public List<String> decommissioned() {
    return call(CATALOG, true, Engine::decommissioned);
  }

  /**
   * Asked first of the region's leader as far as this client knows (any member takes the call and
   * asks the leader itself), going round the members like a flush: a second try is harmless (the
   * member leads by then: nothing more is handed over). The leader this client knew for the
   * region is forgotten after a move, so the next call finds the new one.
   */
  @Override
  public io.bellows.engine.LeaderMove moveLeader(String table, byte[] row, String member) {
    String key = keyOfRow(table(table), row);
    io.bellows.engine.LeaderMove m = call(key, true, e -> e.moveLeader(table, row, member));
    if (m.moved()) {
      leaders.remove(key);
    }
    return m;
  }

  /**
   * Every member's view put together: each server this client knows of, and each member their
   * answers name, is asked once; a member that does not answer is in the status as not reported
   * (down or unreachable). Fails only when no server answers; empty when none is a cluster member.
   */
  @Override
  public Optional<ClusterStatus> clusterStatus() {
    Map<String, String> addresses = new LinkedHashMap<>(); // member id -> client address, in the member file's order
    Set<String> reported = new HashSet<>();
    List<ClusterStatus.Replica> replicas = new ArrayList<>();
    Set<String> asked = new HashSet<>();
    Deque<String> toAsk = new ArrayDeque<>(servers);
    RuntimeException last = null;
    boolean answered = false;
    while (!toAsk.isEmpty()) {
      String server = toAsk.poll();
      if (!asked.add(server)) {
        continue;
      }
      Optional<ClusterStatus> view;
      try {
        view = engine(server).clusterStatus();
      } catch (RuntimeException e) {
        if (closed) {
          throw e;
        }
        last = e;
        continue;
      }
      answered = true;
      if (view.isEmpty()) {
        continue;
      }
      boolean fresh = false; // false: a member already heard from under another address
      for (ClusterStatus.Member m : view.get().members()) {
        addresses.putIfAbsent(m.id(), m.address());
        if (m.reported()) {
          fresh |= reported.add(m.id());
        }
        toAsk.add(m.address());
      }
      if (fresh) {
        replicas.addAll(view.get().replicas());
      }
    }
    if (!answered && last != null) {
      throw last;
    }
    if (addresses.isEmpty()) {
      return Optional.empty();
    }
    List<ClusterStatus.Member> members = new ArrayList<>();
    addresses.forEach((id, address) -> members.add(new ClusterStatus.Member(id, address, reported.contains(id))));
    return Optional.of(new ClusterStatus(members, replicas));
  }

  @Override
  public Map<String, Number> metrics() {
    return any(Engine::metrics);
  }

  @Override
  public Map<String, Map<String, Number>> storeMetrics(String table) {
    return lookup(table, e -> e.storeMetrics(table));
  }

  @Override
  public EngineOptions options() {
    return any(Engine::options);
  }

  /** How many attempts this client's calls took so far ({@link CallStats}). */
  public CallStats callStats() {
    return stats;
  }

  @Override
  public void close() {
    closed = true;
    engines.values().forEach(RemoteEngine::close);
  }
}
