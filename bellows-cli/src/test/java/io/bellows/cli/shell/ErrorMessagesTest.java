package io.bellows.cli.shell;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.util.CorruptionException;
import io.bellows.util.StorageException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import org.junit.jupiter.api.Test;

class ErrorMessagesTest {
  @Test
  void fileSystemExceptionsAreWordedWithTheirPath() {
    assertThat(ErrorMessages.describe(new NoSuchFileException("d/x"))).isEqualTo("no such file or directory: d/x");
    assertThat(ErrorMessages.describe(new AccessDeniedException("d/x"))).isEqualTo("permission denied: d/x");
    assertThat(ErrorMessages.describe(new NotDirectoryException("d/x"))).isEqualTo("not a directory: d/x");
    assertThat(ErrorMessages.describe(new FileAlreadyExistsException("d/x"))).isEqualTo("already exists: d/x");
    assertThat(ErrorMessages.describe(new FileSystemException("d/x", null, "No space left on device")))
        .isEqualTo("No space left on device: d/x");
  }

  @Test
  void causesFollowTheirWrappersWithoutClassNames() {
    assertThat(ErrorMessages.describe(new StorageException("cannot open d", new AccessDeniedException("d/LOCK"))))
        .isEqualTo("cannot open d: permission denied: d/LOCK");
    assertThat(ErrorMessages.describe(new CorruptionException("d/CATALOG: checksum mismatch at offset 63")))
        .isEqualTo("d/CATALOG: checksum mismatch at offset 63");
    // new X(cause) makes the message cause.toString(): the class name goes, the words stay once
    assertThat(ErrorMessages.describe(new RuntimeException(new UncheckedIOException(new IOException("disk full")))))
        .isEqualTo("disk full");
    assertThat(ErrorMessages.describe(new StorageException("write failed: " + new IOException("disk full"))))
        .isEqualTo("write failed: disk full");
  }

  @Test
  void aFailureWithoutAnyMessageStillSaysSomething() {
    assertThat(ErrorMessages.describe(new NullPointerException())).isEqualTo("internal error (no message)");
  }
}
