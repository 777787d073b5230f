import type { PackedLayout } from './chunkLayout';
import { OffsetColumn } from './OffsetColumn';

/** A segment's files: `<dir>/<20-digit offset>.<ext>`, the names a partition directory is made of. */
const SEGMENT_FILE = /^(.+)\/(\d{20})\.(log|index|timeindex|snapshot)$/;

/**
 * Every file's chunk layout, by path: what IdbStore keeps in memory for each file that exists.
 * A long run has hundreds of thousands of segment files and a path string each (plus the cons
 * string a template literal makes) cost more than the layout itself, about 100 bytes a file. So a
 * segment file is kept under its directory, its extension and its offset as a number, and its
 * path is made again only when asked for (`paths`); any other path is kept as it is. The offsets of
 * a directory's files of one extension are a sorted column (OffsetColumn), not a Map.
 */
export class FileTable {
  /** dir -> extension -> offset -> layout (the offsets as a sorted column: OffsetColumn). */
  private readonly segments = new Map<string, Map<string, OffsetColumn>>();
  private readonly others = new Map<string, PackedLayout>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  get(path: string): PackedLayout | undefined {
    const s = split(path);
    return s ? this.segments.get(s.dir)?.get(s.ext)?.get(s.offset) : this.others.get(path);
  }

  set(path: string, layout: PackedLayout): void {
    const s = split(path);
    if (!s) {
      if (!this.others.has(path)) this.count++;
      this.others.set(path, layout);
      return;
    }
    let exts = this.segments.get(s.dir);
    if (!exts) this.segments.set(s.dir, (exts = new Map()));
    let offsets = exts.get(s.ext);
    if (!offsets) exts.set(s.ext, (offsets = new OffsetColumn()));
    if (offsets.set(s.offset, layout)) this.count++;
  }

  delete(path: string): void {
    const s = split(path);
    if (!s) {
      if (this.others.delete(path)) this.count--;
      return;
    }
    const exts = this.segments.get(s.dir);
    const offsets = exts?.get(s.ext);
    if (!offsets?.delete(s.offset)) return;
    this.count--;
    if (offsets.size === 0) exts?.delete(s.ext);
    if (exts?.size === 0) this.segments.delete(s.dir);
  }

  /** Every path, in no particular order. */
  *paths(): IterableIterator<string> {
    yield* this.others.keys();
    for (const [dir, exts] of this.segments)
      for (const [ext, offsets] of exts)
        for (const offset of offsets.keys()) yield `${dir}/${String(offset).padStart(20, '0')}.${ext}`;
  }
}

/** A segment file's parts, when its offset survives as a number (a safe integer, written back the same). */
function split(path: string): { dir: string; ext: string; offset: number } | null {
  const m = SEGMENT_FILE.exec(path);
  if (!m) return null;
  const offset = Number(m[2]);
  if (!Number.isSafeInteger(offset)) return null;
  return { dir: m[1] as string, ext: m[3] as string, offset };
}
