package io.bellows.bench;

import io.bellows.config.Knob;
import io.bellows.config.KnobAssignments;
import io.bellows.config.Knobs;
import io.bellows.config.MemStorePolicy;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One configuration of the paper suite: a Bellows memory-store policy with Accordion's parameters,
 * or a RocksDB setup. Written {@code POLICY[:X=v...]} — {@code NONE}, {@code BASIC}, {@code EAGER},
 * {@code ADAPTIVE:R=0.35}, {@code BASIC:A=0.05:S=2} — where A, S and R are the family knobs
 * IN_MEMORY_FLUSH_FRACTION, PIPELINE_MAX_SEGMENTS and ADAPTIVE_THRESHOLD, and any other family knob
 * may be given by its name ({@code ADAPTIVE:SEGMENT_INDEX=CHUNK}); or {@code rocksdb} /
 * {@code rocksdb-tuned} ({@link RocksDbRun.Setup}), either with its compression set
 * ({@code rocksdb-tuned:COMPRESSION=LZ4}). An engine knob may be given by its dotted name too
 * ({@code NONE:bellows.blockcache.l2.size=512m}), for that configuration's engine only. Accordion
 * policies run with the paper's A = 0.02 and S = 5 unless the spec says otherwise. Immutable.
 *
 * @param spec the text it was parsed from, also its label in tables and charts
 * @param policy the Bellows policy, or null for a RocksDB setup
 * @param peer the RocksDB setup, or null for Bellows
 * @param familyKnobs family knobs by name, and engine knobs by their dotted names (empty for NONE; for RocksDB only
 *     a COMPRESSION set)
 */
record PaperConfig(String spec, MemStorePolicy policy, RocksDbRun.Setup peer, Map<String, String> familyKnobs) {
  /** The paper's write-only suite (§4.2.1): the three policies, ADAPTIVE at three thresholds, RocksDB twice. */
  static final String DEFAULT_SUITE =
      "NONE,BASIC,EAGER,ADAPTIVE:R=0.05,ADAPTIVE:R=0.2,ADAPTIVE:R=0.35,ADAPTIVE:R=0.5,rocksdb,rocksdb-tuned";

  /** Short names of Accordion's parameters → the family knobs behind them. */
  private static final Map<String, String> PARAMETERS = Map.of(
      "A", "IN_MEMORY_FLUSH_FRACTION", "S", "PIPELINE_MAX_SEGMENTS", "R", "ADAPTIVE_THRESHOLD");
  /** The paper's tuned A and S for the write-only runs (§4.2: "We use A=0.02 and S=5"). */
  private static final Map<String, String> PAPER_DEFAULTS = Map.of("A", "0.02", "S", "5");

  PaperConfig {
    familyKnobs = Map.copyOf(familyKnobs);
  }

  boolean isRocksDb() {
    return peer != null;
  }

  /** The compression a RocksDB configuration sets ({@code rocksdb-tuned:COMPRESSION=LZ4}), or null. */
  io.bellows.config.Compression peerCompression() {
    String c = isRocksDb() ? familyKnobs.get("COMPRESSION") : null;
    return c == null ? null : Knobs.COMPRESSION.parse(c);
  }

  static PaperConfig parse(String spec) {
    String s = spec.trim();
    for (RocksDbRun.Setup setup : RocksDbRun.Setup.values()) {
      if (setup.label.equalsIgnoreCase(s)) {
        return new PaperConfig(setup.label, null, setup, Map.of());
      }
      String prefix = setup.label + ":COMPRESSION=";
      if (s.regionMatches(true, 0, prefix, 0, prefix.length())) {
        String c = s.substring(prefix.length()).trim().toUpperCase(Locale.ROOT);
        Knobs.COMPRESSION.parse(c); // checked now, in the parent
        return new PaperConfig(setup.label + ":COMPRESSION=" + c, null, setup, Map.of("COMPRESSION", c));
      }
    }
    String[] parts = s.split(":");
    MemStorePolicy policy;
    try {
      policy = MemStorePolicy.valueOf(parts[0].toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("unknown configuration '" + spec + "': use NONE, BASIC, EAGER, ADAPTIVE"
          + " (with :A=, :S=, :R=), rocksdb or rocksdb-tuned");
    }
    Map<String, String> params = new LinkedHashMap<>();
    for (int i = 1; i < parts.length; i++) {
      String[] kv = parts[i].split("=", 2);
      String name = kv[0].trim().toUpperCase(Locale.ROOT);
      if (kv.length != 2 || !(PARAMETERS.containsKey(name) || isFamilyKnob(name) || isEngineKnob(name))) {
        throw new IllegalArgumentException("in '" + spec + "': expected A=, S=, R=, a family knob"
            + " (such as SEGMENT_INDEX=CHUNK) or an engine knob (such as bellows.mslab.offheap=true), got '"
            + parts[i] + "'");
      }
      params.put(name, kv[1].trim());
    }
    if (policy == MemStorePolicy.NONE && params.keySet().stream().anyMatch(PARAMETERS::containsKey)) {
      throw new IllegalArgumentException("NONE has no Accordion parameters: " + spec);
    }
    Map<String, String> knobs = new LinkedHashMap<>();
    if (policy != MemStorePolicy.NONE) {
      PAPER_DEFAULTS.forEach((k, v) -> knobs.put(PARAMETERS.get(k), v));
    }
    params.forEach((k, v) -> knobs.put(PARAMETERS.getOrDefault(k, k), v));
    // Check the values now, in the parent, rather than in a child JVM after the runs before it.
    KnobAssignments.of(knobs).requireScopes("a configuration takes family and engine knobs", Knob.Scope.FAMILY,
        Knob.Scope.ENGINE);
    StringBuilder label = new StringBuilder(policy.name());
    for (int i = 1; i < parts.length; i++) {
      // Family knobs and A, S, R in capitals as always; engine knobs keep their dotted lower-case names.
      String part = parts[i].trim();
      label.append(':').append(isEngineKnob(part.split("=", 2)[0].trim())
          ? part.toLowerCase(Locale.ROOT) : part.toUpperCase(Locale.ROOT));
    }
    return new PaperConfig(label.toString(), policy, null, knobs);
  }

  private static boolean isFamilyKnob(String name) {
    return Knobs.find(Knob.Scope.FAMILY, name) != null;
  }

  /** Engine knobs ({@code ADAPTIVE:bellows.mslab.offheap=true}) set the run's engine options; names are dotted. */
  private static boolean isEngineKnob(String name) {
    return Knobs.find(Knob.Scope.ENGINE, name) != null;
  }

  static List<PaperConfig> parseList(String csv) {
    List<PaperConfig> out = new ArrayList<>();
    for (String s : csv.split(",")) {
      if (!s.isBlank()) {
        out.add(parse(s));
      }
    }
    if (out.isEmpty()) {
      throw new IllegalArgumentException("no configuration given");
    }
    return out;
  }

  /**
   * The configurations of a parameter sweep, as in the paper's tuning (§4.2.4): {@code A} — BASIC
   * over A (Figure 11, with S = 2); {@code S} — BASIC over S (Figure 12); {@code R} — ADAPTIVE over
   * R. NONE comes first as the reference.
   */
  static List<PaperConfig> sweep(String parameter) {
    String p = parameter.trim().toUpperCase(Locale.ROOT);
    String specs = switch (p) {
      case "A" -> "NONE,BASIC:A=0.02:S=2,BASIC:A=0.05:S=2,BASIC:A=0.1:S=2,BASIC:A=0.2:S=2,BASIC:A=0.3:S=2";
      case "S" -> "NONE,BASIC:S=1,BASIC:S=2,BASIC:S=3,BASIC:S=4,BASIC:S=5";
      case "R" -> "NONE,ADAPTIVE:R=0.05,ADAPTIVE:R=0.1,ADAPTIVE:R=0.2,ADAPTIVE:R=0.35,ADAPTIVE:R=0.5,ADAPTIVE:R=0.75";
      default -> throw new IllegalArgumentException("--sweep takes A, S or R, not '" + parameter + "'");
    };
    return parseList(specs);
  }

  /** The memory layout of a Bellows run unless its spec says otherwise: the engine's default. */
  static final IndexKind LAYOUT = IndexKind.CHUNK_FLAT;

  /** The memory-store configuration of a Bellows run in the default {@link #LAYOUT}. */
  StoreConfig storeConfig(long flushSize) {
    return storeConfig(LAYOUT, flushSize);
  }

  /** The memory-store configuration of a Bellows run in {@code layout} (the spec's knobs go last). */
  StoreConfig storeConfig(IndexKind layout, long flushSize) {
    if (policy == null) {
      throw new IllegalStateException(spec + " is not a Bellows configuration");
    }
    return new StoreConfig(policy, layout, flushSize, -1, familyKnobs);
  }
}
