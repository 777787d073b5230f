import type { PackedLayout } from './chunkLayout';

const INT32_MAX = 2147483647;

/**
 * The layouts of one directory's files of one extension (`.log`, `.index`, ...), by offset, as two
 * sorted typed arrays rather than a Map: a Map entry costs a few dozen bytes and a long run keeps
 * hundreds of thousands of segment files. Segments come in offset order and leave oldest first,
 * so a set is an append and a delete a shift of a short prefix; anything else is a binary search
 * and a copy. A layout of one chunk is its length in `lengths`; one of several chunks is a run in
 * `pool` (its count, then its lengths) and `lengths` holds -(where it starts) - 2; a length past
 * int32 is kept aside in `multi`, with -1 in `lengths`. Runs left behind by deletes and
 * overwrites are squeezed out once they are half the pool.
 */
export class OffsetColumn {
  private offsets = new Float64Array(16);
  private lengths = new Int32Array(16);
  private count = 0;
  private readonly multi = new Map<number, PackedLayout>();
  private pool = new Int32Array(64);
  private poolEnd = 0;
  /** Pool slots no row points at any more. */
  private poolHoles = 0;

  get size(): number {
    return this.count;
  }

  get(offset: number): PackedLayout | undefined {
    const i = this.find(offset);
    if (i < 0) return undefined;
    const length = this.lengths[i] as number;
    if (length >= 0) return length;
    if (length === -1) return this.multi.get(offset);
    const start = -length - 2;
    return Array.from(this.pool.subarray(start + 1, start + 1 + (this.pool[start] as number)));
  }

  /** Whether the offset was new. */
  set(offset: number, layout: PackedLayout): boolean {
    let i = this.find(offset);
    const added = i < 0;
    if (added) {
      i = -i - 1;
      if (this.count === this.offsets.length) this.grow();
      this.offsets.copyWithin(i + 1, i, this.count);
      this.lengths.copyWithin(i + 1, i, this.count);
      this.offsets[i] = offset;
      this.lengths[i] = 0; // not the shifted neighbour's run, should the pool be squeezed now
      this.count++;
    }
    if (!added) this.release(i, offset);
    if (typeof layout === 'number' && layout <= INT32_MAX) this.lengths[i] = layout;
    else if (typeof layout !== 'number' && layout.every((n) => n <= INT32_MAX))
      this.lengths[i] = -this.store(layout) - 2;
    else {
      this.lengths[i] = -1;
      this.multi.set(offset, layout);
    }
    return added;
  }

  /** Whether the offset was there. */
  delete(offset: number): boolean {
    const i = this.find(offset);
    if (i < 0) return false;
    this.release(i, offset);
    this.offsets.copyWithin(i, i + 1, this.count);
    this.lengths.copyWithin(i, i + 1, this.count);
    this.count--;
    return true;
  }

  *keys(): IterableIterator<number> {
    for (let i = 0; i < this.count; i++) yield this.offsets[i] as number;
  }

  /** The offset's index, or -(insertion point) - 1; the last one first (appends ask for it). */
  private find(offset: number): number {
    const n = this.count;
    if (n === 0 || offset > (this.offsets[n - 1] as number)) return -n - 1;
    let lo = 0;
    let hi = n - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const at = this.offsets[mid] as number;
      if (at === offset) return mid;
      if (at < offset) lo = mid + 1;
      else hi = mid - 1;
    }
    return -lo - 1;
  }

  /** Row i's layout leaves the pool (or `multi`). */
  private release(i: number, offset: number): void {
    const length = this.lengths[i] as number;
    if (length === -1) this.multi.delete(offset);
    else if (length < -1) this.poolHoles += 1 + (this.pool[-length - 2] as number);
    this.lengths[i] = 0;
  }

  /** Appends a run to the pool (squeezing or growing it first if needed); returns where it starts. */
  private store(layout: readonly number[]): number {
    const need = layout.length + 1;
    if (this.poolHoles > this.poolEnd / 2) this.squeeze();
    if (this.poolEnd + need > this.pool.length) {
      const pool = new Int32Array(Math.max(this.pool.length * 2, this.poolEnd + need));
      pool.set(this.pool.subarray(0, this.poolEnd));
      this.pool = pool;
    }
    const start = this.poolEnd;
    this.pool[start] = layout.length;
    this.pool.set(layout, start + 1);
    this.poolEnd += need;
    return start;
  }

  /** Moves every live run to the front of a new pool, in row order. */
  private squeeze(): void {
    const pool = new Int32Array(this.pool.length);
    let end = 0;
    for (let i = 0; i < this.count; i++) {
      const length = this.lengths[i] as number;
      if (length >= -1) continue;
      const start = -length - 2;
      const n = 1 + (this.pool[start] as number);
      pool.set(this.pool.subarray(start, start + n), end);
      this.lengths[i] = -end - 2;
      end += n;
    }
    this.pool = pool;
    this.poolEnd = end;
    this.poolHoles = 0;
  }

  private grow(): void {
    const offsets = new Float64Array(this.offsets.length * 2);
    offsets.set(this.offsets);
    const lengths = new Int32Array(this.lengths.length * 2);
    lengths.set(this.lengths);
    this.offsets = offsets;
    this.lengths = lengths;
  }
}
