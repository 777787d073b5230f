import { format } from 'd3';

const thousands = format(',d');

/** 1234567 -> "1,234,567". */
export function formatCount(n: number): string {
  return Number.isFinite(n) ? thousands(n) : String(n);
}

/** A segment file's name as Kafka writes it: the base offset, 20 digits, zero-padded. */
export function segmentFileName(baseOffset: number, kind: 'log' | 'index' | 'timeindex'): string {
  return `${String(baseOffset).padStart(20, '0')}.${kind}`;
}

/** Bytes in the largest fitting unit: 512 B, 4.0 KiB, 1.2 MiB. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(1)} MiB`;
}
