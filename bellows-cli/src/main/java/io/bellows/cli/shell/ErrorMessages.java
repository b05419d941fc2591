package io.bellows.cli.shell;

import java.nio.file.AccessDeniedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Turns a failure into the text after {@code ERROR: } for people who do not read Java: the messages
 * of the exception and its causes, joined by {@code ": "}, with no class names. File-system
 * exceptions, whose message is only a path, are worded as the shell's own errors ("no such file or
 * directory: X"). Stateless.
 */
public final class ErrorMessages {
  /**
   * A qualified exception class name and its colon, as {@code Throwable.toString()} puts in front
   * of a message; wrappers built with {@code new X(cause)} or {@code "..." + e} carry one.
   */
  private static final Pattern CLASS_PREFIX =
      Pattern.compile("\\b(?:[a-z_][a-z0-9_]*\\.)+[A-Z]\\w*(?:Exception|Error)(?::\\s*|\\b)");

  private ErrorMessages() {}

  /** The messages of {@code t} and its causes, outermost first, without repeats or class names. */
  public static String describe(Throwable t) {
    List<String> parts = new ArrayList<>();
    Throwable c = t;
    for (int depth = 0; c != null && depth < 20; depth++, c = c.getCause()) { // bounded: causes may loop
      String text = text(c);
      String gist = c instanceof FileSystemException ? reason((FileSystemException) c) : text;
      if (text.isEmpty() || parts.stream().anyMatch(p -> p.contains(text) || p.contains(gist))) {
        continue; // a wrapper without words of its own, or a cause its wrapper already words
      }
      parts.add(text);
    }
    return parts.isEmpty() ? "internal error (no message)" : String.join(": ", parts);
  }

  private static String text(Throwable t) {
    if (t instanceof FileSystemException) {
      return fileSystem((FileSystemException) t);
    }
    String m = t.getMessage();
    return m == null ? "" : CLASS_PREFIX.matcher(m).replaceAll("").trim();
  }

  private static String fileSystem(FileSystemException e) {
    String what = reason(e);
    String files = e.getFile() == null ? "" : e.getFile() + (e.getOtherFile() == null ? "" : " -> " + e.getOtherFile());
    return files.isEmpty() ? what : what + ": " + files;
  }

  /** What went wrong, in words, without the paths. */
  private static String reason(FileSystemException e) {
    String what;
    if (e instanceof NoSuchFileException) {
      what = "no such file or directory";
    } else if (e instanceof AccessDeniedException) {
      what = "permission denied";
    } else if (e instanceof NotDirectoryException) {
      what = "not a directory";
    } else if (e instanceof FileAlreadyExistsException) {
      what = "already exists";
    } else if (e instanceof DirectoryNotEmptyException) {
      what = "directory not empty";
    } else {
      what = e.getReason() == null ? "I/O error" : e.getReason();
    }
    return what;
  }
}
