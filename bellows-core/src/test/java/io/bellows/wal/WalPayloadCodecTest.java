package io.bellows.wal;

import static org.assertj.core.api.Assertions.assertThat;

import io.bellows.record.WriteRecord;
import io.bellows.record.WriteRecordCodec;
import io.bellows.testing.Seed;
import io.bellows.testing.SeedExtension;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A WAL record's payload is the record's own bytes ({@link WriteRecordCodec}): a record read from
 * the WAL can be carried by another log unchanged, and the two encoders cannot drift apart.
 */
@ExtendWith(SeedExtension.class)
class WalPayloadCodecTest {
  @Test
  void theGoldenPayloadIsTheCodecsGoldenRecord() {
    assertThat(WalGoldenFileTest.RECORD).endsWith(io.bellows.record.RecordFixtures.GOLDEN);
  }

  @Test
  void everyPayloadIsTheCodecsBytes(Seed seed) {
    Random random = seed.random();
    for (int round = 0; round < 500; round++) {
      WriteRecord record = io.bellows.record.RecordFixtures.randomRecord(random);
      byte[] walRecord = WalFormat.encode(record);
      byte[] payload = Arrays.copyOfRange(walRecord, WalFormat.RECORD_HEADER_SIZE, walRecord.length);
      assertThat(payload).isEqualTo(WriteRecordCodec.encode(record));
      assertThat(WalTestSupport.flat(WalFormat.decodePayload(payload, WalFormat.VERSION)))
          .isEqualTo(WalTestSupport.flat(WriteRecordCodec.decode(payload)));
    }
  }
}
