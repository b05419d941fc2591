package io.bellows.remote;

import io.bellows.atomic.Outcome;
import io.bellows.cell.Cell;
import io.bellows.config.EngineOptions;
import io.bellows.engine.CallId;
import io.bellows.engine.ClusterStatus;
import io.bellows.engine.Engine;
import io.bellows.engine.RegionInfo;
import io.bellows.engine.RowMutation;
import io.bellows.engine.RowOperation;
import io.bellows.engine.TableRef;
import io.bellows.scan.Consistency;
import io.bellows.scan.RowScanner;
import io.bellows.scan.ScanQuery;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.BackgroundError;
import io.bellows.util.EngineClosedException;
import io.bellows.util.StorageException;
import io.bellows.wire.NotLeaderRefusal;
import io.bellows.wire.RemoteCallException;
import io.grpc.Status;
import java.net.ConnectException;
import java.security.SecureRandom;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * An {@link Engine} over the servers of a replicated cluster (docs/SERVER.md): each call goes to
 * the server that leads the table's region as far as this client knows (cached per table; the
 * catalog's leader for creating a table), follows a NOT_LEADER answer to the leader it names, and
 * tries another server when one cannot be reached or knows no leader yet (an election), pausing
 * with backoff, until the call's deadline.
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
  private final Map<String, String> leaders = new ConcurrentHashMap<>();
  /** This client's id ({@link CallId}): 128 random bits. */
  private final long clientHigh;
  private final long clientLow;
  private final AtomicLong callIds = new AtomicLong();
  /** The ids of the calls waiting for an answer: the lowest travels with each call. */
  private final ConcurrentSkipListSet<Long> outstanding = new ConcurrentSkipListSet<>();
  private volatile boolean closed;

  /** A call whose outcome is unknown: it reached a server that then failed; it may have applied. */
  public static final class OutcomeUnknownException extends StorageException {
    public OutcomeUnknownException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  private RemoteCluster(List<String> servers, RemoteOptions options) {
    if (servers.isEmpty()) {
      throw new IllegalArgumentException("no server to connect to");
    }
    this.servers = new CopyOnWriteArrayList<>(servers);
    this.options = options;
    // One attempt per server: going to another server is this class's business.
    this.perServer = options.withRetries(1, options.initialBackoff(), options.maxBackoff());
    SecureRandom random = new SecureRandom();
    this.clientHigh = random.nextLong();
    this.clientLow = random.nextLong();
  }

  /** A client of the cluster whose servers include {@code servers} ("host:port" each). */
  public static RemoteCluster open(List<String> servers, RemoteOptions options) {
    return new RemoteCluster(servers, options);
  }

  private RemoteEngine engine(String server) {
    if (closed) {
      throw new EngineClosedException("the connection to the cluster is closed");
    }
    return engines.computeIfAbsent(server, s -> RemoteEngine.open(s, perServer));
  }

  /** The server after {@code server} in the list, round and round. */
  private String after(String server) {
    int i = servers.indexOf(server);
    return servers.get(Math.floorMod(i + 1, servers.size()));
  }

  /**
   * Runs {@code op} on the leader of {@code key} (a table, or the catalog), following hints and
   * going round the servers until it succeeds or the deadline passes.
   */
  private <T> T call(String key, boolean idempotent, Function<Engine, T> op) {
    return call(key, idempotent, false, false, op);
  }

  /**
   * As {@link #call(String, boolean, Function)}; a {@code named} call carries its ids, so once the
   * cluster said it deduplicates, it is sent again after a failure in flight like an idempotent one,
   * and its deadline passing after such a failure is an {@link OutcomeUnknownException}. A {@code
   * timeline} read is answered by whichever server it reaches (the leader as far as this client
   * knows, else the next one that answers), so its answer teaches nothing about who leads.
   */
  private <T> T call(String key, boolean idempotent, boolean named, boolean timeline, Function<Engine, T> op) {
    boolean lostInFlight = false;
    long deadline = System.nanoTime() + options.dataDeadline().toNanos();
    String target = leaders.getOrDefault(key, servers.get(ThreadLocalRandom.current().nextInt(servers.size())));
    RuntimeException last = null;
    for (int attempt = 1; ; attempt++) {
      boolean pause;
      try {
        T result = op.apply(engine(target));
        if (!timeline) {
          leaders.put(key, target);
        }
        return result;
      } catch (NotLeaderRefusal e) {
        last = e;
        leaders.remove(key, target);
        if (e.leaderAddress() != null && !e.leaderAddress().equals(target)) {
          if (!servers.contains(e.leaderAddress())) {
            servers.add(e.leaderAddress());
          }
          target = e.leaderAddress();
          pause = false;
        } else {
          target = after(target);
          pause = true; // no leader yet: an election is under way
        }
      } catch (RemoteCallException e) {
        // A server that died: UNAVAILABLE, or UNKNOWN ("channel closed") when its connection closed
        // under a call in flight; or no answer within the deadline.
        if (e.code() != Status.Code.UNAVAILABLE && e.code() != Status.Code.UNKNOWN
            && e.code() != Status.Code.DEADLINE_EXCEEDED) {
          throw e;
        }
        if (!idempotent && !refused(e)) {
          if (!named || !deduplicatesCalls()) {
            throw new OutcomeUnknownException("the server " + target + " failed with the call in flight ("
                + e.getMessage() + "); it may or may not have been applied", e);
          }
          lostInFlight = true; // sent again with the same ids: the cluster applies it once
        }
        last = e;
        leaders.remove(key, target);
        target = after(target);
        pause = true;
      } catch (EngineClosedException e) {
        if (closed) {
          throw e;
        }
        last = e; // that server is stopping: nothing applied
        leaders.remove(key, target);
        target = after(target);
        pause = true;
      }
      long left = deadline - System.nanoTime();
      if (left <= 0) {
        if (lostInFlight) {
          throw new OutcomeUnknownException("the call's deadline passed after a server failed with it in flight ("
              + last.getMessage() + "); it may or may not have been applied", last);
        }
        throw last;
      }
      if (pause) {
        long base = options.initialBackoff().toMillis() << Math.min(attempt - 1, 10);
        long millis = Math.min(Math.min(base, options.maxBackoff().toMillis()), left / 1_000_000 + 1);
        try {
          Thread.sleep(millis / 2 + ThreadLocalRandom.current().nextLong(millis / 2 + 1));
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          throw last;
        }
      }
    }
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
    return call(CATALOG, true, op);
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
    return call(table, true, e -> e.regions(table));
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
    call(table, false, e -> {
      e.split(table);
      return null;
    });
  }

  @Override
  public void split(String table, byte[] splitKey) {
    call(table, false, e -> {
      e.split(table, splitKey);
      return null;
    });
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
    named((call, lowest) -> call(table.name(), true, true, false, e -> {
      e.mutate(table, rows, new CallId(clientHigh, clientLow, call, lowest.getAsLong()));
      return null;
    }));
  }

  /** Sent again after a failure in flight, with the same ids, once the cluster said it deduplicates. */
  @Override
  public Outcome mutateRow(TableRef table, RowOperation op) {
    return named((call, lowest) -> call(table.name(), false, true, false,
        e -> e.mutateRow(table, op, new CallId(clientHigh, clientLow, call, lowest.getAsLong()))));
  }

  /**
   * Runs a call named by the next call id, outstanding until it returns; {@code body} gets the id
   * and the lowest outstanding one (asked at each attempt: it rises as other calls end).
   */
  private <T> T named(BiFunction<Long, LongSupplier, T> body) {
    long call = callIds.incrementAndGet();
    outstanding.add(call);
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
   * a refusal of a server that does not lead sends the scan to the leader. A scan that fails later
   * is not moved. A {@link Consistency#TIMELINE} scan is answered by the first server it reaches
   * (the leader as far as this client knows, then the others in turn), which a follower does from
   * its own replica without asking the leader: {@link RowScanner#mayBeStale} says which answered.
   */
  @Override
  public RowScanner scan(TableRef table, ScanQuery query) {
    return call(table.name(), true, false, query.consistency() == Consistency.TIMELINE, e -> {
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

  @Override
  public List<List<Cell>> getAll(TableRef table, List<ScanQuery> singleRowQueries) {
    boolean timeline = !singleRowQueries.isEmpty()
        && singleRowQueries.stream().allMatch(q -> q.consistency() == Consistency.TIMELINE);
    return call(table.name(), true, false, timeline, e -> e.getAll(table, singleRowQueries));
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
    return call(table, true, e -> e.storeMetrics(table));
  }

  @Override
  public EngineOptions options() {
    return any(Engine::options);
  }

  @Override
  public void close() {
    closed = true;
    engines.values().forEach(RemoteEngine::close);
  }
}
