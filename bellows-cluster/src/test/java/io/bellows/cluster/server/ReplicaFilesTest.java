package io.bellows.cluster.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A dropped replica's directory is deleted name by name: everything Bellows makes there goes, and
 * a file someone else put anywhere in it stays, with the directories that hold it.
 */
class ReplicaFilesTest {
  @TempDir Path tmp;

  /** Every kind of name a replica's directory holds in its life (see ReplicaFiles). */
  private static final List<String> BELLOWS_FILES = List.of(
      "region.txt", "region.txt.tmp", "answered-calls", "answered-calls.tmp", "region.install",
      "region/f/MANIFEST", "region/f/00000000000000000012.sst", "region/f/00000000000000000013.sst.tmp", "region/g/MANIFEST",
      "region/answered-calls",
      "region.create/f/MANIFEST",
      "region.old/f/MANIFEST", "region.old/f/00000000000000000007.sst", "region.new/f/00000000000000000012.sst",
      "region.checkpoint/FETCHING", "region.checkpoint/CHECKPOINT.tmp", "region.checkpoint/region/f/00000000000000000012.sst.part",
      "region.checkpoint/region/f/MANIFEST", "region.checkpoint/region/answered-calls.part",
      "checkpoints/3-120-1/CHECKPOINT", "checkpoints/3-120-1/region/f/00000000000000000012.sst",
      "checkpoints/3-120-1/region/answered-calls");

  private Path replica() throws IOException {
    Path dir = tmp.resolve("regions").resolve("0f8fad5b-d9cb-469f-a165-70867728950e");
    for (String f : BELLOWS_FILES) {
      Path p = dir.resolve(f);
      Files.createDirectories(p.getParent());
      Files.write(p, new byte[] {1, 2, 3});
    }
    Files.createDirectories(dir.resolve("region/empty-family"));
    return dir;
  }

  @Test
  void everythingBellowsMadeGoesWithTheDirectory() throws IOException {
    Path dir = replica();
    assertThat(ReplicaFiles.delete(dir)).isEmpty();
    assertThat(dir).doesNotExist();
    assertThat(dir.getParent()).isEmptyDirectory();
  }

  @Test
  void aFileSomeoneElsePutAnywhereStaysWithTheDirectoriesHoldingIt() throws IOException {
    for (String foreign : List.of("notes.txt", "region/f/backup.tar", "region/README", "region.checkpoint/region/x",
        "checkpoints/3-120-1/region/f/keep.me", "checkpoints/mine/data", "region.old/f/00000000000000000007.sst.bak")) {
      Path dir = replica();
      Path planted = dir.resolve(foreign);
      Files.createDirectories(planted.getParent());
      Files.writeString(planted, "not Bellows'");
      List<Path> left = ReplicaFiles.delete(dir);
      assertThat(left).as(foreign).containsExactly(foreign.equals("checkpoints/mine/data") ? planted.getParent() : planted);
      assertThat(planted).as(foreign).hasContent("not Bellows'");
      // Nothing else is left: the planted file, the directories on its way, nothing of Bellows'.
      try (var walk = Files.walk(dir)) {
        assertThat(walk.filter(Files::isRegularFile).toList()).as(foreign).containsExactly(planted);
      }
      deleteAll(dir);
    }
  }

  @Test
  void aMissingDirectoryIsNothingToDo() throws IOException {
    assertThat(ReplicaFiles.delete(tmp.resolve("absent"))).isEmpty();
  }

  private static void deleteAll(Path dir) throws IOException {
    try (var walk = Files.walk(dir)) {
      for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
