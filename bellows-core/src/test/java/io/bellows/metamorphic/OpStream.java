package io.bellows.metamorphic;

import io.bellows.client.Delete;
import io.bellows.client.Get;
import io.bellows.client.Mutation;
import io.bellows.client.Put;
import io.bellows.client.Query;
import io.bellows.client.Scan;
import io.bellows.util.Bytes;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * The seeded operation stream: the same seed gives the same operations, made afresh each time. It
 * depends on the seed alone — never on an engine's answers — so every configuration sees exactly
 * the same stream, and the only time it knows is the one its own clock operations set.
 *
 * <p>Small alphabets make operations collide: 16 rows (some prefixes of others), 6 qualifiers,
 * timestamps from a few fixed values and values near the clock, and values from a pool of 24, so
 * versions pile up, deletes hit, check-and-mutate matches about half the time and increments meet
 * both counters and other values.
 */
final class OpStream {
  static final long START_MILLIS = 1_000_000;
  static final byte[][] ROWS = bytes("a", "ab", "abc", "b", "r00", "r01", "r02", "r03", "r04", "r05", "r06", "r07",
      "r08", "r09", "r10", "r11");
  private static final byte[][] QUALIFIERS = bytes("", "q0", "q1", "q10", "q2", "n");
  private static final byte[] COUNTER = Bytes.of("n");
  private static final byte[][] FAMILIES = bytes("a", "b", "c");

  private final Random random;
  private final byte[][] values;
  private long now = START_MILLIS;

  OpStream(long seed) {
    random = new Random(seed);
    // Sizes from empty to several blocks; 8-byte values are counters for increments.
    values = new byte[24][];
    for (int i = 0; i < values.length; i++) {
      int len = i < 6 ? 8 : i < 8 ? i - 6 : i < 16 ? 10 + random.nextInt(60) : i < 21 ? 200 + random.nextInt(600)
          : 1500 + random.nextInt(3000);
      values[i] = new byte[len];
      random.nextBytes(values[i]);
    }
  }

  Op next() {
    int p = random.nextInt(1000);
    if (p < 230) {
      return new Op.PutOp(put(pick(ROWS)));
    } else if (p < 290) {
      List<Put> puts = new ArrayList<>();
      for (int i = 2 + random.nextInt(8); i > 0; i--) {
        puts.add(put(pick(ROWS)));
      }
      return new Op.PutBatch(puts);
    } else if (p < 400) {
      return new Op.DeleteOp(delete(pick(ROWS)));
    } else if (p < 430) {
      List<Delete> deletes = new ArrayList<>();
      for (int i = 2 + random.nextInt(3); i > 0; i--) {
        deletes.add(delete(pick(ROWS)));
      }
      return new Op.DeleteBatch(deletes);
    } else if (p < 480) {
      byte[] qualifier = random.nextInt(5) == 0 ? pick(QUALIFIERS) : COUNTER;
      return new Op.Increment(pick(ROWS), pick(FAMILIES), qualifier, random.nextInt(21) - 5);
    } else if (p < 530) {
      byte[] row = pick(ROWS);
      byte[] expected = random.nextInt(4) == 0 ? null : pick(values);
      Mutation then = random.nextBoolean() ? put(row) : delete(row);
      return new Op.CheckAndMutate(row, pick(FAMILIES), pick(QUALIFIERS), expected, then);
    } else if (p < 537) {
      return new Op.Flush();
    } else if (p < 552) {
      return new Op.Compact(false);
    } else if (p < 556) {
      return new Op.Compact(true);
    } else if (p < 560) {
      return new Op.Reopen();
    } else if (p < 565) {
      return new Op.Split(pick(ROWS));
    } else if (p < 650) {
      long[] steps = {1, 250, 500, 500, 1000, 1500, 4000};
      long by = steps[random.nextInt(steps.length)];
      now += by;
      return new Op.Advance(by);
    } else if (p < 800) {
      return get();
    } else {
      return scan();
    }
  }

  /** A read of everything, every version: the last operations of a run, before and after a reopen. */
  static Op fullScan() {
    return new Op.ScanOp(new Scan().readAllVersions(), " everything, all versions");
  }

  private Put put(byte[] row) {
    Put put = random.nextInt(4) == 0 ? new Put(row, timestamp()) : new Put(row);
    // Distinct columns: two cells of one column and timestamp in one mutation share a sequence id,
    // and which one wins is not defined.
    Set<String> columns = new LinkedHashSet<>();
    for (int i = random.nextInt(3) == 0 ? 2 + random.nextInt(3) : 1; i > 0; i--) {
      byte[] family = pick(FAMILIES);
      byte[] qualifier = random.nextInt(4) == 0 ? COUNTER : pick(QUALIFIERS);
      if (!columns.add(Bytes.toStringBinary(family) + ":" + Bytes.toStringBinary(qualifier))) {
        continue;
      }
      if (random.nextBoolean()) {
        put.addColumn(family, qualifier, pick(values));
      } else {
        put.addColumn(family, qualifier, timestamp(), pick(values));
      }
    }
    return put;
  }

  /** Every kind of delete: row, family, column (all versions), one version; with and without a timestamp. */
  private Delete delete(byte[] row) {
    if (random.nextInt(10) == 0) {
      return random.nextBoolean() ? new Delete(row) : new Delete(row, timestamp());
    }
    Delete d = random.nextInt(4) == 0 ? new Delete(row, timestamp()) : new Delete(row);
    for (int i = random.nextInt(4) == 0 ? 2 + random.nextInt(2) : 1; i > 0; i--) {
      byte[] family = pick(FAMILIES);
      byte[] qualifier = pick(QUALIFIERS);
      switch (random.nextInt(6)) {
        case 0 -> d.addFamily(family);
        case 1 -> d.addFamily(family, timestamp());
        case 2 -> d.addColumns(family, qualifier);
        case 3 -> d.addColumns(family, qualifier, timestamp());
        case 4 -> d.addColumn(family, qualifier, timestamp());
        default -> d.addColumn(family, qualifier);
      }
    }
    return d;
  }

  /** Fixed early times, times just before now, now, LATEST: versions collide. */
  private long timestamp() {
    int p = random.nextInt(10);
    if (p < 4) {
      return START_MILLIS + 500L * random.nextInt(8);
    }
    if (p < 8) {
      return Math.max(0, now - 500L * random.nextInt(4));
    }
    return p == 8 ? now : Mutation.LATEST_TIMESTAMP;
  }

  private Op get() {
    byte[] row = pick(ROWS);
    Get get = new Get(row);
    return new Op.GetOp(get, shape(get));
  }

  private Op scan() {
    Scan scan = new Scan();
    StringBuilder shown = new StringBuilder();
    if (random.nextInt(3) > 0) {
      byte[] start = pick(ROWS);
      boolean inclusive = random.nextInt(4) > 0;
      scan.withStartRow(start, inclusive);
      shown.append(inclusive ? " [" : " (").append(Bytes.toStringBinary(start));
    }
    if (random.nextInt(3) > 0) {
      byte[] stop = pick(ROWS);
      boolean inclusive = random.nextInt(4) == 0;
      scan.withStopRow(stop, inclusive);
      shown.append(" .. ").append(Bytes.toStringBinary(stop)).append(inclusive ? "]" : ")");
    }
    if (random.nextInt(4) == 0) {
      int limit = 1 + random.nextInt(5);
      scan.setLimit(limit);
      shown.append(" limit ").append(limit);
    }
    shown.append(shape(scan));
    return new Op.ScanOp(scan, shown.toString());
  }

  /** Random families or columns, a timestamp or time range, and a number of versions. */
  private String shape(Query<?> q) {
    StringBuilder shown = new StringBuilder();
    if (random.nextInt(3) == 0) {
      for (byte[] family : FAMILIES) {
        int p = random.nextInt(3);
        if (p == 0) {
          q.addFamily(family);
          shown.append(' ').append(Bytes.toStringBinary(family)).append(":*");
        } else if (p == 1) {
          for (int i = 1 + random.nextInt(2); i > 0; i--) {
            byte[] qualifier = pick(QUALIFIERS);
            q.addColumn(family, qualifier);
            shown.append(' ').append(Bytes.toStringBinary(family)).append(':').append(Bytes.toStringBinary(qualifier));
          }
        }
      }
    }
    if (random.nextInt(4) == 0) {
      long a = timestamp();
      long b = timestamp();
      long min = Math.min(a, b);
      long max = Math.max(a, b);
      if (random.nextBoolean() && max != Long.MAX_VALUE) {
        q.setTimestamp(max);
        shown.append(" ts=").append(max);
      } else {
        q.setTimeRange(min, max);
        shown.append(" time [").append(min).append(", ").append(max).append(')');
      }
    }
    int p = random.nextInt(4);
    if (p > 0) {
      int versions = p == 3 ? Integer.MAX_VALUE : 1 + random.nextInt(3);
      q.readVersions(versions);
      shown.append(" versions ").append(versions == Integer.MAX_VALUE ? "all" : versions);
    }
    return shown.toString();
  }

  private byte[] pick(byte[][] from) {
    return from[random.nextInt(from.length)];
  }

  private static byte[][] bytes(String... s) {
    byte[][] out = new byte[s.length][];
    for (int i = 0; i < s.length; i++) {
      out[i] = Bytes.of(s[i]);
    }
    return out;
  }
}
