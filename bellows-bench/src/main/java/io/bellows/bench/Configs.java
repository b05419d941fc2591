package io.bellows.bench;

import io.bellows.config.MemStorePolicy;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Parses comma-separated lists of policies, layouts and key distributions from options. Stateless. */
final class Configs {
  private Configs() {}

  static List<MemStorePolicy> policies(String csv) {
    return parse(csv, MemStorePolicy.class);
  }

  static List<IndexKind> indexes(String csv) {
    return parse(csv, IndexKind.class);
  }

  static List<KeyDistribution> distributions(String csv) {
    return parse(csv, KeyDistribution.class);
  }

  private static <E extends Enum<E>> List<E> parse(String csv, Class<E> type) {
    List<E> out = new ArrayList<>();
    for (String s : csv.split(",")) {
      if (!s.isBlank()) {
        out.add(Enum.valueOf(type, s.trim().toUpperCase(Locale.ROOT)));
      }
    }
    if (out.isEmpty()) {
      throw new IllegalArgumentException("empty list of " + type.getSimpleName());
    }
    return out;
  }
}
