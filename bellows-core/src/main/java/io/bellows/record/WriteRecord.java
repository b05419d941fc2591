package io.bellows.record;

import io.bellows.cell.Cell;
import java.util.List;
import java.util.Objects;

/**
 * One logged edit: the cells of one row mutation of one region, or of every row of a mini-batch of
 * a batch, stamped with one sequence id. This is the unit the WAL appends, checksums and replays.
 *
 * <p>Immutable (the cell list is copied); the cells themselves are shared, not copied. The cells'
 * own {@link Cell#seqId()} is ignored when writing: the edit's {@code seqId} is the sequence id of
 * every cell, and replayed cells carry it.
 *
 * @param regionId the engine-wide id of the region whose rows the edit holds (see the catalog)
 * @param seqId the engine-wide sequence id of the mutation
 * @param cells the mutation's cells, in serialized {@link Cell} layout
 */
public record WriteRecord(int regionId, long seqId, List<Cell> cells) {
  public WriteRecord {
    cells = List.copyOf(Objects.requireNonNull(cells, "cells"));
  }
}
