package io.bellows.cli.shell;

import io.bellows.filter.ByteComparator;
import io.bellows.filter.ColumnPrefixFilter;
import io.bellows.filter.ColumnRangeFilter;
import io.bellows.filter.CompareOperator;
import io.bellows.filter.FamilyFilter;
import io.bellows.filter.Filter;
import io.bellows.filter.FilterList;
import io.bellows.filter.FirstKeyOnlyFilter;
import io.bellows.filter.KeyOnlyFilter;
import io.bellows.filter.MultipleColumnPrefixFilter;
import io.bellows.filter.PageFilter;
import io.bellows.filter.PrefixFilter;
import io.bellows.filter.QualifierFilter;
import io.bellows.filter.RowFilter;
import io.bellows.filter.SingleColumnValueFilter;
import io.bellows.filter.TimestampsFilter;
import io.bellows.filter.ValueFilter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.PatternSyntaxException;

/**
 * Reads a filter written in HBase's filter language — {@code PrefixFilter('r1') AND
 * ValueFilter(=, 'binary:v')} — into the filters of {@code io.bellows.filter}. Grammar: a filter is
 * {@code Name(arg, ...)}; filters combine with {@code AND} (binds tighter) and {@code OR}, and
 * parentheses group them. Arguments are quoted strings ({@code 'it''s'}: a doubled quote is one
 * quote), integers, {@code true}/{@code false}, compare operators ({@code = != < <= > >=}) and
 * comparators as strings {@code 'binary:x'}, {@code 'binaryprefix:x'}, {@code 'regexstring:x'},
 * {@code 'substring:x'}. The text is read byte by byte (ISO-8859-1), so a quoted argument keeps the
 * exact bytes the shell string held. Filters and operators HBase has but Bellows lacks ({@code
 * SKIP}, {@code WHILE}, {@code InclusiveStopFilter}, ...) are refused by name. Stateless; each parse
 * uses its own cursor.
 */
final class FilterParser {
  /** Filters of HBase's filter language that Bellows does not have. */
  private static final Set<String> MISSING = Set.of(
      "ColumnCountGetFilter", "ColumnPaginationFilter", "InclusiveStopFilter", "DependentColumnFilter",
      "SingleColumnValueExcludeFilter", "FirstKeyValueMatchingQualifiersFilter", "FuzzyRowFilter",
      "MultiRowRangeFilter", "RandomRowFilter", "ColumnValueFilter", "SkipFilter", "WhileMatchFilter");

  /** The filter names Bellows understands, for error messages. */
  static final String SUPPORTED = "KeyOnlyFilter, FirstKeyOnlyFilter, PrefixFilter, ColumnPrefixFilter,"
      + " MultipleColumnPrefixFilter, PageFilter, TimestampsFilter, RowFilter, FamilyFilter, QualifierFilter,"
      + " ValueFilter, SingleColumnValueFilter, ColumnRangeFilter";

  private final String text;
  private int pos;

  private FilterParser(byte[] filter) {
    this.text = new String(filter, StandardCharsets.ISO_8859_1);
  }

  /**
   * The filter the text describes.
   *
   * @throws IllegalArgumentException naming the column (1-based) and the problem
   */
  static Filter parse(byte[] filter) {
    FilterParser p = new FilterParser(filter);
    p.skipSpaces();
    if (p.atEnd()) {
      throw new IllegalArgumentException("the filter is empty");
    }
    Filter f = p.or();
    p.skipSpaces();
    if (!p.atEnd()) {
      throw p.error("unexpected '" + p.text.charAt(p.pos) + "' after the filter");
    }
    return f;
  }

  private Filter or() {
    List<Filter> parts = new ArrayList<>(List.of(and()));
    while (keyword("OR")) {
      parts.add(and());
    }
    return parts.size() == 1 ? parts.get(0) : new FilterList(FilterList.Operator.MUST_PASS_ONE, parts);
  }

  private Filter and() {
    List<Filter> parts = new ArrayList<>(List.of(unary()));
    while (keyword("AND")) {
      parts.add(unary());
    }
    return parts.size() == 1 ? parts.get(0) : new FilterList(FilterList.Operator.MUST_PASS_ALL, parts);
  }

  private Filter unary() {
    skipSpaces();
    int at = pos;
    if (keyword("SKIP") || keyword("WHILE")) {
      pos = at;
      String word = word();
      throw errorAt(at, word + " is not supported by Bellows (it has no SkipFilter or WhileMatchFilter)");
    }
    if (peek('(')) {
      pos++;
      Filter f = or();
      expect(')');
      return f;
    }
    return filter();
  }

  private Filter filter() {
    skipSpaces();
    int at = pos;
    String name = word();
    if (name.isEmpty()) {
      throw atEnd() ? error("a filter name is missing at the end") : error("expected a filter name such as PrefixFilter");
    }
    skipSpaces();
    if (!peek('(')) {
      throw error("expected '(' after " + name);
    }
    pos++;
    List<Object> args = arguments();
    try {
      return build(name, args);
    } catch (IllegalArgumentException e) {
      if (e.getMessage() != null && e.getMessage().startsWith("bad filter at column")) {
        throw e;
      }
      throw errorAt(at, name + ": " + e.getMessage());
    }
  }

  /** The arguments up to the closing parenthesis: String (quoted), Long, Boolean or Op. */
  private List<Object> arguments() {
    List<Object> args = new ArrayList<>();
    skipSpaces();
    if (peek(')')) {
      pos++;
      return args;
    }
    while (true) {
      args.add(argument());
      skipSpaces();
      if (peek(',')) {
        pos++;
      } else if (peek(')')) {
        pos++;
        return args;
      } else {
        throw atEnd() ? error("missing ')'") : error("expected ',' or ')'");
      }
    }
  }

  private Object argument() {
    skipSpaces();
    if (atEnd()) {
      throw error("an argument is missing at the end");
    }
    char c = text.charAt(pos);
    if (c == '\'') {
      return quoted();
    }
    for (Op op : Op.values()) { // longest symbols first
      if (text.startsWith(op.symbol, pos)) {
        pos += op.symbol.length();
        return op;
      }
    }
    if (c == '-' || Character.isDigit(c)) {
      int start = pos++;
      while (!atEnd() && Character.isDigit(text.charAt(pos))) {
        pos++;
      }
      try {
        return Long.parseLong(text.substring(start, pos));
      } catch (NumberFormatException e) {
        throw errorAt(start, "bad integer '" + text.substring(start, pos) + "'");
      }
    }
    int start = pos;
    String w = word();
    if (w.equalsIgnoreCase("true") || w.equalsIgnoreCase("false")) {
      return Boolean.parseBoolean(w.toLowerCase(Locale.ROOT));
    }
    throw errorAt(start, "expected a quoted string, a number, true, false or a compare operator");
  }

  /** A single-quoted string; a doubled quote stands for one quote. */
  private Bin quoted() {
    int start = pos++;
    StringBuilder sb = new StringBuilder();
    while (true) {
      if (atEnd()) {
        throw errorAt(start, "unclosed quote");
      }
      char c = text.charAt(pos++);
      if (c == '\'') {
        if (peek('\'')) {
          sb.append('\'');
          pos++;
          continue;
        }
        return new Bin(sb.toString().getBytes(StandardCharsets.ISO_8859_1));
      }
      sb.append(c);
    }
  }

  private Filter build(String name, List<Object> a) {
    switch (name) {
      case "KeyOnlyFilter":
        arity(a, 0, 1, "[lengthAsValue]");
        return new KeyOnlyFilter(a.size() == 1 && bool(a, 0, "lengthAsValue"));
      case "FirstKeyOnlyFilter":
        arity(a, 0, 0, "");
        return new FirstKeyOnlyFilter();
      case "PrefixFilter":
        arity(a, 1, 1, "'row prefix'");
        return new PrefixFilter(bytes(a, 0, "the row prefix"));
      case "ColumnPrefixFilter":
        arity(a, 1, 1, "'qualifier prefix'");
        return new ColumnPrefixFilter(bytes(a, 0, "the qualifier prefix"));
      case "MultipleColumnPrefixFilter": {
        arity(a, 1, Integer.MAX_VALUE, "'prefix', ...");
        List<byte[]> prefixes = new ArrayList<>();
        for (int i = 0; i < a.size(); i++) {
          prefixes.add(bytes(a, i, "a qualifier prefix"));
        }
        return new MultipleColumnPrefixFilter(prefixes);
      }
      case "PageFilter":
        arity(a, 1, 1, "page size");
        return new PageFilter(integer(a, 0, "the page size"));
      case "TimestampsFilter": {
        arity(a, 1, Integer.MAX_VALUE, "timestamp, ...");
        List<Long> ts = new ArrayList<>();
        for (int i = 0; i < a.size(); i++) {
          long t = integer(a, i, "a timestamp");
          if (t < 0) {
            throw new IllegalArgumentException("timestamps must not be negative, not " + t);
          }
          ts.add(t);
        }
        return new TimestampsFilter(ts);
      }
      case "RowFilter":
        arity(a, 2, 2, "operator, 'comparator'");
        return new RowFilter(op(a, 0), comparator(a, 1, op(a, 0)));
      case "FamilyFilter":
        arity(a, 2, 2, "operator, 'comparator'");
        return new FamilyFilter(op(a, 0), comparator(a, 1, op(a, 0)));
      case "QualifierFilter":
        arity(a, 2, 2, "operator, 'comparator'");
        return new QualifierFilter(op(a, 0), comparator(a, 1, op(a, 0)));
      case "ValueFilter":
        arity(a, 2, 2, "operator, 'comparator'");
        return new ValueFilter(op(a, 0), comparator(a, 1, op(a, 0)));
      case "SingleColumnValueFilter": {
        if (a.size() != 4 && a.size() != 6) {
          throw new IllegalArgumentException("takes 4 or 6 arguments ('family', 'qualifier', operator,"
              + " 'comparator' [, filterIfMissing, latestVersionOnly]), not " + a.size());
        }
        SingleColumnValueFilter f = new SingleColumnValueFilter(bytes(a, 0, "the family"),
            bytes(a, 1, "the qualifier"), op(a, 2), comparator(a, 3, op(a, 2)));
        if (a.size() == 6) {
          f.setFilterIfMissing(bool(a, 4, "filterIfMissing")).setLatestVersionOnly(bool(a, 5, "latestVersionOnly"));
        }
        return f;
      }
      case "ColumnRangeFilter": {
        arity(a, 4, 4, "'min', minInclusive, 'max', maxInclusive");
        byte[] min = bytes(a, 0, "the minimum qualifier");
        byte[] max = bytes(a, 2, "the maximum qualifier");
        // As in HBase, an empty bound is no bound.
        return new ColumnRangeFilter(min.length == 0 ? null : min, bool(a, 1, "minInclusive"),
            max.length == 0 ? null : max, bool(a, 3, "maxInclusive"));
      }
      default:
        if (MISSING.contains(name)) {
          throw new IllegalArgumentException("this filter of HBase is not supported by Bellows (supported: "
              + SUPPORTED + ")");
        }
        throw new IllegalArgumentException("unknown filter (supported: " + SUPPORTED + ")");
    }
  }

  private static void arity(List<Object> a, int min, int max, String form) {
    if (a.size() < min || a.size() > max) {
      throw new IllegalArgumentException("takes " + (min == max ? String.valueOf(min) : max == Integer.MAX_VALUE
          ? "at least " + min : min + " to " + max) + " argument(s)" + (form.isEmpty() ? "" : " (" + form + ")")
          + ", not " + a.size());
    }
  }

  private static byte[] bytes(List<Object> a, int i, String what) {
    if (!(a.get(i) instanceof Bin b)) {
      throw new IllegalArgumentException(what + " must be a quoted string, not " + describe(a.get(i)));
    }
    return b.bytes;
  }

  private static long integer(List<Object> a, int i, String what) {
    if (!(a.get(i) instanceof Long l)) {
      throw new IllegalArgumentException(what + " must be an integer, not " + describe(a.get(i)));
    }
    return l;
  }

  private static boolean bool(List<Object> a, int i, String what) {
    if (!(a.get(i) instanceof Boolean b)) {
      throw new IllegalArgumentException(what + " must be true or false, not " + describe(a.get(i)));
    }
    return b;
  }

  private static CompareOperator op(List<Object> a, int i) {
    if (!(a.get(i) instanceof Op o)) {
      throw new IllegalArgumentException("expected a compare operator (=, !=, <, <=, >, >=), not " + describe(a.get(i)));
    }
    return o.operator;
  }

  /** {@code 'binary:x'}, {@code 'binaryprefix:x'}, {@code 'regexstring:x'} or {@code 'substring:x'}. */
  private static ByteComparator comparator(List<Object> a, int i, CompareOperator op) {
    byte[] b = bytes(a, i, "the comparator");
    String s = new String(b, StandardCharsets.ISO_8859_1);
    int colon = s.indexOf(':');
    String kind = colon < 0 ? "" : s.substring(0, colon).toLowerCase(Locale.ROOT);
    byte[] operand = colon < 0 ? b : java.util.Arrays.copyOfRange(b, colon + 1, b.length);
    switch (kind) {
      case "binary":
        return ByteComparator.binary(operand);
      case "binaryprefix":
        return ByteComparator.binaryPrefix(operand);
      case "regexstring":
      case "substring": {
        if (op != CompareOperator.EQUAL && op != CompareOperator.NOT_EQUAL) {
          throw new IllegalArgumentException(kind + " comparators only tell equal from different: use = or !=");
        }
        String utf8 = new String(operand, StandardCharsets.UTF_8);
        if (kind.equals("substring")) {
          return ByteComparator.substring(utf8);
        }
        try {
          return ByteComparator.regex(utf8);
        } catch (PatternSyntaxException e) {
          throw new IllegalArgumentException("bad regular expression '" + utf8 + "': " + e.getDescription());
        }
      }
      default:
        throw new IllegalArgumentException("the comparator '" + s + "' must be 'binary:...', 'binaryprefix:...',"
            + " 'regexstring:...' or 'substring:...'");
    }
  }

  private static String describe(Object v) {
    if (v instanceof Bin b) {
      return "'" + new String(b.bytes, StandardCharsets.ISO_8859_1) + "'";
    }
    return v instanceof Op o ? "the operator " + o.symbol : String.valueOf(v);
  }

  /** Consumes the keyword (whole word, any case) if it comes next. */
  private boolean keyword(String k) {
    skipSpaces();
    int end = pos + k.length();
    if (text.regionMatches(true, pos, k, 0, k.length())
        && (end == text.length() || !isWordChar(text.charAt(end)))) {
      pos = end;
      return true;
    }
    return false;
  }

  private String word() {
    int start = pos;
    while (!atEnd() && isWordChar(text.charAt(pos))) {
      pos++;
    }
    return text.substring(start, pos);
  }

  private static boolean isWordChar(char c) {
    return c < 128 && (Character.isLetterOrDigit(c) || c == '_');
  }

  private void expect(char c) {
    skipSpaces();
    if (!peek(c)) {
      throw atEnd() ? error("missing '" + c + "'") : error("expected '" + c + "'");
    }
    pos++;
  }

  private boolean peek(char c) {
    return !atEnd() && text.charAt(pos) == c;
  }

  private boolean atEnd() {
    return pos >= text.length();
  }

  private void skipSpaces() {
    while (!atEnd() && Character.isWhitespace(text.charAt(pos))) {
      pos++;
    }
  }

  private IllegalArgumentException error(String message) {
    return errorAt(pos, message);
  }

  private IllegalArgumentException errorAt(int at, String message) {
    return new IllegalArgumentException("bad filter at column " + (at + 1) + ": " + message);
  }

  /** A quoted argument's bytes. */
  private record Bin(byte[] bytes) {}

  /** HBase's compare operators; longer symbols first so that {@code <=} is not read as {@code <}. */
  private enum Op {
    NOT_EQUAL("!=", CompareOperator.NOT_EQUAL),
    LESS_OR_EQUAL("<=", CompareOperator.LESS_OR_EQUAL),
    GREATER_OR_EQUAL(">=", CompareOperator.GREATER_OR_EQUAL),
    LESS("<", CompareOperator.LESS),
    GREATER(">", CompareOperator.GREATER),
    EQUAL("=", CompareOperator.EQUAL);

    final String symbol;
    final CompareOperator operator;

    Op(String symbol, CompareOperator operator) {
      this.symbol = symbol;
      this.operator = operator;
    }
  }
}
