/**
 * A broker machine's disk with a volatile write cache, after Jepsen's lazyfs: a Store whose
 * operations are held in flight until the cache is synced, and which a power cut can take away
 * half-written.
 *
 * - Every operation is accepted at once and seen by later reads (the cache's view), but reaches
 *   the durable Store underneath only when `sync()` runs; its promise settles then, as an
 *   IndexedDB transaction's does when it completes.
 * - `powerCut(rng)` is the machine losing power: a seeded prefix of the in-flight operations
 *   reached the disk; if the next one is an append it is torn (a seeded prefix of its bytes
 *   landed, the rest did not); everything after it is gone. Half the cuts fall inside the latest
 *   append, the write a power failure most often catches. The disk stays off until `powerOn()`:
 *   whatever a dead machine "writes" in the meantime is lost, and those promises never settle.
 *
 * Whole-file writes are atomic (Kafka writes its checkpoint files to a temporary file and renames
 * it), truncations and deletes too; only appends tear. This is exactly the damage LogLoader has to
 * recover from after an unclean shutdown: a missing tail, a batch cut in half, an index entry cut
 * short, an index behind or ahead of its log.
 */
import type { Rng } from '../Rng';
import type { Store } from '../Store';
import type { StoreOperation } from '../log/StoreWriter';

interface InFlight {
  operation: StoreOperation;
  settle: { resolve(): void; reject(error: unknown): void };
}

/** What a power cut did to the operations in flight. */
export interface PowerCutReport {
  inFlight: number;
  /** Operations that reached the disk whole. */
  landed: number;
  /** The append cut short, if any. */
  torn: { path: string; bytesLanded: number; bytesLost: number } | null;
  /** Operations that never reached the disk (the torn one not included). */
  lost: number;
}

export class LazyStore implements Store {
  private inFlight: InFlight[] = [];
  private powered = true;

  constructor(
    /** The durable disk: what survives a power cut. */
    readonly disk: Store,
    /** Whether a power cut may tear the append it interrupts (default true). */
    private readonly tearsAppends = true,
  ) {}

  get isPowered(): boolean {
    return this.powered;
  }

  /** Operations accepted but not yet on the disk. */
  get inFlightCount(): number {
    return this.inFlight.length;
  }

  async list(prefix: string): Promise<string[]> {
    const pending = [...this.inFlight];
    const paths = new Set(await this.disk.list(prefix));
    for (const { operation: o } of pending) {
      if (!o.path.startsWith(prefix)) continue;
      if (o.op === 'delete') paths.delete(o.path);
      else if (o.op !== 'truncate') paths.add(o.path);
    }
    return [...paths].sort();
  }

  async read(path: string): Promise<Uint8Array | null> {
    const pending = this.inFlight.filter((f) => f.operation.path === path);
    let bytes = await this.disk.read(path);
    for (const { operation: o } of pending) bytes = applyTo(bytes, o);
    return bytes;
  }

  write(path: string, bytes: Uint8Array): Promise<void> {
    return this.accept({ op: 'write', path, bytes: bytes.slice() });
  }

  append(path: string, bytes: Uint8Array): Promise<void> {
    return this.accept({ op: 'append', path, bytes: bytes.slice() });
  }

  truncate(path: string, size: number): Promise<void> {
    return this.accept({ op: 'truncate', path, size });
  }

  delete(path: string): Promise<void> {
    return this.accept({ op: 'delete', path });
  }

  /** The write cache reaches the disk: every operation in flight is applied, in order. */
  sync(): void {
    if (!this.powered) return;
    const batch = this.inFlight;
    this.inFlight = [];
    for (const f of batch) this.land(f.operation, f.settle);
  }

  /** The machine loses power; see the class comment for what survives. */
  powerCut(rng: Rng): PowerCutReport {
    const batch = this.inFlight;
    this.inFlight = [];
    this.powered = false;
    // Half the time the power goes while the latest append is being written; otherwise at a
    // seeded point anywhere in the cache (tearing the append found there, if one is).
    let lastAppend = batch.length - 1;
    while (lastAppend >= 0 && !isTearable((batch[lastAppend] as InFlight).operation)) lastAppend--;
    const landed =
      this.tearsAppends && lastAppend >= 0 && rng.next() < 0.5 ? lastAppend : rng.nextInt(batch.length + 1);
    for (const f of batch.slice(0, landed)) this.land(f.operation, f.settle);
    let torn: PowerCutReport['torn'] = null;
    const next = batch[landed]?.operation;
    if (this.tearsAppends && next && isTearable(next) && next.op === 'append') {
      const bytesLanded = 1 + rng.nextInt(next.bytes.length - 1);
      void this.disk.append(next.path, next.bytes.subarray(0, bytesLanded));
      torn = { path: next.path, bytesLanded, bytesLost: next.bytes.length - bytesLanded };
    }
    return { inFlight: batch.length, landed, torn, lost: batch.length - landed - (torn ? 1 : 0) };
  }

  /** Power is back: the disk holds what the cut left, and takes writes again. */
  powerOn(): void {
    this.powered = true;
  }

  private accept(operation: StoreOperation): Promise<void> {
    // A machine without power writes nothing, and nobody hears back from it.
    if (!this.powered) return new Promise<void>(() => {});
    return new Promise<void>((resolve, reject) => {
      this.inFlight.push({ operation, settle: { resolve, reject } });
    });
  }

  private land(o: StoreOperation, settle: InFlight['settle']): void {
    let done: Promise<void>;
    try {
      switch (o.op) {
        case 'write':
          done = this.disk.write(o.path, o.bytes);
          break;
        case 'append':
          done = this.disk.append(o.path, o.bytes);
          break;
        case 'truncate':
          done = this.disk.truncate(o.path, o.size);
          break;
        case 'delete':
          done = this.disk.delete(o.path);
          break;
      }
    } catch (error) {
      done = Promise.reject(error);
    }
    done.then(settle.resolve, settle.reject);
  }
}

/** An append of two bytes or more can land in part. */
function isTearable(o: StoreOperation): boolean {
  return o.op === 'append' && o.bytes.length > 1;
}

/** One operation applied to a file's bytes (null: no such file). */
function applyTo(bytes: Uint8Array | null, o: StoreOperation): Uint8Array | null {
  switch (o.op) {
    case 'write':
      return o.bytes.slice();
    case 'append': {
      const old = bytes ?? new Uint8Array(0);
      const out = new Uint8Array(old.length + o.bytes.length);
      out.set(old);
      out.set(o.bytes, old.length);
      return out;
    }
    case 'truncate':
      return bytes && bytes.length > o.size ? bytes.slice(0, o.size) : bytes;
    case 'delete':
      return null;
  }
}
