package io.bellows.server;

import io.bellows.engine.Engine;
import io.bellows.metrics.MetricCatalog;
import io.grpc.ForwardingServerCall;
import io.grpc.ForwardingServerCallListener;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.CounterWithCallback;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.UnknownSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

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

  /** The server's own gauges and counters of what clients hold, read at each scrape. */
  void gauges(IntSupplier callsInProgress, IntSupplier openScans, LongSupplier expiredScans,
      IntSupplier openConnections, LongSupplier refusedConnections) {
    GaugeWithCallback.builder().name("bellows_grpc_calls_in_progress")
        .help("gRPC calls in progress (an open scan counts until it ends)")
        .callback(cb -> cb.call(callsInProgress.getAsInt())).register(registry);
    GaugeWithCallback.builder().name("bellows_grpc_open_scans")
        .help("Scans open (streaming or waiting for their client to read)")
        .callback(cb -> cb.call(openScans.getAsInt())).register(registry);
    CounterWithCallback.builder().name("bellows_grpc_scan_leases_expired_total")
        .help("Scans the server ended because their client read nothing for scanner.lease.ms")
        .callback(cb -> cb.call(expiredScans.getAsLong())).register(registry);
    GaugeWithCallback.builder().name("bellows_grpc_connections")
        .help("TCP connections open to the gRPC port")
        .callback(cb -> cb.call(openConnections.getAsInt())).register(registry);
    CounterWithCallback.builder().name("bellows_grpc_connections_refused_total")
        .help("Connections closed at accept because of max.connections or max.connections.per.address")
        .callback(cb -> cb.call(refusedConnections.getAsLong())).register(registry);
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
   * The engine's own metrics at scrape time, typed and named by the engine's {@link MetricCatalog}:
   * counters as counters ({@code _total}), gauges as gauges, times in seconds, identities left out.
   * A metric missing from the catalog is still exported, untyped, under its dotted name.
   */
  private static final class EngineCollector implements MultiCollector {
    private final Engine engine;

    EngineCollector(Engine engine) {
      this.engine = engine;
    }

    @Override
    public MetricSnapshots collect() {
      Map<String, Family> families = new TreeMap<>();
      Map<String, Number> metrics;
      try {
        metrics = engine.metrics();
      } catch (RuntimeException closed) {
        return new MetricSnapshots(new ArrayList<>());
      }
      metrics.forEach((name, v) -> add(families, "bellows_engine_", name, Labels.EMPTY, v));
      for (String table : engine.listTables()) {
        Map<String, Map<String, Number>> stores;
        try {
          if (!engine.isTableEnabled(table)) {
            continue;
          }
          stores = engine.storeMetrics(table);
        } catch (RuntimeException droppedMeanwhile) {
          continue;
        }
        stores.forEach((family, m) -> m.forEach((name, v) ->
            add(families, "bellows_store_", name, Labels.of("table", table, "family", family), v)));
      }
      List<MetricSnapshot> out = new ArrayList<>();
      families.values().forEach(f -> out.add(f.build()));
      return new MetricSnapshots(out);
    }

    private static void add(Map<String, Family> families, String prefix, String name, Labels labels, Number v) {
      Optional<MetricCatalog.Entry> entry = MetricCatalog.find(name);
      if (entry.isPresent() && entry.get().kind() == MetricCatalog.Kind.INFO) {
        return;
      }
      String exported = entry.map(e -> prefix + MetricCatalog.exportName(name, e)).orElse(prefix + promName(name));
      families.computeIfAbsent(exported, n -> new Family(n, entry.orElse(null), name))
          .add(labels, entry.map(e -> e.unit().toBase(v.doubleValue())).orElse(v.doubleValue()));
    }
  }

  /** The data points of one exported metric, built into the snapshot of its kind. */
  private static final class Family {
    private final String name;
    private final MetricCatalog.Entry entry;
    private final String help;
    private final List<Labels> labels = new ArrayList<>();
    private final List<Double> values = new ArrayList<>();

    Family(String name, MetricCatalog.Entry entry, String engineName) {
      this.name = name;
      this.entry = entry;
      this.help = entry == null ? "engine metric " + engineName
          : entry.meaning() + (entry.name().contains("{") ? "" : " (engine metric " + engineName + ")");
    }

    void add(Labels l, double v) {
      labels.add(l);
      values.add(v);
    }

    MetricSnapshot build() {
      if (entry != null && entry.kind() == MetricCatalog.Kind.COUNTER) {
        CounterSnapshot.Builder b = CounterSnapshot.builder().name(name.substring(0, name.length() - "_total".length()))
            .help(help);
        for (int i = 0; i < labels.size(); i++) {
          b.dataPoint(CounterSnapshot.CounterDataPointSnapshot.builder().labels(labels.get(i)).value(values.get(i)).build());
        }
        return b.build();
      }
      if (entry != null) {
        GaugeSnapshot.Builder b = GaugeSnapshot.builder().name(name).help(help);
        for (int i = 0; i < labels.size(); i++) {
          b.dataPoint(GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(labels.get(i)).value(values.get(i)).build());
        }
        return b.build();
      }
      UnknownSnapshot.Builder b = UnknownSnapshot.builder().name(name).help(help);
      for (int i = 0; i < labels.size(); i++) {
        b.dataPoint(UnknownSnapshot.UnknownDataPointSnapshot.builder().labels(labels.get(i)).value(values.get(i)).build());
      }
      return b.build();
    }
  }
}
