package io.bellows.cli.shell;

import io.bellows.cell.Cell;
import io.bellows.client.Mutation;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.Set;

/** The family names a mutation touches, for checking them before it is applied. */
final class MutationFamilies {
  private MutationFamilies() {}

  static Set<String> of(Mutation m) {
    Set<String> out = new LinkedHashSet<>();
    for (Cell c : m.cells()) {
      out.add(new String(c.array(), c.familyOffset(), c.familyLength(), StandardCharsets.UTF_8));
    }
    return out;
  }
}
