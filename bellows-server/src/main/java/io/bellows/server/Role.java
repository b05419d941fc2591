package io.bellows.server;

import java.util.Locale;

/** What a bearer token may do; each role may do all that the roles before it may. */
public enum Role {
  /** Reads: gets, scans, describing and listing tables, regions, metrics. */
  READ_ONLY,
  /** Reads and writes of data: puts, deletes, check-and-mutate, increments. */
  READ_WRITE,
  /** Everything: creating, disabling, enabling and dropping tables, flush, compact, split, resume. */
  ADMIN;

  public boolean allows(Role needed) {
    return compareTo(needed) >= 0;
  }

  /** From the config file's spelling: read-only, read-write, admin. */
  public static Role parse(String s) {
    try {
      return valueOf(s.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("unknown role '" + s + "': one of read-only, read-write, admin");
    }
  }

  public String spelling() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }
}
