/**
 * UTF-8 for record header keys and protocol strings, with a fast path for ASCII (almost every
 * header key and group id) that avoids TextEncoder/TextDecoder calls on short strings.
 * Decoding replaces malformed sequences with U+FFFD, as Java's `new String(bytes, UTF_8)` does.
 */

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8');

/** Number of bytes `s` takes in UTF-8 (lone surrogates count as U+FFFD, 3 bytes). */
export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n += 4;
        i++;
      } else n += 3;
    } else n += 3;
  }
  return n;
}

/** Writes `s` as UTF-8 at `position` (the caller sized `out` with utf8Length); returns the next position. */
export function writeUtf8(s: string, out: Uint8Array, position: number): number {
  let p = position;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) {
      // Not ASCII: let the platform encoder handle the rest of the string.
      const { written } = encoder.encodeInto(s.slice(i), out.subarray(p));
      return p + written;
    }
    out[p++] = c;
  }
  return p;
}

/** Encodes `s` to a new byte array. */
export function encodeUtf8(s: string): Uint8Array {
  return encoder.encode(s);
}

/** Decodes `bytes[start, end)` as UTF-8. */
export function readUtf8(bytes: Uint8Array, start = 0, end: number = bytes.length): string {
  if (end - start <= 32) {
    let ascii = true;
    for (let i = start; i < end; i++) {
      if ((bytes[i] as number) >= 0x80) {
        ascii = false;
        break;
      }
    }
    // fromCharCode takes any array-like of char codes; Reflect.apply types its arguments so.
    if (ascii) return Reflect.apply(String.fromCharCode, null, bytes.subarray(start, end)) as string;
  }
  return decoder.decode(bytes.subarray(start, end));
}
