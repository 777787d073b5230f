/** What a closed segment keeps of itself once its bytes and index objects left memory. */
export interface PagedOutFields {
  size: number;
  nextOffset: number;
  maxTimestampSoFar: number;
  offsetOfMaxTimestampSoFar: number;
  createdMs: number;
  lastModifiedMs: number;
  /** The first batch's max timestamp; null when none is known. */
  rollingBasedTimestamp: number | null;
  offsetIndexEntries: number;
  timeIndexEntries: number;
  maxIndexSize: number;
  indexIntervalBytes: number;
}

type F64 =
  | 'nextOffset'
  | 'maxTimestampSoFar'
  | 'offsetOfMaxTimestampSoFar'
  | 'createdMs'
  | 'lastModifiedMs'
  | 'rolling';
type I32 = 'size' | 'offsetIndexEntries' | 'timeIndexEntries' | 'maxIndexSize' | 'indexIntervalBytes';
const F64_COLUMN: Record<F64, number> = {
  nextOffset: 0,
  maxTimestampSoFar: 1,
  offsetOfMaxTimestampSoFar: 2,
  createdMs: 3,
  lastModifiedMs: 4,
  rolling: 5,
};
const I32_COLUMN: Record<I32, number> = {
  size: 0,
  offsetIndexEntries: 1,
  timeIndexEntries: 2,
  maxIndexSize: 3,
  indexIntervalBytes: 4,
};
const F64_COLUMNS = 6;
const I32_COLUMNS = 5;

/** Bytes a row takes in the columns (the owner slot not counted). */
export const PAGED_OUT_ROW_BYTES = F64_COLUMNS * 8 + I32_COLUMNS * 4;

/** log2 of the rows per chunk: the table grows a chunk (1,024 rows) at a time, never copying rows. */
const CHUNK_BITS = 10;

/** A chunk's rows: column c of row r at c * (rows per chunk) + r. */
interface Chunk {
  f64: Float64Array;
  i32: Int32Array;
}

/**
 * The numbers of paged-out segments as columns (typed arrays, one row per segment), not as
 * fields of each LogSegment: a long run retains hundreds of thousands of closed segments, and
 * as objects their timestamps alone are boxed numbers of their own. A paged-out LogSegment
 * keeps only its base offset and its row here; reading a field reads the column. Rows freed
 * (a segment read back, or deleted) are reused, and the table grows by chunks of
 * rows (1,024), so it holds at most a chunk more than the most segments ever paged out at once.
 * `owners` says, per row, which log the segment belongs to (SegmentCache).
 */
export class PagedOutSegments<Owner = unknown> {
  private readonly chunks: Chunk[] = [];
  private readonly owners: (Owner | null)[] = [];
  private readonly free: number[] = [];
  private used = 0;
  /** log2 of the rows per chunk: CHUNK_BITS, or 0 for a segment's table of its own (SegmentState). */
  private readonly bits: number;
  private readonly chunkRows: number;

  /** `single`: one row per chunk, for a segment that left its log's table. */
  constructor(single = false) {
    this.bits = single ? 0 : CHUNK_BITS;
    this.chunkRows = 1 << this.bits;
  }

  /** Rows in use. */
  get rows(): number {
    return this.used - this.free.length;
  }

  /** Bytes the columns hold (their capacity), for tests and benchmarks. */
  get columnBytes(): number {
    return this.chunks.length * this.chunkRows * PAGED_OUT_ROW_BYTES;
  }

  /** Stores `fields` in a free row and returns it. */
  add(fields: PagedOutFields, owner: Owner | null): number {
    const row = this.free.pop() ?? this.used++;
    const chunk = this.chunk(row);
    const n = this.chunkRows;
    const r = row & (n - 1);
    chunk.f64[F64_COLUMN.nextOffset * n + r] = fields.nextOffset;
    chunk.f64[F64_COLUMN.maxTimestampSoFar * n + r] = fields.maxTimestampSoFar;
    chunk.f64[F64_COLUMN.offsetOfMaxTimestampSoFar * n + r] = fields.offsetOfMaxTimestampSoFar;
    chunk.f64[F64_COLUMN.createdMs * n + r] = fields.createdMs;
    chunk.f64[F64_COLUMN.lastModifiedMs * n + r] = fields.lastModifiedMs;
    chunk.f64[F64_COLUMN.rolling * n + r] = fields.rollingBasedTimestamp ?? Number.NaN;
    chunk.i32[I32_COLUMN.size * n + r] = fields.size;
    chunk.i32[I32_COLUMN.offsetIndexEntries * n + r] = fields.offsetIndexEntries;
    chunk.i32[I32_COLUMN.timeIndexEntries * n + r] = fields.timeIndexEntries;
    chunk.i32[I32_COLUMN.maxIndexSize * n + r] = fields.maxIndexSize;
    chunk.i32[I32_COLUMN.indexIntervalBytes * n + r] = fields.indexIntervalBytes;
    this.owners[row] = owner;
    return row;
  }

  /** The row's fields as an object (a segment read back, or leaving this table). */
  fields(row: number): PagedOutFields {
    const rolling = this.f64At('rolling', row);
    return {
      size: this.i32At('size', row),
      nextOffset: this.f64At('nextOffset', row),
      maxTimestampSoFar: this.f64At('maxTimestampSoFar', row),
      offsetOfMaxTimestampSoFar: this.f64At('offsetOfMaxTimestampSoFar', row),
      createdMs: this.f64At('createdMs', row),
      lastModifiedMs: this.f64At('lastModifiedMs', row),
      rollingBasedTimestamp: Number.isNaN(rolling) ? null : rolling,
      offsetIndexEntries: this.i32At('offsetIndexEntries', row),
      timeIndexEntries: this.i32At('timeIndexEntries', row),
      maxIndexSize: this.i32At('maxIndexSize', row),
      indexIntervalBytes: this.i32At('indexIntervalBytes', row),
    };
  }

  f64At(column: F64, row: number): number {
    return this.chunk(row).f64[F64_COLUMN[column] * this.chunkRows + (row & (this.chunkRows - 1))] as number;
  }

  setF64(column: F64, row: number, value: number): void {
    this.chunk(row).f64[F64_COLUMN[column] * this.chunkRows + (row & (this.chunkRows - 1))] = value;
  }

  i32At(column: I32, row: number): number {
    return this.chunk(row).i32[I32_COLUMN[column] * this.chunkRows + (row & (this.chunkRows - 1))] as number;
  }

  owner(row: number): Owner | null {
    return this.owners[row] ?? null;
  }

  /** Frees the row for reuse. */
  release(row: number): void {
    this.owners[row] = null;
    this.free.push(row);
  }

  private chunk(row: number): Chunk {
    const at = row >>> this.bits;
    let chunk = this.chunks[at];
    while (!chunk) {
      const n = this.chunkRows;
      this.chunks.push({ f64: new Float64Array(F64_COLUMNS * n), i32: new Int32Array(I32_COLUMNS * n) });
      chunk = this.chunks[at];
    }
    return chunk;
  }
}
