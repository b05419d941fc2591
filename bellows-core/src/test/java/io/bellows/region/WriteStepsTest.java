package io.bellows.region;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.atomic.ColumnUpdate;
import io.bellows.atomic.Condition;
import io.bellows.cell.Cell;
import io.bellows.cell.CellType;
import io.bellows.cell.Cells;
import io.bellows.config.Durability;
import io.bellows.config.EngineOptions;
import io.bellows.record.WriteRecord;
import io.bellows.record.WriteRecordCodec;
import io.bellows.scan.ScanQuery;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import io.bellows.util.Clock;
import io.bellows.util.StorageException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The region's write path against a log of the test's own (no WAL, no engine): what the log is
 * handed is one resolved record per write, whose sequence ids come from the source the region was
 * given, and which replayed on another copy of the region gives the same cells.
 */
class WriteStepsTest {
  private static final byte[] F = Bytes.of("f");
  private static final byte[] Q = Bytes.of("q");
  private static final TableDescriptor TABLE = TableDescriptor.builder("t").family("f").build();

  @TempDir Path dir;
  private final List<Region> opened = new ArrayList<>();

  @AfterEach
  void closeRegions() {
    opened.forEach(r -> r.close(false));
  }

  /** A log that keeps each record's bytes as appended, and fails when told to. */
  static final class RecordingLog implements RegionLog {
    final List<byte[]> appended = new ArrayList<>();
    RuntimeException appendFailure;
    boolean failed;
    RuntimeException durabilityFailure;
    final List<Durability> awaited = new ArrayList<>();

    @Override
    public long append(WriteRecord record) {
      if (appendFailure != null) {
        throw appendFailure;
      }
      appended.add(WriteRecordCodec.encode(record));
      return appended.size();
    }

    @Override
    public void awaitDurable(long ticket, Durability durability) {
      awaited.add(durability);
      if (durabilityFailure != null) {
        RuntimeException e = durabilityFailure;
        durabilityFailure = null;
        throw e;
      }
    }

    @Override
    public boolean failed() {
      return failed;
    }

    @Override
    public void forceAppended() {}

    List<WriteRecord> records() {
      List<WriteRecord> out = new ArrayList<>();
      appended.forEach(b -> out.add(WriteRecordCodec.decode(b)));
      return out;
    }
  }

  private Region region(String name, int id, RegionLog log, long clockMillis, long sequenceBase) {
    EngineOptions options = EngineOptions.builder().clock(new Clock.Manual(clockMillis)).build();
    TestRegionServices services = new TestRegionServices(options, log, SequenceIds.of(new AtomicLong(sequenceBase)));
    Region r = Region.create(id, TABLE, dir.resolve(name), services);
    r.recovered(sequenceBase);
    opened.add(r);
    return r;
  }

  private static Cell put(String row, String qualifier, long ts, String value) {
    return Cells.put(Bytes.of(row), F, Bytes.of(qualifier), ts, Bytes.of(value));
  }

  /** Every visible version of every row, as bytes and sequence id. */
  private static List<String> contents(Region r) {
    List<String> out = new ArrayList<>();
    try (RegionScanner s = r.scanner(ScanQuery.builder().maxVersions(Integer.MAX_VALUE).build())) {
      List<Cell> row = new ArrayList<>();
      while (s.nextRow(row)) {
        row.forEach(c -> out.add(HexFormat.of().formatHex(c.toBytes()) + "@" + c.seqId()));
        row.clear();
      }
    }
    return out;
  }

  private static String hex(Cell c) {
    return HexFormat.of().formatHex(c.toBytes());
  }

  @Test
  void aMiniBatchIsOneResolvedRecordOfItsLoggedRows() {
    RecordingLog log = new RecordingLog();
    Region r = region("a", 11, log, 1_000, 500);
    r.mutate(Bytes.of("r0"), List.of(put("r0", "q", 5, "old")), -1, null);
    Cell deleteLatest = Cells.create(Bytes.of("r0"), F, Q, Long.MAX_VALUE, CellType.DELETE, Bytes.EMPTY);
    Cell deleteAbsent = Cells.create(Bytes.of("r3"), F, Q, Long.MAX_VALUE, CellType.DELETE, Bytes.EMPTY);
    r.mutateBatch(List.of(
        new Region.RowWrite(Bytes.of("r1"), List.of(put("r1", "q", Long.MAX_VALUE, "a")), -1, null),
        new Region.RowWrite(Bytes.of("r2"), List.of(put("r2", "q", Long.MAX_VALUE, "b")), -1, Durability.SKIP_WAL),
        new Region.RowWrite(Bytes.of("r0"), List.of(deleteLatest), -1, Durability.FSYNC_WAL),
        new Region.RowWrite(Bytes.of("r3"), List.of(deleteAbsent), -1, null)));

    List<WriteRecord> records = log.records();
    assertThat(records).extracting(WriteRecord::seqId).containsExactly(501L, 502L);
    WriteRecord batch = records.get(1);
    assertThat(batch.regionId()).isEqualTo(11);
    // Timestamps concrete, the latest version's delete resolved to its timestamp, the delete of an
    // absent column gone, the SKIP_WAL row not logged; the logged rows in batch order.
    assertThat(batch.cells()).extracting(WriteStepsTest::hex).containsExactly(
        hex(put("r1", "q", 1_000, "a")),
        hex(Cells.create(Bytes.of("r0"), F, Q, 5, CellType.DELETE, Bytes.EMPTY)));
    assertThat(log.awaited).containsExactly(Durability.SYNC_WAL, Durability.FSYNC_WAL);
    // The SKIP_WAL row is applied with the mini-batch's sequence id all the same.
    assertThat(contents(r)).containsExactly(hex(put("r1", "q", 1_000, "a")) + "@502",
        hex(put("r2", "q", 1_000, "b")) + "@502");
  }

  @Test
  void sequenceIdsComeFromTheSourceTheRegionIsHanded() {
    RecordingLog logA = new RecordingLog();
    RecordingLog logB = new RecordingLog();
    Region a = region("a", 1, logA, 1_000, 1_000);
    Region b = region("b", 2, logB, 1_000, 5);
    a.mutate(Bytes.of("x"), List.of(put("x", "q", 7, "v")), -1, null);
    b.mutate(Bytes.of("x"), List.of(put("x", "q", 7, "v")), -1, null);
    a.mutate(Bytes.of("y"), List.of(put("y", "q", 7, "v")), -1, null);
    assertThat(logA.records()).extracting(WriteRecord::seqId).containsExactly(1_001L, 1_002L);
    assertThat(logB.records()).extracting(WriteRecord::seqId).containsExactly(6L);
    assertThat(contents(b)).containsExactly(hex(put("x", "q", 7, "v")) + "@6");
  }

  @Test
  void recordsReplayedOnAnotherCopyGiveTheSameCells() {
    RecordingLog log = new RecordingLog();
    Region source = region("source", 3, log, 1_000, 40);
    source.mutate(Bytes.of("c"), List.of(put("c", "n", 1, "v")), -1, null);
    source.mutateRow(Bytes.of("c"), null, List.of(), -1, List.of(ColumnUpdate.increment(F, Bytes.of("hits"), 5)),
        null, false);
    source.mutateRow(Bytes.of("c"), null, List.of(), -1, List.of(ColumnUpdate.increment(F, Bytes.of("hits"), 2)),
        null, false);
    source.mutateRow(Bytes.of("c"), Condition.ifAbsent(F, Bytes.of("lock")), List.of(put("c", "lock", Long.MAX_VALUE,
        "1")), -1, List.of(ColumnUpdate.append(F, Bytes.of("log"), Bytes.of("+"))), null, false);
    source.mutateRow(Bytes.of("c"), Condition.ifAbsent(F, Bytes.of("lock")), List.of(put("c", "other", 3, "no")), -1,
        List.of(), null, false); // the condition fails: nothing logged
    source.mutate(Bytes.of("c"), List.of(Cells.create(Bytes.of("c"), F, Bytes.of("n"), Long.MAX_VALUE, CellType.DELETE,
        Bytes.EMPTY)), -1, null);
    source.mutateBatch(List.of(new Region.RowWrite(Bytes.of("d"), List.of(), 900, null),
        new Region.RowWrite(Bytes.of("e"), List.of(put("e", "q", Long.MAX_VALUE, "w")), -1, null)));

    // Another copy with another clock and another sequence source: replay consults neither.
    Region copy = region("copy", 3, new RecordingLog(), 77_777, 0);
    long last = 0;
    for (byte[] bytes : log.appended) {
      WriteRecord record = WriteRecordCodec.decode(bytes);
      assertThat(copy.replay(record)).isTrue();
      last = record.seqId();
    }
    copy.recovered(last);
    assertThat(log.appended).hasSize(6);
    assertThat(contents(copy)).isNotEmpty().containsExactlyElementsOf(contents(source));
  }

  @Test
  void aWriteTheLogCannotMakeDurableStaysInvisibleUntilTheLogRecovers() {
    RecordingLog log = new RecordingLog();
    EngineOptions options = EngineOptions.builder().clock(new Clock.Manual(1_000)).build();
    TestRegionServices services = new TestRegionServices(options, log, SequenceIds.of(new AtomicLong()));
    Region r = Region.create(4, TABLE, dir.resolve("r"), services);
    opened.add(r);
    r.recovered(0);
    log.durabilityFailure = new StorageException("disk gone");
    assertThatThrownBy(() -> r.mutate(Bytes.of("x"), List.of(put("x", "q", 7, "v")), -1, null))
        .isInstanceOf(StorageException.class).hasMessageStartingWith("write-ahead log sync failed");
    assertThat(services.logFailures).hasSize(1);
    assertThat(contents(r)).isEmpty();
    r.logRecovered();
    assertThat(contents(r)).containsExactly(hex(put("x", "q", 7, "v")) + "@1");
  }

  @Test
  void aRecordTheLogRefusesIsNotApplied() {
    RecordingLog log = new RecordingLog();
    Region r = region("r", 5, log, 1_000, 0);
    log.appendFailure = new StorageException("no file");
    assertThatThrownBy(() -> r.mutate(Bytes.of("x"), List.of(put("x", "q", 7, "v")), -1, null))
        .isInstanceOf(StorageException.class)
        .hasMessage("write-ahead log append failed; nothing of the write was applied");
    log.failed = true;
    assertThatThrownBy(() -> r.mutate(Bytes.of("x"), List.of(put("x", "q", 7, "v")), -1, null))
        .isInstanceOf(StorageException.class)
        .hasMessage("write-ahead log append failed; the engine stops accepting writes");
    assertThat(contents(r)).isEmpty();
    log.appendFailure = null;
    log.failed = false;
    r.mutate(Bytes.of("x"), List.of(put("x", "q", 7, "v")), -1, null);
    assertThat(contents(r)).containsExactly(hex(put("x", "q", 7, "v")) + "@3");
  }
}
