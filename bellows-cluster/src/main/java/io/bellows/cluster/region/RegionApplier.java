package io.bellows.cluster.region;

import io.bellows.cell.Cell;
import io.bellows.cluster.LogApplier;
import io.bellows.cluster.LogPosition;
import io.bellows.cluster.checkpoint.CheckpointInstaller;
import io.bellows.engine.CallId;
import io.bellows.record.WriteRecord;
import io.bellows.region.Region;
import io.bellows.region.SequenceIds;
import io.bellows.store.Store;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A replica's applier of a replicated region: every committed entry of the region's group, in log
 * order, becomes a write of the region's stores and MVCC ({@link Region#applyCommitted}) with the
 * sequence id {@code base + index}, the same on every replica. An entry whose write was evaluated
 * in an earlier term than the one it reached the log in is applied by no replica (see {@link
 * RaftRegionLog}).
 *
 * <p>Its durable position is the last entry below the region's oldest unflushed sequence id: a
 * flush followed by {@link io.bellows.cluster.RaftNode#checkpoint} lets the log drop what the
 * files hold, and a restart replays only the log after it (the stores skip what their files hold
 * already). A replica left behind the leader's log installs a checkpoint of the leader's files
 * ({@link #installCheckpoint}).
 *
 * <p>An entry that names its call ({@link CallId}) goes through the replica's {@link AnsweredCalls}
 * first: a call applied before at another index is not applied again, and its writer is handed the
 * first answer. The table is written to its file ({@link AnsweredCallsFile}) in the replica's
 * directory when the log checkpoints ({@link #checkpointing}) and read back when the applier opens;
 * a checkpoint handed to another replica carries the table as of its position ({@link
 * #writeCheckpointState}), and an install loads it.
 */
public final class RegionApplier implements LogApplier {
  /** The file of the answered calls, in the replica's directory and in a checkpoint's copy of the region. */
  public static final String ANSWERED_CALLS_FILE = AnsweredCallsFile.NAME;

  /** Replaced, with the positions, when a checkpoint is installed (never while an entry is applied). */
  private volatile Region region;
  private final long base;
  private volatile AppliedPositions positions = new AppliedPositions();
  private final SequenceIds ids;
  private final AnsweredCalls calls;
  /** Where the table of answered calls is written at checkpoints; null: it lives in memory only. */
  private final Path callsDir;
  /** The index of the checkpoint before: the entries the table skipped above it stay in its file. */
  private long lastCheckpoint;
  /** The checkpoint this replica was seeded with before it joined its group ({@link #seed}), or null. */
  private volatile LogPosition seeded;
  /** Null: this replica cannot install a checkpoint (it refuses, and stays behind). */
  private final CheckpointInstaller installer;
  /** What the region's command entries do on this member; null: a command is refused (a region that is never split). */
  private volatile Commands commands;
  /**
   * The region was split at an entry before (this replica applied the split, or found its marker at
   * open): every later write belongs to a daughter and is answered {@link RegionEntry#MOVED}.
   */
  private volatile boolean split;

  /**
   * What the commands in a region's log do on the member of the replica (docs/design/cluster.md,
   * "Splitting a region"). Called on the apply thread, in log order; each must be idempotent (a
   * restart replays the log after its last checkpoint).
   */
  public interface Commands {
    /**
     * The region splits here ({@code text}: {@code MetaCatalog.Split#command}): the member builds
     * the daughters from the region's files and answers later writes {@link RegionEntry#MOVED}.
     */
    void split(String text, LogPosition at);
  }

  /** What the region's command entries do here (set once, before the replica joins its group). */
  public void commands(Commands c) {
    this.commands = c;
  }

  /** The region was split: later writes go to its daughters ({@link RegionEntry#MOVED}). */
  public void markSplit() {
    this.split = true;
  }

  /** Whether the region was split here (its replica answers writes as moved). */
  public boolean isSplit() {
    return split;
  }

  private RegionApplier(Region region, SequenceIds ids, long base, AnsweredCalls calls, Path callsDir,
      CheckpointInstaller installer) {
    this.region = region;
    this.ids = ids;
    this.base = base;
    this.calls = calls;
    this.callsDir = callsDir;
    this.installer = installer;
  }

  /**
   * The applier of {@code region}, just opened by its host on a {@link RaftRegionLog} and on {@code
   * ids} ({@link SequenceIds#assignedByLog} from {@code base}, the region's sequence base): what its
   * files hold becomes visible, and the log's entries apply after it. Its table of answered calls
   * lives in memory only and no writer looks it up: for a region whose writes name no calls.
   */
  public static RegionApplier open(Region region, SequenceIds ids, long base) {
    return open(region, ids, base, null, null, null);
  }

  /**
   * As {@link #open(Region, SequenceIds, long)}, for a region whose writes may name their calls
   * ({@link RaftRegionLog#answerOnce}): the table of answered calls is read from {@code dir} (the
   * replica's directory; null: kept in memory only) and handed to {@code log}, the region's log, whose
   * writers look their calls up in it.
   */
  public static RegionApplier open(Region region, SequenceIds ids, long base, RaftRegionLog log, Path dir) {
    return open(region, ids, base, log, dir, null);
  }

  /**
   * As {@link #open(Region, SequenceIds, long)}, for a replica that installs a checkpoint of its
   * leader's files with {@code installer} when it falls behind the leader's log.
   */
  public static RegionApplier open(Region region, SequenceIds ids, long base, CheckpointInstaller installer) {
    return open(region, ids, base, null, null, installer);
  }

  /**
   * Both: the table of answered calls read from {@code dir} and handed to {@code log} (either may be
   * null, as above), checkpoints installed with {@code installer} (null: none). A table an install
   * brought and a crash left in the region's directory is taken over first ({@link
   * AnsweredCallsFile#adopt}): it is newer than the replica's own.
   */
  public static RegionApplier open(Region region, SequenceIds ids, long base, RaftRegionLog log, Path dir,
      CheckpointInstaller installer) {
    AnsweredCalls calls = AnsweredCallsFile.adopt(region.directory(), dir);
    if (log != null) {
      log.answeredCalls(calls);
    }
    startAtFiles(region, ids, base);
    return new RegionApplier(region, ids, base, calls, dir, installer);
  }

  /** The region's ids and read point start at the highest id its files hold: the log applies after it. */
  private static void startAtFiles(Region region, SequenceIds ids, long base) {
    long flushed = base;
    for (Store s : region.stores().values()) {
      flushed = Math.max(flushed, s.flushedSeqId());
    }
    if (flushed > ids.last()) {
      ids.assigned(flushed);
    }
    region.recovered(ids.last());
  }

  public Region region() {
    return region;
  }

  @Override
  public byte[] apply(LogPosition at, byte[] entry) {
    byte[] reply;
    String command = RegionEntry.commandText(entry);
    if (command != null) {
      reply = applyCommand(at, command);
    } else if (split) {
      reply = RegionEntry.MOVED;
    } else if (RegionEntry.term(entry) != at.term()) {
      reply = RegionEntry.REJECTED;
    } else {
      WriteRecord r = RegionEntry.record(entry);
      if (r.regionId() != region.id()) {
        throw new IllegalStateException("an entry of region " + r.regionId() + " in the log of region " + region.id());
      }
      CallId call = RegionEntry.call(entry);
      AnsweredCalls.Decision d = call == null ? AnsweredCalls.Decision.APPLY
          : calls.apply(at.index(), call, () -> answer(r, RegionEntry.answerCells(entry)));
      if (d == AnsweredCalls.Decision.APPLY) {
        region.applyCommitted(new WriteRecord(r.regionId(), base + at.index(), r.cells()));
        reply = RegionEntry.APPLIED;
      } else if (d == AnsweredCalls.Decision.DUPLICATE) {
        AnsweredCalls.Answer first = calls.lookup(call);
        reply = RegionEntry.duplicate(first == null ? List.of() : first.values());
      } else {
        reply = RegionEntry.STALE;
      }
    }
    positions.handed(at);
    return reply;
  }

  private byte[] applyCommand(LogPosition at, String text) {
    Commands c = commands;
    if (c == null) {
      throw new IllegalStateException("region " + region.id() + " has no commands here but its log holds one at "
          + at + ": " + text.lines().findFirst().orElse(""));
    }
    if (text.startsWith("split\t")) {
      c.split(text, at); // again on a replay: the member finishes what it lacks (the daughters open, joined)
      split = true;
    } else {
      throw new IllegalStateException("an unknown command in the log of region " + region.id() + " at " + at + ": "
          + text.lines().findFirst().orElse(""));
    }
    return RegionEntry.APPLIED;
  }

  /** The record's last {@code n} cells, copied (the record's own go to the stores): a call's answer. */
  private static List<Cell> answer(WriteRecord r, int n) {
    List<Cell> cells = r.cells();
    List<Cell> out = new ArrayList<>(n);
    for (Cell c : cells.subList(cells.size() - n, cells.size())) {
      out.add(new Cell(c.toBytes()));
    }
    return out;
  }

  /**
   * The last entry whose effect the region's files hold: every entry applied, if the memory stores
   * are empty, else the last one below their oldest sequence id. Null if no entry was applied since
   * the region opened (its files hold no more than the log's last checkpoint said).
   */
  @Override
  public LogPosition durablePosition() {
    long applied = positions.last(); // before the stores: what they hold then was applied by then
    if (applied < 0) {
      return null;
    }
    long oldest = region.oldestUnflushedSeqId();
    long durable = oldest == Long.MAX_VALUE ? applied : Math.min(applied, oldest - 1 - base);
    return positions.atOrBelow(durable);
  }

  /**
   * Writes the table of answered calls as it stands (after every entry applied so far, so after
   * {@code at}), with the entries it skipped above the checkpoint before this one: a restart replays
   * the log from this checkpoint or, if recording it fails, from the one before, and decides every
   * replayed entry as the first time.
   */
  @Override
  public void checkpointing(LogPosition at) {
    if (callsDir == null) {
      return;
    }
    AnsweredCallsFile.write(callsDir, calls);
    calls.forgetSkippedThrough(lastCheckpoint);
    lastCheckpoint = at.index();
  }

  /**
   * Reads the table of answered calls again, in place of the one it holds: the one an installed
   * checkpoint brought into the region's directory (taken over into the replica's directory, {@link
   * AnsweredCallsFile#adopt}), else the replica's own file. {@link #installCheckpoint} calls it
   * before the log continues after the checkpoint.
   */
  void reloadAnsweredCalls() {
    calls.replaceWith(AnsweredCallsFile.adopt(region.directory(), callsDir));
    lastCheckpoint = 0;
  }

  /**
   * Writes the table of answered calls into {@code dir}, a checkpoint's copy of the region handed to
   * another replica: the checkpoint's host calls it while the region is blocked, after it read the
   * checkpoint's position P. Every entry up to P was applied, so the table holds every call they
   * applied; an entry after P that it holds too is one the installing replica replays at the same
   * index, which the table decides as the first time. Thread-safe (the table's snapshot is taken under
   * its lock).
   */
  public void writeCheckpointState(Path dir) {
    AnsweredCallsFile.write(dir, calls);
  }

  /**
   * Writes the table of answered calls into {@code dir}, the replica directory of a daughter of this
   * region's split, as a table of a new log ({@link AnsweredCalls#forNewLog}): the daughter answers
   * a retry of a call this region applied, and records the calls of its own log from its first entry.
   * Called on the apply thread, at the split entry.
   */
  public void writeDaughterState(Path dir) {
    AnsweredCallsFile.write(dir, calls.forNewLog());
  }

  /**
   * A read through the log is a barrier: once it returns, this replica has applied everything
   * committed before the read began, and the caller reads the region itself.
   */
  @Override
  public byte[] query(byte[] request) {
    return new byte[0];
  }

  /**
   * Replaces this replica's region with a checkpoint of the leader's ({@link CheckpointInstaller}:
   * fetched, verified, switched atomically) and reopens it: the sequence ids and read point start
   * at the highest id the installed files hold, and the log continues after the checkpoint's
   * position, which this returns. Ratis calls it while nothing is applied here.
   */
  /**
   * Seeds this replica, whose group is not joined here yet, with a checkpoint of member {@code
   * source}'s replica (a replica moved to this member), as {@link #installCheckpoint} does; the log
   * starts after the position this returns ({@link #seededPosition}).
   */
  public LogPosition seed(String source) {
    LogPosition at = installCheckpoint(source);
    seeded = at;
    return at;
  }

  @Override
  public LogPosition seededPosition() {
    return seeded;
  }

  @Override
  public LogPosition installCheckpoint(String leader) {
    if (installer == null) {
      throw new UnsupportedOperationException("region " + region.id() + " is behind the first entry its leader "
          + leader + " holds, and this replica was opened without a checkpoint installer");
    }
    CheckpointInstaller.Installed installed = installer.install(leader, region);
    startAtFiles(installed.region(), ids, base);
    positions = new AppliedPositions(); // the entries handed before the install say nothing of its files
    region = installed.region();
    reloadAnsweredCalls(); // the leader's table as of the checkpoint, before the log goes on after it
    return installed.position();
  }
}
