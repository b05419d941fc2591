package io.bellows.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.bellows.cell.Cells;
import io.bellows.config.Durability;
import io.bellows.config.EngineOptions;
import io.bellows.engine.LocalEngine;
import io.bellows.engine.RowMutation;
import io.bellows.engine.TableRef;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The live status page in a real browser: headless Chromium loads {@code /status}, runs its
 * script (which fetches {@code /status.json}) and prints the DOM, which must show the table, its
 * regions and its store; after a flush, the store's accordion must show the change. Skipped, with
 * a message, where Chromium is not installed (Debian: {@code apt-get install chromium}).
 */
class StatusPageBrowserTest {
  @TempDir
  Path dir;

  private static Path chromium() {
    String configured = System.getenv("BELLOWS_CHROMIUM");
    for (String candidate : new String[] {configured, "/usr/bin/chromium", "/usr/bin/chromium-browser"}) {
      if (candidate != null && Files.isExecutable(Path.of(candidate))) {
        return Path.of(candidate);
      }
    }
    return null;
  }

  @Test
  void thePageShowsTablesRegionsAndTheAccordionChanging() throws Exception {
    Path chromium = chromium();
    assumeTrue(chromium != null, "skipped: no Chromium at /usr/bin/chromium (apt-get install chromium, or set BELLOWS_CHROMIUM)");
    try (LocalEngine engine = LocalEngine.open(dir.resolve("data"), EngineOptions.defaults());
        BellowsServer server = BellowsServer.start(engine, ServerConfig.defaults().withPorts(0, 0), ServerEvents.NONE)) {
      engine.createTable(TableDescriptor.builder("visits").family("f").build(), List.of(Bytes.of("m")));
      TableRef t = engine.table("visits");
      List<RowMutation> rows = new ArrayList<>();
      for (String r : List.of("alpha", "beta", "nu", "omega")) {
        byte[] row = Bytes.of(r);
        rows.add(RowMutation.of(row, List.of(Cells.put(row, Bytes.of("f"), Bytes.of("q"), 1, Bytes.of("v"))),
            Durability.USE_DEFAULT));
      }
      engine.mutate(t, rows);
      String url = "http://127.0.0.1:" + server.httpPort() + "/status";

      HttpResponse<String> json = HttpClient.newHttpClient().send(
          HttpRequest.newBuilder(URI.create(url + ".json")).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(json.body()).contains("\"name\":\"visits\"").contains("\"end\":\"m\"");

      String before = dom(chromium, url);
      assertThat(before).contains("data-table=\"visits\"").contains("data-family=\"f\"");
      assertThat(count(before, "class=\"region\"")).isEqualTo(2);
      assertThat(field(before, "store-files")).isEqualTo("0");
      assertThat(field(before, "cells")).isEqualTo("4");
      assertThat(before).contains("data-field=\"pipeline-segments\"").contains("data-field=\"active-bytes\"");
      // The accordion's segments, region by region: each region's active segment holds its two rows.
      assertThat(count(before, "class=\"segment\" data-place=\"active\"")).isEqualTo(2);
      assertThat(count(before, "class=\"wal-file\"")).isGreaterThanOrEqualTo(1);
      assertThat(before).contains("data-blocked-now=\"0\"");

      engine.flush("visits");
      String after = dom(chromium, url);
      assertThat(field(after, "store-files")).isEqualTo("2"); // one sorted file per region
      assertThat(field(after, "cells")).isEqualTo("0");
      assertThat(field(after, "disk-flushes")).isNotEqualTo(field(before, "disk-flushes"));
      assertThat(field(after, "running")).isEqualTo("0 / 0");
    }
  }

  private static int count(String s, String what) {
    int n = 0;
    for (int i = s.indexOf(what); i >= 0; i = s.indexOf(what, i + 1)) {
      n++;
    }
    return n;
  }

  private static String field(String dom, String name) {
    Matcher m = Pattern.compile("data-field=\"" + name + "\">([^<]*)<").matcher(dom);
    assertThat(m.find()).as("field " + name + " in\n" + dom).isTrue();
    return m.group(1);
  }

  /** The page's DOM after its script ran (virtual time lets its first fetch and redraw finish). */
  private String dom(Path chromium, String url) throws Exception {
    Path profile = Files.createTempDirectory(dir, "chromium");
    Path out = dir.resolve("dom-" + System.nanoTime() + ".html");
    Process p = new ProcessBuilder(chromium.toString(), "--headless", "--no-sandbox", "--disable-gpu",
        "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--user-data-dir=" + profile, "--virtual-time-budget=3000", "--dump-dom", url)
        .redirectOutput(out.toFile())
        .redirectError(ProcessBuilder.Redirect.DISCARD)
        .start();
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("Chromium did not finish in 120 s");
    }
    String dom = Files.readString(out, StandardCharsets.UTF_8);
    assertThat(dom).as("DOM of " + url).contains("data-refreshes=");
    return dom;
  }
}
