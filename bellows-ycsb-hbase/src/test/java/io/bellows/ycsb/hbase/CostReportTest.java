package io.bellows.ycsb.hbase;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The report's arithmetic: means over rounds, HBase-API ÷ native ratios, their geometric mean. */
class CostReportTest {
  private static YcsbOutput output(double throughput, double steady, double readMicros) {
    return new YcsbOutput(throughput, steady, 1000, 10,
        Map.of("READ", new YcsbOutput.Operation(100, readMicros, 2 * readMicros, 4 * readMicros, Map.of("OK", 100L))));
  }

  private static CostReport report() {
    List<CostReport.Run> runs = new ArrayList<>();
    // workload a: native 100 and 300 ops/s over two rounds (mean 200), HBase API 150 and 150 (mean 150)
    runs.add(new CostReport.Run(1, "a", Binding.NATIVE, "load", 0, output(100, 110, 10), 1.5));
    runs.add(new CostReport.Run(1, "a", Binding.HBASE_API, "load", 1, output(150, 160, 20), 1.5));
    runs.add(new CostReport.Run(2, "a", Binding.HBASE_API, "load", 0, output(150, 160, 20), 1.5));
    runs.add(new CostReport.Run(2, "a", Binding.NATIVE, "load", 1, output(300, 310, 30), 1.5));
    // workload c: HBase API at 0.5 of native
    runs.add(new CostReport.Run(1, "c", Binding.NATIVE, "load", 0, output(400, 400, 10), 1.5));
    runs.add(new CostReport.Run(1, "c", Binding.HBASE_API, "load", 1, output(200, 200, 10), 1.5));
    return new CostReport(runs);
  }

  @Test
  void ratiosAreOfTheMeansOverRoundsAndTheirGeometricMeanOverWorkloads() {
    CostReport r = report();
    assertThat(r.throughput("a", "load", Binding.NATIVE, CostReport.YCSB)).isEqualTo(200);
    assertThat(r.ratio("a", "load", CostReport.YCSB)).isEqualTo(0.75);
    assertThat(r.ratio("c", "load", CostReport.YCSB)).isEqualTo(0.5);
    assertThat(r.ratio("load", CostReport.YCSB)).isCloseTo(Math.sqrt(0.75 * 0.5), within(1e-12));
    assertThat(r.ratio("a", "load", CostReport.STEADY)).isCloseTo(160.0 / 210, within(1e-12));
    assertThat(r.ratio("run", CostReport.YCSB)).as("no run phase measured").isNaN();
  }

  @Test
  void markdownHasARowPerWorkloadAndPhaseAndEachRoundsRatio() {
    String md = report().markdown();
    assertThat(md).contains("| `a` | load | 200 | 150 | **0.75×** | 1.50 / 0.50 |")
        .contains("| `c` | load | 400 | 200 | **0.50×** | 0.50 |")
        .contains("load **0.61×**")
        .contains("load average at the end of the phases: 1.5 to 1.5")
        .contains("| `a` | load | READ | 20.0 | 40 | 80 | 20.0 | 40 | 80 | 1.00× |");
  }

  @Test
  void csvHasALinePerRunAndOperation() {
    String[] lines = report().csv().split("\n");
    assertThat(lines).hasSize(1 + 6);
    assertThat(lines[0]).startsWith("round,workload,binding,phase,position,throughput,steadyThroughput");
    assertThat(lines[2]).isEqualTo("1,a,hbase-api,load,1,150.0,160.0,1000,10,1.50,READ,100,20.00,40,80");
  }
}
