package io.bellows.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaAccess;
import com.tngtech.archunit.core.domain.JavaFieldAccess;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Keeps the package layering of docs/ARCHITECTURE.md honest, on the compiled classes of
 * bellows-core's main code: every reference in the bytecode counts (imports, fully qualified names,
 * method calls, field types, signatures, annotations, class literals, lambdas and method
 * references). A class in a package of layer N depends only on classes of lower layers, of its own
 * package and of its own sub-packages; a sub-package never depends on its parent package (or a
 * sibling). References outside io.bellows (the JDK, slf4j, ...) are not checked. Compile-time
 * constants are inlined by javac and leave no reference behind.
 */
@AnalyzeClasses(packages = LayeringTest.ROOT, importOptions = ImportOption.DoNotIncludeTests.class)
class LayeringTest {
  static final String ROOT = "io.bellows";

  /**
   * Layer of each top-level package under io.bellows (sub-packages share their parent's layer). The
   * one copy of the table: docs/ARCHITECTURE.md's table must list the same packages and layers.
   */
  static final Map<String, Integer> LAYERS = Map.ofEntries(
      Map.entry("util", 0),
      Map.entry("cell", 1), Map.entry("fs", 1), Map.entry("config", 1), Map.entry("metrics", 1),
      Map.entry("schema", 2), Map.entry("filter", 2), Map.entry("record", 2),
      Map.entry("scan", 3), Map.entry("cache", 3), Map.entry("atomic", 3),
      Map.entry("wal", 4), Map.entry("memstore", 4), Map.entry("sstable", 4), Map.entry("manifest", 4), Map.entry("kvcache", 4),
      Map.entry("compaction", 5),
      Map.entry("store", 6),
      Map.entry("region", 7),
      Map.entry("engine", 8),
      Map.entry("client", 9), Map.entry("tool", 9));

  @ArchTest
  static final ArchRule classesDependOnlyOnLowerLayers =
      classes().should(dependOnlyOnLowerLayers()).because("of the layer table in docs/ARCHITECTURE.md");

  /** The package through which every file operation goes; only it may touch java.nio's file I/O. */
  static final String FS_PACKAGE = "fs";

  /**
   * File I/O of the JDK that only {@code io.bellows.fs} may use: everything else reaches files
   * through a {@code FileSystem}, so that tests can run the engine on a crashable or error-injecting
   * one. {@link Path} stays allowed as the name of a file.
   */
  static final Set<String> FILE_IO_CLASSES = Set.of(
      "java.nio.file.Files", "java.nio.channels.FileChannel", "java.nio.channels.FileLock",
      "java.nio.channels.AsynchronousFileChannel", "java.io.RandomAccessFile", "java.io.FileInputStream",
      "java.io.FileOutputStream", "java.io.FileReader", "java.io.FileWriter", "java.io.File");

  @ArchTest
  static final ArchRule fileIoOnlyThroughTheFileSystem =
      classes().should(notUseFileIoOutsideFs())
          .because("every file operation goes through io.bellows.fs.FileSystem (docs/design/fs.md)");

  /** The region's layer: settings are resolved into options records there (or above), never below. */
  static final int RESOLVING_LAYER = 7;

  /** Below the region, these may touch settings: the knob registry itself and the descriptors. */
  static final Set<String> SETTINGS_PACKAGES = Set.of("config", "schema");

  /** What a settings object (engine options, a descriptor) may still be asked below the region. */
  static final Set<String> SETTINGS_METHODS_ALLOWED_BELOW = Set.of("name", "nameBytes");

  @ArchTest
  static final ArchRule noKnobLookupsBelowTheRegion =
      classes().should(notLookUpKnobsBelowTheRegion())
          .because("settings are resolved once, into options records, by the region (docs/ARCHITECTURE.md, Settings)");

  @ArchTest
  static void everyPackageHasALayer(JavaClasses imported) {
    Map<String, String> unlisted = new TreeMap<>();
    for (JavaClass c : imported) {
      String top = topLevel(c.getPackageName());
      if (top != null && !LAYERS.containsKey(top)) {
        unlisted.putIfAbsent(top.isEmpty() ? ROOT : ROOT + "." + top, c.getName());
      }
    }
    assertThat(imported.size()).as("main classes of bellows-core found under %s", ROOT).isPositive();
    assertThat(unlisted)
        .as("top-level packages (each with one of its classes) missing from LayeringTest.LAYERS and docs/ARCHITECTURE.md")
        .isEmpty();
  }

  /** A table row: layer, then the packages in backquotes, e.g. "| 4 | `memstore`, `memstore.chunk` |". */
  private static final Pattern ROW = Pattern.compile("^\\| (\\d+) \\| ((?:`[a-z.]+`(?:, )?)+) \\|", Pattern.MULTILINE);
  private static final Pattern NAME = Pattern.compile("`([a-z.]+)`");

  @Test
  void architectureDocumentHasTheSameTable() throws IOException {
    String doc = Files.readString(Path.of("..", "docs", "ARCHITECTURE.md"));
    Map<String, Integer> documented = new TreeMap<>();
    Matcher row = ROW.matcher(doc);
    while (row.find()) {
      int layer = Integer.parseInt(row.group(1));
      Matcher name = NAME.matcher(row.group(2));
      while (name.find()) {
        String pkg = name.group(1);
        assertThat(documented.put(pkg, layer)).as("%s listed once in docs/ARCHITECTURE.md", pkg).isNull();
      }
    }
    Map<String, Integer> topLevel = new TreeMap<>();
    documented.forEach((pkg, layer) -> {
      int dot = pkg.indexOf('.');
      if (dot < 0) {
        topLevel.put(pkg, layer);
      } else {
        assertThat(layer).as("sub-package %s shares its parent's layer", pkg).isEqualTo(LAYERS.get(pkg.substring(0, dot)));
      }
    });
    assertThat(topLevel).as("layer table of docs/ARCHITECTURE.md").isEqualTo(new TreeMap<>(LAYERS));
  }

  private static ArchCondition<JavaClass> dependOnlyOnLowerLayers() {
    return new ArchCondition<>("depend only on lower layers, their own package and its sub-packages") {
      @Override
      public void check(JavaClass origin, ConditionEvents events) {
        String pkg = origin.getPackageName();
        String top = topLevel(pkg);
        Integer layer = LAYERS.get(top);
        if (layer == null) {
          events.add(SimpleConditionEvent.violated(origin,
              origin.getName() + " is in package " + pkg + ", which has no layer in LayeringTest.LAYERS"));
          return;
        }
        for (Dependency d : origin.getDirectDependenciesFromSelf()) {
          JavaClass target = d.getTargetClass().getBaseComponentType();
          String targetPkg = target.getPackageName();
          String targetTop = topLevel(targetPkg);
          if (targetTop == null || targetPkg.equals(pkg) || targetPkg.startsWith(pkg + ".")) {
            continue;  // outside io.bellows, or the class's own package or one of its sub-packages
          }
          Integer targetLayer = LAYERS.get(targetTop);
          String why;
          if (targetTop.equals(top)) {
            why = pkg.startsWith(targetPkg + ".") ? "its parent package " + targetPkg : "a sibling package " + targetPkg;
          } else if (targetLayer == null) {
            why = "package " + targetPkg + ", which has no layer";
          } else if (targetLayer >= layer) {
            why = (targetLayer.equals(layer) ? "the same layer " : "the higher layer ") + targetLayer;
          } else {
            continue;
          }
          events.add(SimpleConditionEvent.violated(d, origin.getName() + " (layer " + layer + ") depends on "
              + target.getName() + " in " + why + ": " + d.getDescription()));
        }
      }
    };
  }

  /**
   * A class of a layer below the region (other than the registry and the descriptors) neither touches
   * {@code config.Knobs} (fields, such as a knob or its default, or methods) nor asks a {@code
   * config.Settings} (engine options, table or family descriptor) anything but its name: no {@code
   * get(knob)}, no setting accessor such as {@code maxVersions()}, no {@code clock()}.
   */
  private static ArchCondition<JavaClass> notLookUpKnobsBelowTheRegion() {
    return new ArchCondition<>("not look up knobs or settings below the region") {
      @Override
      public void check(JavaClass origin, ConditionEvents events) {
        String top = topLevel(origin.getPackageName());
        Integer layer = LAYERS.get(top);
        if (layer == null || layer >= RESOLVING_LAYER || SETTINGS_PACKAGES.contains(top)) {
          return;
        }
        Set<JavaAccess<?>> accesses = new java.util.LinkedHashSet<>(origin.getAccessesFromSelf());
        accesses.addAll(origin.getMethodReferencesFromSelf());  // family::maxVersions
        for (JavaAccess<?> a : accesses) {
          JavaClass owner = a.getTargetOwner();
          String what;
          if (owner.isEquivalentTo(io.bellows.config.Knobs.class)) {
            what = "reads the knob registry";
          } else if (!(a instanceof JavaFieldAccess) && owner.isAssignableTo(io.bellows.config.Settings.class)
              && !SETTINGS_METHODS_ALLOWED_BELOW.contains(a.getName())) {
            what = "looks a setting up";
          } else {
            continue;
          }
          events.add(SimpleConditionEvent.violated(a, origin.getName() + " (layer " + layer + ") " + what + ": "
              + a.getDescription() + "; take it from a resolved options record instead"));
        }
      }
    };
  }

  private static ArchCondition<JavaClass> notUseFileIoOutsideFs() {
    return new ArchCondition<>("not use java.nio or java.io file I/O outside io.bellows.fs") {
      @Override
      public void check(JavaClass origin, ConditionEvents events) {
        if (FS_PACKAGE.equals(topLevel(origin.getPackageName()))) {
          return;
        }
        for (Dependency d : origin.getDirectDependenciesFromSelf()) {
          String target = d.getTargetClass().getBaseComponentType().getName();
          if (FILE_IO_CLASSES.contains(target)) {
            events.add(SimpleConditionEvent.violated(d, origin.getName() + " uses " + target
                + " directly: go through io.bellows.fs.FileSystem instead: " + d.getDescription()));
          }
        }
      }
    };
  }

  /** The top-level package under io.bellows ("" for io.bellows itself), or null outside io.bellows. */
  static String topLevel(String pkg) {
    if (pkg.equals(ROOT)) {
      return "";
    }
    if (!pkg.startsWith(ROOT + ".")) {
      return null;
    }
    String rest = pkg.substring(ROOT.length() + 1);
    int dot = rest.indexOf('.');
    return dot < 0 ? rest : rest.substring(0, dot);
  }

}
