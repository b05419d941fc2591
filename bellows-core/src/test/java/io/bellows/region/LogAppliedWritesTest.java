package io.bellows.region;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.atomic.ColumnUpdate;
import io.bellows.atomic.Condition;
import io.bellows.cell.Cell;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A region whose log applies the records itself (a replicated region's, here the test's own):
 * writers take the log's epoch before they read, propose records without a sequence id, and the
 * region applies committed records with the ids the log gives them; a flush covers every applied
 * id, and a replay of records some store flushed fills only the stores that lack them.
 */
class LogAppliedWritesTest {
  private static final byte[] F = Bytes.of("f");
  private static final byte[] G = Bytes.of("g");
  private static final TableDescriptor TABLE = TableDescriptor.builder("t").family("f").family("g").build();

  @TempDir Path dir;
  private final List<Region> opened = new ArrayList<>();

  @AfterEach
  void closeRegions() {
    opened.forEach(r -> r.close(false));
  }

  /**
   * A log that commits each proposal at once at the next index (the id is {@code base + index});
   * before a writer evaluates, it applies the records "another leader" committed ({@link #foreign}),
   * as a new leader applies its predecessor's entries before it takes writes.
   */
  static final class CommittingLog implements RegionLog {
    final long base;
    Region region;
    long index;
    long epoch = 7;
    boolean leads = true;
    final List<WriteRecord> foreign = new ArrayList<>();
    final List<long[]> proposals = new ArrayList<>(); // {epoch, seqId of the proposed record}
    final List<WriteRecord> committed = new ArrayList<>();

    CommittingLog(long base) {
      this.base = base;
    }

    @Override
    public boolean appliesRecords() {
      return true;
    }

    @Override
    public long beginEvaluation() {
      if (!leads) {
        throw new StorageException("not the leader");
      }
      foreign.forEach(this::commit);
      foreign.clear();
      return epoch;
    }

    @Override
    public void propose(long epoch, WriteRecord record) {
      proposals.add(new long[] {epoch, record.seqId()});
      index++; // a configuration entry of the log's own: ids have gaps
      commit(record);
    }

    private void commit(WriteRecord r) {
      // Through the bytes, as a replica that receives the entry does.
      WriteRecord decoded = WriteRecordCodec.decode(WriteRecordCodec.encode(r));
      WriteRecord withId = new WriteRecord(decoded.regionId(), base + ++index, decoded.cells());
      committed.add(withId);
      region.applyCommitted(withId);
    }

    @Override
    public long append(WriteRecord record) {
      throw new AssertionError("a log that applies records takes no appends");
    }

    @Override
    public void awaitDurable(long ticket, Durability durability) {
      throw new AssertionError("a log that applies records takes no appends");
    }

    @Override
    public boolean failed() {
      return false;
    }

    @Override
    public void forceAppended() {}
  }

  private Region open(String name, CommittingLog log, long last, boolean create) {
    EngineOptions options = EngineOptions.builder().clock(new Clock.Manual(1_000)).build();
    TestRegionServices services = new TestRegionServices(options, log, SequenceIds.assignedByLog(last));
    Region r = create ? Region.create(9, TABLE, dir.resolve(name), services) : new Region(9, TABLE,
        dir.resolve(name), services);
    log.region = r;
    opened.add(r);
    return r;
  }

  private static Cell put(byte[] family, String row, String qualifier, long ts, String value) {
    return Cells.put(Bytes.of(row), family, Bytes.of(qualifier), ts, Bytes.of(value));
  }

  private static String hex(Cell c) {
    return HexFormat.of().formatHex(c.toBytes());
  }

  private static List<String> contents(Region r) {
    List<String> out = new ArrayList<>();
    try (RegionScanner s = r.scanner(ScanQuery.builder().maxVersions(Integer.MAX_VALUE).build())) {
      List<Cell> row = new ArrayList<>();
      while (s.nextRow(row)) {
        row.forEach(c -> out.add(hex(c) + "@" + c.seqId()));
        row.clear();
      }
    }
    return out;
  }

  @Test
  void writesAreProposedWithoutIdsAndAppliedWithTheLogsIds() {
    CommittingLog log = new CommittingLog(1_000);
    Region r = open("r", log, 1_000, true);
    r.mutate(Bytes.of("a"), List.of(put(F, "a", "q", 5, "x")), -1, null);
    r.mutateBatch(List.of(
        new Region.RowWrite(Bytes.of("b"), List.of(put(F, "b", "q", Long.MAX_VALUE, "y")), -1, Durability.SKIP_WAL),
        new Region.RowWrite(Bytes.of("c"), List.of(put(G, "c", "q", 6, "z")), -1, null)));

    assertThat(log.proposals).extracting(p -> p[0] + "/" + p[1]).containsExactly("7/0", "7/0");
    // Every cell is in the record, the SKIP_WAL row's too (after the others): a replica must not miss it.
    assertThat(log.committed.get(1).cells()).extracting(LogAppliedWritesTest::hex)
        .containsExactly(hex(put(G, "c", "q", 6, "z")), hex(put(F, "b", "q", 1_000, "y")));
    assertThat(contents(r)).containsExactly(hex(put(F, "a", "q", 5, "x")) + "@1002",
        hex(put(F, "b", "q", 1_000, "y")) + "@1004", hex(put(G, "c", "q", 6, "z")) + "@1004");
  }

  @Test
  void anAtomicOperationReadsOnlyAfterTheLogAppliedWhatWasCommittedBeforeIt() {
    CommittingLog log = new CommittingLog(0);
    Region r = open("r", log, 0, true);
    r.mutateRow(Bytes.of("k"), null, List.of(), -1, List.of(ColumnUpdate.increment(F, Bytes.of("n"), 1)), null, false);
    // Another leader's write, committed before this replica takes writes again.
    log.foreign.add(new WriteRecord(9, 0, List.of(Cells.put(Bytes.of("k"), F, Bytes.of("n"), 2_000, Bytes.toBytes(40L)),
        Cells.put(Bytes.of("k"), F, Bytes.of("lock"), 2_000, Bytes.of("held")))));
    r.mutateRow(Bytes.of("k"), null, List.of(), -1, List.of(ColumnUpdate.increment(F, Bytes.of("n"), 2)), null, false);
    assertThat(r.mutateRow(Bytes.of("k"), Condition.ifAbsent(F, Bytes.of("lock")), List.of(put(F, "k", "x", 1, "v")),
        -1, List.of(), null, false).applied()).isFalse();

    List<Cell> latest = r.reads().readLatest(ScanQuery.builder().singleRow(Bytes.of("k")).addColumn(F, Bytes.of("n"))
        .readPoint(Long.MAX_VALUE).build());
    assertThat(Bytes.getLong(latest.get(0).array(), latest.get(0).valueOffset())).isEqualTo(42);
    assertThat(log.proposals).hasSize(2);
  }

  @Test
  void aReplicaThatDoesNotLeadRefusesBeforeReadingOrProposing() {
    CommittingLog log = new CommittingLog(0);
    Region r = open("r", log, 0, true);
    log.leads = false;
    assertThatThrownBy(() -> r.mutate(Bytes.of("a"), List.of(put(F, "a", "q", 5, "x")), -1, null))
        .hasMessage("not the leader");
    assertThatThrownBy(() -> r.mutateRow(Bytes.of("a"), null, List.of(), -1,
        List.of(ColumnUpdate.increment(F, Bytes.of("n"), 1)), null, false)).hasMessage("not the leader");
    assertThat(log.proposals).isEmpty();
    assertThat(contents(r)).isEmpty();
  }

  @Test
  void aFlushCoversEveryAppliedIdAndAReplayFillsOnlyTheStoresThatLackARecord() {
    CommittingLog log = new CommittingLog(100);
    Region r = open("r", log, 100, true);
    r.mutate(Bytes.of("a"), List.of(put(F, "a", "q", 5, "x"), put(G, "a", "q", 5, "x")), -1, null);
    r.flush(true);
    assertThat(r.stores().values()).allSatisfy(s -> assertThat(s.flushedSeqId()).isEqualTo(102));
    r.mutate(Bytes.of("b"), List.of(put(G, "b", "q", 5, "y")), -1, null);
    r.stores().get("g").prepareFlush(104); // only g's files hold record 104
    r.stores().get("g").flush();
    assertThat(r.stores().get("g").flushedSeqId()).isEqualTo(104);
    r.mutate(Bytes.of("b"), List.of(put(F, "b", "q", 5, "y")), -1, null);
    List<String> before = contents(r);
    List<WriteRecord> committed = List.copyOf(log.committed);
    r.close(false); // a crash: record 106 was only in memory

    // Reopened from the highest id its files hold; the log replays from its last checkpoint (102).
    CommittingLog replay = new CommittingLog(100);
    Region again = open("r", replay, 104, false);
    again.recovered(104);
    for (WriteRecord rec : committed.subList(1, committed.size())) {
      again.applyCommitted(WriteRecordCodec.decode(WriteRecordCodec.encode(rec)));
    }
    assertThat(contents(again)).isEqualTo(before);
    assertThat(again.stores().get("g").memStoreSize().cellCount()).isZero();
  }
}
