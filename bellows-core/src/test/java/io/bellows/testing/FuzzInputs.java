package io.bellows.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * The inputs of the reader fuzz tests. An input is one mode byte and a file's bytes: when the mode
 * byte is odd the target recomputes the file's checksums ({@link Reseal}) before reading it, so that
 * mutations reach past them. The corpus of a fuzz test lives where Jazzer looks for it, the
 * resource directory {@code <TestClass>Inputs/<method>/} beside the test class: the valid files
 * the test writes with {@code -Dbellows.fuzz.writeCorpus=true}, and the inputs that once broke a
 * reader (regressions), kept for good.
 */
public final class FuzzInputs {
  /** Mutated inputs per seeded run of one target in the default build: bounded, a few seconds. */
  public static final int ROUNDS = Integer.getInteger("bellows.fuzz.rounds", 1500);

  private FuzzInputs() {}

  public static boolean resealed(byte[] input) {
    return input.length > 0 && (input[0] & 1) == 1;
  }

  public static byte[] file(byte[] input) {
    return input.length == 0 ? input : java.util.Arrays.copyOfRange(input, 1, input.length);
  }

  /** The corpus inputs (mode byte included) of {@code test}'s fuzz method {@code method}. */
  public static List<byte[]> corpus(Class<?> test, String method) {
    URL url = test.getResource(test.getSimpleName() + "Inputs/" + method);
    if (url == null) {
      throw new IllegalStateException("no corpus " + test.getSimpleName() + "Inputs/" + method);
    }
    try (Stream<Path> files = Files.list(Path.of(url.toURI()))) {
      List<byte[]> out = new ArrayList<>();
      for (Path p : files.sorted().toList()) {
        out.add(Files.readAllBytes(p));
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /**
   * Runs {@link #ROUNDS} seeded mutations of the corpus files through {@code target}, half of them
   * resealed: the default build's bounded share of fuzzing.
   */
  public static void mutate(Seed seed, List<byte[]> corpus, Consumer<byte[]> target) {
    List<byte[]> files = corpus.stream().map(FuzzInputs::file).toList();
    Random rnd = seed.random();
    for (int i = 0; i < ROUNDS; i++) {
      byte[] f = Mutations.mutate(files, rnd);
      byte[] input = new byte[f.length + 1];
      input[0] = (byte) (i & 1);
      System.arraycopy(f, 0, input, 1, f.length);
      target.accept(input);
    }
  }

  /** Writes a corpus file: the mode byte 1 (reseal, which leaves a valid file as it is) and the file. */
  public static void writeCorpusFile(Class<?> test, String method, String name, byte[] file) throws IOException {
    Path dir = Path.of("src/test/resources", test.getPackageName().replace('.', '/'),
        test.getSimpleName() + "Inputs", method);
    Files.createDirectories(dir);
    byte[] input = new byte[file.length + 1];
    input[0] = 1;
    System.arraycopy(file, 0, input, 1, file.length);
    Files.write(dir.resolve(name), input);
  }

  /** A temporary file for one input, deleted by the caller. */
  public static Path temp(byte[] bytes, String name) {
    try {
      Path dir = Files.createTempDirectory("bellows-fuzz");
      Path p = dir.resolve(name);
      Files.write(p, bytes);
      return p;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Deletes the file and its temporary directory (and anything a reader left in it). */
  public static void delete(Path file) {
    Path dir = file.getParent();
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
