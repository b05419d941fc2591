package io.bellows.engine;

/**
 * The words by which a cluster member's refusal says that the region a call was routed to has been
 * split (nothing applied; its rows are in the daughters now), so that a client asks for the table's
 * regions again and routes the call anew rather than retrying the same region. A refusal travels as
 * NOT_LEADER with its message (docs/PROTOCOL.md); these words are in that message.
 */
public final class SplitRefusal {
  /** In the message of a NOT_LEADER refusal of a split region. */
  public static final String MARK = "[region split]";

  private SplitRefusal() {}

  /** Whether a refusal's message says its region was split. */
  public static boolean in(String message) {
    return message != null && message.contains(MARK);
  }
}
