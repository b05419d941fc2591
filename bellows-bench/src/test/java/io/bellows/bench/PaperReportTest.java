package io.bellows.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The paper suite's tables and result lines, on made-up runs whose ratios are known. */
class PaperReportTest {
  private static PaperResult run(String config, String keys, double rowsPerSecond, long flushBytes, long gcMillis) {
    long rows = 1_000_000;
    return new PaperResult(config, keys, config.startsWith("rocksdb") ? "rocksdb" : "bellows", rows,
        (long) (rows * 1e9 / rowsPerSecond), 10, 2, flushBytes, flushBytes / 2, 500_000_000, rows * 304, 7, gcMillis,
        12_000, 300L << 20, config.equals("BASIC") ? PaperResult.NA : 5, 4)
        .withCells(config.startsWith("rocksdb") ? PaperResult.NA : 3_500_000,
            config.equals("BASIC") ? 250_000 : config.startsWith("rocksdb") ? PaperResult.NA : 0)
        .withWalFiles(config.startsWith("rocksdb") ? PaperResult.NA : 40,
            config.equals("BASIC") ? 3 : config.startsWith("rocksdb") ? PaperResult.NA : 6);
  }

  private final List<PaperResult> runs = List.of(
      run("NONE", "zipf", 100_000, 200_000_000, 900),
      run("BASIC", "zipf", 150_000, 100_000_000, 300),
      run("rocksdb", "zipf", 300_000, 50_000_000, 20),
      run("NONE", "uniform", 80_000, 300_000_000, 1000));
  private final PaperReport report = new PaperReport(List.of("NONE", "BASIC", "rocksdb"), List.of("zipf", "uniform"),
      runs);

  @Test
  void throughputTableHasRatiosToNoneAndToRocksDb() {
    String t = report.throughputTable();
    assertThat(t).startsWith("| configuration | zipf rows/s | zipf × NONE | zipf × rocksdb | uniform rows/s |");
    assertThat(t).contains("| BASIC | 150,000 | 1.50 | 0.50 | - | - | - |");
    assertThat(t).contains("| NONE | 100,000 | 1.00 | 0.33 | 80,000 | 1.00 | - |");
  }

  @Test
  void ioTableComparesBytesWrittenByFlushesAndCompactions() {
    String t = report.ioTable("zipf");
    // BASIC: 100 MB + 50 MB against NONE's 200 + 100 and RocksDB's 50 + 25.
    assertThat(t).contains("| BASIC | 10 | 2 | 3.50 | 0.25 | 100.0 | 50.0 | 150.0 | 0.50 | 0.49 | 500.0 | 40 | 3 | 2.00 |");
    assertThat(t).contains("| NONE | 10 | 2 | 3.50 | 0.00 | 200.0 | 100.0 | 300.0 | 1.00 | 0.99 | 500.0 | 40 | 6 | 4.00 |");
    // RocksDB counts no cells: its cell columns say so rather than show a number.
    assertThat(t).contains("| rocksdb | 10 | 2 | n/a | n/a | 50.0 |");
    assertThat(report.resourceTable("zipf")).contains("| BASIC |").contains("| n/a | 4 |");
  }

  @Test
  void csvHasAHeaderAndOneLinePerRunWithEveryColumn() {
    String[] lines = report.csv().split("\n");
    assertThat(lines).hasSize(1 + runs.size());
    int columns = lines[0].split(",").length;
    assertThat(lines[0]).startsWith("config,keys,store,rows,").endsWith(",rowsPerSecond,writeAmplification,round");
    for (String l : lines) {
      assertThat(l.split(",")).hasSize(columns);
    }
    assertThat(lines[2]).startsWith("BASIC,zipf,bellows,1000000,");
  }

  @Test
  void roundsShowTheMedianRunAndEveryRoundsRatioToRocksDb() {
    // Round 2 ran on a slower machine: both stores lost speed, their ratio did not.
    List<PaperResult> rounds = List.of(
        run("BASIC", "zipf", 150_000, 100_000_000, 300), run("rocksdb", "zipf", 300_000, 50_000_000, 20),
        run("rocksdb", "zipf", 100_000, 50_000_000, 20), run("BASIC", "zipf", 50_000, 100_000_000, 300),
        run("BASIC", "zipf", 120_000, 100_000_000, 300), run("rocksdb", "zipf", 200_000, 50_000_000, 20));
    PaperReport r = new PaperReport(List.of("BASIC", "rocksdb"), List.of("zipf"), rounds);
    assertThat(r.hasRounds()).isTrue();
    assertThat(r.find("zipf", "BASIC")).hasValueSatisfying(x -> assertThat(x.rowsPerSecond()).isEqualTo(120_000,
        org.assertj.core.data.Offset.offset(1.0)));
    assertThat(r.throughputTable()).contains("| BASIC | 120,000 | - | 0.60 |");
    assertThat(r.roundsTable("zipf"))
        .contains("| BASIC | 150,000 | 50,000 | 120,000 | 0.50 | 0.50 | 0.60 | 0.50 |")
        .contains("| rocksdb | 300,000 | 100,000 | 200,000 | 1.00 | 1.00 | 1.00 | 1.00 |");
    assertThat(r.markdown("")).contains("## Rounds — zipf keys");
    String[] csv = r.csv().split("\n");
    assertThat(csv[4]).startsWith("BASIC,").endsWith(",2");
    assertThat(csv[5]).startsWith("BASIC,").endsWith(",3");
    assertThat(report.hasRounds()).isFalse();
    assertThat(report.markdown("")).doesNotContain("## Rounds");
  }

  @Test
  void theSecondHalfTableComparesRatesPastTheWarmUp() {
    // NONE wrote its second 500,000 rows in 2 s (250K/s), RocksDB in 4 s; BASIC did not time it.
    PaperReport r = new PaperReport(List.of("NONE", "BASIC", "rocksdb"), List.of("zipf"), List.of(
        run("NONE", "zipf", 100_000, 1, 1).withSecondHalf(2_000_000_000L),
        run("BASIC", "zipf", 100_000, 1, 1),
        run("rocksdb", "zipf", 100_000, 1, 1).withSecondHalf(4_000_000_000L)));
    assertThat(r.hasSecondHalves()).isTrue();
    assertThat(r.secondHalfTable()).contains("| NONE | 250,000 | 1.00 | 2.00 |").contains("| BASIC | - | - | - |")
        .contains("| rocksdb | 125,000 | 0.50 | 1.00 |");
    assertThat(r.markdown("")).contains("## Table 1, second half");
    assertThat(report.markdown("")).doesNotContain("second half");
  }

  @Test
  void resultLinesRoundTrip() {
    for (PaperResult r : runs) {
      assertThat(PaperResult.fromJson(r.toJson())).isEqualTo(r);
    }
    assertThat(runs.get(0).toJson()).startsWith("{\"config\":\"NONE\",\"keys\":\"zipf\",\"store\":\"bellows\",");
    assertThatThrownBy(() -> PaperResult.fromJson("{\"config\":\"NONE\"}")).hasMessageContaining("not a result line");
    // A line recorded before the WAL-file counts existed still reads, with the counts unknown.
    String older = runs.get(0).toJson().replaceAll(",\"walFilesRolled\":-?\\d+,\"walFilesLive\":-?\\d+", "");
    assertThat(older).doesNotContain("walFiles");
    assertThat(PaperResult.fromJson(older).walFilesLive()).isEqualTo(PaperResult.NA);
    String beforeReadCpu = runs.get(0).toJson().replaceAll(",\"readCpuNanos\":-?\\d+", "");
    assertThat(beforeReadCpu).doesNotContain("readCpu");
    assertThat(PaperResult.fromJson(beforeReadCpu).readCpuMicrosPerOp()).isEqualTo(PaperResult.NA);
    PaperResult timed = runs.get(0).withWriteLatency(histogramOf(1_000_000, 2_000_000));
    assertThat(PaperResult.fromJson(timed.toJson())).isEqualTo(timed);
    String beforeWriteLatency = timed.toJson().replaceAll(",\"writeP\\w+\":-?\\d+|,\"writeMax\":-?\\d+", "");
    assertThat(beforeWriteLatency).doesNotContain("writeP");
    assertThat(PaperResult.fromJson(beforeWriteLatency).writeP999()).isEqualTo(PaperResult.NA);
  }

  @Test
  void theWriteLatencyTableComparesTheTailToRocksDb() {
    // 1,000 calls: 990 of 1 ms, 9 of 10 ms and one of 50 ms for BASIC; RocksDB's calls take a quarter.
    long[] basic = new long[1000];
    long[] rocks = new long[1000];
    for (int i = 0; i < 1000; i++) {
      basic[i] = i < 990 ? 1_000_000 : i < 999 ? 10_000_000 : 50_000_000;
      rocks[i] = basic[i] / 4;
    }
    PaperReport timed = new PaperReport(List.of("NONE", "BASIC", "rocksdb"), List.of("zipf"), List.of(
        run("NONE", "zipf", 100_000, 200_000_000, 900),
        run("BASIC", "zipf", 150_000, 100_000_000, 300).withWriteLatency(histogramOf(basic)),
        run("rocksdb", "zipf", 300_000, 50_000_000, 20).withWriteLatency(histogramOf(rocks))));
    String table = timed.writeLatencyTable("zipf");
    assertThat(table).contains("p99 × rocksdb", "p99.9 × rocksdb");
    String basicLine = table.lines().filter(l -> l.startsWith("| BASIC")).findFirst().orElseThrow();
    assertThat(basicLine).contains("| 1.00 |", "| 10.00 |", "| 50.00 |", "| 4.00 |");
    assertThat(table).doesNotContain("| NONE"); // its writes were not timed
    assertThat(timed.markdown("")).contains("## Write-call latency — zipf keys");
    assertThat(report.markdown("")).doesNotContain("Write-call latency");
  }

  private static org.HdrHistogram.Histogram histogramOf(long... nanos) {
    org.HdrHistogram.Histogram h = new org.HdrHistogram.Histogram(3);
    for (long n : nanos) {
      h.recordValue(n);
    }
    return h;
  }
}
