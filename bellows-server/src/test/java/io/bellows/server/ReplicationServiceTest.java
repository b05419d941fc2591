package io.bellows.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.cluster.LogPosition;
import io.bellows.cluster.checkpoint.CheckpointFetcher;
import io.bellows.cluster.checkpoint.CheckpointManifest;
import io.bellows.cluster.checkpoint.CheckpointProvider;
import io.bellows.cluster.checkpoint.CheckpointSession;
import io.bellows.cluster.server.Members;
import io.bellows.engine.LocalEngine;
import io.bellows.fs.LocalFileSystem;
import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The members' internal Replication call on one server in this JVM: a checkpoint's files fetched
 * chunk by chunk with the member's cluster token arrive whole (a chunk damaged on the way is asked
 * for again), the session is closed at the end, and a caller without a token, with an unknown one
 * or one below admin is refused before any checkpoint is taken. Prints its seed.
 */
@ExtendWith(SeedExtension.class)
class ReplicationServiceTest {
  private static final UUID GROUP = UUID.fromString("00000000-0000-0000-0000-0000000000d1");

  @TempDir Path dir;

  /** Files of random bytes (several chunks each) in {@code root}, and a provider handing them as a checkpoint. */
  private static final class Files3 implements CheckpointProvider {
    final Path root;
    final CheckpointManifest manifest;
    final AtomicInteger opened = new AtomicInteger();
    final AtomicInteger closed = new AtomicInteger();
    final AtomicInteger damage = new AtomicInteger();

    Files3(Path root, Random rnd) throws IOException {
      this.root = root;
      List<CheckpointManifest.FileEntry> files = new ArrayList<>();
      for (String name : List.of("region/f/MANIFEST", "region/answered-calls", "region/g/notes")) {
        byte[] b = new byte[rnd.nextInt(3 * 4096) + 1];
        rnd.nextBytes(b);
        Path p = root.resolve(name);
        Files.createDirectories(p.getParent());
        Files.write(p, b);
        CRC32C crc = new CRC32C();
        crc.update(b);
        files.add(new CheckpointManifest.FileEntry(name, b.length, (int) crc.getValue()));
      }
      manifest = new CheckpointManifest(GROUP, new LogPosition(4, 1234), files);
    }

    @Override
    public CheckpointSession open(UUID group) throws IOException {
      if (!group.equals(GROUP)) {
        throw new IOException("no replica of group " + group);
      }
      opened.incrementAndGet();
      return new CheckpointSession() {
        @Override
        public CheckpointManifest manifest() {
          return manifest;
        }

        @Override
        public Chunk read(String path, long offset, int length) throws IOException {
          byte[] all = Files.readAllBytes(root.resolve(path));
          int n = (int) Math.min(length, all.length - offset);
          byte[] b = java.util.Arrays.copyOfRange(all, (int) offset, (int) offset + n);
          CRC32C crc = new CRC32C();
          crc.update(b);
          if (damage.getAndDecrement() > 0 && n > 0) {
            b[0] ^= 1; // damaged after the checksum was taken, as on a bad link
          }
          return new Chunk(b, (int) crc.getValue());
        }

        @Override
        public void close() {
          closed.incrementAndGet();
        }
      };
    }
  }

  private static ServerConfig.Token token(String name, Role role, String secret) throws Exception {
    byte[] hash = MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8));
    return new ServerConfig.Token(name, role, hash, null);
  }

  private Members members(int port) {
    return Members.parse("n1 127.0.0.1:1 127.0.0.1:" + port + "\nn2 127.0.0.1:2 127.0.0.1:3\n"
        + "n3 127.0.0.1:4 127.0.0.1:5\n", "members");
  }

  @Test
  void aCheckpointFetchedWithTheClusterTokenArrivesWholeAndItsSessionIsClosed(Seed seed) throws Exception {
    Files3 provider = new Files3(dir.resolve("leader"), seed.random());
    provider.damage.set(1);
    ServerConfig config = ServerConfig.defaults().withPorts(0, -1)
        .withTokens(List.of(token("member", Role.ADMIN, "cluster-secret")));
    try (LocalEngine engine = LocalEngine.open(dir.resolve("data"), config.engine());
        BellowsServer server = BellowsServer.start(engine, config, ServerEvents.NONE, provider);
        GrpcCheckpointSource source = new GrpcCheckpointSource(members(server.port()),
            new ServerConfig.ClusterAccess("cluster-secret", null), null, null)) {
      Path staging = dir.resolve("staging");
      CheckpointFetcher.Result r;
      try (CheckpointSession s = source.open(GROUP, "n1")) {
        assertThat(s.manifest()).isEqualTo(provider.manifest);
        r = CheckpointFetcher.fetch(LocalFileSystem.INSTANCE, s, staging, 4096);
      }
      assertThat(r.refetched()).isEqualTo(1);
      assertThat(r.files()).isEqualTo(3);
      for (CheckpointManifest.FileEntry f : provider.manifest.files()) {
        assertThat(Files.readAllBytes(staging.resolve(f.path()))).as(f.path())
            .isEqualTo(Files.readAllBytes(provider.root.resolve(f.path())));
      }
      assertThat(CheckpointManifest.read(LocalFileSystem.INSTANCE, staging)).isEqualTo(provider.manifest);
      assertThat(provider.closed.get()).isEqualTo(1);
    }
  }

  @Test
  void aCallerWithoutTheAdminRoleIsRefusedBeforeAnyCheckpointIsTaken(Seed seed) throws Exception {
    Files3 provider = new Files3(dir.resolve("leader"), seed.random());
    ServerConfig config = ServerConfig.defaults().withPorts(0, -1).withTokens(List.of(
        token("member", Role.ADMIN, "cluster-secret"), token("reader", Role.READ_ONLY, "reader-secret")));
    try (LocalEngine engine = LocalEngine.open(dir.resolve("data"), config.engine());
        BellowsServer server = BellowsServer.start(engine, config, ServerEvents.NONE, provider)) {
      Members m = members(server.port());
      for (String[] caller : new String[][] {{null, "UNAUTHENTICATED"}, {"guess", "UNAUTHENTICATED"},
          {"reader-secret", "PERMISSION_DENIED"}}) {
        try (GrpcCheckpointSource source = new GrpcCheckpointSource(m, new ServerConfig.ClusterAccess(caller[0], null),
            null, null)) {
          assertThatThrownBy(() -> source.open(GROUP, "n1")).as(String.valueOf(caller[0]))
              .isInstanceOf(IOException.class).hasMessageContaining(caller[1]);
        }
      }
      try (GrpcCheckpointSource source = new GrpcCheckpointSource(m,
          new ServerConfig.ClusterAccess("cluster-secret", null), null, null)) {
        assertThatThrownBy(() -> source.open(UUID.randomUUID(), "n1")).hasMessageContaining("no replica of group");
        assertThatThrownBy(() -> source.open(GROUP, "n9")).hasMessageContaining("no member 'n9'");
      }
      assertThat(provider.opened.get()).isZero();
    }
  }
}
