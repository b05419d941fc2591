package io.bellows.cli.shell;

/**
 * A bare upper-case identifier such as {@code NAME} or {@code VERSIONS}. In the HBase shell these are
 * Ruby constants naming option keys; the shell accepts any such name and lets the command decide
 * whether it knows it. Immutable.
 */
public record Constant(String name) {
  @Override
  public String toString() {
    return name;
  }
}
