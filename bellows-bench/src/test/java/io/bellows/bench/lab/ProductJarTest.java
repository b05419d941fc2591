package io.bellows.bench.lab;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarFile;
import java.util.zip.ZipEntry;
import org.junit.jupiter.api.Test;

/**
 * The product jar, bellows-cli/target/bellows.jar, carries none of the benchmark lab: no RocksDB (classes
 * or native libraries), JMH, YCSB, XChart or benchmark code. This module depends on bellows-cli (test scope)
 * so that the reactor packages that jar before these tests run.
 */
class ProductJarTest {
  private static final Path PRODUCT_JAR = Path.of("..", "bellows-cli", "target", "bellows.jar");
  private static final List<String> LAB_PREFIXES = List.of("org/rocksdb/", "librocksdbjni", "org/openjdk/jmh/",
      "site/ycsb/", "org/knowm/xchart/", "io/bellows/bench/", "io/bellows/ycsb/");

  @Test
  void theProductJarHoldsTheProductAndNoneOfTheLab() throws Exception {
    assertThat(PRODUCT_JAR).as("the product jar; build it with: mvn -B -o package -pl bellows-cli -am").exists();
    System.out.printf("%s: %.1f MB%n", PRODUCT_JAR, Files.size(PRODUCT_JAR) / 1e6);
    try (JarFile jar = new JarFile(PRODUCT_JAR.toFile())) {
      List<String> names = jar.stream().map(ZipEntry::getName).toList();
      assertThat(names).as("lab entries in the product jar")
          .filteredOn(n -> LAB_PREFIXES.stream().anyMatch(n::startsWith)).isEmpty();
      assertThat(names).contains("io/bellows/cli/BellowsCli.class", "io/bellows/server/ServerProcess.class",
          "io/bellows/client/Bellows.class");
      assertThat(jar.getManifest().getMainAttributes().getValue("Main-Class")).isEqualTo("io.bellows.cli.BellowsCli");
    }
  }
}
