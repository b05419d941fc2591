package io.bellows.bench;

import java.util.ArrayList;
import java.util.List;

/** Collects rows and renders a GitHub-flavoured Markdown table. Not thread-safe. */
final class MarkdownTable {
  private final List<String> header;
  private final List<List<String>> rows = new ArrayList<>();

  MarkdownTable(String... header) {
    this.header = List.of(header);
  }

  void row(Object... cells) {
    if (cells.length != header.size()) {
      throw new IllegalArgumentException("expected " + header.size() + " cells, got " + cells.length);
    }
    List<String> r = new ArrayList<>();
    for (Object c : cells) {
      r.add(String.valueOf(c));
    }
    rows.add(r);
  }

  String render() {
    StringBuilder sb = new StringBuilder();
    line(sb, header);
    sb.append('|');
    for (int i = 0; i < header.size(); i++) {
      sb.append("---|");
    }
    sb.append('\n');
    for (List<String> r : rows) {
      line(sb, r);
    }
    return sb.toString();
  }

  private static void line(StringBuilder sb, List<String> cells) {
    sb.append('|');
    for (String c : cells) {
      sb.append(' ').append(c).append(" |");
    }
    sb.append('\n');
  }

  static String f1(double v) {
    return String.format("%.1f", v);
  }

  static String f2(double v) {
    return String.format("%.2f", v);
  }
}
