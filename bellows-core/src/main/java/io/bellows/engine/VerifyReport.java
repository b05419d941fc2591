package io.bellows.engine;

import java.util.List;

/**
 * What {@link Engine#verify()} checked and found, online: every block of every live sorted file,
 * every store's manifest, and the WAL files no longer written to.
 *
 * @param stores stores checked
 * @param manifests manifests read back and checked
 * @param files sorted files checked
 * @param blocks data blocks read and decoded
 * @param cells cells in them
 * @param walFiles WAL files checked (the one being written is skipped: its tail may be in flight)
 * @param damages each damage found, in the order found
 */
public record VerifyReport(int stores, int manifests, int files, long blocks, long cells, int walFiles,
    List<Damage> damages) {
  /**
   * One damage.
   *
   * @param file the damaged file, relative to the data directory
   * @param offset offset of the damaged block or record, -1 when not known (then {@code problem} says where)
   * @param problem what is wrong
   */
  public record Damage(String file, long offset, String problem) {}

  public VerifyReport {
    damages = List.copyOf(damages);
  }

  /** Whether nothing is damaged. */
  public boolean clean() {
    return damages.isEmpty();
  }
}
