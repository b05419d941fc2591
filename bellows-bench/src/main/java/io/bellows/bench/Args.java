package io.bellows.bench;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Minimal {@code --name value} / {@code --name=value} command-line options for the plain-main
 * benchmarks. Unknown names are rejected so that a typo never silently runs the default. Immutable
 * after parsing.
 */
final class Args {
  private final Map<String, String> values = new HashMap<>();

  Args(String[] argv, Set<String> known) {
    for (int i = 0; i < argv.length; i++) {
      String a = argv[i];
      if (!a.startsWith("--")) {
        throw new IllegalArgumentException("expected --option, got " + a);
      }
      String name;
      String value;
      int eq = a.indexOf('=');
      if (eq > 0) {
        name = a.substring(2, eq);
        value = a.substring(eq + 1);
      } else {
        name = a.substring(2);
        if (i + 1 >= argv.length) {
          throw new IllegalArgumentException("missing value for " + a);
        }
        value = argv[++i];
      }
      if (!known.contains(name)) {
        throw new IllegalArgumentException("unknown option --" + name + "; known: " + known);
      }
      values.put(name, value);
    }
  }

  String get(String name, String def) {
    return values.getOrDefault(name, def);
  }

  long getLong(String name, long def) {
    String v = values.get(name);
    return v == null ? def : Long.parseLong(v.replace("_", ""));
  }

  double getDouble(String name, double def) {
    String v = values.get(name);
    return v == null ? def : Double.parseDouble(v);
  }
}
