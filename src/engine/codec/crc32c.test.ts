import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crc32c, crc32cUpdate } from './crc32c';

const ascii = (s: string) => new TextEncoder().encode(s);

/** Bit-at-a-time reference, to check the slicing tables on arbitrary input. */
function crc32cBitwise(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) {
    c ^= b;
    for (let i = 0; i < 8; i++) c = c & 1 ? (c >>> 1) ^ 0x82f63b78 : c >>> 1;
  }
  return ~c >>> 0;
}

describe('crc32c', () => {
  it('matches the standard CRC-32C check value for "123456789"', () => {
    expect(crc32c(ascii('123456789'))).toBe(0xe3069283);
  });

  it('matches Kafka', () => {
    // apache/kafka clients/src/test/java/org/apache/kafka/common/utils/Crc32CTest.java testValue
    expect(crc32c(ascii('Some String'))).toBe(608512271);
  });

  it('matches the RFC 3720 (iSCSI) B.4 vectors', () => {
    expect(crc32c(new Uint8Array(32))).toBe(0x8a9136aa);
    expect(crc32c(new Uint8Array(32).fill(0xff))).toBe(0x62a8ab43);
    expect(crc32c(Uint8Array.from({ length: 32 }, (_, i) => i))).toBe(0x46dd794e);
    expect(crc32c(Uint8Array.from({ length: 32 }, (_, i) => 31 - i))).toBe(0x113fdb5c);
  });

  it('matches kafkajs', () => {
    // tulios/kafkajs src/protocol/recordBatch/crc32C/index.spec.js ('empty', 'unicode null', 'perform CRC32C computations')
    expect(crc32c(new Uint8Array(0))).toBe(0);
    expect(crc32c(ascii('\u0000'))).toBe(1383945041);
    const longString =
      'Lorem ipsum dolor sit amet, consectetur adipiscing elit. Morbi mollis cursus metus vel tristique. Proin congue massa massa, a malesuada dolor ullamcorper a. Nulla eget leo vel orci venenatis placerat. Donec semper condimentum justo, vel sollicitudin dolor consequat id. Nunc sed aliquet felis, eget congue nisi. Mauris eu justo suscipit, elementum turpis ut, molestie tellus. Mauris ornare rutrum fringilla. Nulla dignissim luctus pretium. Nullam nec eros hendrerit sapien pellentesque sollicitudin. Integer eget ligula dui. Mauris nec cursus nibh. Nunc interdum elementum leo, eu sagittis eros sodales nec. Duis dictum nulla sed tincidunt malesuada. Quisque in vulputate sapien. Sed sit amet tellus a est porta rhoncus sed eu metus. Mauris non pulvinar nisl, volutpat luctus enim. Suspendisse est nisi, sagittis at risus quis, ultricies rhoncus sem. Donec ullamcorper purus eget sapien facilisis, eu eleifend felis viverra. Suspendisse elit neque, semper aliquet neque sed, egestas tempus leo. Duis condimentum turpis duis.';
    expect(crc32c(ascii(longString))).toBe(1796588439);
  });

  it('covers only [start, end)', () => {
    const bytes = ascii('xx123456789yy');
    expect(crc32c(bytes, 2, 11)).toBe(0xe3069283);
    expect(() => crc32c(bytes, 0, 99)).toThrow(RangeError);
  });

  it('agrees with a bitwise reference and composes incrementally (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.nat(), (bytes, cut) => {
        const whole = crc32c(bytes);
        expect(whole).toBe(crc32cBitwise(bytes));
        const k = bytes.length === 0 ? 0 : cut % (bytes.length + 1);
        expect(crc32cUpdate(crc32c(bytes, 0, k), bytes, k)).toBe(whole);
      }),
    );
  });

  it('takes the word path (>= 128 bytes) at every alignment of the underlying buffer', () => {
    // The fast path reads int32 words from the 4-byte-aligned part of the buffer: every byteOffset
    // and start offset mod 4, and lengths around the 16-byte step, must give the bitwise result.
    const backing = new Uint8Array(1200);
    for (let i = 0; i < backing.length; i++) backing[i] = (i * 2654435761) >>> 24;
    for (let byteOffset = 0; byteOffset < 4; byteOffset++) {
      const bytes = backing.subarray(byteOffset);
      for (let start = 0; start < 4; start++) {
        for (const length of [127, 128, 129, 143, 144, 145, 159, 160, 161, 1000]) {
          const expected = crc32cBitwise(bytes.subarray(start, start + length));
          expect(crc32c(bytes, start, start + length)).toBe(expected);
          // Continued from a prefix, so the word path starts mid-stream with a non-initial CRC.
          expect(crc32cUpdate(crc32c(bytes, start, start + 3), bytes, start + 3, start + length)).toBe(expected);
        }
      }
    }
  });

  it('agrees with the bitwise reference on long inputs at any offset (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 128, maxLength: 2000 }), fc.nat(), (bytes, cut) => {
        const start = cut % 8;
        expect(crc32c(bytes, start)).toBe(crc32cBitwise(bytes.subarray(start)));
      }),
      { numRuns: 200 },
    );
  });
});
