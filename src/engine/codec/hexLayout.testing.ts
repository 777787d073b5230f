/**
 * Test support: byte layouts spelled as hex, field by field. Spaces and comments
 * (`# ...` to the end of a line) are allowed, so a fixture can name each field
 * the way Kafka's tests and KIPs lay out a record on disk.
 */
export function hex(s: string): Uint8Array {
  const digits = s.replace(/#[^\n]*/g, '').replace(/\s+/g, '');
  return new Uint8Array(digits.match(/../g)?.map((b) => Number.parseInt(b, 16)) ?? []);
}
