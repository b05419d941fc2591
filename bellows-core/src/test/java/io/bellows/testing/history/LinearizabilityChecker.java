package io.bellows.testing.history;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Decides whether a history is linearizable against a {@link Model}: whether each operation can be
 * given one instant between its invocation and its completion such that, taken in the order of
 * those instants, the operations are a run of the model (Herlihy and Wing).
 *
 * <p>The search is Wing and Gong's, with Lowe's memo of explored (done operations, state) pairs, as
 * in Porcupine and Knossos' linear checker: walk the history's calls and returns in time order;
 * at a call, try to linearize that operation now (the model accepts its output, and the pair is new)
 * and restart from the first pending entry; at a return of an operation not yet linearized, undo
 * the last choice. The history is linearizable when every operation has been placed. Linearizability
 * is compositional, so a history is checked key by key ({@link #check(Model, List)}), which keeps
 * each search small.
 *
 * <p>Operations of unknown outcome return at the end of time: they may be placed anywhere after
 * their invocation, including after everything else (where they change nothing anyone saw).
 */
public final class LinearizabilityChecker {
  /** Explored pairs above which one key's search gives up (a test should then check shorter histories). */
  static final int MAX_EXPLORED = 5_000_000;

  private LinearizabilityChecker() {}

  /** The verdict for a whole history: linearizable, or the first key that is not, with its operations. */
  public record Result(boolean linearizable, Object key, List<Operation> operations, int placed, Operation stuck) {
    static final Result OK = new Result(true, null, List.of(), 0, null);

    /**
     * A report of a failed key: how many operations could be placed, the operation the longest
     * attempt could not place before it returned, and the operations invoked around it.
     */
    public String describe() {
      if (linearizable) {
        return "linearizable";
      }
      List<Operation> sorted = operations.stream().sorted(Comparator.comparingLong(Operation::invokedAt)).toList();
      int at = Math.max(0, sorted.indexOf(stuck));
      StringBuilder b = new StringBuilder("not linearizable: key " + key + ", at most " + placed + " of "
          + operations.size() + " operations could be placed; none could place " + stuck
          + "; the operations invoked around it:");
      for (int i = Math.max(0, at - 15); i < Math.min(sorted.size(), at + 16); i++) {
        b.append(i == at ? "\n> " : "\n  ").append(sorted.get(i));
      }
      return b.toString();
    }
  }

  /** Checks every key's operations on its own; stops at the first key that is not linearizable. */
  public static <S> Result check(Model<S> model, List<Operation> history) {
    Map<Object, List<Operation>> byKey = new LinkedHashMap<>();
    for (Operation op : history) {
      byKey.computeIfAbsent(op.key(), k -> new ArrayList<>()).add(op);
    }
    for (Map.Entry<Object, List<Operation>> e : byKey.entrySet()) {
      Failure failure = checkOneKey(model, e.getValue());
      if (failure != null) {
        return new Result(false, e.getKey(), e.getValue(), failure.placed(), failure.stuck());
      }
    }
    return Result.OK;
  }

  /** One call or return of an operation, in a doubly linked list of the history's pending entries. */
  private static final class Entry {
    final int id;
    final Operation op;
    final boolean call;
    final long time;
    Entry match;
    Entry prev;
    Entry next;

    Entry(int id, Operation op, boolean call) {
      this.id = id;
      this.op = op;
      this.call = call;
      this.time = op == null ? Long.MIN_VALUE : call ? op.invokedAt() : op.completedAt();
    }
  }

  private record Choice<S>(Entry call, S before) {}

  private record Explored(BitSet done, Object state) {}

  /** The most operations any attempt placed, and the one the deepest attempt could not place. */
  private record Failure(int placed, Operation stuck) {}

  /** Null if the key's operations are linearizable. */
  private static <S> Failure checkOneKey(Model<S> model, List<Operation> ops) {
    Entry head = linked(ops);
    BitSet done = new BitSet(ops.size());
    S state = model.initial();
    Deque<Choice<S>> choices = new ArrayDeque<>();
    Set<Explored> explored = new HashSet<>();
    int most = 0;
    Operation stuck = null;
    Entry e = head.next;
    while (head.next != null) {
      if (e.call) {
        S next = model.step(state, e.op.input(), e.op.output());
        if (next != null) {
          BitSet after = (BitSet) done.clone();
          after.set(e.id);
          if (explored.add(new Explored(after, next))) {
            if (explored.size() > MAX_EXPLORED) {
              throw new IllegalStateException("history too large to check: " + ops.size() + " operations of one key");
            }
            choices.push(new Choice<>(e, state));
            state = next;
            done = after;
            if (choices.size() > most) {
              most = choices.size();
              stuck = null; // deeper than before: what blocks it is not known yet
            }
            lift(e);
            e = head.next;
            continue;
          }
        }
        e = e.next;
      } else {
        // The return of an operation not placed yet: every order tried from the last choice fails.
        if (choices.size() == most && stuck == null) {
          stuck = e.op;
        }
        if (choices.isEmpty()) {
          return new Failure(most, stuck);
        }
        Choice<S> c = choices.pop();
        state = c.before();
        done = (BitSet) done.clone();
        done.clear(c.call().id);
        unlift(c.call());
        e = c.call().next;
      }
    }
    return null;
  }

  /** The calls and returns of {@code ops} in time order (a call before a return at the same instant), after a sentinel head. */
  private static Entry linked(List<Operation> ops) {
    List<Entry> entries = new ArrayList<>(2 * ops.size());
    for (int i = 0; i < ops.size(); i++) {
      Entry call = new Entry(i, ops.get(i), true);
      Entry ret = new Entry(i, ops.get(i), false);
      call.match = ret;
      ret.match = call;
      entries.add(call);
      entries.add(ret);
    }
    // Ties: calls first, so operations that meet at one instant count as concurrent.
    entries.sort(Comparator.comparingLong((Entry x) -> x.time).thenComparing(x -> !x.call));
    Entry head = new Entry(-1, null, true);
    Entry last = head;
    for (Entry x : entries) {
      last.next = x;
      x.prev = last;
      last = x;
    }
    return head;
  }

  /** Takes a placed operation's call and return out of the pending list. */
  private static void lift(Entry call) {
    unlink(call);
    unlink(call.match);
  }

  /** Puts them back where they were (in the reverse order of {@link #lift}). */
  private static void unlift(Entry call) {
    relink(call.match);
    relink(call);
  }

  private static void unlink(Entry x) {
    x.prev.next = x.next;
    if (x.next != null) {
      x.next.prev = x.prev;
    }
  }

  private static void relink(Entry x) {
    x.prev.next = x;
    if (x.next != null) {
      x.next.prev = x;
    }
  }
}
