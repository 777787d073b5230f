/**
 * A log directory's producer-state `.snapshot` files (Kafka's ProducerStateManager `snapshots`:
 * a map of SnapshotFile by offset), so a restart finds them as on disk. Kafka keeps only the
 * files and reads the latest on load; here the bytes stay in memory while the segment starting
 * at that offset does, and go when that segment is paged out (forgetBytes): one snapshot per roll
 * would otherwise keep a few hundred bytes for every segment that ever existed. The Store keeps
 * every file either way.
 */
export class ProducerSnapshotFiles {
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
}
