package io.bellows.wire;

import com.google.protobuf.ByteString;
import io.bellows.cell.Cells;
import io.bellows.config.Durability;
import io.bellows.config.EngineOptions;
import io.bellows.config.Knob;
import io.bellows.engine.CallId;
import io.bellows.engine.RegionInfo;
import io.bellows.engine.RowMutation;
import io.bellows.engine.TableRef;
import io.bellows.protocol.BackgroundError;
import io.bellows.protocol.Cell;
import io.bellows.protocol.CellType;
import io.bellows.protocol.ColumnSelection;
import io.bellows.protocol.FamilyDescriptor;
import io.bellows.protocol.MetricValue;
import io.bellows.protocol.Query;
import io.bellows.protocol.Row;
import io.bellows.protocol.TableDescriptor;
import io.bellows.scan.ScanQuery;
import io.bellows.schema.ColumnFamilyDescriptor;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.TreeMap;
import java.util.UUID;

/**
 * Conversions between the engine's objects and their wire messages (bellows.proto), both ways: the
 * one place that knows how each field travels. Stateless. Every {@code from*} method validates what
 * the engine would not (an unknown cell type, a bad knob value) with {@link
 * IllegalArgumentException}, which the server answers with INVALID_ARGUMENT.
 */
public final class Wire {
  private Wire() {}

  // ------------------------------------------------------------------ call ids

  public static io.bellows.protocol.CallId toWire(CallId c) {
    byte[] client = ByteBuffer.allocate(16).putLong(c.clientHigh()).putLong(c.clientLow()).array();
    return io.bellows.protocol.CallId.newBuilder().setClient(ByteString.copyFrom(client)).setCall(c.call())
        .setLowestOutstanding(c.lowestOutstanding()).build();
  }

  /** A request's call id, checked: 16 bytes of client id, a call id of at least 1 and at least its lowest outstanding. */
  public static CallId fromWire(io.bellows.protocol.CallId c) {
    if (c.getClient().size() != 16) {
      throw new IllegalArgumentException("a call id's client must be 16 bytes, not " + c.getClient().size());
    }
    ByteBuffer client = c.getClient().asReadOnlyByteBuffer();
    return new CallId(client.getLong(), client.getLong(), c.getCall(), c.getLowestOutstanding());
  }

  // ------------------------------------------------------------------ bytes

  public static ByteString bytes(byte[] b) {
    return b == null || b.length == 0 ? ByteString.EMPTY : ByteString.copyFrom(b);
  }

  // ------------------------------------------------------------------ cells and rows

  public static Cell toWire(io.bellows.cell.Cell c) {
    return Cell.newBuilder()
        .setRow(ByteString.copyFrom(c.array(), c.rowOffset(), c.rowLength()))
        .setFamily(ByteString.copyFrom(c.array(), c.familyOffset(), c.familyLength()))
        .setQualifier(ByteString.copyFrom(c.array(), c.qualifierOffset(), c.qualifierLength()))
        .setTimestamp(c.timestamp())
        .setType(toWire(c.type()))
        .setValue(ByteString.copyFrom(c.array(), c.valueOffset(), c.valueLength()))
        .build();
  }

  public static io.bellows.cell.Cell fromWire(Cell c) {
    return Cells.create(c.getRow().toByteArray(), c.getFamily().toByteArray(), c.getQualifier().toByteArray(),
        c.getTimestamp(), fromWire(c.getType()), c.getValue().toByteArray());
  }

  static CellType toWire(io.bellows.cell.CellType t) {
    return switch (t) {
      case PUT -> CellType.PUT;
      case DELETE -> CellType.DELETE;
      case DELETE_COLUMN -> CellType.DELETE_COLUMN;
      case DELETE_FAMILY -> CellType.DELETE_FAMILY;
      default -> throw new IllegalArgumentException("cell type " + t + " does not travel");
    };
  }

  static io.bellows.cell.CellType fromWire(CellType t) {
    return switch (t) {
      case PUT -> io.bellows.cell.CellType.PUT;
      case DELETE -> io.bellows.cell.CellType.DELETE;
      case DELETE_COLUMN -> io.bellows.cell.CellType.DELETE_COLUMN;
      case DELETE_FAMILY -> io.bellows.cell.CellType.DELETE_FAMILY;
      default -> throw new IllegalArgumentException("unknown cell type " + t);
    };
  }

  /** A row of cells (all of one row, as a scanner returns them). */
  public static Row toWireRow(List<io.bellows.cell.Cell> cells) {
    Row.Builder b = Row.newBuilder();
    if (!cells.isEmpty()) {
      io.bellows.cell.Cell first = cells.get(0);
      b.setRow(ByteString.copyFrom(first.array(), first.rowOffset(), first.rowLength()));
    }
    for (io.bellows.cell.Cell c : cells) {
      b.addCells(toWire(c));
    }
    return b.build();
  }

  public static List<io.bellows.cell.Cell> fromWire(Row row) {
    List<io.bellows.cell.Cell> out = new ArrayList<>(row.getCellsCount());
    for (Cell c : row.getCellsList()) {
      out.add(fromWire(c));
    }
    return out;
  }

  public static io.bellows.protocol.Durability toWire(Durability d) {
    return io.bellows.protocol.Durability.forNumber(d.ordinal());
  }

  public static Durability fromWire(io.bellows.protocol.Durability d) {
    if (d == io.bellows.protocol.Durability.UNRECOGNIZED) {
      throw new IllegalArgumentException("unknown durability");
    }
    return Durability.values()[d.getNumber()];
  }

  public static io.bellows.protocol.RowMutation toWire(RowMutation m) {
    io.bellows.protocol.RowMutation.Builder b = io.bellows.protocol.RowMutation.newBuilder()
        .setRow(bytes(m.row()))
        .setDurability(toWire(m.durability()));
    if (m.wholeRowDeleteTs() >= 0) {
      b.setWholeRowDelete(true).setWholeRowDeleteTs(m.wholeRowDeleteTs());
    }
    for (io.bellows.cell.Cell c : m.cells()) {
      b.addCells(toWire(c));
    }
    return b.build();
  }

  public static RowMutation fromWire(io.bellows.protocol.RowMutation m) {
    List<io.bellows.cell.Cell> cells = new ArrayList<>(m.getCellsCount());
    for (Cell c : m.getCellsList()) {
      if (!c.getRow().equals(m.getRow())) {
        throw new IllegalArgumentException("a cell's row differs from its mutation's row");
      }
      cells.add(fromWire(c));
    }
    if (m.getWholeRowDelete()) {
      if (m.getWholeRowDeleteTs() < 0) {
        throw new IllegalArgumentException("negative delete timestamp " + m.getWholeRowDeleteTs());
      }
      if (!cells.isEmpty()) {
        throw new IllegalArgumentException("a whole-row delete carries no cells");
      }
    }
    return new RowMutation(m.getRow().toByteArray(), cells,
        m.getWholeRowDelete() ? m.getWholeRowDeleteTs() : -1, fromWire(m.getDurability()));
  }

  // ------------------------------------------------------------------ cluster status

  /** A member's view of the cluster ({@code cluster} set). */
  public static io.bellows.protocol.ClusterStatusResponse toWire(io.bellows.engine.ClusterStatus status) {
    var b = io.bellows.protocol.ClusterStatusResponse.newBuilder().setCluster(true);
    for (var m : status.members()) {
      b.addMembers(io.bellows.protocol.ClusterMemberStatus.newBuilder().setId(m.id()).setAddress(m.address())
          .setReported(m.reported()));
    }
    for (var r : status.replicas()) {
      b.addReplicas(io.bellows.protocol.ReplicaStatus.newBuilder()
          .setTable(r.table() == null ? "" : r.table())
          .setRegionId(r.regionId())
          .setMember(r.member())
          .setRole(r.role())
          .setLeader(r.leader() == null ? "" : r.leader())
          .setTerm(r.term())
          .setAppliedIndex(r.appliedIndex())
          .setStoreFileBytes(r.storeFileBytes())
          .setStoreFiles(r.storeFiles())
          .setMemStoreBytes(r.memStoreBytes()));
    }
    return b.build();
  }

  /** The status a response holds; empty when the server is not a cluster member. */
  public static java.util.Optional<io.bellows.engine.ClusterStatus> fromWire(io.bellows.protocol.ClusterStatusResponse r) {
    if (!r.getCluster()) {
      return java.util.Optional.empty();
    }
    List<io.bellows.engine.ClusterStatus.Member> members = new ArrayList<>();
    for (var m : r.getMembersList()) {
      members.add(new io.bellows.engine.ClusterStatus.Member(m.getId(), m.getAddress(), m.getReported()));
    }
    List<io.bellows.engine.ClusterStatus.Replica> replicas = new ArrayList<>();
    for (var x : r.getReplicasList()) {
      replicas.add(new io.bellows.engine.ClusterStatus.Replica(x.getTable().isEmpty() ? null : x.getTable(),
          x.getRegionId(), x.getMember(), x.getRole(), x.getLeader().isEmpty() ? null : x.getLeader(), x.getTerm(),
          x.getAppliedIndex(), x.getStoreFileBytes(), x.getStoreFiles(), x.getMemStoreBytes()));
    }
    return java.util.Optional.of(new io.bellows.engine.ClusterStatus(members, replicas));
  }

  // ------------------------------------------------------------------ queries

  /** A query's wire form, its filter included ({@link WireFilters}). */
  public static Query toWire(ScanQuery q) {
    Query.Builder b = Query.newBuilder()
        .setReversed(q.reversed())
        .setStartRow(bytes(q.startRow()))
        .setStartInclusive(q.startInclusive())
        .setStopRow(bytes(q.stopRow()))
        .setStopInclusive(q.stopInclusive())
        .setSingleRow(q.isSingleRow())
        .setMinTimestamp(q.minTimestamp())
        .setMaxTimestamp(q.maxTimestamp() == Long.MAX_VALUE ? 0 : q.maxTimestamp())
        .setMaxVersions(q.maxVersions())
        .setLimit(q.limit() == Long.MAX_VALUE ? 0 : q.limit())
        .setConsistency(q.consistency() == io.bellows.scan.Consistency.TIMELINE
            ? io.bellows.protocol.Consistency.TIMELINE : io.bellows.protocol.Consistency.STRONG);
    if (q.filter() != null) {
      b.setFilter(WireFilters.toWire(q.filter()));
    }
    for (Map.Entry<byte[], NavigableSet<byte[]>> e : q.columns().entrySet()) {
      ColumnSelection.Builder c = ColumnSelection.newBuilder().setFamily(bytes(e.getKey()));
      if (e.getValue() != null) {
        e.getValue().forEach(qual -> c.addQualifiers(bytes(qual)));
      }
      b.addColumns(c);
    }
    return b.build();
  }

  public static ScanQuery fromWire(Query q) {
    ScanQuery.Builder b = ScanQuery.builder();
    if (q.getSingleRow()) {
      if (q.getStartRow().isEmpty()) {
        throw new IllegalArgumentException("row key must not be null or empty");
      }
      b.singleRow(q.getStartRow().toByteArray());
    } else {
      b.startRow(q.getStartRow().toByteArray(), q.getStartInclusive());
      b.stopRow(q.getStopRow().toByteArray(), q.getStopInclusive());
    }
    for (ColumnSelection c : q.getColumnsList()) {
      if (c.getFamily().isEmpty()) {
        throw new IllegalArgumentException("family must not be null or empty");
      }
      byte[] family = c.getFamily().toByteArray();
      if (c.getQualifiersCount() == 0) {
        b.addFamily(family);
      } else {
        c.getQualifiersList().forEach(qual -> b.addColumn(family, qual.toByteArray()));
      }
    }
    b.timeRange(q.getMinTimestamp(), q.getMaxTimestamp() == 0 ? Long.MAX_VALUE : q.getMaxTimestamp());
    b.maxVersions(q.getMaxVersions() == 0 ? 1 : q.getMaxVersions());
    b.reversed(q.getReversed());
    b.consistency(switch (q.getConsistency()) {
      case STRONG -> io.bellows.scan.Consistency.STRONG;
      case TIMELINE -> io.bellows.scan.Consistency.TIMELINE;
      default -> throw new IllegalArgumentException("unknown read consistency " + q.getConsistencyValue());
    });
    if (q.hasFilter()) {
      b.filter(WireFilters.fromWire(q.getFilter()));
    }
    if (q.getLimit() < 0) {
      throw new IllegalArgumentException("limit must be at least 1, not " + q.getLimit());
    }
    if (q.getLimit() > 0) {
      b.limit(q.getLimit());
    }
    return b.build();
  }

  // ------------------------------------------------------------------ schema

  public static TableDescriptor toWire(io.bellows.schema.TableDescriptor d) {
    TableDescriptor.Builder b = TableDescriptor.newBuilder().setName(d.name()).putAllSettings(settings(d.explicitValues()));
    for (ColumnFamilyDescriptor f : d.families()) {
      b.addFamilies(FamilyDescriptor.newBuilder().setName(f.name()).putAllSettings(settings(f.explicitValues())));
    }
    return b.build();
  }

  public static io.bellows.schema.TableDescriptor fromWire(TableDescriptor d) {
    io.bellows.schema.TableDescriptor.Builder b = io.bellows.schema.TableDescriptor.builder(d.getName());
    new TreeMap<>(d.getSettingsMap()).forEach(b::set);
    for (FamilyDescriptor f : d.getFamiliesList()) {
      ColumnFamilyDescriptor.Builder fb = ColumnFamilyDescriptor.builder(f.getName());
      new TreeMap<>(f.getSettingsMap()).forEach(fb::set);
      b.family(fb.build());
    }
    return b.build();
  }

  /** Knob values in their text form, which each knob's parser reads back to the same value. */
  public static Map<String, String> settings(Map<Knob<?>, Object> values) {
    Map<String, String> out = new LinkedHashMap<>();
    values.forEach((k, v) -> out.put(k.name(), String.valueOf(v)));
    return out;
  }

  public static EngineOptions engineOptions(Map<String, String> settings) {
    EngineOptions.Builder b = EngineOptions.builder();
    new TreeMap<>(settings).forEach(b::set);
    return b.build();
  }

  public static io.bellows.protocol.TableRef toWire(TableRef t) {
    return io.bellows.protocol.TableRef.newBuilder().setName(t.name()).setId(t.id()).setSchema(toWire(t.descriptor())).build();
  }

  public static TableRef fromWire(io.bellows.protocol.TableRef t) {
    return new TableRef(t.getName(), t.getId(), fromWire(t.getSchema()));
  }

  // ------------------------------------------------------------------ state

  public static io.bellows.protocol.RegionInfo toWire(RegionInfo r) {
    return io.bellows.protocol.RegionInfo.newBuilder()
        .setId(r.id())
        .setStartKey(bytes(r.startKey()))
        .setEndKey(bytes(r.endKey()))
        .setStoreFileBytes(r.storeFileBytes())
        .setStoreFiles(r.storeFiles())
        .setMemStoreBytes(r.memStoreBytes())
        .setIdentity(r.identity() == null ? ByteString.EMPTY : uuid(r.identity()))
        .setSeqIdBase(r.seqIdBase())
        .build();
  }

  public static RegionInfo fromWire(io.bellows.protocol.RegionInfo r) {
    return new RegionInfo(r.getId(), r.getStartKey().toByteArray(), r.getEndKey().toByteArray(),
        r.getStoreFileBytes(), r.getStoreFiles(), r.getMemStoreBytes(), uuid(r.getIdentity()), r.getSeqIdBase());
  }

  /** A UUID as 16 bytes, most significant first. */
  private static ByteString uuid(UUID id) {
    return ByteString.copyFrom(ByteBuffer.allocate(16).putLong(id.getMostSignificantBits())
        .putLong(id.getLeastSignificantBits()).array());
  }

  /** The UUID of 16 bytes, or null for none (an older server's answer). */
  private static UUID uuid(ByteString b) {
    if (b.isEmpty()) {
      return null;
    }
    if (b.size() != 16) {
      throw new IllegalArgumentException("a region identity is 16 bytes, not " + b.size());
    }
    ByteBuffer buf = b.asReadOnlyByteBuffer();
    return new UUID(buf.getLong(), buf.getLong());
  }

  public static io.bellows.protocol.SnapshotInfo toWire(io.bellows.engine.SnapshotInfo s) {
    return io.bellows.protocol.SnapshotInfo.newBuilder()
        .setName(s.name()).setTable(s.table()).setCreatedMillis(s.createdMillis()).build();
  }

  public static io.bellows.engine.SnapshotInfo fromWire(io.bellows.protocol.SnapshotInfo s) {
    return new io.bellows.engine.SnapshotInfo(s.getName(), s.getTable(), s.getCreatedMillis());
  }

  public static BackgroundError toWire(io.bellows.util.BackgroundError e) {
    return BackgroundError.newBuilder()
        .setKind(BackgroundError.Kind.valueOf(e.kind().name()))
        .setSeverity(BackgroundError.Severity.valueOf(e.severity().name()))
        .setTable(e.table() == null ? "" : e.table())
        .setMessage(e.message())
        .setSinceEpochMillis(e.since().toEpochMilli())
        .setAttempts(e.attempts())
        .build();
  }

  public static io.bellows.util.BackgroundError fromWire(BackgroundError e) {
    return new io.bellows.util.BackgroundError(
        io.bellows.util.BackgroundError.Kind.valueOf(e.getKind().name()),
        io.bellows.util.BackgroundError.Severity.valueOf(e.getSeverity().name()),
        e.getTable().isEmpty() ? null : e.getTable(), e.getMessage(),
        Instant.ofEpochMilli(e.getSinceEpochMillis()), e.getAttempts());
  }

  public static io.bellows.protocol.VerifyResponse toWire(io.bellows.engine.VerifyReport r) {
    io.bellows.protocol.VerifyResponse.Builder b = io.bellows.protocol.VerifyResponse.newBuilder()
        .setStores(r.stores()).setManifests(r.manifests()).setFiles(r.files()).setBlocks(r.blocks())
        .setCells(r.cells()).setWalFiles(r.walFiles());
    for (io.bellows.engine.VerifyReport.Damage d : r.damages()) {
      b.addDamages(io.bellows.protocol.VerifyDamage.newBuilder().setFile(d.file()).setOffset(d.offset())
          .setProblem(d.problem()));
    }
    return b.build();
  }

  public static io.bellows.engine.VerifyReport fromWire(io.bellows.protocol.VerifyResponse r) {
    java.util.List<io.bellows.engine.VerifyReport.Damage> damages = new java.util.ArrayList<>();
    for (io.bellows.protocol.VerifyDamage d : r.getDamagesList()) {
      damages.add(new io.bellows.engine.VerifyReport.Damage(d.getFile(), d.getOffset(), d.getProblem()));
    }
    return new io.bellows.engine.VerifyReport(r.getStores(), r.getManifests(), r.getFiles(), r.getBlocks(),
        r.getCells(), r.getWalFiles(), damages);
  }

  public static MetricValue toWire(Number n) {
    if (n instanceof Double || n instanceof Float) {
      return MetricValue.newBuilder().setDoubleValue(n.doubleValue()).build();
    }
    return MetricValue.newBuilder().setLongValue(n.longValue()).build();
  }

  public static Number fromWire(MetricValue v) {
    return v.getValueCase() == MetricValue.ValueCase.DOUBLE_VALUE ? (Number) v.getDoubleValue() : (Number) v.getLongValue();
  }

  public static Map<String, MetricValue> toWire(Map<String, Number> metrics) {
    Map<String, MetricValue> out = new LinkedHashMap<>();
    metrics.forEach((k, v) -> out.put(k, toWire(v)));
    return out;
  }

  public static Map<String, Number> metricsFromWire(Map<String, MetricValue> metrics) {
    Map<String, Number> out = new TreeMap<>();
    metrics.forEach((k, v) -> out.put(k, fromWire(v)));
    return out;
  }
}
