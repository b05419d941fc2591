package io.bellows.cluster.region;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.cell.Cells;
import io.bellows.cluster.LogPosition;
import io.bellows.cluster.checkpoint.CheckpointInstaller;
import io.bellows.cluster.checkpoint.CheckpointManifest;
import io.bellows.cluster.checkpoint.CheckpointSession;
import io.bellows.cluster.checkpoint.CheckpointSource;
import io.bellows.cluster.checkpoint.LeaderCheckpoints;
import io.bellows.cluster.checkpoint.LocalCheckpointSource;
import io.bellows.engine.CallId;
import io.bellows.fs.LocalFileSystem;
import io.bellows.record.WriteRecord;
import io.bellows.region.Region;
import io.bellows.region.SequenceIds;
import io.bellows.schema.TableDescriptor;
import io.bellows.store.FileNumberAllocator;
import io.bellows.store.Store;
import io.bellows.store.StoreFile;
import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import io.bellows.util.Bytes;
import io.bellows.util.StorageException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A checkpoint of a leader's replica installed on a follower, without Raft: the leader's and the
 * follower's regions are fed the same committed entries through their {@link RegionApplier}s, as
 * the log would, and the follower, behind, installs the leader's checkpoint (hard links, a
 * descriptor, checksummed chunks through {@link LocalCheckpointSource}). After the install it
 * holds the leader's cells with their sequence ids and follows the entries after the checkpoint.
 * A crash after each step of the install leaves a directory that opens (as the old replica or the
 * new one) and an install tried again completes; a damaged chunk is refused and asked for again.
 * Prints its seed.
 */
@ExtendWith(SeedExtension.class)
class CheckpointInstallTest {
  private static final UUID GROUP = UUID.fromString("00000000-0000-0000-0000-0000000000c1");
  private static final TableDescriptor TABLE = TableDescriptor.builder("t").family("f").family("g").build();
  private static final int REGION_ID = 7;
  private static final long BASE = 1_000_000;
  private static final long TERM = 3;

  @TempDir Path dir;
  private final LocalCheckpointSource source = new LocalCheckpointSource();
  private Member leader;
  private Member follower;

  /** One replica's region, applier and installer on its own directory. */
  private final class Member {
    final String id;
    final Path replicaDir;
    final AtomicLong fileNumbers = new AtomicLong(1);
    final SequenceIds ids = SequenceIds.assignedByLog(BASE);
    final ReplicaServices services = new ReplicaServices(new RaftRegionLog(), ids, fileNumbers);
    final CheckpointInstaller installer;
    final LeaderCheckpoints checkpoints;
    RegionApplier applier;
    long applied = -1;

    Member(String id, boolean create) {
      this.id = id;
      this.replicaDir = dir.resolve(id);
      Path regionDir = replicaDir.resolve("region");
      installer = new CheckpointInstaller(LocalFileSystem.INSTANCE, regionDir, GROUP, source, this::open,
          FileNumberAllocator.over(fileNumbers));
      checkpoints = new LeaderCheckpoints(LocalFileSystem.INSTANCE, replicaDir.resolve("checkpoints"), GROUP);
      CheckpointInstaller.recover(LocalFileSystem.INSTANCE, regionDir); // as a host does before it opens
      Region region = create ? Region.create(REGION_ID, TABLE, regionDir, services) : open(regionDir);
      applier = RegionApplier.open(region, ids, BASE, null, replicaDir, installer);
      source.register(id, g -> checkpoints.open(applier.region(), () -> new LogPosition(TERM, applied),
          copy -> applier.writeCheckpointState(copy)));
    }

    /** The host's reopen: the region on the installed files, its file numbers above theirs. */
    Region open(Path regionDir) {
      Region r = new Region(REGION_ID, TABLE, regionDir, services);
      for (Store s : r.stores().values()) {
        for (StoreFile f : s.files()) {
          fileNumbers.accumulateAndGet(f.id() + 1, Math::max);
        }
      }
      return r;
    }

    Region region() {
      return applier.region();
    }

    void apply(long index, WriteRecord r) {
      apply(index, RegionEntry.encode(TERM, r));
    }

    byte[] apply(long index, byte[] entry) {
      byte[] reply = applier.apply(new LogPosition(TERM, index), entry);
      applied = index;
      return reply;
    }

    /** Stops as a crash would: the region closes without a flush. */
    void crash() {
      region().close(false);
      source.unregister(id);
    }
  }

  @AfterEach
  void close() {
    for (Member m : new Member[] {leader, follower}) {
      if (m != null && !m.region().isClosedForWork()) {
        m.region().close(false);
      }
    }
  }

  private static WriteRecord put(Random rnd, String row) {
    byte[] r = Bytes.of(row);
    byte[] v = Bytes.of("v" + rnd.nextInt(1_000_000));
    long ts = 1 + rnd.nextInt(1000);
    return new WriteRecord(REGION_ID, 0, List.of(Cells.put(r, Bytes.of("f"), Bytes.of("q"), ts, v),
        Cells.put(r, Bytes.of("g"), Bytes.of("q"), ts, v)));
  }

  /**
   * Entries 1..n to the leader, flushing now and then (so it has several files, and a compaction);
   * the follower takes only the first {@code followerTakes}, then stops taking: it is behind.
   */
  private void write(Random rnd, int from, int to, int followerTakes) {
    for (int i = from; i <= to; i++) {
      WriteRecord r = put(rnd, "row" + rnd.nextInt(40));
      leader.apply(i, r);
      if (i <= followerTakes) {
        follower.apply(i, r);
      }
      if (i % 25 == 0) {
        leader.region().flush(true);
      }
    }
  }

  private void setUp(Random rnd) {
    leader = new Member("n1", true);
    follower = new Member("n2", true);
    write(rnd, 1, 60, 30);
    follower.region().flush(true);
    leader.region().compact(true);
    write(rnd, 61, 140, 30);
  }

  private void assertSameAsLeader() {
    assertThat(RegionCluster.contents(follower.region())).isEqualTo(RegionCluster.contents(leader.region()));
    assertThat(follower.ids.last()).isEqualTo(leader.ids.last());
  }

  @Test
  void aFollowerBehindInstallsTheLeadersFilesWithTheirSequenceIdsAndFollowsTheLogAfterThem(Seed seed)
      throws IOException {
    Random rnd = seed.random();
    setUp(rnd);
    Files.writeString(leader.region().directory().resolve("replication-state"), "state of the leader\n");

    long numbersBefore = follower.fileNumbers.get();

    LogPosition at = follower.applier.installCheckpoint("n1");

    assertThat(at).isEqualTo(new LogPosition(TERM, 140));
    assertSameAsLeader();
    // The installed files carry numbers of the follower's, none its old files had (a cache may hold their blocks).
    for (Store s : follower.region().stores().values()) {
      for (StoreFile f : s.files()) {
        assertThat(f.id()).isGreaterThanOrEqualTo(numbersBefore);
      }
    }
    assertThat(follower.region().directory().resolve("replication-state")).hasContent("state of the leader");
    // Every file of the install is gone but the region's and the table of answered calls the
    // checkpoint carried (moved out of region/): staging, the marker, the old region, the leader's
    // checkpoint (its session closed).
    assertThat(names(follower.replicaDir)).containsExactlyInAnyOrder("region", AnsweredCallsFile.NAME);
    assertThat(follower.region().directory().resolve(AnsweredCallsFile.NAME)).doesNotExist();
    assertThat(names(leader.replicaDir.resolve("checkpoints"))).isEmpty();
    assertThat(follower.installer.installs()).isEqualTo(1);
    assertThat(follower.installer.bytesInstalled()).isPositive();

    // The log after the checkpoint: the follower applies it as the leader does, and can flush on its own.
    write(rnd, 141, 170, 170);
    follower.region().flush(true);
    assertSameAsLeader();
  }

  /** The entry of an increment's resolved record, the counter's new value, named as the client's {@code call} (which still waits for call 1 on: nothing forgotten). */
  private static byte[] increment(long call, long newValue) {
    return RegionEntry.encode(TERM, new CallId(0x00c0_ffee_0000_0002L, 1, call, 1), 1,
        new WriteRecord(REGION_ID, 0, List.of(Cells.put(Bytes.of("counter"), Bytes.of("f"), Bytes.of("n"),
            100 + newValue, Bytes.toBytes(newValue)))));
  }

  @Test
  void anInstalledReplicaSkipsADuplicateOfACallTheLeaderAppliedAfterTheFollowerFellBehind() {
    leader = new Member("n1", true);
    follower = new Member("n2", true);
    for (int i = 1; i <= 2; i++) {
      byte[] e = increment(i, i);
      leader.apply(i, e);
      follower.apply(i, e);
    }
    follower.region().flush(true);
    follower.applier.checkpointing(new LogPosition(TERM, 2)); // its own table, as of 2
    // Applied by the leader only, between the follower's falling behind and the leader's checkpoint.
    leader.apply(3, increment(3, 3));
    leader.apply(4, increment(4, 4));

    assertThat(follower.applier.installCheckpoint("n1")).isEqualTo(new LogPosition(TERM, 4));

    // A duplicate entry of call 3 (a retry that reached the log too): skipped by both, with the first answer.
    byte[] duplicate = increment(3, 5);
    byte[] onLeader = leader.apply(5, duplicate);
    assertThat(RegionEntry.duplicateAnswer(onLeader)).as("the leader's reply").isNotNull();
    assertThat(follower.apply(5, duplicate)).as("the installed replica's reply").isEqualTo(onLeader);
    assertSameAsLeader();

    // A restart of the installed replica reads the installed table (no checkpoint of its own since).
    follower.crash();
    follower = new Member("n2", false);
    byte[] again = increment(3, 6);
    byte[] leaderAgain = leader.apply(6, again);
    assertThat(follower.apply(6, again)).isEqualTo(leaderAgain);
    assertThat(RegionEntry.duplicateAnswer(leaderAgain)).isNotNull();
    assertThat(RegionCluster.contents(follower.region())).isEqualTo(RegionCluster.contents(leader.region()));
  }

  @ParameterizedTest
  @EnumSource(CheckpointInstaller.Step.class)
  void aCrashAfterAnyStepLeavesAReplicaThatOpensAndCompletesTheInstallOnTheNextTry(CheckpointInstaller.Step step)
      throws IOException {
    long s = Long.getLong("bellows.test.seed", System.nanoTime());
    System.out.println("seed " + s + " (replay with -Dbellows.test.seed=" + s + "), crash after " + step);
    Random rnd = new Random(s);
    setUp(rnd);
    List<String> before = RegionCluster.contents(follower.region());
    follower.installer.faults(at -> {
      if (at == step) {
        throw new IOException("crash after " + at);
      }
    });
    assertThatThrownBy(() -> follower.applier.installCheckpoint("n1")).hasMessageContaining("crash after " + step);

    follower.crash();
    follower = new Member("n2", false); // the host recovers the directory, then opens the region
    boolean committed = step.compareTo(CheckpointInstaller.Step.COMMITTED) >= 0;
    if (committed) {
      assertSameAsLeader();
    } else {
      assertThat(RegionCluster.contents(follower.region())).isEqualTo(before);
    }
    follower.applier.installCheckpoint("n1"); // the leader asks again; it completes
    assertSameAsLeader();
    assertThat(names(follower.replicaDir)).containsExactlyInAnyOrder("region", AnsweredCallsFile.NAME);
    write(rnd, 141, 150, 150);
    assertSameAsLeader();
  }

  @Test
  void anInstallThatFailedInTheSameProcessIsTriedAgainOnTheClosedRegion(Seed seed) throws IOException {
    setUp(seed.random());
    follower.installer.faults(at -> {
      if (at == CheckpointInstaller.Step.OLD_MOVED) {
        throw new IOException("crash after " + at);
      }
    });
    assertThatThrownBy(() -> follower.applier.installCheckpoint("n1")).isInstanceOf(StorageException.class);
    follower.installer.faults(CheckpointInstaller.Faults.NONE);
    follower.applier.installCheckpoint("n1");
    assertSameAsLeader();
  }

  @Test
  void aDamagedChunkIsRefusedAndAskedForAgain(Seed seed) throws IOException {
    setUp(seed.random());
    AtomicInteger damaged = new AtomicInteger();
    Member f = follower;
    CheckpointInstaller installer = new CheckpointInstaller(LocalFileSystem.INSTANCE, f.replicaDir.resolve("region"),
        GROUP, damaging(source, 1, damaged), f::open, FileNumberAllocator.over(f.fileNumbers));
    RegionApplier applier = RegionApplier.open(f.region(), f.ids, BASE, installer);
    f.applier = applier;

    applier.installCheckpoint("n1");

    assertThat(damaged.get()).isEqualTo(1);
    assertSameAsLeader();
  }

  @Test
  void aChunkDamagedEveryTimeFailsTheInstallAndLeavesTheReplicaAsItWas(Seed seed) throws IOException {
    setUp(seed.random());
    List<String> before = RegionCluster.contents(follower.region());
    AtomicInteger damaged = new AtomicInteger();
    Member f = follower;
    CheckpointInstaller installer = new CheckpointInstaller(LocalFileSystem.INSTANCE, f.replicaDir.resolve("region"),
        GROUP, damaging(source, Integer.MAX_VALUE, damaged), f::open, FileNumberAllocator.over(f.fileNumbers));
    RegionApplier applier = RegionApplier.open(f.region(), f.ids, BASE, installer);

    assertThatThrownBy(() -> applier.installCheckpoint("n1")).hasMessageContaining("arrived damaged 3 times");

    assertThat(applier.region().isClosedForWork()).isFalse();
    assertThat(RegionCluster.contents(applier.region())).isEqualTo(before);
    assertThat(names(leader.replicaDir.resolve("checkpoints"))).isEmpty(); // the session was closed
    f.applier.installCheckpoint("n1"); // a clean source: the install completes, from what was staged
    assertSameAsLeader();
  }

  @Test
  void aLeaderKeepsFourCheckpointsAndDeletesWhatAStoppedProcessLeft(Seed seed) throws IOException {
    setUp(seed.random());
    List<CheckpointSession> sessions = new java.util.ArrayList<>();
    for (int i = 0; i < 5; i++) {
      sessions.add(source.open(GROUP, "n1"));
    }
    assertThat(names(leader.replicaDir.resolve("checkpoints"))).hasSize(4);
    String path = sessions.get(0).manifest().files().get(0).path();
    assertThatThrownBy(() -> sessions.get(0).read(path, 0, 10)).hasMessageContaining("is gone");
    assertThat(sessions.get(4).read(path, 0, 10).bytes()).hasSize(10);
    sessions.get(4).close();
    assertThat(names(leader.replicaDir.resolve("checkpoints"))).hasSize(3);
    // A process that stopped with sessions open: its next start deletes their checkpoints.
    new LeaderCheckpoints(LocalFileSystem.INSTANCE, leader.replicaDir.resolve("checkpoints"), GROUP).deleteLeftovers();
    assertThat(names(leader.replicaDir.resolve("checkpoints"))).isEmpty();
  }

  /** A source whose sessions flip a bit of the first {@code times} chunks they hand out. */
  private static CheckpointSource damaging(CheckpointSource inner, int times, AtomicInteger damaged) {
    return (group, leaderId) -> {
      CheckpointSession s = inner.open(group, leaderId);
      return new CheckpointSession() {
        @Override
        public CheckpointManifest manifest() {
          return s.manifest();
        }

        @Override
        public Chunk read(String path, long offset, int length) throws IOException {
          Chunk c = s.read(path, offset, length);
          // Reads come from several threads at once: count and decide in one step.
          if (c.bytes().length > 0 && damaged.getAndUpdate(n -> n < times ? n + 1 : n) < times) {
            byte[] b = c.bytes().clone();
            b[b.length / 2] ^= 0x10;
            return new Chunk(b, c.crc32c());
          }
          return c;
        }

        @Override
        public void close() {
          s.close();
        }
      };
    };
  }

  private static List<String> names(Path d) throws IOException {
    if (!Files.isDirectory(d)) {
      return List.of();
    }
    try (Stream<Path> s = Files.list(d)) {
      return s.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  static String text(Path p) throws IOException {
    return Files.readString(p, StandardCharsets.UTF_8);
  }
}
