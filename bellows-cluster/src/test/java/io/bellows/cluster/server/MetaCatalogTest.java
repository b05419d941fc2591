package io.bellows.cluster.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.cluster.LogPosition;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The catalog's entries: a table's creation gives it the next id and opens its replica once; a
 * "member joined" entry (appended by a member that starts without a replica of meta) changes
 * nothing, so replicas that applied it and replicas that did not give later tables the same ids;
 * a table created with split keys records each region's range, group, base and peers, and takes
 * region ids after those of the tables before it; an entry of the first builds' format reads as one
 * region over every row on every member; an entry of no known kind is refused.
 */
class MetaCatalogTest {
  private static final UUID G1 = UUID.fromString("00000000-0000-0000-0000-000000000001");
  private static final UUID G2 = UUID.fromString("00000000-0000-0000-0000-000000000002");
  private static final UUID G3 = UUID.fromString("00000000-0000-0000-0000-000000000003");
  private static final List<String> MEMBERS = List.of("n1", "n2", "n3");

  @Test
  void aMemberJoinedEntryChangesNothingAndLaterTablesTakeTheSameIds() {
    List<String> opened = new ArrayList<>();
    MetaCatalog catalog = new MetaCatalog(MEMBERS, t -> opened.add(t.descriptor().name() + "#" + t.id()));
    catalog.apply(new LogPosition(1, 1), MetaCatalog.createTable(TableDescriptor.builder("a").family("f").build(), G1, 7));
    byte[] reply = catalog.apply(new LogPosition(1, 2), MetaCatalog.memberJoined("n2"));
    assertThat(new String(reply, StandardCharsets.UTF_8)).isEqualTo(MetaCatalog.JOINED);
    catalog.apply(new LogPosition(1, 3), MetaCatalog.createTable(TableDescriptor.builder("b").family("f").build(), G2, 7));

    MetaCatalog without = new MetaCatalog(MEMBERS, t -> {});
    without.apply(new LogPosition(1, 1), MetaCatalog.createTable(TableDescriptor.builder("a").family("f").build(), G1, 7));
    without.apply(new LogPosition(1, 2), MetaCatalog.createTable(TableDescriptor.builder("b").family("f").build(), G2, 7));

    assertThat(opened).containsExactly("a#1", "b#2");
    assertThat(catalog.tables()).extracting(t -> t.descriptor().name() + " " + t.id() + " " + t.group() + " " + t.base())
        .containsExactly("a 1 " + G1 + " 7", "b 2 " + G2 + " 7")
        .isEqualTo(without.tables().stream().map(t -> t.descriptor().name() + " " + t.id() + " " + t.group() + " " + t.base())
            .toList());
  }

  /** The entries' bytes, as docs/FORMAT.md ("Meta entry") shows them. */
  @Test
  void theEntriesAreTheTextFormatMdShows() {
    assertThat(new String(MetaCatalog.memberJoined("n2"), StandardCharsets.UTF_8)).isEqualTo("member-joined\tn2\n");
    TableDescriptor d = TableDescriptor.builder("a").family("f").build();
    assertThat(new String(MetaCatalog.createTable(d, G1, 7), StandardCharsets.UTF_8))
        .isEqualTo("create-table\t" + G1 + "\t7\n" + TableText.encode(d));
  }

  @Test
  void anEntryOfNoKnownKindIsRefused() {
    MetaCatalog catalog = new MetaCatalog(MEMBERS, t -> {});
    assertThatThrownBy(() -> catalog.apply(new LogPosition(1, 5), "truncate-table\tx\n".getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("unknown meta entry at (t:1, i:5): truncate-table");
    assertThatThrownBy(() -> catalog.apply(new LogPosition(1, 6), "drop-table\tx\n".getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("bad meta entry at (t:1, i:6): drop-table\tx");
  }

  /** The bytes of a disable, an enable and a drop, as docs/FORMAT.md ("Meta entry") shows them. */
  @Test
  void theStateEntriesAreTheTextFormatMdShows() {
    assertThat(new String(MetaCatalog.disableTable("a", 3), StandardCharsets.UTF_8)).isEqualTo("disable-table\ta\t3\n");
    assertThat(new String(MetaCatalog.enableTable("a", 3), StandardCharsets.UTF_8)).isEqualTo("enable-table\ta\t3\n");
    assertThat(new String(MetaCatalog.dropTable("a", 3), StandardCharsets.UTF_8)).isEqualTo("drop-table\ta\t3\n");
  }

  /**
   * Disable, enable and drop apply in log order, each only from the state it needs (else nothing
   * changes and the reply says why); a drop hands the table's regions to the member; a table
   * created again under the name of a dropped one is another (the next id, its own regions), and
   * an entry naming the dropped one's id does not touch it.
   */
  @Test
  void disableEnableAndDropApplyOnlyFromTheStateTheyNeed() {
    List<String> effects = new ArrayList<>();
    MetaCatalog catalog = new MetaCatalog(MEMBERS, new MetaCatalog.Effects() {
      @Override
      public void opened(MetaCatalog.TableEntry t) {
        effects.add("opened " + t.descriptor().name() + "#" + t.id());
      }

      @Override
      public void disabled(MetaCatalog.TableEntry t) {
        effects.add("disabled " + t.descriptor().name() + "#" + t.id());
      }

      @Override
      public void dropped(MetaCatalog.TableEntry t) {
        effects.add("dropped " + t.descriptor().name() + "#" + t.id() + " " + t.regions().size() + " regions");
      }
    });
    long[] index = {0};
    java.util.function.Function<byte[], String> apply =
        e -> new String(catalog.apply(new LogPosition(1, ++index[0]), e), StandardCharsets.UTF_8);
    TableDescriptor a = TableDescriptor.builder("a").family("f").build();
    apply.apply(MetaCatalog.createTable(a, List.of(Bytes.of("m")),
        List.of(new MetaCatalog.NewRegion(G1, 7, MEMBERS), new MetaCatalog.NewRegion(G2, 7, MEMBERS))));
    apply.apply(MetaCatalog.createTable(TableDescriptor.builder("b").family("f").build(), G3, 7));

    assertThat(apply.apply(MetaCatalog.dropTable("a", 1))).as("enabled").isEqualTo(MetaCatalog.NOT_ENABLED);
    assertThat(apply.apply(MetaCatalog.enableTable("a", 1))).isEqualTo(MetaCatalog.NOT_DISABLED);
    assertThat(apply.apply(MetaCatalog.disableTable("a", 2))).as("b's id").isEqualTo(MetaCatalog.NOT_FOUND);
    assertThat(apply.apply(MetaCatalog.disableTable("c", 1))).isEqualTo(MetaCatalog.NOT_FOUND);
    assertThat(catalog.table("a").enabled()).isTrue();

    assertThat(apply.apply(MetaCatalog.disableTable("a", 1))).isEqualTo(MetaCatalog.DONE);
    assertThat(catalog.table("a").enabled()).isFalse();
    assertThat(apply.apply(MetaCatalog.disableTable("a", 1))).isEqualTo(MetaCatalog.NOT_ENABLED);
    assertThat(apply.apply(MetaCatalog.enableTable("a", 1))).isEqualTo(MetaCatalog.DONE);
    assertThat(catalog.table("a").enabled()).isTrue();
    assertThat(apply.apply(MetaCatalog.disableTable("a", 1))).isEqualTo(MetaCatalog.DONE);
    assertThat(apply.apply(MetaCatalog.dropTable("a", 1))).isEqualTo(MetaCatalog.DONE);
    assertThat(catalog.table("a")).isNull();
    assertThat(apply.apply(MetaCatalog.dropTable("a", 1))).as("again").isEqualTo(MetaCatalog.NOT_FOUND);

    UUID g4 = UUID.fromString("00000000-0000-0000-0000-000000000004");
    apply.apply(MetaCatalog.createTable(a, g4, 7));
    assertThat(catalog.table("a").id()).as("ids are never reused").isEqualTo(3);
    assertThat(catalog.table("a").regions()).extracting(MetaCatalogTest::describe)
        .containsExactly("4 " + g4 + " 7 [, ) n1,n2,n3");
    assertThat(apply.apply(MetaCatalog.disableTable("a", 1))).as("the dropped table's id").isEqualTo(MetaCatalog.NOT_FOUND);
    assertThat(catalog.table("a").enabled()).isTrue();
    assertThat(catalog.tables()).extracting(t -> t.descriptor().name() + "#" + t.id()).containsExactly("b#2", "a#3");
    assertThat(effects).containsExactly("opened a#1", "opened b#2", "disabled a#1", "disabled a#1",
        "dropped a#1 2 regions", "opened a#3");
  }

  /** The bytes of a table created with split keys, as docs/FORMAT.md ("Meta entry") shows them. */
  @Test
  void aTableOfSeveralRegionsIsTheTextFormatMdShows() {
    TableDescriptor d = TableDescriptor.builder("a").family("f").build();
    byte[] entry = MetaCatalog.createTable(d, List.of(Bytes.of("g"), new byte[] {(byte) 0xff, 0}),
        List.of(new MetaCatalog.NewRegion(G1, 7, MEMBERS), new MetaCatalog.NewRegion(G2, 7, MEMBERS),
            new MetaCatalog.NewRegion(G3, 7, List.of("n2"))));
    assertThat(new String(entry, StandardCharsets.UTF_8)).isEqualTo("create-table-regions\t3\n"
        + "region\t" + G1 + "\t7\t\t67\tn1,n2,n3\n"
        + "region\t" + G2 + "\t7\t67\tff00\tn1,n2,n3\n"
        + "region\t" + G3 + "\t7\tff00\t\tn2\n"
        + "table\ta\nfamily\tf\n");
  }

  @Test
  void aTableOfSeveralRegionsRecordsEachRegionAndTakesTheNextRegionIds() {
    List<String> opened = new ArrayList<>();
    MetaCatalog catalog = new MetaCatalog(MEMBERS, t -> opened.add(t.descriptor().name() + "#" + t.id()));
    catalog.apply(new LogPosition(1, 1), MetaCatalog.createTable(TableDescriptor.builder("a").family("f").build(), G1, 7));
    catalog.apply(new LogPosition(1, 2), MetaCatalog.createTable(TableDescriptor.builder("b").family("f").build(),
        List.of(Bytes.of("m")), List.of(new MetaCatalog.NewRegion(G2, 9, MEMBERS),
            new MetaCatalog.NewRegion(G3, 9, List.of("n1", "n3")))));
    assertThat(opened).as("a table's regions open together, once").containsExactly("a#1", "b#2");
    assertThat(catalog.table("a").regions()).extracting(MetaCatalogTest::describe)
        .containsExactly("1 " + G1 + " 7 [, ) n1,n2,n3");
    assertThat(catalog.table("b").regions()).extracting(MetaCatalogTest::describe)
        .containsExactly("2 " + G2 + " 9 [, m) n1,n2,n3", "3 " + G3 + " 9 [m, ) n1,n3");
    assertThat(catalog.table("b").ranges().indexOf(Bytes.of("z"))).isEqualTo(1);
    assertThat(catalog.table("b").group()).as("the first region's").isEqualTo(G2);
  }

  /** A meta log written before tables had several regions: each table is one region, its id the table's. */
  @Test
  void anEntryOfTheFirstFormatIsOneRegionOverEveryRowOnEveryMember() {
    MetaCatalog catalog = new MetaCatalog(MEMBERS, t -> {});
    byte[] old = ("create-table\t" + G1 + "\t1048576\ntable\tt\nfamily\tf\n").getBytes(StandardCharsets.UTF_8);
    catalog.apply(new LogPosition(1, 1), old);
    catalog.apply(new LogPosition(1, 2), ("create-table\t" + G2 + "\t1048576\ntable\tu\nfamily\tf\n")
        .getBytes(StandardCharsets.UTF_8));
    assertThat(catalog.table("t").regions()).extracting(MetaCatalogTest::describe)
        .containsExactly("1 " + G1 + " 1048576 [, ) n1,n2,n3");
    assertThat(catalog.table("u").regions()).extracting(MetaCatalogTest::describe)
        .containsExactly("2 " + G2 + " 1048576 [, ) n1,n2,n3");
  }

  @Test
  void aBadRegionLineIsRefused() {
    MetaCatalog catalog = new MetaCatalog(MEMBERS, t -> {});
    assertThatThrownBy(() -> catalog.apply(new LogPosition(1, 5), ("create-table-regions\t2\nregion\t" + G1
        + "\t7\t\t67\tn1\ntable\ta\nfamily\tf\n").getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("bad region line 2 of the meta entry at (t:1, i:5)");
  }

  /** Decommissioning and recommissioning members: their entries' bytes, and the set they keep. */
  @Test
  void decommissionedMembersAreKeptUntilRecommissioned() {
    assertThat(new String(MetaCatalog.decommission(List.of("n3", "n4")), StandardCharsets.UTF_8))
        .isEqualTo("decommission-members\tn3,n4\n");
    assertThat(new String(MetaCatalog.recommission("n4"), StandardCharsets.UTF_8)).isEqualTo("recommission-member\tn4\n");
    MetaCatalog catalog = new MetaCatalog(MEMBERS, t -> {});
    long[] index = {0};
    java.util.function.Function<byte[], String> apply =
        e -> new String(catalog.apply(new LogPosition(1, ++index[0]), e), StandardCharsets.UTF_8);
    assertThat(apply.apply(MetaCatalog.decommission(List.of("n3", "n4")))).isEqualTo(MetaCatalog.DONE);
    assertThat(apply.apply(MetaCatalog.decommission(List.of("n4")))).as("again").isEqualTo(MetaCatalog.DONE);
    assertThat(catalog.decommissioned()).containsExactly("n3", "n4");
    assertThat(apply.apply(MetaCatalog.recommission("n4"))).isEqualTo(MetaCatalog.DONE);
    assertThat(apply.apply(MetaCatalog.recommission("n4"))).isEqualTo(MetaCatalog.NOT_FOUND);
    assertThat(catalog.decommissioned()).containsExactly("n3");
  }

  /**
   * A member added to the running cluster: its entry's bytes (docs/FORMAT.md, "Meta entry"), the
   * members every member records, a repeat, and the ids it may not take; the first builds' table
   * entries still name the founding members only.
   */
  @Test
  void anAddedMemberIsRecordedOnceAndTheFirstFormatStillMeansTheFoundingMembers() {
    Members.Member n4 = new Members.Member("n4", "h4:9004", "h4:7004", true);
    assertThat(new String(MetaCatalog.addMember(n4), StandardCharsets.UTF_8)).isEqualTo("add-member\tn4\th4:9004\th4:7004\n");
    List<Members.Member> learnt = new ArrayList<>();
    MetaCatalog catalog = new MetaCatalog(MEMBERS, new MetaCatalog.Effects() {
      @Override
      public void opened(MetaCatalog.TableEntry t) {}

      @Override
      public void memberAdded(Members.Member m) {
        learnt.add(m);
      }
    });
    long[] index = {0};
    java.util.function.Function<byte[], String> apply =
        e -> new String(catalog.apply(new LogPosition(1, ++index[0]), e), StandardCharsets.UTF_8);
    assertThat(apply.apply(MetaCatalog.addMember(n4))).isEqualTo(MetaCatalog.DONE);
    assertThat(apply.apply(MetaCatalog.addMember(n4))).as("again").isEqualTo(MetaCatalog.EXISTS);
    assertThat(apply.apply(MetaCatalog.addMember(new Members.Member("n4", "h5:9005", "h5:7005", true))))
        .as("its id at other addresses").isEqualTo(MetaCatalog.CONFLICT);
    assertThat(apply.apply(MetaCatalog.addMember(new Members.Member("n2", "h5:9005", "h5:7005", true))))
        .as("a founding member's id").isEqualTo(MetaCatalog.CONFLICT);
    assertThat(catalog.added()).containsExactly(n4);
    assertThat(learnt).containsExactly(n4);

    apply.apply(MetaCatalog.createTable(TableDescriptor.builder("a").family("f").build(), G1, 7));
    assertThat(catalog.table("a").regions().get(0).peers()).containsExactly("n1", "n2", "n3");
  }

  /** The bytes of a replica's move, as docs/FORMAT.md ("Meta entry") shows them. */
  @Test
  void aMovesEntriesAreTheTextFormatMdShows() {
    assertThat(new String(MetaCatalog.moveReplica("a", 3, G1, "n1", "n4"), StandardCharsets.UTF_8))
        .isEqualTo("move-replica\ta\t3\t" + G1 + "\tn1\tn4\n");
    assertThat(new String(MetaCatalog.movedReplica(new MetaCatalog.ReplicaMove("a", 3, G1, "n1", "n4")),
        StandardCharsets.UTF_8)).isEqualTo("moved-replica\ta\t3\t" + G1 + "\tn1\tn4\n");
  }

  /**
   * A move names the new member among the region's peers in the old one's place at once, and is
   * kept until its end; refused with nothing changed: a second move of the region, a move from a
   * member that is no peer or to one that is, of a region or table not there; a split of a region
   * whose replica moves is refused until the move ends; the end tells the member, once; a drop
   * forgets the table's moves.
   */
  @Test
  void aMoveReplacesAPeerAndIsKeptUntilItsEnd() {
    List<String> effects = new ArrayList<>();
    MetaCatalog catalog = new MetaCatalog(MEMBERS, new MetaCatalog.Effects() {
      @Override
      public void opened(MetaCatalog.TableEntry t) {}

      @Override
      public void moving(MetaCatalog.ReplicaMove m) {
        effects.add("moving " + m.from() + ">" + m.to());
      }

      @Override
      public void moved(MetaCatalog.ReplicaMove m) {
        effects.add("moved " + m.from() + ">" + m.to());
      }
    });
    long[] index = {0};
    java.util.function.Function<byte[], String> apply =
        e -> new String(catalog.apply(new LogPosition(1, ++index[0]), e), StandardCharsets.UTF_8);
    apply.apply(MetaCatalog.createTable(TableDescriptor.builder("a").family("f").build(), List.of(Bytes.of("m")),
        List.of(new MetaCatalog.NewRegion(G1, 7, List.of("n1", "n2", "n3")),
            new MetaCatalog.NewRegion(G2, 7, List.of("n2", "n3", "n4")))));

    assertThat(apply.apply(MetaCatalog.moveReplica("a", 1, G1, "n4", "n1"))).isEqualTo(MetaCatalog.NOT_A_MOVE);
    assertThat(apply.apply(MetaCatalog.moveReplica("a", 1, G1, "n1", "n2"))).isEqualTo(MetaCatalog.NOT_A_MOVE);
    assertThat(apply.apply(MetaCatalog.moveReplica("a", 2, G1, "n1", "n4"))).isEqualTo(MetaCatalog.NOT_FOUND);
    assertThat(apply.apply(MetaCatalog.moveReplica("a", 1, G3, "n1", "n4"))).isEqualTo(MetaCatalog.NO_SUCH_REGION);
    assertThat(catalog.moves()).isEmpty();

    assertThat(apply.apply(MetaCatalog.moveReplica("a", 1, G1, "n2", "n4"))).isEqualTo(MetaCatalog.MOVING);
    MetaCatalog.ReplicaMove m = new MetaCatalog.ReplicaMove("a", 1, G1, "n2", "n4");
    assertThat(catalog.moveOf(G1)).isEqualTo(m);
    assertThat(catalog.table("a").regions().get(0).peers()).containsExactly("n1", "n4", "n3");
    assertThat(apply.apply(MetaCatalog.moveReplica("a", 1, G1, "n1", "n2"))).isEqualTo(MetaCatalog.MOVE_PENDING);
    assertThat(apply.apply(MetaCatalog.splitRegion("a", 1, G1, Bytes.of("g"), G3, UUID.randomUUID())))
        .isEqualTo(MetaCatalog.MOVE_PENDING);
    assertThat(catalog.tableOf(G1).regions()).hasSize(2);

    assertThat(apply.apply(MetaCatalog.movedReplica(new MetaCatalog.ReplicaMove("a", 1, G1, "n1", "n4"))))
        .as("not the move under way").isEqualTo(MetaCatalog.NOT_FOUND);
    assertThat(apply.apply(MetaCatalog.movedReplica(m))).isEqualTo(MetaCatalog.DONE);
    assertThat(apply.apply(MetaCatalog.movedReplica(m))).as("again").isEqualTo(MetaCatalog.NOT_FOUND);
    assertThat(catalog.moves()).isEmpty();
    assertThat(catalog.table("a").regions().get(0).peers()).containsExactly("n1", "n4", "n3");

    assertThat(apply.apply(MetaCatalog.moveReplica("a", 1, G2, "n4", "n1"))).isEqualTo(MetaCatalog.MOVING);
    apply.apply(MetaCatalog.disableTable("a", 1));
    apply.apply(MetaCatalog.dropTable("a", 1));
    assertThat(catalog.moves()).as("forgotten with the table").isEmpty();
    assertThat(catalog.tableOf(G2)).isNull();
    assertThat(effects).containsExactly("moving n2>n4", "moved n2>n4", "moving n4>n1");
  }

  @Test
  void aSplitsEntriesAreTheTextFormatMdShows() {
    assertThat(new String(MetaCatalog.splitRegion("a", 3, G1, Bytes.of("g"), G2, G3), StandardCharsets.UTF_8))
        .isEqualTo("split-region\ta\t3\t" + G1 + "\t67\t" + G2 + "\t" + G3 + "\n");
    assertThat(new String(MetaCatalog.retireRegion("a", 3, G1), StandardCharsets.UTF_8))
        .isEqualTo("retire-region\ta\t3\t" + G1 + "\n");
    MetaCatalog.RegionEntry parent = new MetaCatalog.RegionEntry(1, G1, 7, new byte[0], new byte[0], MEMBERS);
    MetaCatalog.Split s = new MetaCatalog.Split(3, parent,
        new MetaCatalog.RegionEntry(4, G2, 7 + MetaCatalog.SPLIT_BASE_STEP, new byte[0], Bytes.of("g"), MEMBERS),
        new MetaCatalog.RegionEntry(5, G3, 7 + MetaCatalog.SPLIT_BASE_STEP, Bytes.of("g"), new byte[0], MEMBERS));
    assertThat(s.command()).isEqualTo("split\t3\t" + G1 + "\n"
        + "region\t4\t" + G2 + "\t1099511627783\t\t67\tn1,n2,n3\n"
        + "region\t5\t" + G3 + "\t1099511627783\t67\t\tn1,n2,n3\n");
    MetaCatalog.Split back = MetaCatalog.Split.parse(s.command(), parent);
    assertThat(List.of(describe(back.a()), describe(back.b()))).containsExactly(describe(s.a()), describe(s.b()));
    assertThat(MetaCatalog.Split.parentOf(s.command())).isEqualTo(G1);
  }

  /**
   * A split replaces its region by the two daughters in the table's regions (the next region ids,
   * bases above the parent's, its peers), keeps the split by parent, and tells the member; a split
   * of a region that is no longer there, at a key outside it or at its first row, or of a table
   * dropped, changes nothing and says why; a drop forgets the table's splits.
   */
  @Test
  void aSplitReplacesItsRegionByTheDaughtersOnce() {
    List<String> split = new ArrayList<>();
    MetaCatalog catalog = new MetaCatalog(MEMBERS, new MetaCatalog.Effects() {
      @Override
      public void opened(MetaCatalog.TableEntry t) {}

      @Override
      public void split(MetaCatalog.TableEntry t, MetaCatalog.Split s) {
        split.add(t.descriptor().name() + " " + s.parent().id() + "->" + s.a().id() + "," + s.b().id());
      }

      @Override
      public void retired(MetaCatalog.Split s) {
        split.add("retired " + s.parent().id());
      }
    });
    catalog.apply(new LogPosition(1, 1), MetaCatalog.createTable(TableDescriptor.builder("a").family("f").build(),
        List.of(Bytes.of("m")), List.of(new MetaCatalog.NewRegion(G1, 9, MEMBERS), new MetaCatalog.NewRegion(G2, 9, MEMBERS))));
    UUID a = UUID.fromString("00000000-0000-0000-0000-00000000000a");
    UUID b = UUID.fromString("00000000-0000-0000-0000-00000000000b");
    byte[] reply = catalog.apply(new LogPosition(1, 2), MetaCatalog.splitRegion("a", 1, G2, Bytes.of("t"), a, b));
    assertThat(new String(reply, StandardCharsets.UTF_8)).isEqualTo("split\t3\t4");
    long base = 9 + MetaCatalog.SPLIT_BASE_STEP;
    assertThat(catalog.table("a").regions()).extracting(MetaCatalogTest::describe).containsExactly(
        "1 " + G1 + " 9 [, m) n1,n2,n3", "3 " + a + " " + base + " [m, t) n1,n2,n3", "4 " + b + " " + base + " [t, ) n1,n2,n3");
    assertThat(split).containsExactly("a 2->3,4");
    assertThat(catalog.splitOf(G2).a().group()).isEqualTo(a);

    for (byte[] refused : List.of(MetaCatalog.splitRegion("a", 1, G2, Bytes.of("u"), a, b), // split already
        MetaCatalog.splitRegion("a", 1, G1, Bytes.of("n"), a, b), // outside the region
        MetaCatalog.splitRegion("a", 1, a, Bytes.of("m"), G3, b))) { // its first row
      assertThat(new String(catalog.apply(new LogPosition(1, 3), refused), StandardCharsets.UTF_8))
          .isEqualTo(MetaCatalog.NO_SUCH_REGION);
    }
    assertThat(new String(catalog.apply(new LogPosition(1, 4), MetaCatalog.splitRegion("a", 9, G1, Bytes.of("c"), a, b)),
        StandardCharsets.UTF_8)).as("another table of the name").isEqualTo(MetaCatalog.NOT_FOUND);
    assertThat(catalog.table("a").regions()).hasSize(3);
    assertThat(split).hasSize(1);

    // Retired once (its replicas removed on every member), again changing nothing; an unknown parent is not found.
    assertThat(catalog.isRetired(G2)).isFalse();
    assertThat(new String(catalog.apply(new LogPosition(1, 5), MetaCatalog.retireRegion("a", 1, G2)),
        StandardCharsets.UTF_8)).isEqualTo(MetaCatalog.DONE);
    assertThat(new String(catalog.apply(new LogPosition(1, 5), MetaCatalog.retireRegion("a", 1, G2)),
        StandardCharsets.UTF_8)).isEqualTo(MetaCatalog.DONE);
    assertThat(new String(catalog.apply(new LogPosition(1, 5), MetaCatalog.retireRegion("a", 1, G1)),
        StandardCharsets.UTF_8)).isEqualTo(MetaCatalog.NOT_FOUND);
    assertThat(split).containsExactly("a 2->3,4", "retired 2");
    assertThat(catalog.isRetired(G2)).isTrue();

    catalog.apply(new LogPosition(1, 5), MetaCatalog.disableTable("a", 1));
    catalog.apply(new LogPosition(1, 6), MetaCatalog.dropTable("a", 1));
    assertThat(catalog.splits()).isEmpty();
    assertThat(catalog.isRetired(G2)).isFalse();
  }

  private static String describe(MetaCatalog.RegionEntry r) {
    return r.id() + " " + r.group() + " " + r.base() + " [" + Bytes.str(r.start()) + ", " + Bytes.str(r.end()) + ") "
        + String.join(",", r.peers());
  }
}
