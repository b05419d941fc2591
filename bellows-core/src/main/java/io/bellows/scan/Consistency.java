package io.bellows.scan;

/**
 * How fresh a read must be (HBase's {@code Consistency}). One engine always reads its latest
 * state; a replicated region tells the two apart.
 */
public enum Consistency {
  /** The default: the read sees every write acknowledged before it began (linearizable). */
  STRONG,
  /**
   * The read may be answered by any replica of the region from what it has applied, possibly
   * behind the leader; the scanner says whether it was ({@link RowScanner#mayBeStale()}).
   */
  TIMELINE
}
