package io.bellows.engine;

import io.bellows.config.Knob;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.ChecksummedText;
import io.bellows.util.CorruptionException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The engine's durable list of tables: id, descriptor and enabled state of each, and the next table
 * id (ids are never reused, so WAL edits of a dropped table are recognised and skipped). Stored as a
 * text file {@code CATALOG} replaced atomically; the last line is a CRC32C of the rest. Layout:
 *
 * <pre>
 *   bellows-catalog 1
 *   next-table-id &lt;int&gt;
 *   table &lt;id&gt; &lt;name&gt; &lt;enabled|disabled&gt;
 *   table-option &lt;id&gt; &lt;KNOB&gt; &lt;value&gt;
 *   family &lt;id&gt; &lt;family&gt;
 *   family-option &lt;id&gt; &lt;family&gt; &lt;KNOB&gt; &lt;value&gt;
 *   crc32c &lt;8 hex digits&gt;
 * </pre>
 */
final class Catalog {
  static final String FILE_NAME = "CATALOG";
  static final int VERSION = 1;
  private static final String HEADER = "bellows-catalog " + VERSION;

  /** One table's entry. */
  record Entry(int id, TableDescriptor descriptor, boolean enabled) {}

  private final Map<String, Entry> tables;
  private final int nextTableId;

  Catalog(Map<String, Entry> tables, int nextTableId) {
    this.tables = Collections.unmodifiableMap(new LinkedHashMap<>(tables));
    this.nextTableId = nextTableId;
  }

  static Catalog empty() {
    return new Catalog(Map.of(), 1);
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
    return new Catalog(m, Math.max(nextTableId, e.id() + 1));
  }

  Catalog without(String name) {
    Map<String, Entry> m = new LinkedHashMap<>(tables);
    m.remove(name);
    return new Catalog(m, nextTableId);
  }

  void write(Path dir) throws IOException {
    StringBuilder sb = new StringBuilder();
    sb.append(HEADER).append('\n');
    sb.append("next-table-id ").append(nextTableId).append('\n');
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
    }
    ChecksummedText.write(dir.resolve(FILE_NAME), sb.toString());
  }

  static boolean exists(Path dir) {
    return Files.exists(dir.resolve(FILE_NAME));
  }

  /** Reads the catalog; a missing one is an error (the engine writes it first of all files). */
  static Catalog load(Path dir) throws IOException {
    Path p = dir.resolve(FILE_NAME);
    String body;
    try {
      body = ChecksummedText.read(p, HEADER, "catalog");
    } catch (NoSuchFileException e) {
      throw new CorruptionException(p + ": the catalog is missing");
    }
    int nextId = 1;
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
      for (String fam : familyOrder.get(e.getKey())) {
        b.family(families.get(e.getKey() + "/" + fam).build());
      }
      TableDescriptor d = b.build();
      tables.put(d.name(), new Entry(e.getKey(), d, enabled.get(e.getKey())));
    }
    return new Catalog(tables, nextId);
  }
}
