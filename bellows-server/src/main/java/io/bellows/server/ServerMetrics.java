package io.bellows.server;

import io.bellows.engine.Engine;
import io.grpc.ForwardingServerCall;
import io.grpc.ForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.UnknownSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The server's Prometheus metrics, in a registry of its own (no global state): per gRPC method,
 * calls by status code ({@code bellows_grpc_calls_total}) and latency ({@code
 * bellows_grpc_call_duration_seconds}); the engine's metrics ({@code bellows_engine_*}) and each
 * store's ({@code bellows_store_*} with labels table and family), read from the engine at each
 * scrape; JVM metrics (memory, GC, threads). Thread-safe.
 */
final class ServerMetrics implements ServerInterceptor {
  private final PrometheusRegistry registry = new PrometheusRegistry();
  private final Counter calls;
  private final Histogram latency;

  ServerMetrics(Engine engine) {
    calls = Counter.builder()
        .name("bellows_grpc_calls_total")
        .help("gRPC calls finished, by method and status code")
        .labelNames("method", "code")
        .register(registry);
    latency = Histogram.builder()
        .name("bellows_grpc_call_duration_seconds")
        .help("Time from a call's start to its end (for a scan: the whole stream), by method")
        .labelNames("method")
        .classicOnly()
        .register(registry);
    registry.register(new EngineCollector(engine));
    JvmMetrics.builder().register(registry);
  }

  PrometheusRegistry registry() {
    return registry;
  }

  @Override
  public <Q, R> ServerCall.Listener<Q> interceptCall(ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
    String method = call.getMethodDescriptor().getBareMethodName();
    long start = System.nanoTime();
    AtomicBoolean recorded = new AtomicBoolean();
    Runnable cancelled = () -> record(method, Status.Code.CANCELLED, start, recorded);
    ServerCall<Q, R> counted = new ForwardingServerCall.SimpleForwardingServerCall<>(call) {
      @Override
      public void close(Status status, Metadata trailers) {
        record(method, status.getCode(), start, recorded);
        super.close(status, trailers);
      }
    };
    return new ForwardingServerCallListener.SimpleForwardingServerCallListener<>(next.startCall(counted, headers)) {
      @Override
      public void onCancel() {
        cancelled.run();
        super.onCancel();
      }
    };
  }

  private void record(String method, Status.Code code, long startNanos, AtomicBoolean recorded) {
    if (recorded.compareAndSet(false, true)) {
      calls.labelValues(method, code.name()).inc();
      latency.labelValues(method).observe((System.nanoTime() - startNanos) / 1e9);
    }
  }

  /** Prometheus's spelling of an engine metric name: "wal.bytes.appended" -> "wal_bytes_appended". */
  static String promName(String engineName) {
    StringBuilder sb = new StringBuilder();
    for (char c : engineName.toLowerCase(Locale.ROOT).toCharArray()) {
      sb.append((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ? c : '_');
    }
    return sb.toString();
  }

  /**
   * The engine's own metrics at scrape time. Their names are the engine's (docs/ARCHITECTURE.md);
   * they are exported as untyped because the engine's map mixes counters and gauges.
   */
  private static final class EngineCollector implements MultiCollector {
    private final Engine engine;

    EngineCollector(Engine engine) {
      this.engine = engine;
    }

    @Override
    public MetricSnapshots collect() {
      List<MetricSnapshot> out = new ArrayList<>();
      Map<String, Number> metrics;
      try {
        metrics = engine.metrics();
      } catch (RuntimeException closed) {
        return new MetricSnapshots(out);
      }
      for (Map.Entry<String, Number> e : new TreeMap<>(metrics).entrySet()) {
        if (e.getKey().equals("engine.instance.id")) {
          continue; // an identity, not a measure
        }
        out.add(UnknownSnapshot.builder()
            .name("bellows_engine_" + promName(e.getKey()))
            .help("engine metric " + e.getKey())
            .dataPoint(UnknownSnapshot.UnknownDataPointSnapshot.builder().value(e.getValue().doubleValue()).build())
            .build());
      }
      // metric -> data points over every enabled table's families
      Map<String, UnknownSnapshot.Builder> stores = new TreeMap<>();
      for (String table : engine.listTables()) {
        Map<String, Map<String, Number>> families;
        try {
          if (!engine.isTableEnabled(table)) {
            continue;
          }
          families = engine.storeMetrics(table);
        } catch (RuntimeException droppedMeanwhile) {
          continue;
        }
        families.forEach((family, m) -> m.forEach((name, v) -> stores
            .computeIfAbsent(name, n -> UnknownSnapshot.builder().name("bellows_store_" + promName(n)).help("store metric " + n))
            .dataPoint(UnknownSnapshot.UnknownDataPointSnapshot.builder()
                .labels(Labels.of("table", table, "family", family))
                .value(v.doubleValue())
                .build())));
      }
      stores.values().forEach(b -> out.add(b.build()));
      return new MetricSnapshots(out);
    }
  }
}
