import type { PackedLayout } from './chunkLayout';

const INT32_MAX = 2147483647;

/**
 * The layouts of one directory's files of one extension (`.log`, `.index`, ...), by offset, as two
 * sorted typed arrays rather than a Map: a Map entry costs a few dozen bytes and a long run keeps
 * hundreds of thousands of segment files. Segments come in offset order and leave oldest first,
 * so a set is an append and a delete a shift of a short prefix; anything else is a binary search
 * and a copy. A layout of one chunk is its length in `lengths`; one of several chunks (or a length
 * past int32) is kept aside in `multi`, with -1 in `lengths`.
 */
export class OffsetColumn {
  private offsets = new Float64Array(16);
  private lengths = new Int32Array(16);
  private count = 0;
  private readonly multi = new Map<number, PackedLayout>();

  get size(): number {
    return this.count;
  }

  get(offset: number): PackedLayout | undefined {
    const i = this.find(offset);
    if (i < 0) return undefined;
    const length = this.lengths[i] as number;
    return length >= 0 ? length : this.multi.get(offset);
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
      this.count++;
    }
    const single = typeof layout === 'number' && layout <= INT32_MAX;
    this.lengths[i] = single ? layout : -1;
    if (single) this.multi.delete(offset);
    else this.multi.set(offset, layout);
    return added;
  }

  /** Whether the offset was there. */
  delete(offset: number): boolean {
    const i = this.find(offset);
    if (i < 0) return false;
    this.offsets.copyWithin(i, i + 1, this.count);
    this.lengths.copyWithin(i, i + 1, this.count);
    this.count--;
    this.multi.delete(offset);
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

  private grow(): void {
    const offsets = new Float64Array(this.offsets.length * 2);
    offsets.set(this.offsets);
    const lengths = new Int32Array(this.lengths.length * 2);
    lengths.set(this.lengths);
    this.offsets = offsets;
    this.lengths = lengths;
  }
}
