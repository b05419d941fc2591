package io.bellows.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The benchmark pages hold together: every relative link of BENCHMARKS.md and of docs/bench/**.md
 * reaches a file (and, into a Markdown page, a heading), every results folder and every log file is
 * in docs/bench/README.md's index, and BENCHMARKS.md links that index (the log's table of contents).
 * Results are
 * moved and renamed by hand; this is what notices a dangling link or a study nobody can find.
 */
class BenchDocsTest {
  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
  private static final Path BENCH = ROOT.resolve("docs").resolve("bench");
  private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
  private static final Pattern HEADING = Pattern.compile("^#{1,6} (.*)$");

  @Test
  void everyRelativeLinkOfTheBenchmarkPagesResolves() throws IOException {
    List<Path> pages = new ArrayList<>();
    pages.add(ROOT.resolve("BENCHMARKS.md"));
    try (Stream<Path> s = Files.walk(BENCH)) {
      s.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
    }
    List<String> broken = new ArrayList<>();
    for (Path page : pages) {
      for (String target : links(page)) {
        String file = target.contains("#") ? target.substring(0, target.indexOf('#')) : target;
        String anchor = target.contains("#") ? target.substring(target.indexOf('#') + 1) : "";
        Path resolved = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
        if (!Files.exists(resolved)) {
          broken.add(ROOT.relativize(page) + ": " + target + " (no such file)");
        } else if (!anchor.isEmpty() && resolved.toString().endsWith(".md") && !anchors(resolved).contains(anchor)) {
          broken.add(ROOT.relativize(page) + ": " + target + " (no such heading)");
        }
      }
    }
    assertThat(broken).as("links of %d benchmark pages", pages.size()).isEmpty();
  }

  @Test
  void everyResultsFolderAndLogFileIsIndexedAndTheHeadlineLinksTheIndex() throws IOException {
    Path index = BENCH.resolve("README.md");
    assertThat(index).as("the index of results and log files").exists();
    Set<String> indexed = new HashSet<>();
    for (String target : links(index)) {
      indexed.add(Path.of(target.split("#")[0]).normalize().toString());
    }
    List<String> missing = new ArrayList<>();
    try (Stream<Path> s = Files.list(BENCH)) {
      for (Path dir : s.filter(Files::isDirectory).filter(d -> !d.getFileName().toString().equals("log")).toList()) {
        String name = dir.getFileName().toString();
        if (indexed.stream().noneMatch(t -> t.equals(name) || t.startsWith(name + "/"))) {
          missing.add("results folder " + name);
        }
      }
    }
    Set<String> fromHeadline = new HashSet<>();
    for (String target : links(ROOT.resolve("BENCHMARKS.md"))) {
      fromHeadline.add(Path.of(target.split("#")[0]).normalize().toString());
    }
    if (!fromHeadline.contains("docs/bench/README.md")) {
      missing.add("a link from BENCHMARKS.md to docs/bench/README.md");
    }
    try (Stream<Path> s = Files.list(BENCH.resolve("log"))) {
      for (Path log : s.filter(p -> p.toString().endsWith(".md")).sorted().toList()) {
        String name = log.getFileName().toString();
        if (!indexed.contains("log/" + name)) {
          missing.add("log file " + name + " in docs/bench/README.md");
        }
      }
    }
    assertThat(missing).isEmpty();
  }

  /** Relative link targets of a Markdown page, outside code blocks. */
  private static List<String> links(Path page) {
    List<String> out = new ArrayList<>();
    boolean fence = false;
    for (String line : lines(page)) {
      if (line.startsWith("```")) {
        fence = !fence;
      }
      if (fence) {
        continue;
      }
      Matcher m = LINK.matcher(line);
      while (m.find()) {
        String t = m.group(1);
        if (!t.startsWith("http:") && !t.startsWith("https:") && !t.startsWith("mailto:")) {
          out.add(t);
        }
      }
    }
    return out;
  }

  /** A page's heading anchors as GitHub makes them: lower case, punctuation dropped, spaces to hyphens. */
  private static Set<String> anchors(Path page) {
    Set<String> out = new HashSet<>();
    boolean fence = false;
    for (String line : lines(page)) {
      if (line.startsWith("```")) {
        fence = !fence;
      }
      Matcher m = HEADING.matcher(line);
      if (!fence && m.matches()) {
        out.add(m.group(1).trim().toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}_\\- ]", "").replace(' ', '-'));
      }
    }
    return out;
  }

  private static List<String> lines(Path page) {
    try {
      return Files.readAllLines(page);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
