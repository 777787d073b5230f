import type { Store } from '../Store';

/** One operation handed to the Store, in the order the log issued it. */
export type StoreOperation =
  | { op: 'write'; path: string; bytes: Uint8Array }
  | { op: 'append'; path: string; bytes: Uint8Array }
  | { op: 'truncate'; path: string; size: number }
  | { op: 'delete'; path: string };

/** Starts one operation on a Store and returns its promise without waiting, the way the log calls a Store. */
export function applyStoreOperation(store: Store, operation: StoreOperation): Promise<void> {
  switch (operation.op) {
    case 'write':
      return store.write(operation.path, operation.bytes);
    case 'append':
      return store.append(operation.path, operation.bytes);
    case 'truncate':
      return store.truncate(operation.path, operation.size);
    case 'delete':
      return store.delete(operation.path);
  }
}

export interface StoreFailure {
  /** The operation that failed (a `sync` is Kafka's flush of one file, StoreWriter.sync). */
  operation: StoreOperation | { op: 'sync'; path: string };
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
 *
 * Durability. Each operation gets a sequence number (1, 2, ...) when submitted, and a Store
 * settles an operation only once it is durable (IdbStore: its transaction's `complete` event).
 * `durableSequence` is the highest n such that operations 1..n all succeeded: everything handed
 * over up to then would survive the tab closing. A failed operation stops it for good (the Store
 * is offline then, and nothing after it is saved). Completions arrive outside the engine's ticks,
 * so this is an observation for the host to show, never an input to engine behaviour: the
 * engine stays deterministic.
 */
export class StoreWriter {
  readonly store: Store | null;
  private pending = new Set<Promise<void>>();
  private issued = 0;
  private completed = 0;
  private durableSeq = 0;
  /** Sequence numbers that succeeded ahead of a gap (a later one settling first). */
  private readonly succeededAhead = new Set<number>();
  /** The first failed sequence number: durability never passes it. */
  private firstFailedSeq = Number.POSITIVE_INFINITY;
  /**
   * Operations up to this sequence number went to a Store that has lost them since (the database
   * was deleted): none of them is durable, whatever completes. -1 while nothing was lost (a
   * sequence 0 then names what was read back from the Store at start-up).
   */
  private lostThrough = -1;
  /** Operations up to this one were handed to a lost Store: their failures no longer gate durability. */
  private supersededThrough = 0;
  /** Failures of operations after supersededThrough (isPathDurable). */
  private gatingFailures = 0;
  private handedBytes = 0;
  private readonly failed: StoreFailure[] = [];
  /** Operations issued and not yet settled, per path (what the segment cache asks before evicting). */
  private readonly inFlightByPath = new Map<string, number>();
  /** Bytes of write/append operations handed to the Store and not settled yet: the write backlog. */
  private inFlightBytesCount = 0;
  /** Optional observer, e.g. for the UI's "disk activity" view. */
  onOperation: ((op: StoreOperation) => void) | null = null;
  /**
   * Write-through (the Node host's files): every append reaches the Store at once, as Kafka's
   * LogSegment.append writes to the FileChannel (the OS page cache, which outlives the process),
   * and a flush (flush.messages / flush.ms, a roll) is an fsync (`Store.fsync`). Without it (the
   * page's IndexedDB, whose writes cost a transaction each), appended bytes stay in memory until
   * a flush hands them over.
   */
  readonly writeThrough: boolean;
  /** Who waits for the durable sequence to reach a number (whenDurable). */
  private waiters: { seq: number; done: (durable: boolean) => void }[] = [];

  /** `store` null makes a memory-only log: operations are counted and dropped. */
  constructor(store: Store | null, options: { writeThrough?: boolean } = {}) {
    this.store = store;
    this.writeThrough = store !== null && options.writeThrough === true;
  }

  /** Hands one operation to the Store; returns its sequence number. */
  submit(operation: StoreOperation): number {
    const bytes = operation.op === 'write' || operation.op === 'append' ? operation.bytes.length : 0;
    this.handedBytes += bytes;
    this.onOperation?.(operation);
    return this.issue(operation, bytes, (store) => applyStoreOperation(store, operation));
  }

  /**
   * Kafka's flush of one file (FileChannel.force) as a numbered operation: durable once the Store
   * has fsynced it. A Store without `fsync` settles its writes durably already: nothing to do.
   */
  sync(path: string): number {
    return this.issue({ op: 'sync', path }, 0, (store) => store.fsync?.(path) ?? Promise.resolve());
  }

  /**
   * Resolves true once operations 1..`seq` are all durable, false if one of them failed (then they
   * never will be). The host holds an acknowledgement on it: Kafka answers acks only after the
   * append is in the file.
   */
  whenDurable(seq: number): Promise<boolean> {
    if (seq <= this.durableSeq) return Promise.resolve(true);
    if (seq >= this.firstFailedSeq) return Promise.resolve(false);
    return new Promise((done) => this.waiters.push({ seq, done }));
  }

  private issue(operation: StoreFailure['operation'], bytes: number, run: (store: Store) => Promise<void>): number {
    const seq = ++this.issued;
    const store = this.store;
    if (!store) {
      // Memory only: nothing can be lost that a Store would keep, so it counts as done at once.
      this.completed++;
      this.succeeded(seq);
      return seq;
    }
    const path = operation.path;
    this.inFlightByPath.set(path, (this.inFlightByPath.get(path) ?? 0) + 1);
    this.inFlightBytesCount += bytes;
    let p: Promise<void>;
    try {
      p = run(store);
    } catch (error) {
      p = Promise.reject(error);
    }
    const settle = () => {
      this.completed++;
      this.pending.delete(tracked);
      this.inFlightBytesCount -= bytes;
      const left = (this.inFlightByPath.get(path) ?? 1) - 1;
      if (left === 0) this.inFlightByPath.delete(path);
      else this.inFlightByPath.set(path, left);
    };
    const tracked: Promise<void> = p.then(
      () => {
        this.succeeded(seq);
        settle();
      },
      (error: unknown) => {
        this.failed.push({ operation, error });
        if (seq > this.supersededThrough) {
          this.firstFailedSeq = Math.min(this.firstFailedSeq, seq);
          this.gatingFailures++;
        }
        settle();
        this.wakeWaiters();
      },
    );
    this.pending.add(tracked);
    return seq;
  }

  /** Moves the durable watermark over every contiguous success. */
  private succeeded(seq: number): void {
    if (seq <= this.durableSeq) return;
    if (seq !== this.durableSeq + 1 || seq >= this.firstFailedSeq) {
      this.succeededAhead.add(seq);
      return;
    }
    this.durableSeq = seq;
    while (this.durableSeq + 1 < this.firstFailedSeq && this.succeededAhead.delete(this.durableSeq + 1)) {
      this.durableSeq++;
    }
    if (this.waiters.length > 0) this.wakeWaiters();
  }

  private wakeWaiters(): void {
    const waiting: typeof this.waiters = [];
    for (const w of this.waiters) {
      if (w.seq <= this.durableSeq) w.done(true);
      else if (w.seq >= this.firstFailedSeq) w.done(false);
      else waiting.push(w);
    }
    this.waiters = waiting;
  }

  /** Operations 1..durableSequence have all completed in the Store (the rest may still be lost). */
  get durableSequence(): number {
    return this.durableSeq;
  }

  /** Whether operation `seq` and every one before it are durable (and the Store has not lost them since). */
  isDurable(seq: number): boolean {
    return seq > this.lostThrough && seq <= this.durableSeq;
  }

  /** Operations up to this sequence number are lost with their Store (-1: none). */
  get lostSequence(): number {
    return this.lostThrough;
  }

  /**
   * The Store lost every file handed to it (the database was deleted under the page): nothing
   * issued so far counts as durable any more, even if its completion arrives later.
   */
  storeLost(): void {
    this.lostThrough = this.issued;
  }

  /**
   * The Store is back, empty, and every file is about to be handed to it again: the failures of
   * what went to the lost Store are superseded, and durability counts again from the next
   * operation on (the owner leaves new marks for what it hands over).
   */
  resumeAfterLoss(): void {
    this.lostThrough = this.issued;
    this.supersededThrough = this.issued;
    this.firstFailedSeq = Number.POSITIVE_INFINITY;
    this.gatingFailures = 0;
    this.durableSeq = Math.max(this.durableSeq, this.issued);
    for (const seq of this.succeededAhead) if (seq <= this.durableSeq) this.succeededAhead.delete(seq);
    if (this.waiters.length > 0) this.wakeWaiters();
  }

  /**
   * Whether everything handed over for `path` is in the Store: no operation on it still in flight
   * and no operation ever failed (a failed Store may have lost any of it). A memory-only writer
   * has nowhere to keep files, so nothing is ever durable there.
   */
  isPathDurable(path: string): boolean {
    return this.store !== null && this.gatingFailures === 0 && !this.inFlightByPath.has(path);
  }

  /**
   * Bytes handed to the Store that it has not settled yet. A host whose Store falls behind (a busy
   * machine's IndexedDB) holds them in memory, with the segments the cache may not page out until
   * they are durable: it slows what it sends while this is high (the worker's Send N job).
   */
  get bytesInFlight(): number {
    return this.inFlightBytesCount;
  }

  /** Operations issued and not yet settled. */
  get inFlight(): number {
    return this.issued - this.completed;
  }

  /** The sequence number of the last operation submitted (0: none yet). */
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
