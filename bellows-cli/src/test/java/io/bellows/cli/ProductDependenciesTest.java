package io.bellows.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The product jar is shaded from this module's compile and runtime dependencies, all of which are on
 * its test class path: a lab class missing here is missing from bellows.jar. (bellows-bench's
 * ProductJarTest reads the built jar itself.)
 */
class ProductDependenciesTest {
  @ParameterizedTest
  @ValueSource(strings = {"org.rocksdb.RocksDB", "org.openjdk.jmh.Main", "site.ycsb.DB", "org.knowm.xchart.XYChart",
      "io.bellows.bench.PaperBench", "io.bellows.ycsb.BellowsClient"})
  void theBenchmarkLabIsNotADependencyOfTheProduct(String labClass) {
    assertThatThrownBy(() -> Class.forName(labClass, false, getClass().getClassLoader()))
        .isInstanceOf(ClassNotFoundException.class);
  }

  @ParameterizedTest
  @ValueSource(strings = {"io.bellows.client.Bellows", "io.bellows.server.ServerProcess",
      "io.bellows.remote.RemoteEngine", "picocli.CommandLine"})
  void theProductsOwnPartsAreThere(String productClass) throws Exception {
    assertThat(Class.forName(productClass, false, getClass().getClassLoader())).isNotNull();
  }
}
