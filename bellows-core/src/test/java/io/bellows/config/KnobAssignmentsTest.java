package io.bellows.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.schema.TableDescriptor;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The one parser of {@code name=value} knob settings. */
class KnobAssignmentsTest {
  @Test
  void namesFindTheirKnobInAnyScopeAndValuesAreReadByTheKnob() {
    KnobAssignments a = KnobAssignments.parse(List.of("bellows.wal.max.files=64", "MEMSTORE_FLUSHSIZE = 1M",
        "in_memory_compaction=eager"));
    assertThat(a.values()).containsExactly(Map.entry(Knobs.WAL_MAX_FILES, 64),
        Map.entry(Knobs.MEMSTORE_FLUSHSIZE, 1L << 20), Map.entry(Knobs.IN_MEMORY_COMPACTION, MemStorePolicy.EAGER));
    assertThat(a.applyTo(EngineOptions.builder()).build().get(Knobs.WAL_MAX_FILES)).isEqualTo(64);
    assertThat(a.applyTo(TableDescriptor.builder("t")).family("f").build().get(Knobs.MEMSTORE_FLUSHSIZE))
        .isEqualTo(1L << 20);
    assertThat(a.applyTo(ColumnFamilyDescriptor.builder("f")).build().get(Knobs.IN_MEMORY_COMPACTION))
        .isEqualTo(MemStorePolicy.EAGER);
    assertThat(KnobAssignments.parse(a.asText()).values()).isEqualTo(a.values());
  }

  @Test
  void theLastAssignmentOfAKnobWins() {
    assertThat(KnobAssignments.parse(List.of("bellows.wal.max.files=8", "BELLOWS.WAL.MAX.FILES=9")).values())
        .containsExactly(Map.entry(Knobs.WAL_MAX_FILES, 9));
  }

  @Test
  void aWrongValueNamesTheKnobAndWhatItAccepts() {
    assertThatThrownBy(() -> KnobAssignments.parse(List.of("bellows.durability.default=SOMETIMES")))
        .hasMessageContaining("bellows.durability.default").hasMessageContaining("SOMETIMES")
        .hasMessageContaining("one of USE_DEFAULT SKIP_WAL ASYNC_WAL SYNC_WAL FSYNC_WAL");
    assertThatThrownBy(() -> KnobAssignments.parse(List.of("bellows.wal.max.files=1")))
        .hasMessageContaining("bellows.wal.max.files").hasMessageContaining("an integer from 2 to 100000");
  }

  @Test
  void anUnknownNameOrAMissingEqualsSignIsAnError() {
    assertThatThrownBy(() -> KnobAssignments.parse(List.of("bellows.wal.maxfiles=3")))
        .hasMessageContaining("unknown setting 'bellows.wal.maxfiles'").hasMessageContaining("configuration table");
    assertThatThrownBy(() -> KnobAssignments.parse(List.of("bellows.wal.max.files")))
        .hasMessageContaining("'bellows.wal.max.files' is not name=value");
  }

  @Test
  void requireScopesNamesTheKnobsOfOtherScopes() {
    KnobAssignments a = KnobAssignments.parse(List.of("bellows.wal.max.files=64", "BLOCKSIZE=4K"));
    assertThatThrownBy(() -> a.requireScopes("set it with create or alter", Knob.Scope.ENGINE))
        .hasMessage("BLOCKSIZE (a family setting): not settable here; set it with create or alter");
    assertThat(a.requireScopes("-", Knob.Scope.ENGINE, Knob.Scope.FAMILY)).isSameAs(a);
  }

  /** A name finds its knob in any scope only because no two knobs share one. */
  @Test
  void noTwoKnobsShareAName() {
    Set<String> names = new HashSet<>();
    for (Knob<?> k : Knobs.ALL) {
      assertThat(names.add(k.name().toLowerCase(Locale.ROOT))).as(k.name()).isTrue();
    }
  }
}
