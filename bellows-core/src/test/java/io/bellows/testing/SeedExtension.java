package io.bellows.testing;

import java.lang.reflect.Method;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;

/**
 * The one way randomized tests get their seed: a test method (or a parameterized test's extra
 * parameter) declares a {@link Seed} parameter and its class is annotated
 * {@code @ExtendWith(SeedExtension.class)}.
 *
 * <p>The seed is the system property {@value Seed#PROPERTY} when given, else a fresh random number.
 * It is printed with the test's name when the test starts, in a form to paste into Maven:
 *
 * <pre>
 * [seed] EngineModelTest#engineAnswersLikeTheModel [1] NONE/1K/...: -Dtest='EngineModelTest#engineAnswersLikeTheModel' -Dbellows.test.seed=42
 * </pre>
 *
 * and again when the test fails, both on standard error and attached to the failure itself (a
 * suppressed exception), so the seed is in the report even when the output is not.
 *
 * <p>Stateless: the seed of a test lives in its {@link ExtensionContext} store, so parallel tests do
 * not share it.
 */
public final class SeedExtension implements ParameterResolver, TestExecutionExceptionHandler {
  private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(SeedExtension.class);

  @Override
  public boolean supportsParameter(ParameterContext p, ExtensionContext context) {
    return p.getParameter().getType() == Seed.class;
  }

  @Override
  public Object resolveParameter(ParameterContext p, ExtensionContext context) throws ParameterResolutionException {
    return seedOf(context);
  }

  /** Attaches the replay line to a failure and prints it again. */
  @Override
  public void handleTestExecutionException(ExtensionContext context, Throwable failure) throws Throwable {
    Seed seed = context.getStore(NS).get("seed", Seed.class);
    if (seed != null) {
      String line = "FAILED " + seed.testName() + " with " + seed + "; replay: " + replayCommand(context, seed);
      System.err.println("[seed] " + line);
      System.out.println("[seed] " + line);
      failure.addSuppressed(new ReplayWith(line));
    }
    throw failure;
  }

  private static Seed seedOf(ExtensionContext context) {
    return context.getStore(NS).getOrComputeIfAbsent("seed", k -> {
      Long fixed = Long.getLong(Seed.PROPERTY);
      long value = fixed != null ? fixed : ThreadLocalRandom.current().nextLong();
      String name = testName(context);
      Seed seed = new Seed(value, name);
      System.out.println("[seed] " + name + ": " + replayCommand(context, seed));
      return seed;
    }, Seed.class);
  }

  /** Class and method, and the invocation's display name for a parameterized test ("[2] LZ4"). */
  private static String testName(ExtensionContext context) {
    String method = context.getTestMethod().map(Method::getName).orElse("");
    String shown = context.getDisplayName();
    return context.getRequiredTestClass().getSimpleName() + "#" + method
        + (shown.startsWith(method + "(") ? "" : " " + shown);
  }

  private static String replayCommand(ExtensionContext context, Seed seed) {
    String test = context.getRequiredTestClass().getSimpleName()
        + context.getTestMethod().map(Method::getName).map(m -> "#" + m).orElse("");
    return "-Dtest='" + test + "' " + seed.replay();
  }

  /** Carries the replay line in a failure's report; has no stack of its own. */
  static final class ReplayWith extends RuntimeException {
    ReplayWith(String line) {
      super(line, null, false, false);
    }
  }
}
