package io.bellows.wire;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.util.BackgroundError;
import io.bellows.util.EngineClosedException;
import io.bellows.util.NoSuchColumnFamilyException;
import io.bellows.util.RefusedException;
import io.bellows.util.StorageException;
import io.bellows.util.TableExistsException;
import io.bellows.util.TableNotEnabledException;
import io.bellows.util.TableNotFoundException;
import io.bellows.util.WritesStoppedException;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class WireErrorsTest {
  @Test
  void everyEngineErrorTravelsAsItsStatusAndComesBackAsItsOwnType() {
    List<RuntimeException> errors = List.of(
        new TableNotFoundException("table 't' does not exist"),
        new NoSuchColumnFamilyException("no family 'x'"),
        new TableExistsException("table 't' exists"),
        new TableNotEnabledException("table 't' is disabled"),
        new IllegalArgumentException("bad key"),
        new EngineClosedException("closed"),
        new StorageException("disk on fire"),
        new RefusedException("member m3 did not answer"));
    List<Status.Code> codes = List.of(Status.Code.NOT_FOUND, Status.Code.NOT_FOUND, Status.Code.ALREADY_EXISTS,
        Status.Code.FAILED_PRECONDITION, Status.Code.INVALID_ARGUMENT, Status.Code.UNAVAILABLE, Status.Code.INTERNAL,
        Status.Code.FAILED_PRECONDITION);
    for (int i = 0; i < errors.size(); i++) {
      RuntimeException e = errors.get(i);
      StatusRuntimeException s = WireErrors.toStatus(e);
      assertThat(s.getStatus().getCode()).as(e.toString()).isEqualTo(codes.get(i));
      assertThat(s.getStatus().getDescription()).isEqualTo(e.getMessage());
      RuntimeException back = WireErrors.toException(s);
      assertThat(back).isExactlyInstanceOf(e.getClass());
      assertThat(back.getMessage()).isEqualTo(e.getMessage());
    }
  }

  @Test
  void writesStoppedIsUnavailableNotAppliedWithAHintAndItsReason() {
    BackgroundError reason = new BackgroundError(BackgroundError.Kind.FLUSH, BackgroundError.Severity.HARD, "t",
        "disk full", Instant.ofEpochMilli(1234), 3);
    StatusRuntimeException s = WireErrors.toStatus(new WritesStoppedException("writes stopped", reason, null));
    assertThat(s.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(WireErrors.certainlyNotApplied(s)).isTrue();
    assertThat(WireErrors.retryAfterMillis(s)).isPositive();
    WritesStoppedException back = (WritesStoppedException) WireErrors.toException(s);
    assertThat(back.reason()).isEqualTo(reason);
  }

  @Test
  void throttlingCarriesARetryHintAndTransportErrorsKeepTheirCode() {
    StatusRuntimeException s = WireErrors.throttled("busy", 75);
    assertThat(s.getStatus().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
    assertThat(WireErrors.retryAfterMillis(s)).isEqualTo(75);
    assertThat(WireErrors.certainlyNotApplied(s)).isTrue();
    assertThat(((RemoteCallException) WireErrors.toException(s)).code()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);

    StatusRuntimeException deadline = Status.DEADLINE_EXCEEDED.withDescription("late").asRuntimeException();
    RemoteCallException e = (RemoteCallException) WireErrors.toException(deadline);
    assertThat(e.code()).isEqualTo(Status.Code.DEADLINE_EXCEEDED);
    assertThat(WireErrors.certainlyNotApplied(deadline)).isFalse();
  }
}
