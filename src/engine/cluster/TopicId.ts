/**
 * Topic ids (KIP-516) as Kafka 3.9 in ZooKeeper mode keeps them: AdminZkClient draws a random
 * Uuid (Uuid.randomUuid: a version-4 UUID whose string form does not start with "-") when it
 * creates a topic and writes it into `/brokers/topics/<name>` (TopicZNode version 3,
 * "topic_id" in Uuid.toString's form: URL-safe base64 of the 16 bytes, no padding). So a topic
 * deleted and created again gets a new id.
 *
 * The engine is deterministic: the "random" bytes come from a seeded Rng of their own, mixed with
 * the topic's name, the coordination store's zxid and the clock, so a run replays the same ids
 * and a re-created topic (or one created after a reload restarted the Rng) still differs.
 */
import { encodeUtf8 } from '../codec/utf8';
import { murmur2 } from '../codec/murmur2';
import type { Rng } from '../Rng';

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Uuid.toString: URL-safe base64 without padding (22 characters). */
export function uuidToString(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 6) {
      bits -= 6;
      out += BASE64URL[(value >>> bits) & 63];
    }
    value &= (1 << bits) - 1;
  }
  if (bits > 0) out += BASE64URL[(value << (6 - bits)) & 63];
  return out;
}

/** Uuid.fromString: the 16 bytes of a 22-character URL-safe base64 id, or null if it is not one. */
export function uuidFromString(s: string): Uint8Array | null {
  if (s.length !== 22) return null;
  const out = new Uint8Array(16);
  let bits = 0;
  let value = 0;
  let n = 0;
  for (const ch of s) {
    const v = BASE64URL.indexOf(ch);
    if (v < 0) return null;
    value = (value << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      if (n < 16) out[n++] = (value >>> bits) & 0xff;
      value &= (1 << bits) - 1;
    }
  }
  return n === 16 ? out : null;
}

/** Uuid.randomUuid, drawn deterministically (see above). */
export function newTopicId(rng: Rng, name: string, zxid: number, nowMs: number): string {
  for (;;) {
    const bytes = new Uint8Array(16);
    for (let w = 0; w < 4; w++) {
      const mix = murmur2(encodeUtf8(`${name}\u0000${zxid}\u0000${nowMs}\u0000${w}`));
      const word = (rng.nextInt(0x10000) * 0x10000 + rng.nextInt(0x10000)) ^ mix;
      for (let i = 0; i < 4; i++) bytes[w * 4 + i] = (word >>> (24 - 8 * i)) & 0xff;
    }
    // java.util.UUID.randomUUID: version 4, IETF variant.
    bytes[6] = ((bytes[6] as number) & 0x0f) | 0x40;
    bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
    const id = uuidToString(bytes);
    if (!id.startsWith('-')) return id;
  }
}
