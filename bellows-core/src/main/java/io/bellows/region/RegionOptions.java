package io.bellows.region;

import io.bellows.config.Durability;
import io.bellows.config.EngineOptions;
import io.bellows.config.Knobs;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.schema.TableDescriptor;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * The settings a region's write path needs, resolved once when the region opens, so that no write
 * looks a knob up.
 *
 * @param maxValueSize {@code bellows.max.value.size}
 * @param blockMultiplier {@code bellows.memstore.block.multiplier}
 * @param blockingWaitNanos {@code bellows.store.blocking.wait.ms}, in nanoseconds
 * @param blockingFiles {@code bellows.store.blocking.files}
 * @param familyDurability each family's {@code FAMILY_DURABILITY} by family name
 * @param defaultDurability what USE_DEFAULT comes to when no family asks for more: the table's
 *     durability, else the engine's default, else SYNC_WAL
 * @param flushPolicy the table's {@code FLUSH_POLICY}
 */
public record RegionOptions(
    long maxValueSize,
    double blockMultiplier,
    long blockingWaitNanos,
    int blockingFiles,
    Map<String, Durability> familyDurability,
    Durability defaultDurability,
    io.bellows.config.FlushPolicy flushPolicy) {

  public RegionOptions {
    familyDurability = Map.copyOf(familyDurability);
  }

  static RegionOptions resolve(EngineOptions engine, TableDescriptor table) {
    Map<String, Durability> families = new TreeMap<>();
    for (ColumnFamilyDescriptor f : table.families()) {
      families.put(f.name(), f.get(Knobs.FAMILY_DURABILITY));
    }
    Durability d = table.durability();
    if (d == Durability.USE_DEFAULT) {
      d = engine.get(Knobs.DEFAULT_DURABILITY);
    }
    if (d == Durability.USE_DEFAULT) {
      d = Durability.SYNC_WAL;
    }
    return new RegionOptions(engine.get(Knobs.MAX_VALUE_SIZE), engine.get(Knobs.MEMSTORE_BLOCK_MULTIPLIER),
        TimeUnit.MILLISECONDS.toNanos(engine.get(Knobs.BLOCKING_WAIT_MS)), engine.get(Knobs.BLOCKING_STORE_FILES),
        families, d, table.get(Knobs.FLUSH_POLICY));
  }
}
