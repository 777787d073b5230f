/**
 * Batches real clients compressed, as the Node host stored them (base offset and partition leader
 * epoch are the broker's; the CRC covers the rest, untouched). Three records, keys k0..k2:
 * - snappy from @platformatic/kafka 1.35.0: raw snappy without snappy-java's xerial header, which
 *   SnappyInputStream reads as one raw block (and so does Kafka);
 * - lz4 from @platformatic/kafka 1.35.0: an LZ4 frame with independent blocks;
 * - zstd from kcat 1.7.1 (librdkafka 2.0.2, `-z zstd`): a streamed frame with no content size and
 *   a 2 MiB window (librdkafka's ZSTD_compressStream at level 3 by default).
 */
import { describe, expect, it } from 'vitest';
import { decodeRecordBatches, readBatchHeader, validateBatchCrc } from './recordBatch';

const FIXTURES = {
  snappy:
    '00000000000000000000006500000000021e994c81000200000002000001a253034d60000001a253034d60ffffffffffffffff00000000000000000003443432000000046b3022616c7068612d1d06340036000002046b3126626574612d36050038001a000004046b320a67616d6d6100',
  lz4: '00000000000000000000007300000000021aaedd56000300000002000001a253034de0000001a253034de0ffffffffffffffff0000000000000000000304224d1860408233000000e732000000046b3022616c7068612d0600ea0036000002046b3126626574612d0500f000001a000004046b320a67616d6d610000000000',
  zstd: '00000000000000000000006e0000000002654479ec000400000002000001a253034edb000001a253034edbffffffffffffffffffffffffffff0000000328b52ffd0058a50100b40232000000046b3022616c7068612d0036000002046b3126626574612d001a000004046b320a67616d6d610002002852495c94',
} as const;
const CODEC_IDS = { snappy: 2, lz4: 3, zstd: 4 } as const;

describe("real clients' compressed batches decode to what they sent", () => {
  it.each(['snappy', 'lz4', 'zstd'] as const)('%s', (codec) => {
    const bytes = Uint8Array.from(Buffer.from(FIXTURES[codec], 'hex'));
    const [batch, ...rest] = decodeRecordBatches(bytes);
    expect(rest).toEqual([]);
    expect(validateBatchCrc(bytes, readBatchHeader(bytes, 0))).toBe(true);
    expect((batch?.attributes ?? 0) & 7).toBe(CODEC_IDS[codec]);
    const text = new TextDecoder();
    expect(batch?.records.map((r) => [text.decode(r.key ?? undefined), text.decode(r.value ?? undefined)])).toEqual([
      ['k0', 'alpha-alpha-alpha'],
      ['k1', 'beta-beta-beta-beta'],
      ['k2', 'gamma'],
    ]);
  });
});
