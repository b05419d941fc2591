package io.bellows.cli.shell;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parses one statement of the shell: the subset of Ruby the HBase shell's commands use. A statement
 * is {@code command [arg {, arg}]} or {@code command(arg, ...)}; an argument is a single- or
 * double-quoted string, an integer, a decimal number, {@code true}/{@code false}, a bare constant,
 * an array {@code [...]} or a hash {@code {k => v, ...}}; trailing {@code k => v} pairs without
 * braces form a final hash; {@code #} starts a comment.
 *
 * <p>Strings follow Ruby: single quotes keep every character except {@code \\} and {@code \'};
 * double quotes understand {@code \xNN}, {@code \NNN} (octal) and {@code \\uNNNN} escapes that give
 * bytes, plus {@code \n \t \r \0 \e \s \a \b \f \v \\ \"}. Characters outside escapes are UTF-8.
 *
 * <p>Not thread-safe: one instance parses one text; use {@link #parse(String)}.
 */
public final class StatementParser {
  private final String text;
  private int pos;

  private StatementParser(String text) {
    this.text = text;
  }

  /**
   * Parses a statement; returns null for a blank or comment-only one.
   *
   * @throws IncompleteInputException if the text ends inside a string, array or hash, or after a
   *     comma or {@code =>} (the caller may append the next line and retry)
   * @throws ParseException for any other malformed input
   */
  public static ParsedCommand parse(String text) throws ParseException {
    return new StatementParser(text).statement();
  }

  private ParsedCommand statement() throws ParseException {
    skipSpace();
    if (atEnd()) {
      return null;
    }
    int start = pos;
    if (!isIdentStart(peek()) || Character.isUpperCase(peek())) {
      throw error("expected a command name", start);
    }
    String name = identifier();
    List<Object> args = new ArrayList<>();
    skipSpace();
    boolean parens = false;
    if (!atEnd() && peek() == '(') {
      parens = true;
      pos++;
      skipSpace();
    }
    if (!(parens ? peekIs(')') : atEnd())) {
      argumentList(args);
    }
    if (parens) {
      skipSpace();
      if (atEnd()) {
        throw incomplete("missing ')'");
      }
      expect(')');
    }
    skipSpace();
    if (!atEnd()) {
      throw error("unexpected '" + peek() + "' after the arguments", pos);
    }
    return new ParsedCommand(name, args);
  }

  /** Comma-separated values; a value followed by {@code =>} starts the final brace-less hash. */
  private void argumentList(List<Object> args) throws ParseException {
    while (true) {
      skipSpace();
      if (atEnd()) {
        throw incomplete("expected an argument");
      }
      Object v = value();
      skipSpace();
      if (peekIs('=') && peekAt(1) == '>') {
        args.add(bareHash(v));
        return;
      }
      args.add(v);
      if (peekIs(',')) {
        pos++;
        continue;
      }
      return;
    }
  }

  private Map<Object, Object> bareHash(Object firstKey) throws ParseException {
    Map<Object, Object> map = new LinkedHashMap<>();
    Object key = firstKey;
    while (true) {
      int keyPos = pos;
      expectArrow();
      skipSpace();
      if (atEnd()) {
        throw incomplete("expected a value after '=>'");
      }
      Object value = value();
      putUnique(map, key, value, keyPos);
      skipSpace();
      if (!peekIs(',')) {
        return map;
      }
      pos++;
      skipSpace();
      if (atEnd()) {
        throw incomplete("expected another 'KEY => value' pair");
      }
      int keyStart = pos;
      key = value();
      skipSpace();
      if (!(peekIs('=') && peekAt(1) == '>')) {
        throw error("expected '=>': once 'KEY => value' pairs start, only pairs may follow", keyStart);
      }
    }
  }

  private Object value() throws ParseException {
    char c = peek();
    int start = pos;
    if (c == '\'') {
      return singleQuoted();
    }
    if (c == '"') {
      return doubleQuoted();
    }
    if (c == '{') {
      return hash();
    }
    if (c == '[') {
      return array();
    }
    if (c == '-' || c == '+' || isDigit(c)) {
      return number();
    }
    if (isIdentStart(c)) {
      String id = identifier();
      if (Character.isUpperCase(id.charAt(0))) {
        return new Constant(id);
      }
      switch (id) {
        case "true":
          return Boolean.TRUE;
        case "false":
          return Boolean.FALSE;
        case "nil":
          throw error("nil is not supported here", start);
        default:
          throw error("unquoted name '" + id + "' (put strings in quotes: '" + id + "')", start);
      }
    }
    throw error("unexpected '" + c + "'", start);
  }

  private Map<Object, Object> hash() throws ParseException {
    int open = pos;
    pos++;
    Map<Object, Object> map = new LinkedHashMap<>();
    while (true) {
      skipSpace();
      if (atEnd()) {
        throw incomplete("missing '}' for the '{' at column " + (open + 1));
      }
      if (peek() == '}') {
        pos++;
        return map;
      }
      Object key = value();
      skipSpace();
      int arrow = pos;
      if (atEnd()) {
        throw incomplete("expected '=>'");
      }
      expectArrow();
      skipSpace();
      if (atEnd()) {
        throw incomplete("expected a value after '=>'");
      }
      putUnique(map, key, value(), arrow);
      skipSpace();
      if (atEnd()) {
        throw incomplete("missing '}' for the '{' at column " + (open + 1));
      }
      if (peek() == ',') {
        pos++;
      } else if (peek() != '}') {
        throw error("expected ',' or '}' in hash", pos);
      }
    }
  }

  private List<Object> array() throws ParseException {
    int open = pos;
    pos++;
    List<Object> list = new ArrayList<>();
    while (true) {
      skipSpace();
      if (atEnd()) {
        throw incomplete("missing ']' for the '[' at column " + (open + 1));
      }
      if (peek() == ']') {
        pos++;
        return list;
      }
      list.add(value());
      skipSpace();
      if (atEnd()) {
        throw incomplete("missing ']' for the '[' at column " + (open + 1));
      }
      if (peek() == ',') {
        pos++;
      } else if (peek() != ']') {
        throw error("expected ',' or ']' in array", pos);
      }
    }
  }

  private Object number() throws ParseException {
    int start = pos;
    StringBuilder sb = new StringBuilder();
    if (peek() == '-' || peek() == '+') {
      sb.append(text.charAt(pos++));
    }
    if (atEnd() || !isDigit(peek())) {
      throw error("expected a digit", pos);
    }
    boolean hex = peek() == '0' && (peekAt(1) == 'x' || peekAt(1) == 'X');
    if (hex) {
      pos += 2;
      int digits = pos;
      while (!atEnd() && (Character.digit(peek(), 16) >= 0 || peek() == '_')) {
        if (peek() != '_') {
          sb.append(peek());
        }
        pos++;
      }
      if (pos == digits) {
        throw error("expected hexadecimal digits after 0x", pos);
      }
      checkNumberEnd();
      try {
        return Long.parseLong(sb.toString(), 16);
      } catch (NumberFormatException e) {
        throw error("number out of range of a 64-bit integer", start);
      }
    }
    boolean decimal = false;
    while (!atEnd()) {
      char c = peek();
      if (isDigit(c)) {
        sb.append(c);
      } else if (c == '_' && isDigit(peekAt(1))) {
        // Ruby digit separator: 1_000
      } else if (c == '.' && !decimal && isDigit(peekAt(1))) {
        decimal = true;
        sb.append(c);
      } else {
        break;
      }
      pos++;
    }
    checkNumberEnd();
    try {
      return decimal ? (Object) Double.parseDouble(sb.toString()) : (Object) Long.parseLong(sb.toString());
    } catch (NumberFormatException e) {
      throw error("number out of range of a 64-bit integer", start);
    }
  }

  private void checkNumberEnd() throws ParseException {
    if (!atEnd() && (isIdentStart(peek()) || isDigit(peek()))) {
      throw error("malformed number", pos);
    }
  }

  private ByteString singleQuoted() throws ParseException {
    int open = pos;
    pos++;
    StringBuilder sb = new StringBuilder();
    while (true) {
      if (atEnd()) {
        throw incomplete("unterminated string starting at column " + (open + 1));
      }
      char c = text.charAt(pos++);
      if (c == '\'') {
        return ByteString.of(sb.toString());
      }
      if (c == '\\' && !atEnd() && (peek() == '\\' || peek() == '\'')) {
        sb.append(text.charAt(pos++));
      } else {
        sb.append(c);
      }
    }
  }

  private ByteString doubleQuoted() throws ParseException {
    int open = pos;
    pos++;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    while (true) {
      if (atEnd()) {
        throw incomplete("unterminated string starting at column " + (open + 1));
      }
      int cp = text.codePointAt(pos);
      pos += Character.charCount(cp);
      if (cp == '"') {
        return new ByteString(out.toByteArray());
      }
      if (cp == '#' && peekIs('{')) {
        throw error("string interpolation #{...} is not supported (write \\#{ for the characters)", pos);
      }
      if (cp != '\\') {
        writeUtf8(out, cp);
        continue;
      }
      if (atEnd()) {
        throw incomplete("unterminated string starting at column " + (open + 1));
      }
      int escPos = pos - 1;
      char e = text.charAt(pos++);
      switch (e) {
        case 'x': {
          int v = hexDigits(2, escPos);
          out.write(v);
          break;
        }
        case 'u': {
          int v = hexDigits(4, escPos);
          writeUtf8(out, v);
          break;
        }
        case 'n': out.write('\n'); break;
        case 't': out.write('\t'); break;
        case 'r': out.write('\r'); break;
        case 'e': out.write(0x1b); break;
        case 's': out.write(' '); break;
        case 'a': out.write(7); break;
        case 'b': out.write(8); break;
        case 'f': out.write(12); break;
        case 'v': out.write(11); break;
        default:
          if (e >= '0' && e <= '7') {
            int v = e - '0';
            for (int i = 0; i < 2 && !atEnd() && peek() >= '0' && peek() <= '7'; i++) {
              v = v * 8 + (text.charAt(pos++) - '0');
            }
            out.write(v & 0xff);
          } else {
            // Ruby: any other escaped character stands for itself (\\, \", \#, ...).
            writeUtf8(out, e);
          }
      }
    }
  }

  /** Reads 1..max hex digits (Ruby allows \x with one or two digits). */
  private int hexDigits(int max, int escPos) throws ParseException {
    int v = 0;
    int n = 0;
    while (n < max && !atEnd() && Character.digit(peek(), 16) >= 0) {
      v = v * 16 + Character.digit(text.charAt(pos++), 16);
      n++;
    }
    if (n == 0 || (max == 4 && n != 4)) {
      throw error("invalid escape: expected " + (max == 2 ? "1 or 2" : "4") + " hex digits", escPos + 1);
    }
    return v;
  }

  private static void writeUtf8(ByteArrayOutputStream out, int codePoint) {
    byte[] b = new String(Character.toChars(codePoint)).getBytes(StandardCharsets.UTF_8);
    out.write(b, 0, b.length);
  }

  private void putUnique(Map<Object, Object> map, Object key, Object value, int at) throws ParseException {
    if (key instanceof List || key instanceof Map) {
      throw error("a hash key must be a constant, string or number", at);
    }
    if (map.containsKey(key)) {
      throw error("key " + key + " given twice", at);
    }
    map.put(key, value);
  }

  private void expectArrow() throws ParseException {
    if (!(peekIs('=') && peekAt(1) == '>')) {
      throw error("expected '=>'", pos);
    }
    pos += 2;
  }

  private void expect(char c) throws ParseException {
    if (!peekIs(c)) {
      throw error("expected '" + c + "'", pos);
    }
    pos++;
  }

  private String identifier() {
    int start = pos;
    while (!atEnd() && (isIdentStart(peek()) || isDigit(peek()))) {
      pos++;
    }
    // Ruby method names may end in '?' or '!'.
    if (!atEnd() && (peek() == '?' || peek() == '!') && !Character.isUpperCase(text.charAt(start))) {
      pos++;
    }
    return text.substring(start, pos);
  }

  /** Skips blanks, newlines and comments. */
  private void skipSpace() {
    while (!atEnd()) {
      char c = peek();
      if (c == '#') {
        while (!atEnd() && peek() != '\n') {
          pos++;
        }
      } else if (Character.isWhitespace(c)) {
        pos++;
      } else {
        return;
      }
    }
  }

  private boolean atEnd() {
    return pos >= text.length();
  }

  private char peek() {
    return text.charAt(pos);
  }

  private boolean peekIs(char c) {
    return !atEnd() && peek() == c;
  }

  private char peekAt(int ahead) {
    int p = pos + ahead;
    return p < text.length() ? text.charAt(p) : '\0';
  }

  private static boolean isIdentStart(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  private ParseException error(String message, int at) {
    return new ParseException(message, at + 1);
  }

  private IncompleteInputException incomplete(String message) {
    return new IncompleteInputException(message, text.length() + 1);
  }
}
