package io.bellows.sstable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The block-closing rules of static and dynamic (Algorithm 1 of the SAC 2024 paper) sizing. */
class BlockBoundaryPolicyTest {
  @Test
  void staticModeClosesAtTheTargetSizeWhateverTheCount() {
    BlockBoundaryPolicy p = BlockBoundaryPolicy.of(1000, 100, 0);
    assertThat(p.isDynamic()).isFalse();
    assertThat(p.isFull(999, 10_000)).isFalse();
    assertThat(p.isFull(1000, 1)).isTrue();
    assertThat(p.isFull(5000, 0)).as("an empty block never closes").isFalse();
    assertThat(p.toString()).isEqualTo("static(1000)");
  }

  @Test
  void dynamicModeClosesPastTheMinimumOnceTheCountIsExceeded() {
    BlockBoundaryPolicy p = BlockBoundaryPolicy.of(1000, 100, 4);
    assertThat(p.isDynamic()).isTrue();
    assertThat(p.isFull(101, 4)).as("count not exceeded").isFalse();
    assertThat(p.isFull(101, 5)).as("past the minimum, count exceeded").isTrue();
    assertThat(p.isFull(100, 5)).as("at the minimum is not past it").isFalse();
    assertThat(p.isFull(99, 500)).as("the minimum holds back many tiny cells").isFalse();
    assertThat(p.isFull(1000, 1)).as("the maximum still closes a block of one large cell").isTrue();
    assertThat(p.isFull(999, 2)).isFalse();
    assertThat(p.toString()).isEqualTo("dynamic(min=100, max=1000, maxEntries=4)");
  }

  @Test
  void aMinimumAboveTheMaximumIsRefusedOnlyInDynamicMode() {
    assertThat(BlockBoundaryPolicy.of(1000, 5000, 0).isFull(1000, 1)).isTrue();
    assertThatThrownBy(() -> BlockBoundaryPolicy.of(1000, 5000, 8)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("5000").hasMessageContaining("1000");
    assertThatThrownBy(() -> SortedFileOptions.builder().blockSize(4096).minBlockSize(8192).maxEntriesPerBlock(32)
        .build()).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("8192").hasMessageContaining("4096");
    assertThat(SortedFileOptions.builder().blockSize(4096).minBlockSize(8192).build().maxEntriesPerBlock()).isZero();
    assertThatThrownBy(() -> BlockBoundaryPolicy.of(1000, 10, -1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> SortedFileOptions.builder().maxEntriesPerBlock(-1))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
