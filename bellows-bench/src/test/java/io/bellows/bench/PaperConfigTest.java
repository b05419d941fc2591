package io.bellows.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.config.Knobs;
import io.bellows.config.MemStorePolicy;
import io.bellows.schema.ColumnFamilyDescriptor;
import java.util.List;
import org.junit.jupiter.api.Test;

class PaperConfigTest {
  @Test
  void defaultSuiteIsThePapersPoliciesAndBothRocksDbSetups() {
    List<PaperConfig> suite = PaperConfig.parseList(PaperConfig.DEFAULT_SUITE);
    assertThat(suite).extracting(PaperConfig::spec).containsExactly("NONE", "BASIC", "EAGER", "ADAPTIVE:R=0.05",
        "ADAPTIVE:R=0.2", "ADAPTIVE:R=0.35", "ADAPTIVE:R=0.5", "rocksdb", "rocksdb-tuned");
    assertThat(suite.get(7).peer()).isEqualTo(RocksDbRun.Setup.DEFAULT);
    assertThat(suite.get(8).peer()).isEqualTo(RocksDbRun.Setup.TUNED);
  }

  @Test
  void accordionParametersReachTheFamilyKnobs() {
    ColumnFamilyDescriptor f = PaperConfig.parse("adaptive:r=0.35").storeConfig(1 << 20).family();
    assertThat(f.memStorePolicy()).isEqualTo(MemStorePolicy.ADAPTIVE);
    assertThat(f.get(Knobs.ADAPTIVE_THRESHOLD)).isEqualTo(0.35);
    assertThat(f.get(Knobs.PIPELINE_MAX_SEGMENTS)).as("the paper's S").isEqualTo(5);
    assertThat(f.get(Knobs.IN_MEMORY_FLUSH_FRACTION)).as("the paper's A").isEqualTo(0.02);

    ColumnFamilyDescriptor basic = PaperConfig.parse("BASIC:A=0.1:S=2").storeConfig(1 << 20).family();
    assertThat(basic.get(Knobs.IN_MEMORY_FLUSH_FRACTION)).isEqualTo(0.1);
    assertThat(basic.get(Knobs.PIPELINE_MAX_SEGMENTS)).isEqualTo(2);

    assertThat(PaperConfig.parse("NONE").familyKnobs()).isEmpty();
  }

  @Test
  void bellowsRunsWithTheEnginesDefaultLayoutUnlessTheSpecSetsOne() {
    ColumnFamilyDescriptor f = PaperConfig.parse("ADAPTIVE").storeConfig(1 << 20).family();
    assertThat(f.get(Knobs.SEGMENT_INDEX)).isEqualTo(Knobs.SEGMENT_INDEX.defaultValue());
    assertThat(f.get(Knobs.ACTIVE_INDEX)).isEqualTo(Knobs.ACTIVE_INDEX.defaultValue());
    assertThat(f.get(Knobs.MSLAB)).isEqualTo(Knobs.MSLAB.defaultValue());
    assertThat(PaperConfig.parse("ADAPTIVE:SEGMENT_INDEX=ARRAY").storeConfig(1 << 20).family()
        .get(Knobs.SEGMENT_INDEX)).isEqualTo(io.bellows.config.SegmentIndexType.ARRAY);
  }

  @Test
  void anyFamilyKnobMayBeSetByName() {
    PaperConfig c = PaperConfig.parse("ADAPTIVE:segment_index=CHUNK:R=0.2");
    assertThat(c.spec()).isEqualTo("ADAPTIVE:SEGMENT_INDEX=CHUNK:R=0.2");
    ColumnFamilyDescriptor f = c.storeConfig(1 << 20).family();
    assertThat(f.get(Knobs.SEGMENT_INDEX)).isEqualTo(io.bellows.config.SegmentIndexType.CHUNK);
    assertThat(f.get(Knobs.ADAPTIVE_THRESHOLD)).isEqualTo(0.2);
    assertThat(PaperConfig.parse("NONE:MSLAB=true").storeConfig(1 << 20).family().get(Knobs.MSLAB)).isTrue();
  }

  @Test
  void engineKnobsGoToTheRunsEngineOptionsNotTheFamily() {
    PaperConfig c = PaperConfig.parse("ADAPTIVE:MSLAB=true:bellows.mslab.offheap=true:Bellows.BlockCache.L2.Fraction=0.25");
    assertThat(c.spec()).isEqualTo("ADAPTIVE:MSLAB=TRUE:bellows.mslab.offheap=true:bellows.blockcache.l2.fraction=0.25");
    StoreConfig store = c.storeConfig(1 << 20);
    assertThat(store.family().get(Knobs.MSLAB)).isTrue();
    io.bellows.config.EngineOptions engine = EngineRun.engineOptions(store, java.util.Map.of());
    assertThat(engine.get(Knobs.CHUNK_OFF_HEAP)).as("over the layout's on-heap chunks").isTrue();
    assertThat(engine.get(Knobs.BLOCKCACHE_L2_FRACTION)).isEqualTo(0.25);
    assertThat(EngineRun.engineOptions(PaperConfig.parse("ADAPTIVE").storeConfig(1 << 20), java.util.Map.of())
        .get(Knobs.CHUNK_OFF_HEAP)).isEqualTo(PaperConfig.LAYOUT.offHeap);
    assertThatThrownBy(() -> PaperConfig.parse("NONE:bellows.blockcache.l2.fraction=-1"))
        .hasMessageContaining("bellows.blockcache.l2.fraction");
    assertThatThrownBy(() -> PaperConfig.parse("NONE:bellows.no.such=1")).hasMessageContaining("an engine knob");
  }

  @Test
  void sweepsVaryOneParameterAfterNone() {
    assertThat(PaperConfig.sweep("R")).extracting(PaperConfig::spec).startsWith("NONE", "ADAPTIVE:R=0.05", "ADAPTIVE:R=0.1")
        .allMatch(s -> s.equals("NONE") || s.startsWith("ADAPTIVE:R="));
    assertThat(PaperConfig.sweep("s")).extracting(PaperConfig::spec).contains("BASIC:S=1", "BASIC:S=5");
    assertThat(PaperConfig.sweep("A")).extracting(PaperConfig::spec).contains("BASIC:A=0.02:S=2");
  }

  @Test
  void badSpecsAreRejectedWithTheirText() {
    assertThatThrownBy(() -> PaperConfig.parse("LAZY")).hasMessageContaining("unknown configuration 'LAZY'");
    assertThatThrownBy(() -> PaperConfig.parse("BASIC:X=1")).hasMessageContaining("expected A=, S=, R=, a family knob");
    assertThatThrownBy(() -> PaperConfig.parse("ADAPTIVE:SEGMENT_INDEX=TREE")).hasMessageContaining("SEGMENT_INDEX");
    assertThatThrownBy(() -> PaperConfig.parse("NONE:R=0.2")).hasMessageContaining("NONE has no");
    assertThatThrownBy(() -> PaperConfig.sweep("Q")).hasMessageContaining("A, S or R");
    assertThatThrownBy(() -> PaperConfig.parse("ADAPTIVE:R=7")).hasMessageContaining("ADAPTIVE_THRESHOLD");
  }
}
