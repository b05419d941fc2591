package io.bellows.bench;

import io.bellows.config.Knob;
import io.bellows.config.KnobAssignments;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A command line's {@code --set name=value,name=value} → knobs by their documented names, each value
 * read and checked now by the registry's parser ({@link KnobAssignments}), so a wrong one fails before
 * any run. Insertion order is kept.
 */
final class KnobSettings {
  private KnobSettings() {}

  /**
   * @param refusal the message when a knob is of another scope (e.g. which options take the others)
   * @param scopes the scopes the option takes
   */
  static Map<String, String> parse(String spec, String refusal, Knob.Scope... scopes) {
    List<String> pairs = Arrays.stream(spec.split(",")).filter(p -> !p.isBlank()).toList();
    try {
      KnobAssignments.parse(pairs).requireScopes(refusal, scopes);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("--set " + e.getMessage(), e);
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (String pair : pairs) {
      int eq = pair.indexOf('=');
      out.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim());
    }
    return out;
  }
}
