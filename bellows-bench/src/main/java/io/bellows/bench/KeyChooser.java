package io.bellows.bench;

/**
 * Chooses the row of the next put. Implementations are seeded and deterministic. Not thread-safe:
 * every writer thread owns its own chooser.
 */
public interface KeyChooser {
  /** The id of the next row to write; ids are mapped to row keys by {@link PaperRows}. */
  long nextRowId();
}
