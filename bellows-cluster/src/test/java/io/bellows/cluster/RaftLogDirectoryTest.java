package io.bellows.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A removed group's log directory is deleted by Ratis' names only: anything else stays, with its directories. */
class RaftLogDirectoryTest {
  @TempDir Path tmp;

  private static final List<String> RATIS_FILES = List.of("in_use.lock", "current/raft-meta", "current/raft-meta.conf",
      "current/raft-meta.tmp", "current/log_0-41", "current/log_42-97", "current/log_inprogress_98",
      "current/log_inprogress_99.corrupt", "sm/snapshot.3_97", "sm/snapshot.3_97.md5");

  private Path log() throws IOException {
    Path dir = tmp.resolve("02511b2a-d9cb-469f-a165-70867728950e.removed");
    for (String f : RATIS_FILES) {
      Path p = dir.resolve(f);
      Files.createDirectories(p.getParent());
      Files.write(p, new byte[] {1});
    }
    Files.createDirectories(dir.resolve("tmp"));
    return dir;
  }

  @Test
  void everythingRatisMadeGoesWithTheDirectory() throws IOException {
    Path dir = log();
    assertThat(RaftLogDirectory.delete(dir)).isEmpty();
    assertThat(dir).doesNotExist();
  }

  @Test
  void aFileSomeoneElsePutStays() throws IOException {
    Path dir = log();
    Path planted = dir.resolve("current/copy-of-log_0-41");
    Path planted2 = dir.resolve("tmp/x");
    Files.writeString(planted, "mine");
    Files.writeString(planted2, "mine");
    assertThat(RaftLogDirectory.delete(dir)).containsExactlyInAnyOrder(planted, planted2);
    assertThat(planted).hasContent("mine");
    assertThat(planted2).hasContent("mine");
    try (var walk = Files.walk(dir)) {
      assertThat(walk.filter(Files::isRegularFile).toList()).containsExactlyInAnyOrder(planted, planted2);
    }
  }
}
