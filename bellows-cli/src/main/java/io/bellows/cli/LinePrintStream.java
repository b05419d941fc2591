package io.bellows.cli;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;

/**
 * A PrintStream onto picocli's writer (which tests capture), passing each line on as it is
 * completed: for tools whose progress must show while they run.
 */
final class LinePrintStream {
  private LinePrintStream() {}

  static PrintStream over(PrintWriter writer) {
    return new PrintStream(new LineForwarder(writer), true, StandardCharsets.UTF_8);
  }

  private static final class LineForwarder extends OutputStream {
    private final PrintWriter writer;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream();

    LineForwarder(PrintWriter writer) {
      this.writer = writer;
    }

    @Override
    public synchronized void write(int b) {
      line.write(b);
      if (b == '\n') {
        flush();
      }
    }

    @Override
    public synchronized void flush() {
      writer.print(line.toString(StandardCharsets.UTF_8));
      writer.flush();
      line.reset();
    }
  }
}
