package io.bellows.cli.shell;

import java.util.List;

/**
 * One parsed shell statement: the command name and its argument values. Values are {@link
 * ByteString}, {@link Long}, {@link Double}, {@link Boolean}, {@link Constant}, {@code List<Object>}
 * (arrays) or {@code Map<Object, Object>} (hashes, insertion-ordered). A trailing {@code k => v}
 * list without braces arrives as one final hash, as in Ruby. Immutable.
 */
public record ParsedCommand(String name, List<Object> args) {
  public ParsedCommand {
    args = List.copyOf(args);
  }
}
