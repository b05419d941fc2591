package io.bellows.wal;

import static io.bellows.wal.WalTestSupport.edit;
import static io.bellows.wal.WalTestSupport.flat;
import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.config.Durability;
import io.bellows.fs.Fault;
import io.bellows.fs.FaultInjectingFileSystem;
import io.bellows.fs.FaultInjectingFileSystem.Error;
import io.bellows.fs.FaultInjectingFileSystem.Op;
import io.bellows.fs.MemFileSystem;
import io.bellows.record.WriteRecord;
import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A log's life as a store lives it: opened on what the last power loss left, replayed, written
 * while its disk fails now and then (write, create, rename and sync errors), healed or recovered,
 * while regions flush (the files no region needs are deleted; one region in every other lineage,
 * three in the others), and cut by the next power loss at a
 * random operation — many times over on the same files. Every open must replay without a corruption
 * error, every acknowledged (FSYNC_WAL) edit of a region that it had not flushed must come back in
 * order, and nothing that was never appended.
 */
@ExtendWith(SeedExtension.class)
class WalFaultLineageTest {
  private static final Path DIR = Path.of("/wal");
  private static final int REGIONS = 3;

  @Test
  void powerLossesDuringFaultsNeverLeaveALogThatCannotReplayOrLosesAnAcknowledgedEdit(Seed seed) {
    int lineages = Integer.getInteger("bellows.wal.lineages", 60); // more for a longer run
    for (int lineage = 0; lineage < lineages; lineage++) {
      runLineage(seed, lineage);
    }
  }

  private static void runLineage(Seed seed, int lineage) {
    Random rnd = seed.random(lineage * 1_000_003L);
    boolean oneRegion = lineage % 2 == 0;
    MemFileSystem mem = new MemFileSystem();
    Map<String, WriteRecord> appended = new LinkedHashMap<>(); // flat edit -> the edit, in append order
    java.util.Set<String> acknowledged = new java.util.HashSet<>();
    long[] flushedBelow = new long[REGIONS]; // per region: every edit below this sequence id is flushed
    long seq = 0;
    for (int epoch = 0; epoch < 12; epoch++) {
      String where = seed + ", lineage " + lineage + ", epoch " + epoch;
      FaultInjectingFileSystem fs = new FaultInjectingFileSystem(mem);
      double p = epoch % 2 == 0 ? 0.0 : 0.04;
      long s = rnd.nextLong();
      fs.inject(Fault.on(Error.EIO, Op.WRITE, Op.CREATE, Op.RENAME).paths("/wal/").probability(p, s));
      fs.inject(Fault.on(Error.ENOSPC, Op.WRITE, Op.CREATE).paths("/wal/").probability(p, s + 1));
      fs.inject(Fault.on(Error.FSYNC, Op.SYNC, Op.SYNC_DIRECTORY).paths("/wal/").probability(p, s + 2));
      long armAt = mem.mutations() + 20 + rnd.nextInt(200);
      MemFileSystem.Tail tail = MemFileSystem.Tail.values()[rnd.nextInt(MemFileSystem.Tail.values().length)];
      mem.crashAtOperation(armAt, new Random(rnd.nextLong()), tail);
      List<String> replayed = new ArrayList<>();
      Wal wal;
      try {
        wal = Wal.open(fs, DIR, new WalOptions(512 + rnd.nextInt(2048), 3_600_000));
      } catch (RuntimeException e) {
        assertThat(mem.crashed()).as("%s: open failed without a power loss: %s", where, e).isNotNull();
        mem = mem.crashed();
        continue;
      }
      try {
        List<WriteRecord> out = new ArrayList<>();
        wal.replay(out::add);
        replayed = flat(out);
        check(where, replayed, appended, acknowledged, flushedBelow);
        for (int i = 0; i < 150 && mem.crashed() == null; i++) {
          // Every other lineage one region; else region 0 is written rarely (it pins old files). A
          // region now and then flushes.
          int region = oneRegion ? 0 : rnd.nextInt(10) == 0 ? 0 : 1 + rnd.nextInt(REGIONS - 1);
          WriteRecord e = edit(region, ++seq, rnd);
          String f = flat(e);
          boolean fsync = rnd.nextInt(3) > 0;
          try {
            if (rnd.nextInt(15) == 0) {
              int flushed = rnd.nextInt(REGIONS);
              flushedBelow[flushed] = seq;
              wal.deleteObsolete(r -> flushedBelow[r]);
            }
            appended.put(f, e);
            long txid = wal.append(e);
            wal.sync(txid, fsync ? Durability.FSYNC_WAL : Durability.SYNC_WAL);
            if (fsync) {
              acknowledged.add(f);
            }
          } catch (RuntimeException failed) {
            try {
              wal.recover();
            } catch (RuntimeException stillFailing) {
              // tried again at the next failure
            }
          }
        }
      } catch (AssertionError | RuntimeException e) {
        if (e instanceof AssertionError || mem.crashed() == null) {
          throw e;
        }
      } finally {
        try {
          wal.close();
        } catch (RuntimeException e) {
          // the machine is off, or the disk failed: the next open sorts it out
        }
      }
      mem = mem.crashed() != null ? mem.crashed() : mem.crash(new Random(rnd.nextLong()), tail);
    }
  }

  /**
   * Every acknowledged edit its region has not flushed is replayed, in order; nothing replayed was
   * never appended; no edit twice.
   */
  private static void check(String where, List<String> replayed, Map<String, WriteRecord> appended,
      java.util.Set<String> acknowledged, long[] flushedBelow) {
    List<String> order = new ArrayList<>(appended.keySet());
    int at = 0;
    for (String r : replayed) {
      int found = order.subList(at, order.size()).indexOf(r);
      assertThat(found).as("%s: a replayed edit was never appended, or is out of order or repeated", where)
          .isGreaterThanOrEqualTo(0);
      for (String skipped : order.subList(at, at + found)) {
        assertThat(required(appended.get(skipped), skipped, acknowledged, flushedBelow))
            .as("%s: acknowledged edit %s is missing", where, skipped).isFalse();
      }
      at += found + 1;
    }
    for (String skipped : order.subList(at, order.size())) {
      assertThat(required(appended.get(skipped), skipped, acknowledged, flushedBelow))
          .as("%s: acknowledged edit %s is missing at the end", where, skipped).isFalse();
    }
  }

  private static boolean required(WriteRecord e, String flat, java.util.Set<String> acknowledged, long[] flushedBelow) {
    return acknowledged.contains(flat) && e.seqId() >= flushedBelow[e.regionId()];
  }
}
