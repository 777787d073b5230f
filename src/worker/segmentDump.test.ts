import { describe, expect, it } from 'vitest';
import { ManualClock } from '../engine/Clock';
import { UnifiedLog } from '../engine/log/UnifiedLog';
import { appendRecords } from '../engine/apps/demo';
import { segmentDump } from '../engine';

describe("the segment inspector's record lines", () => {
  it("give keySize and valueSize in bytes like kafka-dump-log (DumpLogSegments prints the record's keySize), not UTF-16 units", () => {
    const clock = new ManualClock(1_700_000_000_000);
    const log = new UnifiedLog({ dir: 'keys-0', config: {}, clock });
    const enc = new TextEncoder();
    appendRecords(
      log,
      [
        { key: enc.encode('ключ'), value: enc.encode('🔑') },
        { key: null, value: null },
      ],
      clock.now(),
    );
    const [first, second] = segmentDump('keys', 0, log, 0).batches[0]?.records ?? [];
    // 'ключ' is 4 UTF-16 units but 8 UTF-8 bytes; '🔑' is 2 units, 4 bytes.
    expect(first).toMatchObject({ key: 'ключ', keySize: 8, value: '🔑', valueSize: 4 });
    expect(second).toMatchObject({ key: null, keySize: -1, valueSize: -1 });
  });
});
