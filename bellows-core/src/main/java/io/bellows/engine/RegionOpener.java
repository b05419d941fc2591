package io.bellows.engine;

import io.bellows.region.Region;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** Opens the regions the catalog lists, in their directories, with the engine's services. */
final class RegionOpener {
  private final DataDirectory layout;
  private final EngineServices services;
  private final AtomicLong sequence;

  RegionOpener(DataDirectory layout, EngineServices services, AtomicLong sequence) {
    this.layout = layout;
    this.services = services;
    this.sequence = sequence;
  }

  /**
   * Opens every region of a table (each store must be on disk), closing them again if one fails.
   * The regions are not yet {@linkplain Region#recovered recovered}: at open the WAL replays into
   * them first.
   */
  TableRegions openTable(Catalog.Entry e) {
    List<Region> opened = new ArrayList<>();
    try {
      for (Catalog.Span span : e.regions()) {
        opened.add(new Region(span.id(), e.descriptor(), layout.regionDir(e, span), services, span.start(), span.end()));
      }
    } catch (RuntimeException ex) {
      for (Region r : opened) {
        try {
          r.close(false);
        } catch (RuntimeException suppressed) {
          ex.addSuppressed(suppressed);
        }
      }
      throw ex;
    }
    return new TableRegions(e.id(), e.regions(), opened);
  }

  /** Opens every region of a table while the engine runs: nothing to replay, ready for writes. */
  TableRegions openTableRecovered(Catalog.Entry e) {
    TableRegions t = openTable(e);
    for (Region r : t.regions()) {
      r.recovered(sequence.get());
    }
    return t;
  }

  /** Opens one region of a table while the engine runs (a split's daughter, an altered region). */
  Region openRecovered(Catalog.Entry e, Catalog.Span span) {
    Region r = new Region(span.id(), e.descriptor(), layout.regionDir(e, span), services, span.start(), span.end());
    r.recovered(sequence.get());
    return r;
  }

  /** Makes a new region of a new table, its stores on disk. */
  Region create(Catalog.Entry e, Catalog.Span span) {
    return Region.create(span.id(), e.descriptor(), layout.regionDir(e, span), services, span.start(), span.end());
  }
}
