package io.bellows.client;

import io.bellows.atomic.Condition;
import io.bellows.config.Durability;
import io.bellows.util.EngineClosedException;
import io.bellows.util.NoSuchColumnFamilyException;
import io.bellows.util.TableNotFoundException;
import java.util.List;

/**
 * A handle to one table for reads and writes. Thread-safe and cheap; obtained from {@link
 * Bellows#getTable}. Every method throws {@link IllegalArgumentException} on bad input (nothing is
 * written then), {@link NoSuchColumnFamilyException} for an unknown family, {@link
 * TableNotFoundException} if the table was dropped and {@link EngineClosedException} after close.
 */
public interface Table {
  String name();

  /** Writes the row's cells atomically. Returns when durable as the put's durability requires. */
  void put(Put put);

  /**
   * Reads several rows, one {@link Result} per {@link Get} in the same order (empty where nothing is
   * selected). Each row is whole; the rows are not one snapshot. Over a server it is one call.
   */
  List<Result> get(List<Get> gets);

  /** Writes many puts; each row is atomic, the batch as a whole is not. All are validated first. */
  void put(List<Put> puts);

  Result get(Get get);

  ResultScanner getScanner(Scan scan);

  void delete(Delete delete);

  void delete(List<Delete> deletes);

  /**
   * Applies {@code put} if the column's newest value equals {@code expected} (null or empty: the
   * column is absent or empty, as in HBase), atomically with the check. The put must be for the
   * same row.
   */
  boolean checkAndPut(byte[] row, byte[] family, byte[] qualifier, byte[] expected, Put put);

  /** Like {@link #checkAndPut}, for a delete. */
  boolean checkAndDelete(byte[] row, byte[] family, byte[] qualifier, byte[] expected, Delete delete);

  /**
   * Applies {@code mutation} (a {@link Put} or a {@link Delete}) if {@code condition} holds for its
   * row: a column compared with a value by any operator, or a filter, optionally within a time
   * range (see {@link Condition} for HBase's operand order and its rules for absent and empty
   * values). Check and write are atomic. Returns whether it applied.
   */
  boolean checkAndMutate(Condition condition, Mutation mutation);

  /**
   * Adds to several counter columns of one row atomically: all new values are written together
   * under the row lock, with one log record. The result holds the new values (empty if {@link
   * Update#setReturnResults} was false). Throws {@link IllegalArgumentException}, writing nothing,
   * if a current value is not 8 bytes (the message names the column).
   */
  Result increment(Increment increment);

  /** Appends to several columns of one row atomically, as {@link #increment} adds; returns the new values. */
  Result append(Append append);

  /**
   * Atomically adds {@code amount} to a counter column (a big-endian 8-byte long; absent counts as
   * 0) and returns the new value. Throws {@link IllegalArgumentException} if the current value is
   * not 8 bytes.
   */
  long incrementColumnValue(byte[] row, byte[] family, byte[] qualifier, long amount);

  long incrementColumnValue(byte[] row, byte[] family, byte[] qualifier, long amount, Durability durability);
}
