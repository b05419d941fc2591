package io.bellows.engine;

import io.bellows.config.Knob;
import io.bellows.fs.ChecksummedText;
import io.bellows.fs.FileSystem;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import io.bellows.util.CorruptionException;
import io.bellows.util.StorageException;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The engine's durable list of tables: id, descriptor, enabled state and regions of each, the next
 * table id and the next region id (neither kind of id is ever reused, so WAL edits of a dropped
 * table's regions are recognised and skipped). Stored as a text file {@code CATALOG} replaced
 * atomically; the last line is a CRC32C of the rest. Layout (docs/FORMAT.md):
 *
 * <pre>
 *   bellows-catalog 3
 *   next-table-id &lt;int&gt;
 *   next-region-id &lt;int&gt;
 *   table &lt;id&gt; &lt;name&gt; &lt;enabled|disabled&gt;
 *   table-option &lt;id&gt; &lt;KNOB&gt; &lt;value&gt;
 *   family &lt;id&gt; &lt;family&gt;
 *   family-option &lt;id&gt; &lt;family&gt; &lt;KNOB&gt; &lt;value&gt;
 *   region &lt;table id&gt; &lt;region id&gt; &lt;start key&gt; &lt;end key&gt; &lt;identity&gt; &lt;sequence id base&gt;
 *   split-intent &lt;table id&gt; &lt;parent id&gt; &lt;daughter a id&gt; &lt;daughter b id&gt; &lt;split key&gt;
 *   crc32c &lt;8 hex digits&gt;
 * </pre>
 *
 * <p>Keys are lower-case hex, {@code -} for the empty key (unbounded). A table's regions are listed
 * in key order and cover the whole key space: the first starts with {@code -}, the last ends with
 * {@code -}, and each ends where the next starts. Version 1 catalogs (no regions) are refused.
 *
 * <p>A region's id is its local handle (small, engine-wide, what the WAL records); its identity is
 * a random 128-bit UUID, unique across data directories, so that a region can move to another
 * engine without colliding with one there. Its sequence id base is the engine's sequence id when
 * it was made: every edit it holds is numbered above it (for a split's daughter, above every edit
 * of its parent). Version 2 catalogs (regions without either) are still read: their regions get
 * new identities and base 0, and the engine writes the catalog as version 3 at open ({@link
 * #upgraded}).
 *
 * <p>At most one {@code split-intent} line: a split of the parent region was under way (its
 * daughters' directories may exist, partly made) and did not commit. The next open rolls it back:
 * it deletes the daughters' directories and rewrites the catalog without the line. A split commits
 * by writing the catalog with the daughters in place of the parent and no intent.
 */
final class Catalog {
  static final String FILE_NAME = "CATALOG";
  static final int VERSION = 3;
  /** The oldest version still read: regions without identity or sequence id base. */
  static final int VERSION_WITHOUT_IDENTITIES = 2;
  private static final String PREFIX = "bellows-catalog ";
  private static final String HEADER = PREFIX + VERSION;
  private static final HexFormat HEX = HexFormat.of();

  /**
   * One region of a table: engine-wide id (its local handle), key range (start inclusive, end
   * exclusive, empty = unbounded), identity (unique across data directories) and the base of its
   * sequence ids (every edit of the region is numbered above it).
   */
  record Span(int id, byte[] start, byte[] end, UUID identity, long seqIdBase) {
    Span {
      java.util.Objects.requireNonNull(identity, "identity");
    }

    /** A new region: a new identity. */
    static Span create(int id, byte[] start, byte[] end, long seqIdBase) {
      return new Span(id, start, end, UUID.randomUUID(), seqIdBase);
    }

    boolean contains(byte[] row) {
      return Bytes.compare(row, start) >= 0 && (end.length == 0 || Bytes.compare(row, end) < 0);
    }
  }

  /** One table's entry; {@code regions} in key order, covering every key. */
  record Entry(int id, TableDescriptor descriptor, boolean enabled, List<Span> regions) {
    Entry {
      regions = List.copyOf(regions);
    }

    Entry withEnabled(boolean on) {
      return new Entry(id, descriptor, on, regions);
    }

    /** This entry with every region's sequence id base at {@code seqIdBase} (a table made of linked files). */
    Entry withSeqIdBase(long seqIdBase) {
      List<Span> out = new ArrayList<>(regions.size());
      for (Span s : regions) {
        out.add(new Span(s.id(), s.start(), s.end(), s.identity(), seqIdBase));
      }
      return new Entry(id, descriptor, enabled, out);
    }
  }

  /** A split under way: the parent region of a table, the ids of its daughters and the split key. */
  record SplitIntent(int tableId, int parent, int daughterA, int daughterB, byte[] key) {}

  private final Map<String, Entry> tables;
  private final int nextTableId;
  private final int nextRegionId;
  private final SplitIntent intent;
  /** Whether this was read from an older version: the engine writes it again at open. */
  private final boolean upgraded;

  Catalog(Map<String, Entry> tables, int nextTableId, int nextRegionId) {
    this(tables, nextTableId, nextRegionId, null);
  }

  Catalog(Map<String, Entry> tables, int nextTableId, int nextRegionId, SplitIntent intent) {
    this(tables, nextTableId, nextRegionId, intent, false);
  }

  private Catalog(Map<String, Entry> tables, int nextTableId, int nextRegionId, SplitIntent intent, boolean upgraded) {
    this.upgraded = upgraded;
    this.tables = Collections.unmodifiableMap(new LinkedHashMap<>(tables));
    this.nextTableId = nextTableId;
    this.nextRegionId = nextRegionId;
    this.intent = intent;
  }

  /**
   * Whether this catalog was read from an older format version (its regions got identities now):
   * it must be written before any region is opened, so that the identities stay.
   */
  boolean upgraded() {
    return upgraded;
  }

  /** The split under way, or null. */
  SplitIntent intent() {
    return intent;
  }

  /**
   * This catalog with the intent to split region {@code parent} of table {@code tableId} at {@code
   * key}: the daughters get the next two region ids.
   */
  Catalog withIntent(int tableId, int parent, byte[] key) {
    SplitIntent i = new SplitIntent(tableId, parent, nextRegionId, nextRegionId + 1, key.clone());
    return new Catalog(tables, nextTableId, nextRegionId + 2, i);
  }

  /** This catalog without its split intent (a rolled-back split). */
  Catalog withoutIntent() {
    return new Catalog(tables, nextTableId, nextRegionId, null);
  }

  /**
   * The committed split of the intent: the table's parent region replaced by its two daughters,
   * {@code [parent start, key)} and {@code [key, parent end)}, new identities each and sequence id
   * base {@code seqIdBase} (at least the parent's last sequence id), and no intent.
   */
  Catalog splitCommitted(long seqIdBase) {
    SplitIntent i = intent;
    Entry target = null;
    for (Entry e : tables.values()) {
      if (e.id() == i.tableId()) {
        target = e;
      }
    }
    List<Span> spans = new ArrayList<>();
    for (Span s : target.regions()) {
      if (s.id() == i.parent()) {
        spans.add(Span.create(i.daughterA(), s.start(), i.key(), seqIdBase));
        spans.add(Span.create(i.daughterB(), i.key(), s.end(), seqIdBase));
      } else {
        spans.add(s);
      }
    }
    Map<String, Entry> m = new LinkedHashMap<>(tables);
    m.put(target.descriptor().name(), new Entry(target.id(), target.descriptor(), target.enabled(), spans));
    return new Catalog(m, nextTableId, nextRegionId, null);
  }

  static Catalog empty() {
    return new Catalog(Map.of(), 1, 1);
  }

  int nextRegionId() {
    return nextRegionId;
  }

  /**
   * The regions of a new table with these split keys (sorted, distinct, non-empty: see {@link
   * SplitKeys#check}): {@code splitKeys.size() + 1} regions numbered from {@link #nextRegionId}, new
   * identities each, their sequence ids based at {@code seqIdBase}.
   */
  List<Span> newRegions(List<byte[]> splitKeys, long seqIdBase) {
    List<Span> out = new ArrayList<>(splitKeys.size() + 1);
    byte[] start = Bytes.EMPTY;
    int id = nextRegionId;
    for (byte[] k : splitKeys) {
      out.add(Span.create(id++, start, k.clone(), seqIdBase));
      start = k.clone();
    }
    out.add(Span.create(id, start, Bytes.EMPTY, seqIdBase));
    return out;
  }

  Map<String, Entry> tables() {
    return tables;
  }

  int nextTableId() {
    return nextTableId;
  }

  Catalog with(Entry e) {
    Map<String, Entry> m = new LinkedHashMap<>(tables);
    m.put(e.descriptor().name(), e);
    int nextRegion = nextRegionId;
    for (Span r : e.regions()) {
      nextRegion = Math.max(nextRegion, r.id() + 1);
    }
    return new Catalog(m, Math.max(nextTableId, e.id() + 1), nextRegion, intent);
  }

  Catalog without(String name) {
    Map<String, Entry> m = new LinkedHashMap<>(tables);
    m.remove(name);
    return new Catalog(m, nextTableId, nextRegionId, intent);
  }

  void write(FileSystem fs, Path dir) throws IOException {
    StringBuilder sb = new StringBuilder();
    sb.append(HEADER).append('\n');
    sb.append("next-table-id ").append(nextTableId).append('\n');
    sb.append("next-region-id ").append(nextRegionId).append('\n');
    for (Entry e : tables.values()) {
      TableDescriptor d = e.descriptor();
      sb.append("table ").append(e.id()).append(' ').append(d.name()).append(' ')
          .append(e.enabled() ? "enabled" : "disabled").append('\n');
      for (Map.Entry<Knob<?>, Object> o : d.explicitValues().entrySet()) {
        sb.append("table-option ").append(e.id()).append(' ').append(o.getKey().name()).append(' ')
            .append(o.getValue()).append('\n');
      }
      for (ColumnFamilyDescriptor f : d.families()) {
        sb.append("family ").append(e.id()).append(' ').append(f.name()).append('\n');
        for (Map.Entry<Knob<?>, Object> o : f.explicitValues().entrySet()) {
          sb.append("family-option ").append(e.id()).append(' ').append(f.name()).append(' ')
              .append(o.getKey().name()).append(' ').append(o.getValue()).append('\n');
        }
      }
      for (Span r : e.regions()) {
        sb.append("region ").append(e.id()).append(' ').append(r.id()).append(' ').append(key(r.start()))
            .append(' ').append(key(r.end())).append(' ').append(r.identity()).append(' ').append(r.seqIdBase())
            .append('\n');
      }
    }
    if (intent != null) {
      sb.append("split-intent ").append(intent.tableId()).append(' ').append(intent.parent()).append(' ')
          .append(intent.daughterA()).append(' ').append(intent.daughterB()).append(' ')
          .append(key(intent.key())).append('\n');
    }
    ChecksummedText.write(fs, dir.resolve(FILE_NAME), sb.toString());
  }

  static boolean exists(FileSystem fs, Path dir) {
    return fs.exists(dir.resolve(FILE_NAME));
  }

  /** Reads the catalog; a missing one is an error (the engine writes it first of all files). */
  static Catalog load(FileSystem fs, Path dir) throws IOException {
    Path p = dir.resolve(FILE_NAME);
    String body;
    int version;
    try {
      version = checkVersion(fs, p);
      body = ChecksummedText.read(fs, p, PREFIX + version, "catalog");
    } catch (NoSuchFileException e) {
      throw new CorruptionException(p + ": the catalog is missing");
    }
    int nextId = 1;
    int nextRegion = 1;
    SplitIntent intent = null;
    Map<Integer, List<Span>> spans = new LinkedHashMap<>();
    Map<Integer, String> names = new LinkedHashMap<>();
    Map<Integer, Boolean> enabled = new LinkedHashMap<>();
    Map<Integer, TableDescriptor.Builder> builders = new LinkedHashMap<>();
    Map<String, ColumnFamilyDescriptor.Builder> families = new LinkedHashMap<>();
    Map<Integer, List<String>> familyOrder = new LinkedHashMap<>();
    String[] lines = body.split("\n");
    for (int i = 1; i < lines.length; i++) {
      String[] f = lines[i].split(" ", -1);
      try {
        switch (f[0]) {
          case "next-table-id":
            nextId = Integer.parseInt(f[1]);
            break;
          case "next-region-id":
            nextRegion = Integer.parseInt(f[1]);
            break;
          case "region":
            spans.computeIfAbsent(Integer.parseInt(f[1]), k -> new ArrayList<>()).add(region(f, version));
            break;
          case "split-intent":
            if (intent != null) {
              throw new CorruptionException(p + ": a second split-intent at line " + (i + 1));
            }
            intent = new SplitIntent(Integer.parseInt(f[1]), Integer.parseInt(f[2]), Integer.parseInt(f[3]),
                Integer.parseInt(f[4]), parseKey(f[5]));
            break;
          case "table": {
            int id = Integer.parseInt(f[1]);
            names.put(id, f[2]);
            enabled.put(id, f[3].equals("enabled"));
            builders.put(id, TableDescriptor.builder(f[2]));
            familyOrder.put(id, new ArrayList<>());
            break;
          }
          case "table-option":
            builders.get(Integer.parseInt(f[1])).set(f[2], f[3]);
            break;
          case "family":
            families.put(f[1] + "/" + f[2], ColumnFamilyDescriptor.builder(f[2]));
            familyOrder.get(Integer.parseInt(f[1])).add(f[2]);
            break;
          case "family-option":
            families.get(f[1] + "/" + f[2]).set(f[3], f[4]);
            break;
          default:
            throw new CorruptionException(p + ": unknown catalog line " + (i + 1) + ": " + lines[i]);
        }
      } catch (RuntimeException e) {
        if (e instanceof CorruptionException) {
          throw e;
        }
        throw new CorruptionException(p + ": bad catalog line " + (i + 1) + ": " + lines[i], e);
      }
    }
    Map<String, Entry> tables = new LinkedHashMap<>();
    for (Map.Entry<Integer, TableDescriptor.Builder> e : builders.entrySet()) {
      TableDescriptor.Builder b = e.getValue();
      TableDescriptor d;
      try {
        for (String fam : familyOrder.get(e.getKey())) {
          b.family(families.get(e.getKey() + "/" + fam).build());
        }
        d = b.build();
      } catch (IllegalArgumentException | IllegalStateException bad) {
        // Lines that each parsed but do not make a valid table (no family, a family twice).
        throw new CorruptionException(p + ": table id " + e.getKey() + " is not valid: " + bad.getMessage(), bad);
      }
      List<Span> regions = spans.getOrDefault(e.getKey(), List.of());
      checkRegions(p, d.name(), regions, nextRegion);
      tables.put(d.name(), new Entry(e.getKey(), d, enabled.get(e.getKey()), regions));
    }
    for (Integer tableId : spans.keySet()) {
      if (!builders.containsKey(tableId)) {
        throw new CorruptionException(p + ": regions of table id " + tableId + ", which the catalog does not list");
      }
    }
    SplitIntent in = intent;
    if (in != null && (!spans.containsKey(in.tableId()) || in.daughterB() >= nextRegion
        || spans.get(in.tableId()).stream().noneMatch(r -> r.id() == in.parent()))) {
      throw new CorruptionException(p + ": the split-intent names a region the catalog does not list");
    }
    checkIdentitiesDistinct(p, tables);
    return new Catalog(tables, nextId, nextRegion, intent, version != VERSION);
  }

  /** A region line's span; a version 2 line has no identity and base: a new identity, base 0. */
  private static Span region(String[] f, int version) {
    int id = Integer.parseInt(f[2]);
    if (version == VERSION_WITHOUT_IDENTITIES) {
      if (f.length != 5) {
        throw new IllegalArgumentException("a version " + version + " region line has 5 fields");
      }
      return Span.create(id, parseKey(f[3]), parseKey(f[4]), 0);
    }
    if (f.length != 7) {
      throw new IllegalArgumentException("a region line has 7 fields");
    }
    long base = Long.parseLong(f[6]);
    if (base < 0) {
      throw new IllegalArgumentException("a negative sequence id base");
    }
    return new Span(id, parseKey(f[3]), parseKey(f[4]), UUID.fromString(f[5]), base);
  }

  /** Two regions of one identity would collide wherever either moves: damage. */
  private static void checkIdentitiesDistinct(Path p, Map<String, Entry> tables) {
    Set<UUID> seen = new HashSet<>();
    for (Entry e : tables.values()) {
      for (Span s : e.regions()) {
        if (!seen.add(s.identity())) {
          throw new CorruptionException(p + ": region identity " + s.identity() + " is listed twice");
        }
      }
    }
  }

  /** A table's regions must cover every key, in order, without gaps or overlaps. */
  private static void checkRegions(Path p, String table, List<Span> regions, int nextRegion) {
    if (regions.isEmpty()) {
      throw new CorruptionException(p + ": table '" + table + "' has no regions");
    }
    byte[] expectedStart = Bytes.EMPTY;
    for (int i = 0; i < regions.size(); i++) {
      Span r = regions.get(i);
      boolean last = i == regions.size() - 1;
      if (!java.util.Arrays.equals(r.start(), expectedStart)
          || (last ? r.end().length != 0 : Bytes.compare(r.end(), r.start()) <= 0)
          || r.id() <= 0 || r.id() >= nextRegion) {
        throw new CorruptionException(p + ": the regions of table '" + table + "' do not cover the key"
            + " space in order (region " + r.id() + " [" + key(r.start()) + ", " + key(r.end()) + "))");
      }
      expectedStart = r.end();
    }
  }

  /**
   * The catalog's format version (this one or version 2); refuses another with a message saying
   * so, before its checksum is checked (a version 1 catalog is whole, just older).
   */
  private static int checkVersion(FileSystem fs, Path p) throws IOException {
    String whole = new String(fs.readAll(p), StandardCharsets.ISO_8859_1);
    int eol = whole.indexOf('\n');
    String first = eol < 0 ? whole : whole.substring(0, eol);
    if (first.equals(PREFIX + VERSION_WITHOUT_IDENTITIES)) {
      return VERSION_WITHOUT_IDENTITIES;
    }
    if (first.startsWith(PREFIX) && !first.equals(HEADER)) {
      String v = first.substring(PREFIX.length());
      throw new StorageException(p + ": catalog format version " + v + " is not supported: this build"
          + " reads versions " + VERSION_WITHOUT_IDENTITIES + " and " + VERSION + " (tables split into regions)."
          + " Version 1 data directories"
          + " cannot be opened; export the data with the build that wrote them");
    }
    return VERSION; // or not a catalog at all: the header check says so
  }

  /** A key as the catalog writes it: lower-case hex, {@code -} for the empty key. */
  static String key(byte[] k) {
    return k.length == 0 ? "-" : HEX.formatHex(k);
  }

  static byte[] parseKey(String s) {
    return s.equals("-") ? Bytes.EMPTY : HEX.parseHex(s);
  }
}
