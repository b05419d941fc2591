package io.bellows.metamorphic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.bellows.fs.Fault;
import io.bellows.fs.FaultInjectingFileSystem;
import io.bellows.fs.FaultInjectingFileSystem.Error;
import io.bellows.fs.LocalFileSystem;
import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The metamorphic test: one seeded stream of operations ({@link OpStream}: puts, every kind of
 * delete, batches, increments, check-and-mutate, gets and scans of every shape, flushes, minor and
 * major compactions, splits, reopening, clock moves) runs under many {@link Configuration}s —
 * memory-store layouts, block sizes, compressions, Bloom types, block caches, regions, in-memory
 * flush thresholds, flush sizes and policies — and every answer must be the same under all of
 * them. There is no model: a configuration is checked against the plainest one. {@code
 * engine.EngineModelTest} checks the answers themselves against a reference model; this test
 * reaches configurations and combinations that one cannot afford.
 *
 * <p>On a difference it reports the seed, the operation and those before it, the two
 * configurations and a diff of their answers. Replay with {@code -Dtest=MetamorphicTest
 * -Dbellows.test.seed=<seed>}. Short by default ({@value #DEFAULT_OPS} operations, {@value
 * #DEFAULT_CONFIGS} configurations besides the reference); longer with {@code
 * -Dbellows.metamorphic.ops=N} and {@code -Dbellows.metamorphic.configs=N}.
 */
@ExtendWith(SeedExtension.class)
class MetamorphicTest {
  static final int DEFAULT_OPS = 1500;
  static final int DEFAULT_CONFIGS = 13; // every memory-store layout once
  private static final int OPS = Integer.getInteger("bellows.metamorphic.ops", DEFAULT_OPS);
  private static final int CONFIGS = Integer.getInteger("bellows.metamorphic.configs", DEFAULT_CONFIGS);

  @TempDir Path dir;

  /** The reference's answers, recorded by the first dynamic test. */
  private Transcript reference;

  @TestFactory
  Stream<DynamicTest> everyConfigurationGivesTheReferenceAnswers(Seed seed) {
    List<Configuration> configs = Configuration.all(CONFIGS);
    System.out.println("MetamorphicTest " + seed + ", " + OPS + " operations, " + configs.size() + " configurations");
    return IntStream.range(0, configs.size()).mapToObj(i -> DynamicTest.dynamicTest(configs.get(i).name(), () -> {
      long started = System.nanoTime();
      Transcript t = Transcript.record(configs.get(i), seed.value(), OPS, dir.resolve("c" + i));
      System.out.printf("MetamorphicTest %s: %d ms%n", configs.get(i), (System.nanoTime() - started) / 1_000_000);
      if (i == 0) {
        reference = t;
        return;
      }
      if (reference == null) {
        fail("the reference configuration failed; " + seed + " (replay: " + seed.replay() + ")");
      }
      String difference = t.firstDifference(reference, seed.value());
      if (difference != null) {
        System.out.println(difference);
        fail(difference);
      }
    }));
  }

  /**
   * The reference configuration again, on a file system that fails now and then: WAL syncs (the log
   * heals itself) and the creation of sorted files (flushes and compactions fail and are made again).
   * Each fault fires once, at an operation drawn from the seed. No answer may change.
   */
  @Test
  void transientFaultsChangeNoAnswer(Seed seed) {
    Configuration config = Configuration.reference();
    int ops = Math.min(OPS, 800);
    Transcript clean = Transcript.record(config, seed.value(), ops, dir.resolve("clean"));
    FaultInjectingFileSystem fs = new FaultInjectingFileSystem(LocalFileSystem.INSTANCE);
    java.util.Random r = seed.random(7);
    for (int k = 0; k < 4; k++) {
      fs.inject(Fault.on(Error.FSYNC, FaultInjectingFileSystem.Op.SYNC).paths("/wal/").nth(1 + k * 25 + r.nextInt(20)));
      fs.inject(Fault.on(Error.EIO, FaultInjectingFileSystem.Op.CREATE).paths("\\.sst").nth(1 + k * 6 + r.nextInt(5)));
    }
    Transcript faulty = Transcript.record(config, seed.value(), ops, dir.resolve("faulty"), fs);
    System.out.println("MetamorphicTest " + seed + " with faults: " + fs.injected() + " injected");
    assertThat(fs.injected()).as("faults were met").isGreaterThan(0);
    String difference = faulty.firstDifference(clean, seed.value());
    if (difference != null) {
      System.out.println(difference);
      fail(difference);
    }
  }
}
