package io.bellows.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.util.TableNotFoundException;
import io.grpc.Context;
import io.grpc.Deadline;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** A unary call whose deadline passed, or which was cancelled, before it ran is not run at all. */
class CallsTest {
  private static final class Recorder<T> implements StreamObserver<T> {
    final List<T> values = new ArrayList<>();
    Throwable error;
    boolean completed;

    @Override
    public void onNext(T value) {
      values.add(value);
    }

    @Override
    public void onError(Throwable t) {
      error = t;
    }

    @Override
    public void onCompleted() {
      completed = true;
    }
  }

  @Test
  void aCallPastItsDeadlineIsNotRun() throws Exception {
    ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    try {
      AtomicBoolean ran = new AtomicBoolean();
      Recorder<String> response = new Recorder<>();
      Context.CancellableContext expired = Context.current()
          .withDeadline(Deadline.after(-1, TimeUnit.SECONDS), scheduler);
      expired.run(() -> Calls.unary(response, () -> {
        ran.set(true);
        return "applied";
      }));
      assertThat(ran).isFalse();
      assertThat(response.values).isEmpty();
      assertThat(Status.fromThrowable(response.error).getCode()).isEqualTo(Status.Code.DEADLINE_EXCEEDED);
      assertThat(response.error).hasMessageContaining("nothing applied");
    } finally {
      scheduler.shutdownNow();
    }
  }

  @Test
  void aCancelledCallIsNotRunAndAnEngineErrorBecomesItsStatus() {
    AtomicBoolean ran = new AtomicBoolean();
    Recorder<String> response = new Recorder<>();
    Context.CancellableContext context = Context.current().withCancellation();
    context.cancel(null);
    context.run(() -> Calls.unary(response, () -> {
      ran.set(true);
      return "applied";
    }));
    assertThat(ran).isFalse();
    assertThat(Status.fromThrowable(response.error).getCode()).isEqualTo(Status.Code.CANCELLED);

    Recorder<String> failed = new Recorder<>();
    Calls.unary(failed, () -> {
      throw new TableNotFoundException("table 'x' does not exist");
    });
    StatusRuntimeException s = (StatusRuntimeException) failed.error;
    assertThat(s.getStatus().getCode()).isEqualTo(Status.Code.NOT_FOUND);
    assertThat(s.getStatus().getDescription()).isEqualTo("table 'x' does not exist");

    Recorder<String> ok = new Recorder<>();
    Calls.unary(ok, () -> "done");
    assertThat(ok.values).containsExactly("done");
    assertThat(ok.completed).isTrue();
  }
}
