package io.bellows.filter;

/**
 * How a cell's bytes compare with a {@link ByteComparator}'s operand for the cell to pass: {@code
 * LESS} passes cells whose bytes are less than the operand, and so on; {@code NO_OP} passes nothing
 * (as HBase's {@code CompareOperator}).
 */
public enum CompareOperator {
  LESS, LESS_OR_EQUAL, EQUAL, NOT_EQUAL, GREATER_OR_EQUAL, GREATER, NO_OP;

  /**
   * Whether a cell passes, given {@code operandVsCell} = the comparator's result (operand compared
   * with the cell's bytes: positive when the cell's bytes are smaller).
   */
  boolean passes(int operandVsCell) {
    switch (this) {
      case LESS: return operandVsCell > 0;
      case LESS_OR_EQUAL: return operandVsCell >= 0;
      case EQUAL: return operandVsCell == 0;
      case NOT_EQUAL: return operandVsCell != 0;
      case GREATER_OR_EQUAL: return operandVsCell <= 0;
      case GREATER: return operandVsCell < 0;
      default: return false;
    }
  }
}
