package io.bellows.cluster.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.cluster.LogPosition;
import io.bellows.schema.TableDescriptor;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The catalog's entries: a table's creation gives it the next id and opens its replica once; a
 * "member joined" entry (appended by a member that starts without a replica of meta) changes
 * nothing, so replicas that applied it and replicas that did not give later tables the same ids;
 * an entry of no known kind is refused.
 */
class MetaCatalogTest {
  private static final UUID G1 = UUID.fromString("00000000-0000-0000-0000-000000000001");
  private static final UUID G2 = UUID.fromString("00000000-0000-0000-0000-000000000002");

  @Test
  void aMemberJoinedEntryChangesNothingAndLaterTablesTakeTheSameIds() {
    List<String> opened = new ArrayList<>();
    MetaCatalog catalog = new MetaCatalog(t -> opened.add(t.descriptor().name() + "#" + t.id()));
    catalog.apply(new LogPosition(1, 1), MetaCatalog.createTable(TableDescriptor.builder("a").family("f").build(), G1, 7));
    byte[] reply = catalog.apply(new LogPosition(1, 2), MetaCatalog.memberJoined("n2"));
    assertThat(new String(reply, StandardCharsets.UTF_8)).isEqualTo(MetaCatalog.JOINED);
    catalog.apply(new LogPosition(1, 3), MetaCatalog.createTable(TableDescriptor.builder("b").family("f").build(), G2, 7));

    MetaCatalog without = new MetaCatalog(t -> {});
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
    MetaCatalog catalog = new MetaCatalog(t -> {});
    assertThatThrownBy(() -> catalog.apply(new LogPosition(1, 5), "drop-table\tx\n".getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("unknown meta entry at (t:1, i:5): drop-table");
  }
}
