import type { Store } from '../Store';

/** One operation handed to the Store, in the order the log issued it. */
export type StoreOperation =
  | { op: 'write'; path: string; bytes: Uint8Array }
  | { op: 'append'; path: string; bytes: Uint8Array }
  | { op: 'truncate'; path: string; size: number }
  | { op: 'delete'; path: string };

export interface StoreFailure {
  operation: StoreOperation;
  error: unknown;
}

/**
 * Write-behind to the Store: the log hands each file operation here and moves on without
 * awaiting it, the way a broker's write() returns once bytes are in the page cache. Operations
 * are issued to the Store synchronously in call order, which the Store contract guarantees it
 * applies in that order even while earlier ones are still settling (see Store.ts), so nothing
 * here waits on anything.
 *
 * Which bytes reach the writer at all is the log's flush policy (flush.messages / flush.ms,
 * segment rolls): until a flush, appended bytes exist only in memory. Counters separate bytes
 * handed to the Store from operations that have completed, and failures are kept for the engine
 * to surface (Kafka takes the log dir offline with KAFKA_STORAGE_ERROR).
 */
export class StoreWriter {
  readonly store: Store | null;
  private pending = new Set<Promise<void>>();
  private issued = 0;
  private completed = 0;
  private handedBytes = 0;
  private readonly failed: StoreFailure[] = [];
  /** Operations issued and not yet settled, per path (what the segment cache asks before evicting). */
  private readonly inFlightByPath = new Map<string, number>();
  /** Optional observer, e.g. for the UI's "disk activity" view. */
  onOperation: ((op: StoreOperation) => void) | null = null;

  /** `store` null makes a memory-only log: operations are counted and dropped. */
  constructor(store: Store | null) {
    this.store = store;
  }

  submit(operation: StoreOperation): void {
    this.issued++;
    if (operation.op === 'write' || operation.op === 'append') this.handedBytes += operation.bytes.length;
    this.onOperation?.(operation);
    const store = this.store;
    if (!store) {
      this.completed++;
      return;
    }
    const path = operation.path;
    this.inFlightByPath.set(path, (this.inFlightByPath.get(path) ?? 0) + 1);
    let p: Promise<void>;
    try {
      switch (operation.op) {
        case 'write':
          p = store.write(operation.path, operation.bytes);
          break;
        case 'append':
          p = store.append(operation.path, operation.bytes);
          break;
        case 'truncate':
          p = store.truncate(operation.path, operation.size);
          break;
        case 'delete':
          p = store.delete(operation.path);
          break;
      }
    } catch (error) {
      p = Promise.reject(error);
    }
    const settle = () => {
      this.completed++;
      this.pending.delete(tracked);
      const left = (this.inFlightByPath.get(path) ?? 1) - 1;
      if (left === 0) this.inFlightByPath.delete(path);
      else this.inFlightByPath.set(path, left);
    };
    const tracked: Promise<void> = p.then(settle, (error: unknown) => {
      this.failed.push({ operation, error });
      settle();
    });
    this.pending.add(tracked);
  }

  /**
   * Whether everything handed over for `path` is in the Store: no operation on it still in flight
   * and no operation ever failed (a failed Store may have lost any of it). A memory-only writer
   * has nowhere to keep files, so nothing is ever durable there.
   */
  isDurable(path: string): boolean {
    return this.store !== null && this.failed.length === 0 && !this.inFlightByPath.has(path);
  }

  /** Operations issued and not yet settled. */
  get inFlight(): number {
    return this.issued - this.completed;
  }

  get operationsIssued(): number {
    return this.issued;
  }

  /** Total bytes handed to the Store by write/append so far. */
  get bytesHanded(): number {
    return this.handedBytes;
  }

  get failures(): readonly StoreFailure[] {
    return this.failed;
  }

  /** Resolves once every operation issued so far has settled (tests, clean shutdown). */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }
}
