package io.bellows.server;

import io.bellows.engine.Engine;
import io.bellows.engine.TableRef;
import io.bellows.protocol.TableId;
import io.bellows.util.TableNotFoundException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The engine's {@link TableRef}s by table id, for data calls, which name a table by name and id:
 * the id keeps a client's handle on the table it was opened for (a dropped table's id never comes
 * back). Thread-safe.
 */
final class Tables {
  private final Engine engine;
  private final ConcurrentMap<Integer, TableRef> byId = new ConcurrentHashMap<>();

  Tables(Engine engine) {
    this.engine = engine;
  }

  /** The table of this name now; remembered for the data calls that follow. */
  TableRef open(String name) {
    TableRef ref = engine.table(name);
    byId.put(ref.id(), ref);
    return ref;
  }

  /**
   * The table a data call is for. A ref remembered from {@link #open} goes to the engine as is, and
   * the engine refuses it if the table was dropped; otherwise (the server restarted since the
   * client opened it) the name is looked up again and must have the same id.
   */
  TableRef resolve(TableId id) {
    TableRef ref = byId.get(id.getId());
    if (ref != null && ref.name().equals(id.getName())) {
      return ref;
    }
    TableRef now = engine.table(id.getName());
    if (now.id() != id.getId()) {
      throw new TableNotFoundException("table '" + id.getName() + "' was dropped; the table of that name now is"
          + " another one: get a new handle");
    }
    byId.put(now.id(), now);
    return now;
  }
}
