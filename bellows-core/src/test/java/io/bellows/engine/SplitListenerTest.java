package io.bellows.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.client.Bellows;
import io.bellows.client.Put;
import io.bellows.client.Table;
import io.bellows.config.EngineOptions;
import io.bellows.fs.LocalFileSystem;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The split listener given at open: each engine tells its own listener, every step, in order. */
class SplitListenerTest {
  @TempDir Path dir;

  @Test
  void eachEngineTellsItsOwnListenerEveryStepOfASplitInOrder() {
    List<String> a = new CopyOnWriteArrayList<>();
    List<String> b = new CopyOnWriteArrayList<>();
    try (Bellows one = Bellows.over(LocalEngine.open(dir.resolve("a"), EngineOptions.defaults(),
            LocalFileSystem.INSTANCE, a::add));
        Bellows two = Bellows.over(LocalEngine.open(dir.resolve("b"), EngineOptions.defaults(),
            LocalFileSystem.INSTANCE, b::add))) {
      for (Bellows db : List.of(one, two)) {
        db.createTable(TableDescriptor.builder("t").family("f").build());
        Table t = db.getTable("t");
        for (int i = 0; i < 100; i++) {
          t.put(new Put(Bytes.of(String.format("r%03d", i))).addColumn(Bytes.of("f"), Bytes.of("q"), Bytes.of("v")));
        }
      }
      one.split("t", Bytes.of("r050"));
      assertThat(a).containsExactlyElementsOf(SplitListener.STEPS);
      assertThat(b).as("the other engine split nothing").isEmpty();
      two.split("t", Bytes.of("r050"));
      assertThat(b).containsExactlyElementsOf(SplitListener.STEPS);
      assertThat(a).hasSize(SplitListener.STEPS.size());
    }
  }
}
