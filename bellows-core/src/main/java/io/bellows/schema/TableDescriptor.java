package io.bellows.schema;

import io.bellows.config.Durability;
import io.bellows.config.Knob;
import io.bellows.config.Knobs;
import io.bellows.config.Settings;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A table's name, its column families and its settings (the {@code TABLE} knobs). Immutable. */
public final class TableDescriptor extends Settings {
  private final String name;
  private final Map<String, ColumnFamilyDescriptor> families;

  private TableDescriptor(String name, Map<Knob<?>, Object> values, Map<String, ColumnFamilyDescriptor> families) {
    super(Knob.Scope.TABLE, values);
    this.name = name;
    this.families = Collections.unmodifiableMap(new LinkedHashMap<>(families));
  }

  public static Builder builder(String name) {
    return new Builder(name);
  }

  public Builder toBuilder() {
    return toBuilder(name);
  }

  /** A builder holding this table's settings and families under another name (a clone's). */
  public Builder toBuilder(String newName) {
    Builder b = new Builder(newName);
    b.setAllFrom(explicitValues());
    families.values().forEach(b::family);
    return b;
  }

  public String name() {
    return name;
  }

  public List<ColumnFamilyDescriptor> families() {
    return new ArrayList<>(families.values());
  }

  /** The family of that name, or null. */
  public ColumnFamilyDescriptor family(String family) {
    return families.get(family);
  }

  public Durability durability() {
    return get(Knobs.TABLE_DURABILITY);
  }

  public long flushSize() {
    return get(Knobs.MEMSTORE_FLUSHSIZE);
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("'").append(name).append('\'');
    for (Map.Entry<Knob<?>, Object> e : explicitValues().entrySet()) {
      sb.append(", {").append(e.getKey().name()).append(" => '").append(e.getValue()).append("'}");
    }
    for (ColumnFamilyDescriptor f : families.values()) {
      sb.append(", ").append(f);
    }
    return sb.toString();
  }

  /** Builder; a table needs a valid name and at least one family. */
  public static final class Builder extends Settings.Builder<Builder> {
    private final String name;
    private final Map<String, ColumnFamilyDescriptor> families = new LinkedHashMap<>();

    private Builder(String name) {
      super(Knob.Scope.TABLE);
      this.name = validateName(name);
    }

    void setAllFrom(Map<Knob<?>, Object> values) {
      setAll(values);
    }

    public Builder family(ColumnFamilyDescriptor f) {
      if (families.containsKey(f.name())) {
        throw new IllegalArgumentException("family '" + f.name() + "' given twice");
      }
      families.put(f.name(), f);
      return this;
    }

    public Builder family(String name) {
      return family(ColumnFamilyDescriptor.of(name));
    }

    /** Replaces or adds a family. */
    public Builder modifyFamily(ColumnFamilyDescriptor f) {
      families.put(f.name(), f);
      return this;
    }

    /** Removes a family; throws if the builder has none of that name. */
    public Builder removeFamily(String name) {
      if (families.remove(name) == null) {
        throw new io.bellows.util.NoSuchColumnFamilyException("no column family '" + name + "'");
      }
      return this;
    }

    public Builder durability(Durability d) {
      return set(Knobs.TABLE_DURABILITY, d);
    }

    public Builder flushSize(long bytes) {
      return set(Knobs.MEMSTORE_FLUSHSIZE, bytes);
    }

    public TableDescriptor build() {
      if (families.isEmpty()) {
        throw new IllegalArgumentException("table '" + name + "' needs at least one column family");
      }
      return new TableDescriptor(name, values, families);
    }
  }

  static String validateName(String name) {
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException("table name must not be empty");
    }
    if (name.length() > 200) {
      throw new IllegalArgumentException("table name longer than 200 characters");
    }
    for (char c : name.toCharArray()) {
      boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
      if (!ok) {
        throw new IllegalArgumentException(
            "table name '" + name + "' may hold only ASCII letters (a-z, A-Z), digits (0-9), '_', '-' and '.'");
      }
    }
    if (name.startsWith(".") || name.startsWith("-")) {
      throw new IllegalArgumentException("table name must not start with '.' or '-': " + name);
    }
    return name;
  }
}
