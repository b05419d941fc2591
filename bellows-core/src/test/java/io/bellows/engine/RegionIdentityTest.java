package io.bellows.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.client.Bellows;
import io.bellows.client.Put;
import io.bellows.client.Table;
import io.bellows.config.EngineOptions;
import io.bellows.fs.LocalFileSystem;
import io.bellows.manifest.StoreManifest;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Regions' identities (unique across data directories) and the bases of their sequence ids, as the
 * catalog records them and {@link Engine#regions} reports them.
 */
class RegionIdentityTest {
  private static final byte[] F = Bytes.of("f");
  private static final byte[] Q = Bytes.of("q");

  @TempDir Path dir;

  private static TableDescriptor table(String name) {
    return TableDescriptor.builder(name).family("f").build();
  }

  private static void write(Table t, int from, int to) {
    for (int i = from; i < to; i++) {
      t.put(new Put(Bytes.of(String.format("row%05d", i))).addColumn(F, Q, Bytes.of("v" + i)));
    }
  }

  /** Two data directories number their regions alike; their identities differ all the same. */
  @Test
  void regionsOfTwoDataDirectoriesHaveTheSameIdsButDistinctIdentities() {
    List<RegionInfo> a;
    List<RegionInfo> b;
    try (Bellows db = Bellows.open(dir.resolve("a"), EngineOptions.defaults())) {
      db.createTable(table("t"), List.of(Bytes.of("m")));
      a = db.regions("t");
    }
    try (Bellows db = Bellows.open(dir.resolve("b"), EngineOptions.defaults())) {
      db.createTable(table("t"), List.of(Bytes.of("m")));
      b = db.regions("t");
    }
    assertThat(a).extracting(RegionInfo::id).containsExactlyElementsOf(b.stream().map(RegionInfo::id).toList());
    Set<UUID> identities = new HashSet<>();
    for (RegionInfo r : a) {
      identities.add(r.identity());
    }
    for (RegionInfo r : b) {
      identities.add(r.identity());
    }
    assertThat(identities).doesNotContainNull().hasSize(4);
  }

  /**
   * A table made after writes bases its regions' ids at the engine's sequence then; a split's
   * daughters get new identities and a base at or above the parent's last sequence id (the split
   * flushed the parent, so its store's flushed id is its last). Both survive a reopen.
   */
  @Test
  void baseAtCreateAndAtSplitAndIdentitiesKeptAcrossReopen() throws IOException {
    List<RegionInfo> afterSplit;
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      db.createTable(table("first"));
      assertThat(db.regions("first").get(0).seqIdBase()).isZero();
      write(db.getTable("first"), 0, 10); // sequence ids 1..10
      db.createTable(table("t"));
      RegionInfo parent = db.regions("t").get(0);
      assertThat(parent.seqIdBase()).isEqualTo(10);
      write(db.getTable("t"), 0, 1000);
      db.flush("t");
      long parentLast = StoreManifest.load(LocalFileSystem.INSTANCE,
          dir.resolve("tables").resolve("2-t").resolve(TableDirectories.regionName(parent.id())).resolve("f"))
          .flushedSeqId();
      assertThat(parentLast).isGreaterThan(10);
      write(db.getTable("t"), 1000, 1100); // in memory only: the split's flush takes them
      db.split("t", Bytes.of("row00500"));
      afterSplit = db.regions("t");
      assertThat(afterSplit).hasSize(2);
      for (RegionInfo d : afterSplit) {
        assertThat(d.seqIdBase()).as("daughter %d", d.id()).isGreaterThanOrEqualTo(parentLast + 100);
        assertThat(d.identity()).isNotEqualTo(parent.identity());
      }
      assertThat(afterSplit.get(0).identity()).isNotEqualTo(afterSplit.get(1).identity());
    }
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      List<RegionInfo> reopened = db.regions("t");
      assertThat(reopened).extracting(RegionInfo::identity)
          .containsExactlyElementsOf(afterSplit.stream().map(RegionInfo::identity).toList());
      assertThat(reopened).extracting(RegionInfo::seqIdBase)
          .containsExactlyElementsOf(afterSplit.stream().map(RegionInfo::seqIdBase).toList());
    }
  }

  /** A clone's regions are new regions: new identities, based above every edit of the snapshot. */
  @Test
  void aCloneGetsNewIdentitiesBasedAboveTheSnapshot() {
    try (Bellows db = Bellows.open(dir, EngineOptions.defaults())) {
      db.createTable(table("t"), List.of(Bytes.of("row00050")));
      write(db.getTable("t"), 0, 100);
      db.snapshot("t", "s");
      db.cloneSnapshot("s", "c");
      List<RegionInfo> source = db.regions("t");
      List<RegionInfo> clone = db.regions("c");
      assertThat(clone).hasSize(2);
      for (int i = 0; i < 2; i++) {
        assertThat(clone.get(i).identity()).isNotEqualTo(source.get(i).identity());
        assertThat(clone.get(i).seqIdBase()).isGreaterThanOrEqualTo(100);
      }
    }
  }
}
