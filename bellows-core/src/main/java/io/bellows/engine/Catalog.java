package io.bellows.engine;

import io.bellows.config.Knob;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.AtomicFiles;
import io.bellows.util.CorruptionException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32C;

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
    byte[] body = sb.toString().getBytes(StandardCharsets.UTF_8);
    CRC32C crc = new CRC32C();
    crc.update(body);
    String all = sb + String.format("crc32c %08x\n", (int) crc.getValue());
    AtomicFiles.write(dir.resolve(FILE_NAME), all.getBytes(StandardCharsets.UTF_8));
  }

  static boolean exists(Path dir) {
    return Files.exists(dir.resolve(FILE_NAME));
  }

  /** Reads the catalog; a missing one is an error (the engine writes it first of all files). */
  static Catalog load(Path dir) throws IOException {
    Path p = dir.resolve(FILE_NAME);
    byte[] raw;
    try {
      raw = Files.readAllBytes(p);
    } catch (NoSuchFileException e) {
      throw new CorruptionException(p + ": the catalog is missing");
    }
    // Checked as bytes (one char per byte) before anything is decoded, so that damage is reported
    // as damage, with its offset, and never as a decoding error.
    String bytes = new String(raw, StandardCharsets.ISO_8859_1);
    int crcLine = bytes.lastIndexOf("crc32c ");
    if (!bytes.startsWith(HEADER + "\n") || crcLine < 0) {
      throw new CorruptionException(p + ": not a Bellows catalog (bad header or missing checksum)");
    }
    CRC32C crc = new CRC32C();
    crc.update(raw, 0, crcLine);
    if (!bytes.substring(crcLine + 7).equals(String.format("%08x\n", (int) crc.getValue()))) {
      throw new CorruptionException(p + ": catalog checksum mismatch (checksum line at offset " + crcLine + ")");
    }
    String body;
    try {
      body = StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(raw, 0, crcLine)).toString();
    } catch (java.nio.charset.CharacterCodingException e) {
      throw new CorruptionException(p + ": catalog is not valid UTF-8", e);
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
