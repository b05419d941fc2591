package io.bellows.ycsb.hbase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

/** Reading YCSB's output: metric lines, status lines and the noise around them. */
class YcsbOutputTest {
  /** A run phase's output as YCSB 0.17 prints it with -s, with the log lines a child JVM adds. */
  private static final String RUN = """
      Command line: -t -db io.bellows.ycsb.hbase.HBaseApiClient -P /tmp/workloada -threads 4 -s
      YCSB Client 0.17.0
      log4j:WARN No appenders could be found for logger (org.apache.htrace.core.Tracer).
      [main] WARN org.apache.hadoop.util.NativeCodeLoader - Unable to load native-hadoop library
      2026-11-24 19:52:11:799 0 sec: 0 operations; est completion in 0 second
      2026-11-24 19:52:12:800 1 sec: 10000 operations; 10000 current ops/sec; [READ: Count=5000, Avg=80.1]
      2026-11-24 19:52:13:800 2 sec: 30000 operations; 20000 current ops/sec; [READ: Count=15000, Avg=70.2]
      2026-11-24 19:52:14:300 2 sec: 40000 operations; 20000 current ops/sec; [CLEANUP: Count=4, Avg=9000]
      [OVERALL], RunTime(ms), 2501
      [OVERALL], Throughput(ops/sec), 15993.602558976409
      [TOTAL_GCS_G1_Young_Generation], Count, 4
      [TOTAL_GC_TIME_G1_Young_Generation], Time(ms), 32
      [TOTAL_GC_TIME_%_G1_Young_Generation], Time(%), 1.279
      [TOTAL_GCs], Count, 4
      [TOTAL_GC_TIME], Time(ms), 32
      [TOTAL_GC_TIME_%], Time(%), 1.279
      [READ], Operations, 20010
      [READ], AverageLatency(us), 75.5
      [READ], MinLatency(us), 12
      [READ], MaxLatency(us), 93119
      [READ], 95thPercentileLatency(us), 113
      [READ], 99thPercentileLatency(us), 8131
      [READ], Return=OK, 20010
      [CLEANUP], Operations, 4
      [CLEANUP], AverageLatency(us), 9000.0
      [CLEANUP], 95thPercentileLatency(us), 35999
      [CLEANUP], 99thPercentileLatency(us), 35999
      [UPDATE], Operations, 19990
      [UPDATE], AverageLatency(us), 1.2E2
      [UPDATE], 95thPercentileLatency(us), 46
      [UPDATE], 99thPercentileLatency(us), 722
      [UPDATE], Return=OK, 19990
      """;

  @Test
  void readsOverallFiguresAndEachOperationsLatencies() {
    YcsbOutput o = YcsbOutput.parse(RUN);
    assertThat(o.throughput()).isCloseTo(15993.6, within(0.01));
    assertThat(o.runtimeMillis()).isEqualTo(2501);
    assertThat(o.gcMillis()).as("the total, not one collector's").isEqualTo(32);
    assertThat(o.operations()).containsOnlyKeys("READ", "CLEANUP", "UPDATE");
    assertThat(o.operations().keySet()).containsExactly("READ", "CLEANUP", "UPDATE");
    YcsbOutput.Operation read = o.operations().get("READ");
    assertThat(read.count()).isEqualTo(20010);
    assertThat(read.averageMicros()).isEqualTo(75.5);
    assertThat(read.p95Micros()).isEqualTo(113);
    assertThat(read.p99Micros()).isEqualTo(8131);
    assertThat(read.returns()).containsExactly(java.util.Map.entry("OK", 20010L));
    assertThat(o.operations().get("UPDATE").averageMicros()).as("exponent notation").isEqualTo(120.0);
    assertThat(o.failures()).isEmpty();
  }

  @Test
  void steadyThroughputSpansTheStatusLinesThatCountOperationsLeavingOutTheFinalOne() {
    // from 12.800 s (10,000 done) to 13.800 s (30,000 done); the final line (after cleanup) is left out
    assertThat(YcsbOutput.parse(RUN).steadyThroughput()).isCloseTo(20000.0, within(1e-6));
  }

  @Test
  void steadyThroughputIsUnknownWithoutTwoPeriodicStatusLines() {
    String shortRun = """
        2026-11-24 19:52:11:799 0 sec: 0 operations; est completion in 0 second
        2026-11-24 19:52:12:800 1 sec: 10000 operations; 10000 current ops/sec;
        2026-11-24 19:52:13:100 1 sec: 12000 operations; 10000 current ops/sec;
        [OVERALL], Throughput(ops/sec), 9000
        """;
    YcsbOutput o = YcsbOutput.parse(shortRun);
    assertThat(o.throughput()).isEqualTo(9000);
    assertThat(o.steadyThroughput()).isNaN();
    assertThat(o.runtimeMillis()).isEqualTo(-1);
    assertThat(o.gcMillis()).isEqualTo(-1);
  }

  @Test
  void operationsThatDidNotReturnOkAreFailures() {
    String failing = RUN.replace("[READ], Return=OK, 20010", "[READ], Return=OK, 20000\n[READ], Return=ERROR, 10")
        + "[UPDATE-FAILED], Operations, 3\n[UPDATE-FAILED], AverageLatency(us), 50.0\n";
    assertThat(YcsbOutput.parse(failing).failures()).containsExactly("READ Return=ERROR: 10", "UPDATE-FAILED: 3");
  }

  @Test
  void anOutputWithoutTheOverallThroughputIsRefused() {
    assertThatThrownBy(() -> YcsbOutput.parse("YCSB Client 0.17.0\nException in thread \"main\" java.lang.Error\n"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Throughput(ops/sec)");
  }
}
