/**
 * Java's String.hashCode, bit for bit: s[0]*31^(n-1) + s[1]*31^(n-2) + ... + s[n-1] over the
 * string's UTF-16 code units, in 32-bit two's-complement arithmetic (so it overflows exactly as
 * a Java int does). Kafka hashes group ids with it to place a group's offsets and coordinator,
 * and Java's HashMap spreads String keys with it — both must match a real JVM here.
 */
export function javaStringHashCode(s: string): number {
  let h = 0;
  // A JS string is already a sequence of UTF-16 code units, the same units Java's char[] holds.
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0;
  return h;
}

/**
 * Kafka's Utils.abs: the absolute value, except that Integer.MIN_VALUE maps to 0 (Java's Math.abs
 * would leave it negative, and a negative partition number would follow).
 */
export function kafkaAbs(n: number): number {
  return n === -2147483648 ? 0 : Math.abs(n);
}
