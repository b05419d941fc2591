package io.bellows.remote;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.client.Bellows;
import io.bellows.client.Put;
import io.bellows.protocol.AdminGrpc;
import io.bellows.protocol.ColumnSelection;
import io.bellows.protocol.DataGrpc;
import io.bellows.protocol.GetRequest;
import io.bellows.protocol.MultiGetRequest;
import io.bellows.protocol.MultiGetResponse;
import io.bellows.protocol.Query;
import io.bellows.protocol.TableId;
import io.bellows.protocol.TableName;
import io.bellows.protocol.TableRef;
import io.bellows.schema.TableDescriptor;
import io.bellows.util.Bytes;
import io.bellows.wire.Wire;
import io.grpc.ManagedChannel;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Calls of the protocol that the Java API does not use: MultiGet, and Get's answer for no row. */
class DataProtocolTest {
  @TempDir
  Path dir;

  @Test
  void multiGetAnswersEachQueryInOrder() {
    try (ServerFixture f = new ServerFixture(dir); Bellows db = f.connect()) {
      db.createTable(TableDescriptor.builder("t").family("f").family("g").build());
      db.getTable("t").put(new Put("a").addColumn("f", "q", "1").addColumn("g", "q", "2"));
      db.getTable("t").put(new Put("c").addColumn("f", "q", "3"));
      ManagedChannel channel = NettyChannelBuilder.forTarget(f.target()).usePlaintext().build();
      try {
        TableRef ref = AdminGrpc.newBlockingStub(channel).getTable(TableName.newBuilder().setName("t").build());
        TableId id = TableId.newBuilder().setName("t").setId(ref.getId()).build();
        MultiGetResponse r = DataGrpc.newBlockingStub(channel).multiGet(MultiGetRequest.newBuilder()
            .setTable(id)
            .addQueries(Query.newBuilder().setStartRow(Wire.bytes(Bytes.of("c"))))
            .addQueries(Query.newBuilder().setStartRow(Wire.bytes(Bytes.of("b"))))
            .addQueries(Query.newBuilder().setStartRow(Wire.bytes(Bytes.of("a")))
                .addColumns(ColumnSelection.newBuilder().setFamily(Wire.bytes(Bytes.of("g")))))
            .build());
        assertThat(r.getRowsList()).extracting(row -> row.getRow().toStringUtf8()).containsExactly("c", "b", "a");
        assertThat(r.getRows(0).getCellsCount()).isEqualTo(1);
        assertThat(r.getRows(1).getCellsCount()).isZero();
        assertThat(r.getRows(2).getCellsList()).extracting(c -> c.getFamily().toStringUtf8()).containsExactly("g");

        assertThat(DataGrpc.newBlockingStub(channel).get(GetRequest.newBuilder().setTable(id)
            .setQuery(Query.newBuilder().setStartRow(Wire.bytes(Bytes.of("zz")))).build()).hasRow()).isFalse();
      } finally {
        channel.shutdownNow();
      }
    }
  }
}
