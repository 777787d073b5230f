import { producerSnapshotFileName } from '../codec/producerSnapshot';
import type { StoreOperation } from './StoreWriter';

/**
 * A log directory's producer-state `.snapshot` files (Kafka's ProducerStateManager `snapshots`:
 * a map of SnapshotFile by offset), so a restart finds them as on disk. Kafka keeps only the
 * files and reads the latest on load; here the bytes stay in memory while the segment starting
 * at that offset does, and go when that segment is paged out (forgetBytes): one snapshot per roll
 * would otherwise keep a few hundred bytes for every segment that ever existed. The Store keeps
 * every file either way. Every file written or deleted goes to the Store through `submit`.
 */
export class ProducerSnapshotFiles {
  constructor(
    private readonly submit: (operation: StoreOperation) => void,
    /** The path of a file of the log's directory. */
    private readonly path: (fileName: string) => string,
  ) {}

  /** Bytes by offset; null: only in the Store. */
  private readonly files = new Map<number, Uint8Array | null>();
  /** The largest offset (undefined: none), so a roll need not sort them. */
  private newestOffset: number | undefined;

  get newest(): number | undefined {
    return this.newestOffset;
  }

  /** The offsets, ascending. */
  get offsets(): number[] {
    return [...this.files.keys()].sort((a, b) => a - b);
  }

  /** How many keep their bytes in memory. */
  get inMemory(): number {
    let n = 0;
    for (const bytes of this.files.values()) if (bytes) n++;
    return n;
  }

  set(offset: number, bytes: Uint8Array): void {
    this.files.set(offset, bytes);
    if (this.newestOffset === undefined || offset > this.newestOffset) this.newestOffset = offset;
  }

  /** The file is still there; its bytes leave memory (its segment was paged out). */
  forgetBytes(offset: number): void {
    if (this.files.get(offset)) this.files.set(offset, null);
  }

  /** Whether a file at `offset` was there. */
  delete(offset: number): boolean {
    if (!this.files.delete(offset)) return false;
    if (offset === this.newestOffset) {
      this.newestOffset = undefined;
      for (const o of this.files.keys())
        if (this.newestOffset === undefined || o > this.newestOffset) this.newestOffset = o;
    }
    return true;
  }

  /**
   * The latest inside (after, upTo] whose bytes are in memory (ProducerStateManager.latestSnapshotFile).
   * One only in the Store is passed over for the next older: only a truncation into paged-out
   * segments, after an unclean election, leaves the latest without its bytes.
   */
  latest(after: number, upTo: number): { offset: number; bytes: Uint8Array } | null {
    let best: { offset: number; bytes: Uint8Array } | null = null;
    for (const [offset, bytes] of this.files) {
      if (!bytes || offset <= after || offset > upTo) continue;
      if (!best || offset > best.offset) best = { offset, bytes };
    }
    return best;
  }

  /**
   * The Store lost every file ("save again from memory"): those only in the Store are gone, like
   * the paged-out segments they began. Returns the rest, to be written again.
   */
  dropStoreOnly(): [number, Uint8Array][] {
    const kept: [number, Uint8Array][] = [];
    for (const [offset, bytes] of [...this.files]) {
      if (bytes) kept.push([offset, bytes]);
      else this.delete(offset);
    }
    return kept;
  }

  /**
   * ProducerStateManager.takeSnapshot at `offset`, written behind like the segments; only past
   * the last snapshot (none: `floor`, the log start offset).
   */
  take(offset: number, floor: number, bytes: () => Uint8Array): void {
    if (offset <= (this.newestOffset ?? floor)) return;
    const b = bytes();
    this.set(offset, b);
    this.submit({ op: 'write', path: this.path(producerSnapshotFileName(offset)), bytes: b });
  }

  /** Deletes the file at `offset` (and its bytes), if there is one. */
  deleteFile(offset: number): void {
    if (!this.delete(offset)) return;
    this.submit({ op: 'delete', path: this.path(producerSnapshotFileName(offset)) });
  }

  /** ProducerStateManager.truncateAndReload: snapshots past the log end go with the records they cover. */
  deleteAbove(offset: number): void {
    for (const o of this.offsets) if (o > offset) this.deleteFile(o);
  }

  /** The Store lost every file: those only in the Store are gone, the others are written again. */
  rewriteAfterStoreLoss(): void {
    for (const [offset, bytes] of this.dropStoreOnly())
      this.submit({ op: 'write', path: this.path(producerSnapshotFileName(offset)), bytes });
  }
}
