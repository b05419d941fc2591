package io.bellows.record;

import io.bellows.cell.Cell;
import java.util.List;
import java.util.Objects;

/**
 * The resolved form of one write of a region: the cells of one row mutation, or of every logged row
 * of a mini-batch, with concrete timestamps (no "latest"), deletes of the latest version already
 * resolved, a check-and-mutate's condition already decided and its increments and appends already
 * computed, all under one sequence id. The region's write path builds it once (evaluate) and hands
 * the same object to its log and to its stores (apply); the WAL stores it and replays it at open.
 * Nothing in it depends on the state of the copy it is applied to, so replaying it on any copy of
 * the region that holds the writes before it gives the same bytes: what a replication log carries.
 *
 * <p>The record wraps the list it is given (no copy: one list per write on the hot path): the
 * writer must not change the list afterwards. The cells are shared, not copied; their own {@link
 * Cell#seqId()} is ignored when encoding: the record's {@code seqId} is the sequence id of every
 * cell, and decoded cells carry it. {@link WriteRecordCodec} is its byte layout.
 *
 * @param regionId the id of the region whose rows the record holds (see the catalog)
 * @param seqId the sequence id of every cell of the record
 * @param cells the cells, in serialized {@link Cell} layout
 */
public record WriteRecord(int regionId, long seqId, List<Cell> cells) {
  public WriteRecord {
    Objects.requireNonNull(cells, "cells");
  }
}
