package io.bellows.config;

import java.util.Locale;

/**
 * Renders the registry as the Markdown configuration table of the README, so the table is generated
 * from the one source of truth ({@code KnobDocumentationTest} fails if the README drifts).
 */
public final class KnobTable {
  private KnobTable() {}

  public static String markdown() {
    StringBuilder sb = new StringBuilder();
    sb.append("| Name | Scope | Default | Meaning |\n");
    sb.append("|---|---|---|---|\n");
    for (Knob<?> k : Knobs.ALL) {
      sb.append("| `").append(k.name()).append("` | ").append(k.scope().name().toLowerCase(Locale.ROOT))
          .append(" | ").append(defaultText(k)).append(" | ").append(k.meaning())
          .append(" Valid: ").append(k.validDescription()).append(". |\n");
    }
    return sb.toString();
  }

  /** The default as shown in the table, with its unit. */
  public static String defaultText(Knob<?> k) {
    Object v = k.defaultValue();
    if (k == Knobs.TTL) {
      return "FOREVER";
    }
    if (k == Knobs.CHUNK_SIZE) {
      return "0 (chosen from the heap)";
    }
    String s = String.valueOf(v);
    if (v instanceof Long && "bytes".equals(k.unit())) {
      long b = (Long) v;
      if (b % (1L << 20) == 0) {
        s = (b >> 20) + " MiB";
      } else if (b % 1024 == 0) {
        s = (b >> 10) + " KiB";
      } else {
        s = b + " bytes";
      }
      return s;
    }
    if (v instanceof Integer && "bytes".equals(k.unit()) && ((Integer) v) % 1024 == 0) {
      return (((Integer) v) >> 10) + " KiB";
    }
    return k.unit().isEmpty() ? s : s + " " + k.unit();
  }

  public static void main(String[] args) {
    System.out.print(markdown());
  }
}
