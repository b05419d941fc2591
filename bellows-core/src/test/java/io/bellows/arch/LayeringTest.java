package io.bellows.arch;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Keeps the package layering of docs/ARCHITECTURE.md honest: a package of the engine imports only
 * packages of lower layers (and its own sub-packages), never a sibling or a higher layer.
 */
class LayeringTest {
  /** Layer of each top-level package under io.bellows (sub-packages share their parent's layer). */
  static final Map<String, Integer> LAYERS = Map.ofEntries(
      Map.entry("util", 0),
      Map.entry("cell", 1), Map.entry("config", 1), Map.entry("metrics", 1),
      Map.entry("schema", 2),
      Map.entry("scan", 3), Map.entry("cache", 3),
      Map.entry("wal", 4), Map.entry("memstore", 4), Map.entry("sstable", 4), Map.entry("manifest", 4),
      Map.entry("compaction", 5),
      Map.entry("store", 6),
      Map.entry("region", 7),
      Map.entry("engine", 8),
      Map.entry("client", 9), Map.entry("tool", 9));

  private static final Pattern IMPORT = Pattern.compile("^import (?:static )?io\\.bellows\\.([a-z]+)((?:\\.[a-z]+)*)\\.", Pattern.MULTILINE);

  @Test
  void packagesImportOnlyLowerLayers() throws IOException {
    Path root = Path.of("src", "main", "java", "io", "bellows");
    List<String> violations = new ArrayList<>();
    try (Stream<Path> files = Files.walk(root)) {
      for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".java"))::iterator) {
        Path rel = root.relativize(f);
        String pkg = rel.getName(0).toString();
        String subPkg = rel.getNameCount() > 2 ? rel.getName(1).toString() : "";
        Integer layer = LAYERS.get(pkg);
        assertThat(layer).as("package %s has a layer in LayeringTest and ARCHITECTURE.md", pkg).isNotNull();
        Matcher m = IMPORT.matcher(Files.readString(f));
        while (m.find()) {
          String target = m.group(1);
          String targetSub = m.group(2).isEmpty() ? "" : m.group(2).substring(1).split("\\.")[0];
          if (target.equals(pkg)) {
            // Within a package, a sub-package must not reach back up into its parent.
            if (!subPkg.isEmpty() && targetSub.isEmpty()) {
              violations.add(rel + " (in " + pkg + "." + subPkg + ") imports its parent package " + pkg);
            }
            continue;
          }
          Integer targetLayer = LAYERS.get(target);
          if (targetLayer == null || targetLayer >= layer) {
            violations.add(rel + " (layer " + layer + ") imports " + target + " (layer " + targetLayer + ")");
          }
        }
      }
    }
    assertThat(violations).isEmpty();
  }
}
