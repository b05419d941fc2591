package io.bellows.cluster.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.bellows.schema.ColumnFamilyDescriptor;
import io.bellows.schema.TableDescriptor;
import org.junit.jupiter.api.Test;

/** The member file: what it accepts and how it refuses bad lines; and a table's text round trip. */
class MembersTest {
  private static final String THREE = """
      # a comment
      n1 127.0.0.1:9001 127.0.0.1:7001
      n2 127.0.0.1:9002 127.0.0.1:7002

      n3 host3:9003 host3:7003
      """;

  @Test
  void readsMembersWithTheirAddresses() {
    Members m = Members.parse(THREE, "members.txt");
    assertThat(m.list()).extracting(Members.Member::id).containsExactly("n1", "n2", "n3");
    assertThat(m.member("n3").raftHost()).isEqualTo("host3");
    assertThat(m.member("n3").raftPort()).isEqualTo(9003);
    assertThat(m.member("n2").clientPort()).isEqualTo(7002);
    assertThat(m.clientAddressOf("n1")).isEqualTo("127.0.0.1:7001");
    assertThat(m.clientAddressOf(null)).isNull();
    assertThat(Members.parse(m.text(), "again")).isEqualTo(m);
  }

  @Test
  void refusesBadFilesNamingTheLine() {
    assertThatThrownBy(() -> Members.parse("n1 127.0.0.1:9001\n", "f")).hasMessageContaining("f line 1")
        .hasMessageContaining("expected 'id host:raftPort host:clientPort'");
    assertThatThrownBy(() -> Members.parse("n1 127.0.0.1:9001 127.0.0.1:x\n", "f")).hasMessageContaining("not host:port");
    assertThatThrownBy(() -> Members.parse(THREE + "n1 h:1 h:2\n", "f")).hasMessageContaining("line 6")
        .hasMessageContaining("id n1 appears twice");
    assertThatThrownBy(() -> Members.parse(THREE + "n4 127.0.0.1:9001 h:2\n", "f"))
        .hasMessageContaining("address 127.0.0.1:9001 appears twice");
    assertThatThrownBy(() -> Members.parse("n1 h:1 h:2\nn2 h:3 h:4\n", "f")).hasMessageContaining("3 to 5 members")
        .hasMessageContaining("lists 2");
    assertThatThrownBy(() -> Members.parse(THREE, "f").member("n9")).hasMessageContaining("no member 'n9'");
  }

  /** A member added to the running cluster: its fourth field, kept through the text; the founding members are the others. */
  @Test
  void anAddedMemberIsMarkedAndTheFoundingMembersAreTheOthers() {
    Members m = Members.parse(THREE + "n4 host4:9004 host4:7004 added\n", "members.txt");
    assertThat(m.member("n4").added()).isTrue();
    assertThat(m.member("n1").added()).isFalse();
    assertThat(m.foundingIds()).containsExactly("n1", "n2", "n3");
    assertThat(Members.parse(m.text(), "again")).isEqualTo(m);
    assertThatThrownBy(() -> Members.parse(THREE + "n4 h:1 h:2 joined\n", "f")).hasMessageContaining("f line 6")
        .hasMessageContaining("'added'");
    assertThatThrownBy(() -> Members.parse("n1 h:1 h:2\nn2 h:3 h:4\nn3 h:5 h:6 added\n", "f"))
        .hasMessageContaining("at least 3 members").hasMessageContaining("lists 2");
  }

  @Test
  void aTableDescriptorSurvivesItsText() {
    TableDescriptor d = TableDescriptor.builder("t").set("DURABILITY", "FSYNC_WAL")
        .family(ColumnFamilyDescriptor.builder("a").set("VERSIONS", "3").set("TTL", "60").build())
        .family(ColumnFamilyDescriptor.of("b")).build();
    TableDescriptor back = TableText.decode(TableText.encode(d));
    assertThat(back.name()).isEqualTo("t");
    assertThat(back.families()).extracting(ColumnFamilyDescriptor::name).containsExactly("a", "b");
    assertThat(back.toString()).isEqualTo(d.toString());
  }
}
