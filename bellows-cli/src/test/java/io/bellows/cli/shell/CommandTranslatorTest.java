package io.bellows.cli.shell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.cell.Cell;
import io.bellows.cell.CellType;
import io.bellows.client.Mutation;
import io.bellows.client.Scan;
import io.bellows.config.Knob;
import io.bellows.config.Knobs;
import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.config.Compression;
import io.bellows.config.Durability;
import io.bellows.config.MemStorePolicy;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CommandTranslatorTest {
  private static Command translate(String statement) {
    try {
      return CommandTranslator.translate(StatementParser.parse(statement));
    } catch (ParseException e) {
      throw new AssertionError(e);
    }
  }

  private static TableDescriptor created(String statement) {
    return ((CreateCommand) translate(statement)).descriptor();
  }

  @Test
  void createWithSplitKeysOrAnAlgorithm() {
    CreateCommand c = (CreateCommand) translate("create 't', 'f', SPLITS => [\"\\x00n\", 'g', 't'], DURABILITY => 'ASYNC_WAL'");
    assertThat(c.splitKeys()).extracting(io.bellows.util.Bytes::toStringBinary).containsExactly("\\x00n", "g", "t");
    assertThat(c.descriptor().explicitValues()).hasSize(1);
    CreateCommand hex = (CreateCommand) translate("create 't', 'f', {NUMREGIONS => 4, SPLITALGO => 'HexStringSplit'}");
    assertThat(hex.splitKeys()).extracting(io.bellows.util.Bytes::str).containsExactly("40000000", "80000000", "c0000000");
    CreateCommand uni = (CreateCommand) translate("create 't', 'f', {NUMREGIONS => 2, SPLITALGO => 'UniformSplit'}");
    assertThat(uni.splitKeys()).hasSize(1);
    assertThat(((CreateCommand) translate("create 't', 'f'")).splitKeys()).isEmpty();
    assertThatThrownBy(() -> translate("create 't', 'f', SPLITS => ['a', 'a']"))
        .isInstanceOf(UsageException.class).hasMessageContaining("given twice");
    assertThatThrownBy(() -> translate("create 't', 'f', SPLITS => 'a'"))
        .isInstanceOf(UsageException.class).hasMessageContaining("SPLITS must be an array");
    assertThatThrownBy(() -> translate("create 't', 'f', SPLITS => ['a'], NUMREGIONS => 3"))
        .isInstanceOf(UsageException.class).hasMessageContaining("not both");
    assertThatThrownBy(() -> translate("create 't', 'f', {SPLITALGO => 'UniformSplit'}"))
        .isInstanceOf(UsageException.class).hasMessageContaining("go together");
  }

  @Test
  void createWithFamilyNamesAndHashes() {
    TableDescriptor d = created("create 't', 'f1', {NAME => 'f2', VERSIONS => 3, TTL => '86400', COMPRESSION => 'lz4'}");
    assertThat(d.name()).isEqualTo("t");
    assertThat(d.families()).extracting(ColumnFamilyDescriptor::name).containsExactly("f1", "f2");
    assertThat(d.family("f1").maxVersions()).isEqualTo(1);
    ColumnFamilyDescriptor f2 = d.family("f2");
    assertThat(f2.maxVersions()).isEqualTo(3);
    assertThat(f2.ttlMillis()).isEqualTo(86_400_000L);
    assertThat(f2.get(Knobs.COMPRESSION)).isEqualTo(Compression.LZ4);
    assertThat(d.explicitValues()).isEmpty();
  }

  @Test
  void createWithTableOptionsInBracesOrTrailing() {
    TableDescriptor a = created("create 't', {NAME => 'f'}, {DURABILITY => 'FSYNC_WAL'}");
    assertThat(a.durability()).isEqualTo(Durability.FSYNC_WAL);
    TableDescriptor b = created("create 't', 'f', DURABILITY => 'ASYNC_WAL', MEMSTORE_FLUSHSIZE => 1048576");
    assertThat(b.durability()).isEqualTo(Durability.ASYNC_WAL);
    assertThat(b.flushSize()).isEqualTo(1_048_576L);
    assertThat(b.families()).extracting(ColumnFamilyDescriptor::name).containsExactly("f");
  }

  @Test
  void createAcceptsAnyFamilyKnobByName() {
    ColumnFamilyDescriptor f = created("create 't', {NAME => 'f', IN_MEMORY_COMPACTION => 'ADAPTIVE',"
        + " ADAPTIVE_THRESHOLD => 0.5, MSLAB => true, MIN_VERSIONS => '1', VERSIONS => 2, TTL => 'FOREVER'}").family("f");
    assertThat(f.memStorePolicy()).isEqualTo(MemStorePolicy.ADAPTIVE);
    assertThat(f.get(Knobs.ADAPTIVE_THRESHOLD)).isEqualTo(0.5);
    assertThat(f.get(Knobs.MSLAB)).isTrue();
    assertThat(f.minVersions()).isEqualTo(1);
    assertThat(f.ttlMillis()).isEqualTo(Long.MAX_VALUE);
    // the bare-hash form is one family too
    assertThat(created("create 't', NAME => 'g', VERSIONS => 4").family("g").maxVersions()).isEqualTo(4);
  }

  @Test
  void everyTableAndFamilySizeTakesKMGSuffixes() {
    ColumnFamilyDescriptor f = created("create 't', {NAME => 'f', BLOCKSIZE => '8K'}").family("f");
    assertThat(f.get(Knobs.BLOCKSIZE)).isEqualTo(8192);
    assertThat(created("create 't', {NAME => 'f', BLOCKSIZE => '64k'}").family("f").get(Knobs.BLOCKSIZE))
        .isEqualTo(65536);
    assertThat(created("create 't', {NAME => 'f', BLOCKSIZE => '1M'}").family("f").get(Knobs.BLOCKSIZE))
        .isEqualTo(1 << 20);
    assertThat(created("create 't', 'f', MEMSTORE_FLUSHSIZE => '1g'").get(Knobs.MEMSTORE_FLUSHSIZE))
        .isEqualTo(1L << 30);
    for (Knob<?> k : Knobs.ALL) {
      if (!k.isSize() || k.scope() == Knob.Scope.ENGINE) {
        continue;
      }
      String statement = k.scope() == Knob.Scope.TABLE
          ? "create 't', 'f', " + k.name() + " => '1m'"
          : "create 't', {NAME => 'f', " + k.name() + " => '1m'"
              // dynamic blocks by default: a minimum of 1 MiB needs a maximum at least as large
              + (k == Knobs.MIN_BLOCKSIZE ? ", BLOCKSIZE => '1m'" : "") + "}";
      TableDescriptor d = created(statement);
      Object v = k.scope() == Knob.Scope.TABLE ? d.get(k) : d.family("f").get(k);
      assertThat(((Number) v).longValue()).as(statement).isEqualTo(1L << 20);
    }
  }

  @Test
  void createTakesTheDynamicBlockSizeSettings() {
    ColumnFamilyDescriptor f = created("create 't', {NAME => 'f', BLOCKSIZE => '32K', MIN_BLOCKSIZE => '2k',"
        + " MAX_ENTRIES_PER_BLOCK => 32}").family("f");
    assertThat(f.get(Knobs.BLOCKSIZE)).isEqualTo(32 * 1024);
    assertThat(f.get(Knobs.MIN_BLOCKSIZE)).isEqualTo(2048);
    assertThat(f.get(Knobs.MAX_ENTRIES_PER_BLOCK)).isEqualTo(32);
    assertThat(created("create 't', {NAME => 'f', MAX_ENTRIES_PER_BLOCK => '8'}").family("f")
        .get(Knobs.MAX_ENTRIES_PER_BLOCK)).isEqualTo(8);
    assertThatThrownBy(() -> translate("create 't', {NAME => 'f', BLOCKSIZE => '4K', MIN_BLOCKSIZE => '8K',"
        + " MAX_ENTRIES_PER_BLOCK => 32}")).isInstanceOf(UsageException.class)
        .hasMessageContaining("MIN_BLOCKSIZE (8192) exceeds BLOCKSIZE (4096) in family f");
    assertThatThrownBy(() -> translate("create 't', {NAME => 'f', MAX_ENTRIES_PER_BLOCK => -1}"))
        .isInstanceOf(UsageException.class).hasMessageContaining("MAX_ENTRIES_PER_BLOCK");
  }

  @Test
  void createRefusesBadSettings() {
    assertThatThrownBy(() -> translate("create 't', {NAME => 'f', BOGUS => 1}"))
        .isInstanceOf(UsageException.class).hasMessageContaining("family 'f'").hasMessageContaining("BOGUS");
    assertThatThrownBy(() -> translate("create 't', {NAME => 'f', VERSIONS => 0}"))
        .isInstanceOf(UsageException.class).hasMessageContaining("VERSIONS");
    assertThatThrownBy(() -> translate("create 't', {NAME => 'f', COMPRESSION => 'snappy'}"))
        .isInstanceOf(UsageException.class).hasMessageContaining("COMPRESSION");
    assertThatThrownBy(() -> translate("create 't', 'f', {DURABILITY => 'NOPE'}"))
        .isInstanceOf(UsageException.class).hasMessageContaining("DURABILITY");
    assertThatThrownBy(() -> translate("create 't', 'f', {VERSIONS => 3}"))
        .isInstanceOf(UsageException.class).hasMessageContaining("table").hasMessageContaining("VERSIONS");
    assertThatThrownBy(() -> translate("create 't'")).isInstanceOf(UsageException.class).hasMessageContaining("wrong number");
    assertThatThrownBy(() -> translate("create 't', 'f', 'f'")).isInstanceOf(UsageException.class).hasMessageContaining("twice");
    assertThatThrownBy(() -> translate("create 'bad name', 'f'")).isInstanceOf(UsageException.class);
    // a Cyrillic name is made of letters, just not of the letters allowed: say which ones are
    assertThatThrownBy(() -> translate("create 'таблица', 'f'")).isInstanceOf(UsageException.class)
        .hasMessageContaining("only ASCII letters (a-z, A-Z), digits (0-9)");
    assertThatThrownBy(() -> translate("create 't', 3")).isInstanceOf(UsageException.class);
    assertThatThrownBy(() -> translate("create 't', {NAME => 'f', MIN_VERSIONS => 3}"))
        .isInstanceOf(UsageException.class).hasMessageContaining("MIN_VERSIONS");
  }

  @Test
  void putBuildsOneCellWithExactBytes() {
    PutCommand p = (PutCommand) translate("put 't', \"r\\x00\", 'f:q:x', \"\\xff\", 42");
    assertThat(p.table()).isEqualTo("t");
    List<Cell> cells = p.put().cells();
    assertThat(cells).hasSize(1);
    Cell c = cells.get(0);
    assertThat(c.row()).containsExactly('r', 0);
    assertThat(c.family()).isEqualTo(Bytes.of("f"));
    assertThat(c.qualifier()).isEqualTo(Bytes.of("q:x"));
    assertThat(c.value()).containsExactly(0xff);
    assertThat(c.timestamp()).isEqualTo(42);
    assertThat(c.type()).isEqualTo(CellType.PUT);

    Cell noTs = ((PutCommand) translate("put 't', 'r', 'f', 'v'")).put().cells().get(0);
    assertThat(noTs.timestamp()).isEqualTo(Mutation.LATEST_TIMESTAMP);
    assertThat(noTs.qualifier()).isEmpty();
  }

  @Test
  void putRefusesBadArguments() {
    assertThatThrownBy(() -> translate("put 't', 'r', 'f:q'")).isInstanceOf(UsageException.class)
        .hasMessage("put: wrong number of arguments (given 3, expected 4 to 5)");
    assertThatThrownBy(() -> translate("put 't', 'r', 'f:q', 5")).hasMessageContaining("value must be a quoted string");
    assertThatThrownBy(() -> translate("put 't', 'r', 'f:q', 'v', -1")).isInstanceOf(UsageException.class);
    assertThatThrownBy(() -> translate("put 't', '', 'f:q', 'v'")).isInstanceOf(UsageException.class).hasMessageContaining("row");
    assertThatThrownBy(() -> translate("put 't', 'r', ':q', 'v'")).isInstanceOf(UsageException.class).hasMessageContaining("empty family");
  }

  @Test
  void getOptions() {
    GetCommand g = (GetCommand) translate(
        "get 't', 'r', {COLUMN => ['f1:a', 'f2', 'f1:b'], VERSIONS => 3, TIMERANGE => [10, 20]}");
    assertThat(g.get().row()).isEqualTo(Bytes.of("r"));
    assertThat(g.get().columns().keySet()).containsExactly("f1", "f2");
    assertThat(g.get().columns().get("f1")).extracting(Bytes::str).containsExactly("a", "b");
    assertThat(g.get().columns().get("f2")).isNull();
    assertThat(g.get().maxVersions()).isEqualTo(3);
    assertThat(g.get().minTimestamp()).isEqualTo(10);
    assertThat(g.get().maxTimestamp()).isEqualTo(20);

    GetCommand ts = (GetCommand) translate("get 't', 'r', {COLUMNS => 'f:q', TIMESTAMP => 7}");
    assertThat(ts.get().minTimestamp()).isEqualTo(7);
    assertThat(ts.get().maxTimestamp()).isEqualTo(8);

    GetCommand plain = (GetCommand) translate("get 't', 'r', 'f:a', 'g'");
    assertThat(plain.get().columns().keySet()).containsExactly("f", "g");
    assertThat(((GetCommand) translate("get 't', 'r', ['f:a']")).get().columns().keySet()).containsExactly("f");
    assertThat(((GetCommand) translate("get 't', 'r'")).get().columns()).isEmpty();
  }

  @Test
  void getRefusesUnknownOrBadOptions() {
    assertThatThrownBy(() -> translate("get 't', 'r', {FILTER => 'x'}"))
        .isInstanceOf(UsageException.class).hasMessageContaining("FILTER is not supported");
    assertThatThrownBy(() -> translate("get 't', 'r', {VERSIONS => 0}")).isInstanceOf(UsageException.class);
    assertThatThrownBy(() -> translate("get 't', 'r', {TIMERANGE => [5]}")).hasMessageContaining("two integers");
    assertThatThrownBy(() -> translate("get 't', 'r', {TIMERANGE => [5, 1]}")).isInstanceOf(UsageException.class);
    assertThatThrownBy(() -> translate("get 't', 'r', {TIMESTAMP => 1, TIMERANGE => [0, 5]}")).hasMessageContaining("not both");
    assertThatThrownBy(() -> translate("get 't', 'r', {COLUMN => [1]}")).hasMessageContaining("column");
  }

  @Test
  void scanOptions() {
    ScanCommand s = (ScanCommand) translate(
        "scan 't', {STARTROW => 'a', STOPROW => 'm', LIMIT => 5, COLUMNS => ['f:q'], VERSIONS => 2, TIMERANGE => [1, 9]}");
    assertThat(s.scan().startRow()).isEqualTo(Bytes.of("a"));
    assertThat(s.scan().startInclusive()).isTrue();
    assertThat(s.scan().stopRow()).isEqualTo(Bytes.of("m"));
    assertThat(s.scan().stopInclusive()).isFalse();
    assertThat(s.scan().limit()).isEqualTo(5);
    assertThat(s.scan().columns().keySet()).containsExactly("f");
    assertThat(s.scan().maxVersions()).isEqualTo(2);
    assertThat(s.scan().minTimestamp()).isEqualTo(1);
    assertThat(s.scan().maxTimestamp()).isEqualTo(9);

    ScanCommand all = (ScanCommand) translate("scan 't'");
    assertThat(all.scan().startRow()).isEmpty();
    assertThat(all.scan().stopRow()).isEmpty();
    assertThat(all.scan().limit()).isEqualTo(Long.MAX_VALUE);
    assertThat(((ScanCommand) translate("scan 't', {REVERSED => false}")).scan().startRow()).isEmpty();
  }

  @Test
  void scanPrefixSetsStartAndStop() {
    ScanCommand s = (ScanCommand) translate("scan 't', {ROWPREFIXFILTER => \"ab\\xff\"}");
    assertThat(s.scan().startRow()).containsExactly('a', 'b', 0xff);
    assertThat(s.scan().stopRow()).containsExactly('a', 'c');
    assertThat(CommandTranslator.prefixStop(new byte[] {(byte) 0xff, (byte) 0xff})).isEmpty();
  }

  @Test
  void scanReversedStartsAtTheHigherRow() {
    Scan s = ((ScanCommand) translate("scan 't', {REVERSED => true, STARTROW => 'm', STOPROW => 'a'}")).scan();
    assertThat(s.isReversed()).isTrue();
    assertThat(s.startRow()).isEqualTo(Bytes.of("m"));
    assertThat(s.stopRow()).isEqualTo(Bytes.of("a"));
    assertThat(((ScanCommand) translate("scan 't', {REVERSED => false}")).scan().isReversed()).isFalse();
    // a prefix walked down: from below the first row after it, down to the prefix itself
    Scan p = ((ScanCommand) translate("scan 't', {REVERSED => true, ROWPREFIXFILTER => 'ab'}")).scan();
    assertThat(p.startRow()).isEqualTo(Bytes.of("ac"));
    assertThat(p.startInclusive()).isFalse();
    assertThat(p.stopRow()).isEqualTo(Bytes.of("ab"));
    assertThat(p.stopInclusive()).isTrue();
    assertThatThrownBy(() -> translate("scan 't', {REVERSED => 'yes'}"))
        .isInstanceOf(UsageException.class).hasMessage("scan: REVERSED must be true or false, not the string 'yes'");
  }

  @Test
  void scanFilterIsReadInHBasesFilterLanguage() {
    Scan s = ((ScanCommand) translate("scan 't', {FILTER => \"PrefixFilter('r1')\"}")).scan();
    assertThat(s.filter()).isInstanceOf(io.bellows.filter.PrefixFilter.class);
    assertThat(((io.bellows.filter.PrefixFilter) s.filter()).prefix()).isEqualTo(Bytes.of("r1"));
    assertThat(((CountCommand) translate("count 't', FILTER => \"KeyOnlyFilter()\"")).filter())
        .isInstanceOf(io.bellows.filter.KeyOnlyFilter.class);
    assertThatThrownBy(() -> translate("scan 't', {FILTER => 5}"))
        .isInstanceOf(UsageException.class).hasMessageContaining("FILTER must be a string in HBase's filter language");
    assertThatThrownBy(() -> translate("scan 't', {FILTER => \"PrefixFilter('r1'\"}"))
        .isInstanceOf(UsageException.class).hasMessage("scan: FILTER: bad filter at column 18: missing ')'");
  }

  @Test
  void countTakesIntervalAndCache() {
    assertThat(((CountCommand) translate("count 't', {INTERVAL => 2, CACHE => 500}")).interval()).isEqualTo(2);
    assertThat(((CountCommand) translate("count 't'")).filter()).isNull();
    assertThatThrownBy(() -> translate("count 't', CACHE => 0"))
        .isInstanceOf(UsageException.class).hasMessage("count: CACHE must be at least 1, not 0");
    assertThatThrownBy(() -> translate("count 't', CACHE => 'lots'")).hasMessageContaining("CACHE must be an integer");
    assertThatThrownBy(() -> translate("count 't', BATCH => 1"))
        .hasMessage("count: option BATCH is not supported (supported: INTERVAL, CACHE, FILTER)");
  }

  @Test
  void newCommandsCheckTheirArguments() {
    AppendCommand a = (AppendCommand) translate("append 't', 'r', 'f:q', \"\\x00z\"");
    assertThat(a.table()).isEqualTo("t");
    assertThat(a.row()).isEqualTo(Bytes.of("r"));
    assertThat(a.family()).isEqualTo(Bytes.of("f"));
    assertThat(a.qualifier()).isEqualTo(Bytes.of("q"));
    assertThat(a.suffix()).containsExactly(0, 'z');
    assertThat(((AppendCommand) translate("append 't', 'r', 'f', 'v'")).qualifier()).isEmpty();
    assertThatThrownBy(() -> translate("append 't', 'r', 'f:q'"))
        .isInstanceOf(UsageException.class).hasMessage("append: wrong number of arguments (given 3, expected 4)");
    assertThatThrownBy(() -> translate("append 't', '', 'f:q', 'v'")).hasMessage("append: row must not be empty");
    assertThatThrownBy(() -> translate("append 't', 'r', ':q', 'v'")).hasMessageContaining("empty family name");
    assertThat(translate("get_splits 't'")).isEqualTo(new GetSplitsCommand("t"));
    assertThatThrownBy(() -> translate("get_splits")).isInstanceOf(UsageException.class);
    assertThat(translate("status")).isEqualTo(new StatusCommand());
    assertThat(translate("status 'summary'")).isEqualTo(new StatusCommand());
    assertThat(translate("status 'simple'")).isEqualTo(new StatusCommand(true));
    assertThatThrownBy(() -> translate("status 'detailed'"))
        .isInstanceOf(UsageException.class).hasMessageStartingWith("status: only status 'summary' (and, over a cluster,"
            + " 'simple') is supported by Bellows");
    assertThat(translate("version")).isEqualTo(new VersionCommand());
    assertThatThrownBy(() -> translate("version 'x'")).isInstanceOf(UsageException.class);
    assertThat(translate("whoami")).isEqualTo(new WhoamiCommand());
    assertThatThrownBy(() -> translate("whoami 'x'")).isInstanceOf(UsageException.class);
  }

  @Test
  void scanRefusesUnknownOptions() {
    assertThatThrownBy(() -> translate("scan 't', {CACHE_BLOCKS => false}")).hasMessageContaining("CACHE_BLOCKS is not supported");
    assertThatThrownBy(() -> translate("scan 't', {LIMIT => 0}")).isInstanceOf(UsageException.class);
    assertThatThrownBy(() -> translate("scan 't', {LIMIT => 'many'}")).hasMessageContaining("LIMIT must be an integer");
    assertThatThrownBy(() -> translate("scan 't', 'f'")).hasMessageContaining("hash");
    assertThatThrownBy(() -> translate("scan 't', {ROWPREFIXFILTER => 'a', STARTROW => 'b'}")).hasMessageContaining("cannot be combined");
  }

  private static Cell onlyCell(Command c) {
    List<Cell> cells = ((DeleteCommand) c).delete().cells();
    assertThat(cells).hasSize(1);
    return cells.get(0);
  }

  @Test
  void deleteIsOneVersionOfAColumn() {
    Cell latest = onlyCell(translate("delete 't', 'r', 'f:q'"));
    assertThat(latest.type()).isEqualTo(CellType.DELETE);
    assertThat(latest.timestamp()).isEqualTo(Mutation.LATEST_TIMESTAMP);
    Cell exact = onlyCell(translate("delete 't', 'r', 'f:q', 5"));
    assertThat(exact.type()).isEqualTo(CellType.DELETE);
    assertThat(exact.timestamp()).isEqualTo(5);
    assertThatThrownBy(() -> translate("delete 't', 'r', 'f'")).hasMessageContaining("deleteall");
  }

  @Test
  void deleteAllForms() {
    DeleteCommand row = (DeleteCommand) translate("deleteall 't', 'r'");
    assertThat(row.delete().isWholeRow()).isTrue();
    assertThat(row.delete().timestamp()).isEqualTo(Mutation.LATEST_TIMESTAMP);
    DeleteCommand rowTs = (DeleteCommand) translate("deleteall 't', 'r', 9");
    assertThat(rowTs.delete().isWholeRow()).isTrue();
    assertThat(rowTs.delete().timestamp()).isEqualTo(9);
    DeleteCommand rowEmptyCol = (DeleteCommand) translate("deleteall 't', 'r', '', 9");
    assertThat(rowEmptyCol.delete().isWholeRow()).isTrue();
    assertThat(rowEmptyCol.delete().timestamp()).isEqualTo(9);

    Cell fam = onlyCell(translate("deleteall 't', 'r', 'f'"));
    assertThat(fam.type()).isEqualTo(CellType.DELETE_FAMILY);
    Cell col = onlyCell(translate("deleteall 't', 'r', 'f:q', 7"));
    assertThat(col.type()).isEqualTo(CellType.DELETE_COLUMN);
    assertThat(col.timestamp()).isEqualTo(7);
    assertThat(col.qualifier()).isEqualTo(Bytes.of("q"));
    assertThatThrownBy(() -> translate("deleteall 't', 'r', 5, 6")).isInstanceOf(UsageException.class);
  }

  @Test
  void counters() {
    IncrCommand i = (IncrCommand) translate("incr 't', 'r', 'f:c'");
    assertThat(i.amount()).isEqualTo(1);
    assertThat(i.family()).isEqualTo(Bytes.of("f"));
    assertThat(i.qualifier()).isEqualTo(Bytes.of("c"));
    assertThat(((IncrCommand) translate("incr 't', 'r', 'f:c', -5")).amount()).isEqualTo(-5);
    assertThat(translate("get_counter 't', 'r', 'f:c'")).isInstanceOf(GetCounterCommand.class);
    assertThatThrownBy(() -> translate("incr 't', 'r', 'f:c', 'x'")).hasMessageContaining("increment must be an integer");
  }

  @Test
  void splitTakesATableAndAnOptionalKey() {
    SplitCommand whole = (SplitCommand) translate("split 't'");
    assertThat(whole.table()).isEqualTo("t");
    assertThat(whole.splitKey()).isNull();
    SplitCommand at = (SplitCommand) translate("split 't', 'm'");
    assertThat(at.table()).isEqualTo("t");
    assertThat(at.splitKey()).isEqualTo(Bytes.of("m"));
    assertThatThrownBy(() -> translate("split 't', ''")).isInstanceOf(UsageException.class);
    assertThatThrownBy(() -> translate("split")).isInstanceOf(UsageException.class);
    assertThatThrownBy(() -> translate("split 't', 'a', 'b'")).isInstanceOf(UsageException.class);
  }

  @Test
  void adminAndMiscCommands() {
    assertThat(translate("disable 't'")).isEqualTo(new TableAdminCommand(TableAdminCommand.Action.DISABLE, "t"));
    assertThat(translate("major_compact 't'")).isEqualTo(new TableAdminCommand(TableAdminCommand.Action.MAJOR_COMPACT, "t"));
    assertThat(translate("describe 't'")).isEqualTo(new DescribeCommand("t"));
    assertThat(translate("stats")).isEqualTo(new StatsCommand(null));
    assertThat(translate("stats 't'")).isEqualTo(new StatsCommand("t"));
    assertThat(translate("count 't', INTERVAL => 10")).isEqualTo(new CountCommand("t", 10));
    assertThat(translate("exit")).isInstanceOf(ExitCommand.class);
    assertThat(translate("quit")).isInstanceOf(ExitCommand.class);
    assertThat(((ListCommand) translate("list 'a.*'")).filter().pattern()).isEqualTo("a.*");
    assertThatThrownBy(() -> translate("list '('")).hasMessageContaining("regular expression");
    assertThatThrownBy(() -> translate("drop")).isInstanceOf(UsageException.class).hasMessageContaining("given 0, expected 1");
    assertThatThrownBy(() -> translate("drop 't', 'u'")).isInstanceOf(UsageException.class);
    assertThatThrownBy(() -> translate("frobnicate 't'"))
        .isInstanceOf(ShellException.class).isNotInstanceOf(UsageException.class)
        .hasMessageContaining("Unknown command 'frobnicate'");
  }

  @Test
  void alterInEachOfHBasesForms() {
    AlterCommand a = (AlterCommand) translate("alter 't', {NAME => 'f', VERSIONS => 5}, 'g', {NAME => 'h'},"
        + " {NAME => 'x', METHOD => 'delete'}, {DELETE => 'y'}, {METHOD => 'table_att', MAX_FILESIZE => '1G'}");
    assertThat(a.table()).isEqualTo("t");
    assertThat(a.changes()).containsExactly(
        new AlterCommand.SetFamily("f", Map.of("VERSIONS", 5L)),
        new AlterCommand.AddFamily("g"),
        new AlterCommand.SetFamily("h", Map.of()),
        new AlterCommand.DeleteFamily("x"),
        new AlterCommand.DeleteFamily("y"),
        new AlterCommand.SetTable(Map.of("MAX_FILESIZE", new ByteString(Bytes.of("1G")))));
    assertThat(((AlterCommand) translate("alter 't', 'delete' => 'f'")).changes())
        .containsExactly(new AlterCommand.DeleteFamily("f"));
    assertThat(((AlterCommand) translate("alter 't', NAME => 'f', TTL => 'FOREVER'")).changes())
        .containsExactly(new AlterCommand.SetFamily("f", Map.of("TTL", new ByteString(Bytes.of("FOREVER")))));
    assertThat(((AlterCommand) translate("alter 't', DURABILITY => 'FSYNC_WAL'")).changes())
        .containsExactly(new AlterCommand.SetTable(Map.of("DURABILITY", new ByteString(Bytes.of("FSYNC_WAL")))));
  }

  @Test
  void alterRefusesBadSettingsAndFormsBeforeTheEngineIsCalled() {
    assertThatThrownBy(() -> translate("alter 't'")).isInstanceOf(UsageException.class)
        .hasMessage("alter: wrong number of arguments (given 1, expected 2 or more)");
    assertThatThrownBy(() -> translate("alter 't', {NAME => 'f', VERSIONS => 'many'}")).isInstanceOf(UsageException.class)
        .hasMessageStartingWith("alter: family 'f': ").hasMessageContaining("VERSIONS");
    assertThatThrownBy(() -> translate("alter 't', {NAME => 'f', VERSIONS => 0}")).isInstanceOf(UsageException.class)
        .hasMessageStartingWith("alter: family 'f': ").hasMessageContaining("VERSIONS");
    assertThatThrownBy(() -> translate("alter 't', {NAME => 'f', NO_SUCH => 1}")).isInstanceOf(UsageException.class)
        .hasMessage("alter: family 'f': unknown family setting 'NO_SUCH'");
    assertThatThrownBy(() -> translate("alter 't', DURABILITY => 'SOMETIMES'")).isInstanceOf(UsageException.class)
        .hasMessageStartingWith("alter: table: ").hasMessageContaining("SOMETIMES");
    assertThatThrownBy(() -> translate("alter 't', VERSIONS => 3")).isInstanceOf(UsageException.class)
        .hasMessage("alter: table: unknown table setting 'VERSIONS'");
    assertThatThrownBy(() -> translate("alter 't', {NAME => 'f', METHOD => 'table_att_unset'}"))
        .isInstanceOf(UsageException.class).hasMessageContaining("METHOD must be 'delete'");
    assertThatThrownBy(() -> translate("alter 't', {METHOD => 'delete'}")).isInstanceOf(UsageException.class)
        .hasMessage("alter: METHOD => 'delete' needs NAME => 'family'");
    assertThatThrownBy(() -> translate("alter 't', {NAME => 'f', METHOD => 'delete', VERSIONS => 2}"))
        .isInstanceOf(UsageException.class).hasMessage("alter: option VERSIONS is not supported (supported: NAME, METHOD)");
    assertThatThrownBy(() -> translate("alter 't', {DELETE => 'f', NAME => 'g'}")).isInstanceOf(UsageException.class)
        .hasMessageContaining("give 'delete' => 'f' alone");
    assertThatThrownBy(() -> translate("alter 't', {}")).isInstanceOf(UsageException.class)
        .hasMessageContaining("changes nothing");
    assertThatThrownBy(() -> translate("alter 't', 5")).isInstanceOf(UsageException.class)
        .hasMessage("alter: argument 2 must be a family name or a hash, not the number 5");
  }

  @Test
  void snapshotCommandsTakeHBasesArguments() {
    assertThat(translate("snapshot 't', 's1'")).isEqualTo(new SnapshotCommand("t", "s1", true));
    assertThat(translate("snapshot 't', 's1', {SKIP_FLUSH => true}")).isEqualTo(new SnapshotCommand("t", "s1", false));
    assertThat(translate("snapshot 't', 's1', SKIP_FLUSH => false")).isEqualTo(new SnapshotCommand("t", "s1", true));
    assertThat(translate("clone_snapshot 's1', 't2'")).isEqualTo(new CloneSnapshotCommand("s1", "t2"));
    assertThat(translate("restore_snapshot 's1'")).isEqualTo(new RestoreSnapshotCommand("s1"));
    assertThat(translate("delete_snapshot 's1'")).isEqualTo(new DeleteSnapshotCommand("s1"));
    assertThat(((ListSnapshotsCommand) translate("list_snapshots 's.*'")).filter().pattern()).isEqualTo("s.*");
    assertThat(((ListSnapshotsCommand) translate("list_snapshots")).filter()).isNull();
    assertThat(translate("bulk_load 't', 'load'")).isEqualTo(new BulkLoadCommand("t", java.nio.file.Path.of("load")));
    assertThatThrownBy(() -> translate("snapshot 't', 's1', {SKIP_FLUSH => 'yes'}")).isInstanceOf(UsageException.class)
        .hasMessage("snapshot: SKIP_FLUSH must be true or false, not the string 'yes'");
    assertThatThrownBy(() -> translate("snapshot 't', 's1', {TTL => 5}")).isInstanceOf(UsageException.class)
        .hasMessage("snapshot: option TTL is not supported (supported: SKIP_FLUSH)");
    assertThatThrownBy(() -> translate("clone_snapshot 's1'")).isInstanceOf(UsageException.class)
        .hasMessage("clone_snapshot: wrong number of arguments (given 1, expected 2)");
    assertThatThrownBy(() -> translate("restore_snapshot ''")).isInstanceOf(UsageException.class)
        .hasMessage("restore_snapshot: snapshot name must not be empty");
    assertThatThrownBy(() -> translate("list_snapshots '('")).isInstanceOf(UsageException.class)
        .hasMessageStartingWith("list_snapshots: bad regular expression '('");
    assertThatThrownBy(() -> translate("bulk_load 't'")).isInstanceOf(UsageException.class)
        .hasMessage("bulk_load: wrong number of arguments (given 1, expected 2)");
  }

  /** Option names of the HBase shell's get, scan and count, whether Bellows accepts them or not. */
  private static final List<String> HBASE_OPTIONS = List.of(
      "COLUMN", "COLUMNS", "TIMESTAMP", "TIMERANGE", "VERSIONS", "FILTER", "AUTHORIZATIONS", "CONSISTENCY",
      "REGION_REPLICA_ID", "FORMATTER", "FORMATTER_CLASS", "ATTRIBUTES", "STARTROW", "STOPROW",
      "ROWPREFIXFILTER", "LIMIT", "MAXLENGTH", "CACHE", "CACHE_BLOCKS", "RAW", "REVERSED", "ALL_METRICS",
      "METRICS", "ISOLATION_LEVEL", "READ_TYPE", "ALLOW_PARTIAL_RESULTS", "BATCH", "MAX_RESULT_SIZE",
      "INTERVAL");

  /**
   * Each option a command accepts is named in its help. "Accepted" is found by trying: an option the
   * command does not take is refused as "option X is not supported (supported: ...)", and that list
   * is tried as well as HBase's option names, so a new option cannot be left out of the help.
   */
  @Test
  void everyAcceptedOptionIsInTheCommandsHelp() {
    Map<String, String> statements = Map.of(
        "get", "get 't', 'r', {%s => %s}",
        "scan", "scan 't', {%s => %s}",
        "count", "count 't', {%s => %s}",
        "snapshot", "snapshot 't', 's', {%s => %s}");
    statements.forEach((command, form) -> {
      String refusal = refusal(String.format(form, "NO_SUCH_OPTION", "1"));
      assertThat(refusal).contains("(supported: ");
      List<String> candidates = new java.util.ArrayList<>(HBASE_OPTIONS);
      candidates.addAll(List.of(refusal.replaceAll(".*\\(supported: (.*)\\)$", "$1").split(", ")));
      String help = CommandCatalog.find(command).details();
      for (String option : candidates) {
        String r = refusal(String.format(form, option, "1"));
        if (r == null || !r.contains("option " + option + " is not supported")) {
          assertThat(help).as(command + " accepts " + option).containsPattern("\\b" + option + "\\b");
        }
      }
    });
    for (String command : List.of("create", "alter")) {
      String help = CommandCatalog.find(command).details();
      for (Knob<?> k : Knobs.ALL) {
        if (k.scope() != Knob.Scope.ENGINE) {
          assertThat(help).as(command + " accepts " + k.name()).containsPattern("\\b" + k.name() + "\\b");
        }
      }
    }
  }

  /** The message of the usage error a statement gives, or null if it translates. */
  private static String refusal(String statement) {
    try {
      translate(statement);
      return null;
    } catch (ShellException e) {
      return e.getMessage();
    }
  }

  @Test
  void addServerTakesAnIdAndTwoAddresses() {
    assertThat(translate("add_server 'n4', '10.0.0.4:9870', '10.0.0.4:7070'"))
        .isEqualTo(new AddServerCommand("n4", "10.0.0.4:9870", "10.0.0.4:7070"));
    assertThatThrownBy(() -> translate("add_server 'n4', '10.0.0.4:9870'")).isInstanceOf(UsageException.class)
        .hasMessageContaining("wrong number of arguments (given 2, expected 3)");
    assertThatThrownBy(() -> translate("add_server 'n4', '10.0.0.4:9870', '10.0.0.4:7070', 'x'"))
        .isInstanceOf(UsageException.class).hasMessageContaining("given 4, expected 3");
    assertThatThrownBy(() -> translate("add_server '', '10.0.0.4:9870', '10.0.0.4:7070'"))
        .isInstanceOf(UsageException.class).hasMessageContaining("server id must not be empty");
    assertThatThrownBy(() -> translate("add_server 'n4', '10.0.0.4:9870', 7070"))
        .isInstanceOf(UsageException.class).hasMessageContaining("client address must be a quoted string");
  }

  @Test
  void everyCatalogedCommandTranslates() {
    for (CommandCatalog.Entry e : CommandCatalog.entries()) {
      // a usage error is fine (arguments missing), an unknown command is not
      try {
        translate(e.name());
      } catch (UsageException ok) {
        assertThat(ok.command()).isEqualTo(e.name());
      }
    }
  }
}
