import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crc32c, crc32cUpdate } from './crc32c';

const ascii = (s: string) => new TextEncoder().encode(s);

/** Bit-at-a-time reference, to check the slicing-by-8 tables on arbitrary input. */
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
});
