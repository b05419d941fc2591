package io.bellows.cli.shell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class StatementParserTest {
  private static ParsedCommand parse(String s) throws ParseException {
    return StatementParser.parse(s);
  }

  private static ByteString str(String s) {
    return ByteString.of(s);
  }

  @Test
  void parsesCommandWithStringArguments() throws Exception {
    ParsedCommand c = parse("put 't1', 'r1', 'f1:q', 'value'");
    assertThat(c.name()).isEqualTo("put");
    assertThat(c.args()).containsExactly(str("t1"), str("r1"), str("f1:q"), str("value"));
  }

  @Test
  void blankAndCommentOnlyLinesAreNothing() throws Exception {
    assertThat(parse("")).isNull();
    assertThat(parse("   \t ")).isNull();
    assertThat(parse("  # just a comment 'x' {")).isNull();
  }

  @Test
  void commandWithoutArgumentsAndTrailingComment() throws Exception {
    ParsedCommand c = parse("list   # all tables");
    assertThat(c.name()).isEqualTo("list");
    assertThat(c.args()).isEmpty();
  }

  @Test
  void hashInsideStringIsNotAComment() throws Exception {
    assertThat(parse("put 't', 'r#1', 'f:q', \"v#x\"").args()).containsExactly(str("t"), str("r#1"), str("f:q"), str("v#x"));
  }

  @Test
  void parenthesizedCallForm() throws Exception {
    ParsedCommand c = parse("get('t', 'r')");
    assertThat(c.name()).isEqualTo("get");
    assertThat(c.args()).containsExactly(str("t"), str("r"));
    assertThat(parse("list()").args()).isEmpty();
  }

  @Test
  void singleQuotesAreLiteralExceptBackslashAndQuote() throws Exception {
    ParsedCommand c = parse("x '\\x00', 'it\\'s', 'a\\\\b', 'a\\nb'");
    assertThat(c.args()).containsExactly(str("\\x00"), str("it's"), str("a\\b"), str("a\\nb"));
  }

  @Test
  void doubleQuotedHexEscapesGiveRawBytes() throws Exception {
    ParsedCommand c = parse("x \"\\x00\\xFF\\x7f\\x41z\"");
    assertThat(((ByteString) c.args().get(0)).bytes()).containsExactly(0x00, 0xFF, 0x7F, 0x41, 'z');
  }

  @Test
  void doubleQuotedOtherEscapes() throws Exception {
    ParsedCommand c = parse("x \"a\\tb\\nc\\\\d\\\"e\\0f\\101\\x4\\u00e9\\q\"");
    byte[] expected = {'a', '\t', 'b', '\n', 'c', '\\', 'd', '"', 'e', 0, 'f', 'A', 4, (byte) 0xC3, (byte) 0xA9, 'q'};
    assertThat(((ByteString) c.args().get(0)).bytes()).containsExactly(expected);
  }

  @Test
  void nonAsciiCharactersAreUtf8() throws Exception {
    assertThat(((ByteString) parse("x 'é'").args().get(0)).bytes()).containsExactly(0xC3, 0xA9);
    assertThat(((ByteString) parse("x \"€\"").args().get(0)).bytes()).containsExactly(0xE2, 0x82, 0xAC);
  }

  @Test
  void numbers() throws Exception {
    ParsedCommand c = parse("x 0, 42, -7, +3, 1_000, 0x1F, 0.25, 9223372036854775807");
    assertThat(c.args()).containsExactly(0L, 42L, -7L, 3L, 1000L, 31L, 0.25, Long.MAX_VALUE);
  }

  @Test
  void booleansAndConstants() throws Exception {
    assertThat(parse("x true, false, VERSIONS, IN_MEMORY_COMPACTION").args())
        .containsExactly(true, false, new Constant("VERSIONS"), new Constant("IN_MEMORY_COMPACTION"));
  }

  @Test
  void hashesKeepOrderAndNest() throws Exception {
    ParsedCommand c = parse("create 't', {NAME => 'f', VERSIONS => 3, TIMERANGE => [1, 2], 'x' => {A => 'b'}}");
    Map<Object, Object> expected = new LinkedHashMap<>();
    expected.put(new Constant("NAME"), str("f"));
    expected.put(new Constant("VERSIONS"), 3L);
    expected.put(new Constant("TIMERANGE"), List.of(1L, 2L));
    expected.put(str("x"), Map.of(new Constant("A"), str("b")));
    assertThat(c.args()).containsExactly(str("t"), expected);
    @SuppressWarnings("unchecked")
    Map<Object, Object> h = (Map<Object, Object>) c.args().get(1);
    assertThat(h.keySet()).containsExactly(new Constant("NAME"), new Constant("VERSIONS"), new Constant("TIMERANGE"), str("x"));
  }

  @Test
  void emptyHashArrayAndTrailingCommas() throws Exception {
    assertThat(parse("x {}, [], [1, 2,], {A => 1,}").args())
        .containsExactly(Map.of(), List.of(), List.of(1L, 2L), Map.of(new Constant("A"), 1L));
  }

  @Test
  void trailingPairsWithoutBracesFormOneHash() throws Exception {
    ParsedCommand c = parse("create 't', 'f', DURABILITY => 'ASYNC_WAL', MEMSTORE_FLUSHSIZE => 1048576");
    assertThat(c.args()).containsExactly(str("t"), str("f"),
        Map.of(new Constant("DURABILITY"), str("ASYNC_WAL"), new Constant("MEMSTORE_FLUSHSIZE"), 1048576L));
  }

  @Test
  void positionalArgumentAfterBareHashIsAnError() {
    assertThatThrownBy(() -> parse("create 't', A => 1, 'f'"))
        .isInstanceOf(ParseException.class)
        .hasMessageContaining("column 21")
        .hasMessageContaining("expected '=>'");
  }

  @Test
  void errorsNameTheColumn() {
    assertThatThrownBy(() -> parse("put 't' 'r'"))
        .isInstanceOf(ParseException.class)
        .isNotInstanceOf(IncompleteInputException.class)
        .hasMessage("syntax error at column 9: unexpected ''' after the arguments");
    assertThatThrownBy(() -> parse("get 't', r1"))
        .hasMessageContaining("column 10")
        .hasMessageContaining("unquoted name 'r1'");
    assertThatThrownBy(() -> parse("scan 't', {LIMIT 5}"))
        .hasMessageContaining("column 18")
        .hasMessageContaining("expected '=>'");
    assertThatThrownBy(() -> parse("x [1 2]")).hasMessageContaining("expected ',' or ']'");
    assertThatThrownBy(() -> parse("x {A => 1 B => 2}")).hasMessageContaining("expected ',' or '}'");
    assertThatThrownBy(() -> parse("'put' 't'")).hasMessageContaining("column 1: expected a command name");
    assertThatThrownBy(() -> parse("PUT 't'")).hasMessageContaining("expected a command name");
    assertThatThrownBy(() -> parse("x 12ab")).hasMessageContaining("malformed number");
    assertThatThrownBy(() -> parse("x 99999999999999999999")).hasMessageContaining("out of range");
    assertThatThrownBy(() -> parse("x \"\\xZZ\"")).hasMessageContaining("invalid escape");
    assertThatThrownBy(() -> parse("x \"a#{b}\"")).hasMessageContaining("interpolation");
    assertThatThrownBy(() -> parse("x {A => 1, A => 2}")).hasMessageContaining("given twice");
    assertThatThrownBy(() -> parse("x nil")).hasMessageContaining("nil");
    assertThatThrownBy(() -> parse("x ;")).hasMessageContaining("unexpected ';'");
  }

  @Test
  void unfinishedInputIsIncomplete() {
    for (String s : List.of("put 't', 'r", "put 't',", "x {NAME => 'f'", "x [1, 2", "x {A =>", "get('t'",
        "x \"abc\\", "x A => 1,")) {
      assertThatThrownBy(() -> parse(s)).as(s).isInstanceOf(IncompleteInputException.class);
    }
  }

  @Test
  void statementMaySpanLines() throws Exception {
    ParsedCommand c = parse("create 't',\n  {NAME => 'f', # first family\n   VERSIONS => 2}");
    assertThat(c.args()).containsExactly(str("t"), Map.of(new Constant("NAME"), str("f"), new Constant("VERSIONS"), 2L));
  }

  /** Any string written with \xNN escapes for every byte reads back as exactly those bytes. */
  @Property(tries = 200)
  void hexEscapedStringsRoundTrip(@ForAll byte[] bytes) throws Exception {
    StringBuilder sb = new StringBuilder("put \"");
    for (byte b : bytes) {
      sb.append(String.format("\\x%02x", b & 0xff));
    }
    sb.append('"');
    assertThat(((ByteString) parse(sb.toString()).args().get(0)).bytes()).isEqualTo(bytes);
  }

  /** The printable form used in output, pasted back into double quotes, gives the same bytes. */
  @Property(tries = 200)
  void printedFormReadsBackInDoubleQuotes(@ForAll byte[] bytes) throws Exception {
    String printed = io.bellows.util.Bytes.toStringBinary(bytes).replace("\"", "\\\"").replace("#", "\\#");
    assertThat(((ByteString) parse("put \"" + printed + "\"").args().get(0)).bytes()).isEqualTo(bytes);
  }
}
