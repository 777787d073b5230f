/**
 * Helpers shared by the log's tests (not used by the engine itself): a tiny Map-backed Store that
 * honours the Store contract (operations applied in call order), and a producer-style batch
 * builder on top of the codec.
 */
import type { DefaultRecord } from '../codec';
import { encodeRecordBatch } from '../codec';
import type { Store } from '../Store';

/** An in-memory Store: each call applies synchronously, so call order is application order. */
export class MapStore implements Store {
  readonly files = new Map<string, Uint8Array>();
  calls = 0;

  async list(prefix: string): Promise<string[]> {
    return [...this.files.keys()].filter((k) => k.startsWith(prefix)).sort();
  }
  async read(path: string): Promise<Uint8Array | null> {
    const f = this.files.get(path);
    return f ? f.slice() : null;
  }
  write(path: string, bytes: Uint8Array): Promise<void> {
    this.calls++;
    this.files.set(path, bytes.slice());
    return Promise.resolve();
  }
  append(path: string, bytes: Uint8Array): Promise<void> {
    this.calls++;
    const old = this.files.get(path) ?? new Uint8Array(0);
    const next = new Uint8Array(old.length + bytes.length);
    next.set(old);
    next.set(bytes, old.length);
    this.files.set(path, next);
    return Promise.resolve();
  }
  truncate(path: string, size: number): Promise<void> {
    this.calls++;
    const old = this.files.get(path);
    if (old && old.length > size) this.files.set(path, old.slice(0, size));
    return Promise.resolve();
  }
  delete(path: string): Promise<void> {
    this.calls++;
    this.files.delete(path);
    return Promise.resolve();
  }
}

/**
 * A Store whose operations complete only when the test says, the stand-in for IndexedDB
 * transactions whose `complete` event has not fired yet. An operation takes effect in `files` when
 * it completes (a transaction's writes are invisible until it commits), so `files` is exactly what
 * a tab closed now would leave. Operations are queued in call order; `complete` takes them in that
 * order, `completeOnly` out of turn (only for operations on different files), `failNext` fails one.
 */
export class DeferredStore implements Store {
  readonly files = new MapStore();
  private readonly waiting: { apply: () => Promise<void>; settle: () => void; fail: (e: unknown) => void }[] = [];

  get pending(): number {
    return this.waiting.length;
  }
  /** Completes the oldest `n` operations, in order. */
  complete(n = this.waiting.length): void {
    for (const w of this.waiting.splice(0, n)) {
      void w.apply();
      w.settle();
    }
  }
  /** Completes operation `i` (0 = oldest waiting) out of turn, leaving the others waiting. */
  completeOnly(i: number): void {
    const w = this.waiting.splice(i, 1)[0];
    if (!w) return;
    void w.apply();
    w.settle();
  }
  /** Fails the oldest waiting operation: it never takes effect. */
  failNext(error: unknown): void {
    this.waiting.shift()?.fail(error);
  }
  private later(apply: () => Promise<void>): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ apply, settle: resolve, fail: reject });
    });
  }
  list(prefix: string) {
    return this.files.list(prefix);
  }
  read(path: string) {
    return this.files.read(path);
  }
  write(path: string, bytes: Uint8Array) {
    const copy = bytes.slice();
    return this.later(() => this.files.write(path, copy));
  }
  append(path: string, bytes: Uint8Array) {
    const copy = bytes.slice();
    return this.later(() => this.files.append(path, copy));
  }
  truncate(path: string, size: number) {
    return this.later(() => this.files.truncate(path, size));
  }
  delete(path: string) {
    return this.later(() => this.files.delete(path));
  }
}

/** Lets the Store's promise callbacks (and the writer's) run. */
export async function drain(): Promise<void> {
  for (let i = 0; i < 5; i++) await Promise.resolve();
}

export interface TestRecord {
  key?: string | Uint8Array | null;
  value?: string | Uint8Array | null;
  /** Absolute timestamp (CreateTime); defaults to the batch's base timestamp. */
  timestamp?: number;
}

const enc = new TextEncoder();
function bytes(v: string | Uint8Array | null | undefined): Uint8Array | null {
  if (v === null || v === undefined) return null;
  return typeof v === 'string' ? enc.encode(v) : v;
}

/**
 * A producer's batch: base offset 0 (the broker assigns offsets), offset deltas 0..n-1,
 * timestamps as given. Options allow follower-style batches with real base offsets.
 */
export function makeBatch(
  records: readonly TestRecord[],
  options: {
    baseOffset?: number;
    baseTimestamp?: number;
    partitionLeaderEpoch?: number;
    lastOffsetDelta?: number;
    /** An idempotent producer's batch (default: none, -1). */
    producerId?: number;
    producerEpoch?: number;
    baseSequence?: number;
  } = {},
): Uint8Array {
  const baseTimestamp = options.baseTimestamp ?? records[0]?.timestamp ?? 1_700_000_000_000;
  let maxTimestamp = -1;
  const recs: DefaultRecord[] = records.map((r, i) => {
    const ts = r.timestamp ?? baseTimestamp;
    maxTimestamp = Math.max(maxTimestamp, ts);
    return {
      attributes: 0,
      timestampDelta: ts - baseTimestamp,
      offsetDelta: i,
      key: bytes(r.key),
      value: r.value === undefined ? enc.encode(`v${i}`) : bytes(r.value),
      headers: [],
    };
  });
  return encodeRecordBatch({
    baseOffset: options.baseOffset ?? 0,
    partitionLeaderEpoch: options.partitionLeaderEpoch ?? -1,
    attributes: 0,
    lastOffsetDelta: options.lastOffsetDelta ?? records.length - 1,
    baseTimestamp,
    maxTimestamp,
    producerId: options.producerId ?? -1,
    producerEpoch: options.producerEpoch ?? -1,
    baseSequence: options.baseSequence ?? -1,
    records: recs,
  });
}

/** n records with values `${prefix}${i}` padded to `valueSize` bytes, all at `timestamp`. */
export function makeRecords(n: number, valueSize = 10, timestamp?: number, prefix = 'r'): TestRecord[] {
  const out: TestRecord[] = [];
  for (let i = 0; i < n; i++) {
    const v = `${prefix}${i}`.padEnd(valueSize, '.');
    out.push(timestamp === undefined ? { value: v } : { value: v, timestamp });
  }
  return out;
}

export function text(b: Uint8Array | null | undefined): string | null {
  return b ? new TextDecoder().decode(b) : null;
}
