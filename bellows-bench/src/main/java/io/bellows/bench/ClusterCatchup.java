package io.bellows.bench;

import io.bellows.client.Bellows;
import io.bellows.client.Put;
import io.bellows.client.Table;
import io.bellows.engine.ClusterStatus;
import io.bellows.remote.RemoteCluster;
import io.bellows.remote.RemoteOptions;
import io.bellows.schema.TableDescriptor;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.RandomAccessFile;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * {@code bench cluster --test catchup}: how fast a replica left behind installs its leader's
 * checkpoint. Three members start and a table is created; one follower of its region is stopped;
 * the other two take rows until the leader's sorted files hold {@code --fill-mib} (256 MiB at scale
 * 1), so the log the stopped follower missed is dropped at the others' checkpoints; the follower is
 * started again and, told it is behind the leader's first entry, fetches and installs a checkpoint
 * of the leader's files. The install's time comes from the follower's log (from Raft's notification
 * to Bellows' "installed the checkpoint" line); the same run copies the same files through a
 * loopback socket into new files, synced (what the disk and loopback allow a plain copy), and the
 * figure is the install's bytes per second over the copy's. Target (docs/design/cluster.md, step
 * 4): at least 0.8.
 */
final class ClusterCatchup {
  static final double TARGET = 0.8;
  static final String TABLE = "catchup";
  private static final int BUFFER = 1 << 20;
  private static final Pattern INSTALLED = Pattern.compile("installed the checkpoint of group (\\S+) at");
  private static final Pattern FETCHED = Pattern.compile("fetched the checkpoint of group (\\S+) at .*: (\\d+) files, (\\d+) bytes");
  private static final Pattern TAKEN = Pattern.compile("checkpoint of group (\\S+) at .*: (\\d+) files, (\\d+) bytes");
  private static final String NOTIFIED = "Received notification to install snapshot";

  private ClusterCatchup() {}

  /**
   * What the follower's and the leader's logs say of one install, in epoch milliseconds: notified
   * by Raft, the leader's checkpoint taken, the files fetched, the install done; the bytes fetched.
   */
  record Install(String group, long notifiedMillis, long takenMillis, long fetchedMillis, long installedMillis,
      int files, long bytes) {
    long millis() {
      return installedMillis - notifiedMillis;
    }
  }

  /** A plain copy of the same files: read only, and read + loopback socket + write + sync. */
  record Copy(long bytes, int files, long readNanos, long copyNanos) {}

  record Result(long fillBytes, long leaderFileBytes, Install install, Copy copy, long followerFileBytes, long lag) {
    /** Bytes per second of the install, from Raft's notification to the installed region. */
    double installRate() {
      return install.bytes() * 1000.0 / Math.max(1, install.millis());
    }

    double copyRate() {
      return copy.bytes() * 1e9 / copy.copyNanos();
    }

    double readRate() {
      return copy.bytes() * 1e9 / copy.readNanos();
    }

    double ratio() {
      return installRate() / copyRate();
    }

    boolean meets() {
      return ratio() >= TARGET;
    }

    String markdown(String preamble) {
      StringBuilder sb = new StringBuilder(preamble).append('\n');
      sb.append("## Catch-up of a replica from its leader's checkpoint\n\n");
      MarkdownTable t = new MarkdownTable("what", "bytes", "files", "seconds", "MiB/s");
      t.row("install (notified → installed)", install.bytes(), install.files(), MarkdownTable.f2(install.millis() / 1e3),
          MarkdownTable.f1(installRate() / 1048576));
      t.row("plain copy over loopback (read, socket, write, sync)", copy.bytes(), copy.files(),
          MarkdownTable.f2(copy.copyNanos() / 1e9), MarkdownTable.f1(copyRate() / 1048576));
      t.row("reading the files alone", copy.bytes(), copy.files(), MarkdownTable.f2(copy.readNanos() / 1e9),
          MarkdownTable.f1(readRate() / 1048576));
      sb.append(t.render()).append('\n');
      sb.append("Phases of the install (from the members' logs):\n\n");
      MarkdownTable p = new MarkdownTable("phase", "seconds");
      p.row("notified → leader's checkpoint taken (flush, links, checksums)",
          MarkdownTable.f2((install.takenMillis() - install.notifiedMillis()) / 1e3));
      p.row("checkpoint taken → files fetched (transfer, checks, syncs)",
          MarkdownTable.f2((install.fetchedMillis() - install.takenMillis()) / 1e3));
      p.row("fetched → installed (links into place, reopen)",
          MarkdownTable.f2((install.installedMillis() - install.fetchedMillis()) / 1e3));
      sb.append(p.render()).append('\n');
      sb.append(String.format(Locale.ROOT, "* filled to %,d bytes of the leader's sorted files (asked: %,d); after the"
              + " install the follower holds %,d bytes of sorted files, %d entries behind%n", leaderFileBytes, fillBytes,
          followerFileBytes, lag));
      sb.append(String.format(Locale.ROOT, "* install ÷ plain copy: **%.2f** (target ≥ %.1f): **%s**%n", ratio(), TARGET,
          meets() ? "met" : "missed"));
      return sb.toString();
    }

    String csv() {
      return "what,bytes,files,seconds,bytes_per_s\n"
          + String.format(Locale.ROOT, "install,%d,%d,%.3f,%.0f%n", install.bytes(), install.files(), install.millis() / 1e3,
              installRate())
          + String.format(Locale.ROOT, "copy,%d,%d,%.3f,%.0f%n", copy.bytes(), copy.files(), copy.copyNanos() / 1e9,
              copyRate())
          + String.format(Locale.ROOT, "read,%d,%d,%.3f,%.0f%n", copy.bytes(), copy.files(), copy.readNanos() / 1e9,
              readRate())
          + String.format(Locale.ROOT, "phase_checkpoint,,,%.3f,%n", (install.takenMillis() - install.notifiedMillis()) / 1e3)
          + String.format(Locale.ROOT, "phase_fetch,,,%.3f,%n", (install.fetchedMillis() - install.takenMillis()) / 1e3)
          + String.format(Locale.ROOT, "phase_install,,,%.3f,%n", (install.installedMillis() - install.fetchedMillis()) / 1e3);
    }
  }

  static Result run(ClusterBench.Plan plan, PrintWriter out) throws Exception {
    Path dir = plan.dir().resolve("catchup");
    try (LocalServers servers = LocalServers.cluster(plan.product(), plan.jvmFlags(), plan.jfr(), dir, 3);
        RemoteCluster cluster = startAndConnect(servers, out)) {
      Bellows db = Bellows.over(cluster);
      db.createTable(TableDescriptor.builder(TABLE).family("f").build());
      ClusterStatus status = awaitLeader(cluster);
      String leader = status.leaderOf(TABLE).orElseThrow().member();
      String metaLeader = status.leaderOf(null).map(ClusterStatus.Replica::member).orElse("");
      String follower = servers.servers().stream().map(LocalServers.Server::id).filter(id -> !id.equals(leader))
          .sorted(Comparator.comparing((String id) -> id.equals(metaLeader))).findFirst().orElseThrow();
      out.println("catchup: " + leader + " leads the region; stopping follower " + follower);
      servers.stop(follower);
      long leaderBytes = fill(db.getTable(TABLE), cluster, plan, out);
      db.flush(TABLE);
      leaderBytes = replica(cluster.clusterStatus().orElseThrow(), leader).storeFileBytes();
      Copy copy = copy(regionFiles(servers.server(leader).data()), dir.resolve("copy"), out);
      Path log = servers.server(follower).log();
      long logStart = Files.size(log);
      out.println("catchup: starting " + follower + " again");
      servers.start(follower);
      String installedLine = awaitLine(log, logStart, INSTALLED, TimeUnit.MINUTES.toNanos(20));
      Install install = install(Files.readString(log).substring((int) logStart),
          Files.readString(servers.server(leader).log()), installedLine);
      ClusterStatus after = awaitCaughtUp(cluster, follower);
      ClusterStatus.Replica f = replica(after, follower);
      out.printf(Locale.ROOT, "catchup: installed %,d bytes in %.2f s; %s holds %,d bytes of sorted files, %d behind%n",
          install.bytes(), install.millis() / 1e3, follower, f.storeFileBytes(), after.lag(f).orElse(-1L));
      return new Result(plan.fillBytes(), leaderBytes, install, copy, f.storeFileBytes(), after.lag(f).orElse(-1L));
    }
  }

  private static RemoteCluster startAndConnect(LocalServers servers, PrintWriter out) throws Exception {
    servers.startAll();
    out.println("catchup: 3 members started: " + servers.clientAddresses());
    return RemoteCluster.open(servers.clientAddresses(), RemoteOptions.defaults());
  }

  /** Puts rows never written before until the leader's sorted files reach the plan's bytes; returns them. */
  private static long fill(Table table, RemoteCluster cluster, ClusterBench.Plan plan, PrintWriter out) {
    long chunk = 100_000;
    long seed = plan.seed();
    long start = System.nanoTime();
    long written = 0;
    while (true) {
      List<BenchClients.RowWriter> tasks = new ArrayList<>();
      for (int i = 0; i < plan.writers(); i++) {
        tasks.add(new BenchClients.RowWriter(KeyDistribution.UNIQUE.chooser(0, seed++), new PaperPuts(seed), chunk
            / plan.writers(), 1, plan.batch()) {
          @Override
          void write(List<Put> batch) {
            table.put(batch);
          }
        });
      }
      ClusterEfficiency.timed(0, "fill", tasks, chunk, out);
      written += chunk;
      ClusterStatus s = cluster.clusterStatus().orElseThrow();
      ClusterStatus.Replica leader = s.leaderOf(TABLE).orElseThrow();
      out.printf(Locale.ROOT, "catchup: %,d rows written (%.0f s); the leader's files %,d bytes of %,d%n", written,
          (System.nanoTime() - start) / 1e9, leader.storeFileBytes(), plan.fillBytes());
      if (leader.storeFileBytes() >= plan.fillBytes()) {
        return leader.storeFileBytes();
      }
    }
  }

  /** The region's files on a member: the largest region directory under its data (meta's is small). */
  static List<Path> regionFiles(Path data) throws IOException {
    List<Path> best = List.of();
    long bestBytes = -1;
    List<Path> regionDirs;
    try (Stream<Path> s = Files.walk(data)) {
      regionDirs = s.filter(Files::isDirectory).filter(p -> p.getFileName().toString().equals("region")).toList();
    }
    for (Path d : regionDirs) {
      List<Path> files;
      try (Stream<Path> s = Files.walk(d)) {
        files = s.filter(Files::isRegularFile).toList();
      }
      long bytes = 0;
      for (Path f : files) {
        bytes += Files.size(f);
      }
      if (bytes > bestBytes) {
        best = files;
        bestBytes = bytes;
      }
    }
    return best;
  }

  /**
   * Reads the files once alone, then copies them through a loopback socket into {@code target}
   * (1 MiB reads and writes, each file synced), as a plain copy from one member to another would.
   */
  static Copy copy(List<Path> files, Path target, PrintWriter out) throws Exception {
    Files.createDirectories(target);
    long bytes = 0;
    for (Path f : files) {
      bytes += Files.size(f);
    }
    ByteBuffer buf = ByteBuffer.allocateDirect(BUFFER);
    long t0 = System.nanoTime();
    for (Path f : files) {
      try (FileChannel in = FileChannel.open(f, StandardOpenOption.READ)) {
        while (in.read(buf) >= 0) {
          buf.clear();
        }
      }
    }
    long readNanos = System.nanoTime() - t0;
    List<Long> sizes = new ArrayList<>();
    for (Path f : files) {
      sizes.add(Files.size(f));
    }
    long copyNanos;
    try (ServerSocketChannel server = ServerSocketChannel.open()) {
      server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
      long t1 = System.nanoTime();
      CompletableFuture<Void> receiver = CompletableFuture.runAsync(() -> receive(server, sizes, target));
      try (SocketChannel socket = SocketChannel.open(server.getLocalAddress())) {
        ByteBuffer send = ByteBuffer.allocateDirect(BUFFER);
        for (int i = 0; i < files.size(); i++) {
          // Exactly the size the receiver was told: a leader's file may grow meanwhile (its log), and
          // bytes past that size put the receiver out of step with the files after it.
          long left = sizes.get(i);
          try (FileChannel in = FileChannel.open(files.get(i), StandardOpenOption.READ)) {
            while (left > 0) {
              send.clear();
              send.limit((int) Math.min(send.capacity(), left));
              if (in.read(send) < 0) {
                throw new IOException(files.get(i) + " shrank while it was copied");
              }
              send.flip();
              left -= send.remaining();
              while (send.hasRemaining()) {
                socket.write(send);
              }
            }
          }
        }
      }
      receiver.get(20, TimeUnit.MINUTES);
      copyNanos = System.nanoTime() - t1;
    }
    ClusterBench.deleteTree(target);
    out.printf(Locale.ROOT, "catchup: plain copy of %,d bytes in %d files: read alone %.2f s, over loopback %.2f s%n",
        bytes, files.size(), readNanos / 1e9, copyNanos / 1e9);
    return new Copy(bytes, files.size(), readNanos, copyNanos);
  }

  private static void receive(ServerSocketChannel server, List<Long> sizes, Path target) {
    try (SocketChannel socket = server.accept()) {
      ByteBuffer buf = ByteBuffer.allocateDirect(BUFFER);
      for (int i = 0; i < sizes.size(); i++) {
        try (RandomAccessFile raf = new RandomAccessFile(target.resolve("f" + i).toFile(), "rw");
            FileChannel outCh = raf.getChannel()) {
          long left = sizes.get(i);
          while (left > 0) {
            buf.clear();
            buf.limit((int) Math.min(buf.capacity(), left));
            if (socket.read(buf) < 0) {
              throw new IOException("the sender closed early");
            }
            buf.flip();
            left -= buf.remaining();
            while (buf.hasRemaining()) {
              outCh.write(buf);
            }
          }
          outCh.force(true);
        }
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** Waits for a line matching {@code p} in the log past {@code from}; returns it. */
  private static String awaitLine(Path log, long from, Pattern p, long timeoutNanos) throws Exception {
    long end = System.nanoTime() + timeoutNanos;
    while (System.nanoTime() < end) {
      String text = Files.readString(log, StandardCharsets.UTF_8);
      for (String line : text.substring((int) Math.min(from, text.length())).split("\n")) {
        if (p.matcher(line).find()) {
          return line;
        }
      }
      TimeUnit.MILLISECONDS.sleep(500);
    }
    throw new IllegalStateException("no line matching '" + p + "' in " + log);
  }

  /**
   * The install's moments from the follower's log since its restart and the leader's log: the group
   * from the "installed" line; Raft's first notification naming the group (Ratis names a group by
   * the last 12 hex digits of its id), the leader's last checkpoint of it, the fetch.
   */
  static Install install(String followerLog, String leaderLog, String installedLine) {
    Matcher im = INSTALLED.matcher(installedLine);
    if (!im.find()) {
      throw new IllegalArgumentException("not an install line: " + installedLine);
    }
    String group = im.group(1);
    String hex = group.replace("-", "");
    String shortId = hex.substring(Math.max(0, hex.length() - 12)).toLowerCase(Locale.ROOT);
    long notified = -1;
    long anyNotified = -1;
    long fetched = -1;
    int files = 0;
    long bytes = 0;
    for (String line : followerLog.split("\n")) {
      if (line.contains(NOTIFIED)) {
        if (anyNotified < 0) {
          anyNotified = LocalServers.logTime(line);
        }
        if (notified < 0 && line.toLowerCase(Locale.ROOT).contains(shortId)) {
          notified = LocalServers.logTime(line);
        }
      }
      Matcher fm = FETCHED.matcher(line);
      if (fm.find() && fm.group(1).equals(group)) {
        fetched = LocalServers.logTime(line);
        files = Integer.parseInt(fm.group(2));
        bytes = Long.parseLong(fm.group(3));
      }
    }
    if (notified < 0) {
      notified = anyNotified; // Ratis named the group otherwise: its one notification since the restart
    }
    long taken = -1;
    for (String line : leaderLog.split("\n")) {
      Matcher tm = TAKEN.matcher(line);
      if (tm.find() && tm.group(1).equals(group) && !line.contains("fetched") && !line.contains("installed")) {
        long t = LocalServers.logTime(line);
        if (t >= notified && t <= fetched) {
          taken = t;
        }
      }
    }
    long installed = LocalServers.logTime(installedLine);
    if (notified < 0 || fetched < 0 || installed < 0) {
      throw new IllegalStateException("the follower's log lacks the install's steps of group " + group
          + " (notified " + notified + ", fetched " + fetched + ", installed " + installed + ")");
    }
    return new Install(group, notified, taken < 0 ? notified : taken, fetched, installed, files, bytes);
  }

  private static ClusterStatus awaitLeader(RemoteCluster cluster) throws InterruptedException {
    for (int i = 0; i < 120; i++) {
      ClusterStatus s = cluster.clusterStatus().orElseThrow();
      if (s.leaderOf(TABLE).isPresent()) {
        return s;
      }
      TimeUnit.MILLISECONDS.sleep(500);
    }
    throw new IllegalStateException("the table's region has no leader after 60 s");
  }

  /** Waits until the follower reports its replica within a few entries of the leader's. */
  private static ClusterStatus awaitCaughtUp(RemoteCluster cluster, String follower) throws InterruptedException {
    ClusterStatus s = null;
    for (int i = 0; i < 240; i++) {
      s = cluster.clusterStatus().orElseThrow();
      ClusterStatus.Replica r = s.replicas().stream().filter(x -> TABLE.equals(x.table()) && x.member().equals(follower))
          .findFirst().orElse(null);
      if (r != null && s.lag(r).orElse(Long.MAX_VALUE) <= 2) {
        return s;
      }
      TimeUnit.MILLISECONDS.sleep(500);
    }
    return s;
  }

  private static ClusterStatus.Replica replica(ClusterStatus s, String member) {
    return s.replicas().stream().filter(r -> TABLE.equals(r.table()) && r.member().equals(member)).findFirst()
        .orElseThrow(() -> new IllegalStateException("member " + member + " reported no replica of " + TABLE));
  }
}
