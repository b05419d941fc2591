package io.bellows.wal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.fs.Fault;
import io.bellows.fs.FaultInjectingFileSystem;
import io.bellows.fs.FaultInjectingFileSystem.Error;
import io.bellows.fs.FaultInjectingFileSystem.Op;
import io.bellows.fs.MemFileSystem;
import io.bellows.fs.ReadableFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The parts of the log on their own: the file table's choice of obsolete files, the making of new
 * files (numbering, the fenced length in the header, retries, a file a failed attempt left behind)
 * and the fence-and-rewrite of a heal.
 */
class WalPartsTest {
  private static final Path DIR = Path.of("/wal");
  private final MemFileSystem disk = new MemFileSystem();
  private final FaultInjectingFileSystem fs = new FaultInjectingFileSystem(disk);

  @BeforeEach
  void makeDirectory() throws IOException {
    io.bellows.fs.AtomicFiles.createDirectories(disk, DIR); // durable, as the log makes it
  }

  private static WalFile file(long number, long maxSeqId, boolean known) {
    WalFile f = new WalFile(number, DIR.resolve(WalFormat.fileName(number)));
    if (maxSeqId != Long.MIN_VALUE) {
      f.noteEdit(1, maxSeqId);
    }
    f.seqKnown = known;
    return f;
  }

  private byte[] contents(Path p) throws IOException {
    try (ReadableFile in = disk.open(p)) {
      ByteBuffer b = ByteBuffer.allocate((int) in.length());
      in.read(b, 0);
      return b.array();
    }
  }

  @Test
  void theFileTableGivesUpOnlyFilesWhoseEditsAreAllKnownToBeBelowTheThreshold() {
    WalFiles files = new WalFiles();
    WalFile old = file(1, 10, true);
    WalFile unread = file(2, Long.MIN_VALUE, false); // a pre-existing file not read yet
    WalFile needed = file(3, 20, true);
    WalFile current = file(4, 5, true);
    List.of(old, unread, needed, current).forEach(files::add);

    assertThat(files.removeObsolete(region -> 20, current)).containsExactly(old);
    assertThat(files.paths()).containsExactly(unread.path, needed.path, current.path);
    assertThat(files.removeObsolete(region -> 21, null)).containsExactly(needed, current);
    assertThat(files.size()).isEqualTo(1);
  }

  @Test
  void newFilesAreNumberedOnwardsWithTheFencedLengthInTheirHeader() throws IOException {
    WalFileCreator creator = new WalFileCreator(fs, DIR, 7);
    WalFileCreator.Created a = creator.create(-1);
    WalFileCreator.Created b = creator.create(1234);
    a.channel().close();
    b.channel().close();
    assertThat(a.file().number).isEqualTo(7);
    assertThat(b.file().number).isEqualTo(8);
    assertThat(b.file().path).isEqualTo(DIR.resolve(WalFormat.fileName(8)));
    assertThat(a.file().seqKnown).isTrue();
    assertThat(WalFileReader.fencedLength(disk, a.file().path)).isEqualTo(-1);
    assertThat(WalFileReader.fencedLength(disk, b.file().path)).isEqualTo(1234);
    // Header and name were made durable: both files survive a power loss whole.
    MemFileSystem after = disk.crash(new java.util.Random(1), false);
    assertThat(after.length(b.file().path)).isEqualTo(WalFormat.HEADER_SIZE);
  }

  @Test
  void aFileAFailedAttemptCouldNotDeleteGoesBeforeTheNextIsMade() throws IOException {
    Path first = DIR.resolve(WalFormat.fileName(1));
    Fault sync = fs.inject(Fault.on(Error.FSYNC, Op.SYNC).paths(first.toString()).nth(1));
    Fault delete = fs.inject(Fault.on(Error.EIO, Op.DELETE).paths(first.toString()).nth(1));
    WalFileCreator creator = new WalFileCreator(fs, DIR, 1);

    WalFileCreator.Created c = creator.create(-1); // the second attempt works
    c.channel().close();
    assertThat(sync.fired()).isEqualTo(1);
    assertThat(delete.fired()).isEqualTo(1);
    assertThat(c.file().number).isEqualTo(2);
    assertThat(disk.exists(first)).as("the leftover of the failed attempt").isFalse();
  }

  @Test
  void aDiskThatKeepsFailingFailsTheCreationAfterItsAttempts() {
    Fault create = fs.inject(Fault.on(Error.ENOSPC, Op.CREATE).paths("/wal/").from(1));
    WalFileCreator creator = new WalFileCreator(fs, DIR, 1);
    assertThatThrownBy(() -> creator.create(-1)).isInstanceOf(IOException.class).hasMessageContaining("No space");
    assertThat(create.fired()).isEqualTo(WalFileCreator.CREATE_ATTEMPTS);
  }

  /**
   * A force outside the I/O lock drops the copies it covered and keeps those written after it, in
   * order, whether the cut falls inside a chunk, on a chunk's end or past several chunks.
   */
  @Test
  void unforcedCopiesDropTheirForcedPrefixAndKeepTheRestInOrder() throws IOException {
    int total = 3 * UnforcedCopies.CHUNK + 1000;
    byte[] all = new byte[total];
    for (int i = 0; i < total; i++) {
      all[i] = (byte) (i * 31 + i / 7);
    }
    UnforcedCopies copies = new UnforcedCopies(1 << 20);
    copies.append(ByteBuffer.wrap(all, 0, 5000));
    copies.append(ByteBuffer.wrap(all, 5000, total - 5000));
    long dropped = 0;
    for (long n : new long[] {100, UnforcedCopies.CHUNK - 100, 2L * UnforcedCopies.CHUNK - 7, 500}) {
      copies.dropFirst(n);
      dropped += n;
      assertThat(copies.size()).isEqualTo(total - dropped);
      assertThat(written(copies)).isEqualTo(java.util.Arrays.copyOfRange(all, (int) dropped, total));
    }
    copies.append(ByteBuffer.wrap(all, 0, 10));
    assertThat(written(copies)).endsWith(java.util.Arrays.copyOfRange(all, 0, 10));
    copies.dropFirst(copies.size() + 1);
    assertThat(copies.size()).isZero();
    assertThat(written(copies)).isEmpty();
  }

  /**
   * After a force the chunks are kept, as many as the copies held at their peak: a second interval
   * of the same size allocates none, a quieter one lets the spares beyond its peak go, and no more
   * than the bound is ever kept.
   */
  @Test
  void unforcedCopiesReuseTheirChunksAcrossForces() {
    UnforcedCopies copies = new UnforcedCopies(8L * UnforcedCopies.CHUNK);
    byte[] piece = new byte[UnforcedCopies.CHUNK / 2];
    for (int i = 0; i < 10; i++) {
      copies.append(ByteBuffer.wrap(piece)); // 5 chunks
    }
    assertThat(copies.allocatedChunks()).isEqualTo(5);
    copies.clear();
    assertThat(copies.spareChunks()).isEqualTo(5);
    for (int i = 0; i < 10; i++) {
      copies.append(ByteBuffer.wrap(piece));
    }
    assertThat(copies.allocatedChunks()).as("the same interval again allocates nothing").isEqualTo(5);
    copies.clear();
    copies.append(ByteBuffer.wrap(piece)); // a quiet interval: 1 chunk
    copies.clear();
    assertThat(copies.spareChunks()).isEqualTo(1);
    for (int i = 0; i < 24; i++) {
      copies.append(ByteBuffer.wrap(piece)); // 12 chunks, past the bound of 8
    }
    copies.clear();
    assertThat(copies.spareChunks()).isEqualTo(8);
  }

  private int copyFiles;

  private byte[] written(UnforcedCopies copies) throws IOException {
    Path p = DIR.resolve("copies-" + copyFiles++);
    try (io.bellows.fs.WritableFile f = fs.create(p)) {
      copies.writeTo(f);
    }
    return contents(p);
  }

  @Test
  void aHealFencesTheFailedFileOnceAndRewritesWhatItHadNotForcedAfterTheFencedLength() throws IOException {
    WalFile failed = file(3, 42, true);
    failed.baseTxid = 100;
    UnforcedCopies unforced = new UnforcedCopies(1 << 20);
    unforced.append(ByteBuffer.wrap("abc".getBytes(StandardCharsets.US_ASCII)));
    PendingBuffer pending = new PendingBuffer();
    pending.append("de".getBytes(StandardCharsets.US_ASCII));
    WalHeal heal = new WalHeal(new WalFileCreator(fs, DIR, 4));

    assertThat(WalHeal.fencedLength(failed, 110)).isEqualTo(WalFormat.HEADER_SIZE + 10);
    assertThat(WalHeal.fencedLength(null, 110)).isEqualTo(-1);
    WalFileCreator.Created c = heal.rewrite(failed, 110, unforced, pending, new IOException("test"));
    c.channel().close();

    assertThat(failed.fenced).isTrue();
    assertThat(heal.filesFenced()).isEqualTo(1);
    assertThat(c.file().baseTxid).isEqualTo(110);
    assertThat(c.file().maxSeqId).isEqualTo(42);
    assertThat(WalFileReader.fencedLength(disk, c.file().path)).isEqualTo(WalFormat.HEADER_SIZE + 10);
    byte[] bytes = contents(c.file().path);
    assertThat(new String(bytes, WalFormat.HEADER_SIZE, bytes.length - WalFormat.HEADER_SIZE, StandardCharsets.US_ASCII))
        .isEqualTo("abcde");
    assertThat(unforced.size()).as("the buffers are the log's to clear").isEqualTo(3);
    assertThat(pending.size()).isEqualTo(2);

    // The same file failing again (its rewrite failed and is tried anew) is fenced once.
    heal.rewrite(failed, 110, unforced, pending, new IOException("again")).channel().close();
    assertThat(heal.filesFenced()).isEqualTo(1);
  }

  @Test
  void aRewriteThatFailsLeavesNoNewFile() {
    WalFile failed = file(3, 42, true);
    Fault force = fs.inject(Fault.on(Error.FSYNC, Op.SYNC).paths(DIR.resolve(WalFormat.fileName(4)).toString()).nth(2));
    WalHeal heal = new WalHeal(new WalFileCreator(fs, DIR, 4));
    PendingBuffer pending = new PendingBuffer();
    pending.append(new byte[] {1, 2, 3});
    assertThatThrownBy(() -> heal.rewrite(failed, 0, new UnforcedCopies(1 << 20), pending, new IOException("test")))
        .isInstanceOf(IOException.class);
    assertThat(force.fired()).isEqualTo(1);
    assertThat(disk.exists(DIR.resolve(WalFormat.fileName(4)))).isFalse();
  }
}
