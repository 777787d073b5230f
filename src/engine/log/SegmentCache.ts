import type { Store } from '../Store';
import type { LogSegment, StoredIndexes } from './LogSegment';
import { PagedOutSegments } from './PagedOutSegments';

export { SegmentNotLoadedError } from './LogSegment';

/** What the cache asks of the log a segment belongs to. */
export interface PagedLog {
  /** The partition directory, `<topic>-<partition>`, where the segment's files live in the Store. */
  readonly dir: string;
  /** Whether the segment may leave memory now: closed, every byte durable in the Store. */
  isPageable(segment: LogSegment): boolean;
  /** Whether the segment still belongs to the log (retention, truncation or the cleaner may have removed it). */
  holds(segment: LogSegment): boolean;
  /** The segment was just paged out: what the log keeps in memory for it alone may go too. */
  pagedOut?(segment: LogSegment): void;
}

/** A segment whose bytes a read is waiting for. */
export interface SegmentLoad {
  /** `<dir>/<20-digit base offset>.log` in the Store. */
  path: string;
  segment: LogSegment;
}

/** How many enforce passes (engine ticks) a segment read back waits for its reader before it may go again. */
const FRESH_PASSES = 50;

/**
 * The page cache of the engine's brokers, bounded: the `.log` bytes of closed segments stay in
 * memory up to `budgetBytes` (over every log the cache was given), least recently used leaving
 * first, and only once the Store holds all of them (PagedLog.isPageable). Active segments are
 * never counted nor paged out, and indexes always stay (they are small and every lookup starts
 * there). A paged-out segment keeps its offsets, timestamps and size, so retention, the segment
 * list and the offset index work without its bytes.
 *
 * The engine is synchronous and the Store is not, so a read of a paged-out segment cannot wait
 * in place. It asks for the load (`request`) and returns no data yet; the host awaits `load`
 * (a Store read) between engine calls, and the bytes come back through `loaded`, as the same
 * file, and stay until read (or FRESH_PASSES ticks), even past the budget. Eviction happens only in `enforce`, which the engine calls at the end of a tick: with a
 * Store whose writes have settled, the same commands page the same segments out.
 *
 * A follower's segment shares the leader's bytes (FileRecords.adopt), so memory is given back
 * once both replicas page a segment out; the budget counts each replica's bytes, an upper bound.
 */
export class SegmentCache {
  readonly budgetBytes: number;
  /** Closed resident segments, least recently used first (a Map keeps insertion order). */
  private readonly resident = new Map<LogSegment, { log: PagedLog; bytes: number }>();
  private bytes = 0;
  /** The numbers of the paged-out segments, and each one's log (see PagedOutSegments). */
  readonly pagedOut = new PagedOutSegments<PagedLog>();
  /** Paged-out segments a read asked for, in the order asked. */
  private readonly wanted = new Set<LogSegment>();
  /**
   * Segments read back and not read since, with the enforce passes they may still wait: the
   * read that asked for one must find it, or a small budget would page it out again first.
   */
  private readonly fresh = new Map<LogSegment, number>();
  /** Counters for the curious (tests, benchmarks). */
  pageOuts = 0;
  reloads = 0;

  constructor(budgetBytes: number) {
    if (!Number.isSafeInteger(budgetBytes) || budgetBytes < 0) {
      throw new RangeError(`segment cache budget must be a non-negative integer, not ${budgetBytes}`);
    }
    this.budgetBytes = budgetBytes;
  }

  /** Bytes of closed segments held in memory. */
  get residentBytes(): number {
    return this.bytes;
  }

  get residentSegments(): number {
    return this.resident.size;
  }

  get pagedOutSegments(): number {
    return this.pagedOut.rows;
  }

  /** A segment that just closed (rolled, recovered, cleaned, reloaded) joins as the most recently used. */
  admit(log: PagedLog, segment: LogSegment): void {
    if (!segment.resident) {
      segment.movePagedOut(this.pagedOut, log);
      log.pagedOut?.(segment);
      return;
    }
    this.drop(segment);
    const bytes = segment.size;
    this.resident.set(segment, { log, bytes });
    this.bytes += bytes;
  }

  /** A read used the segment: it becomes the most recently used. */
  touch(segment: LogSegment): void {
    this.fresh.delete(segment);
    const entry = this.resident.get(segment);
    if (!entry) return;
    this.resident.delete(segment);
    this.resident.set(segment, entry);
  }

  /** The segment left its log (deleted, truncated away, replaced by the cleaner). */
  forget(segment: LogSegment): void {
    this.drop(segment);
    this.fresh.delete(segment);
    // Its row may be reused: the segment (perhaps still read by someone) keeps a copy of its own.
    if (this.holdsPagedOut(segment)) segment.movePagedOut();
    this.wanted.delete(segment);
  }

  /** A read needs a paged-out segment: the host will load it. */
  request(segment: LogSegment): void {
    if (this.holdsPagedOut(segment)) this.wanted.add(segment);
  }

  /** The loads reads are waiting for, oldest request first. */
  pendingLoads(): SegmentLoad[] {
    const out: SegmentLoad[] = [];
    for (const segment of this.wanted) {
      const log = this.ownerOf(segment);
      if (log) out.push({ path: `${log.dir}/${segment.logFileName}`, segment });
    }
    return out;
  }

  /**
   * Pages out least recently used closed segments until the resident bytes fit the budget,
   * skipping those the Store does not hold yet (and forgetting those no longer in a log).
   */
  enforce(): void {
    for (const [segment, passes] of this.fresh) {
      if (passes <= 1) this.fresh.delete(segment);
      else this.fresh.set(segment, passes - 1);
    }
    if (this.bytes <= this.budgetBytes) return;
    for (const [segment, entry] of this.resident) {
      if (this.bytes <= this.budgetBytes) break;
      if (!entry.log.holds(segment)) {
        this.drop(segment);
        continue;
      }
      if (this.fresh.has(segment) || !entry.log.isPageable(segment)) continue;
      this.drop(segment);
      segment.pageOut(this.pagedOut, entry.log);
      entry.log.pagedOut?.(segment);
      this.pageOuts++;
    }
  }

  /** The Store's bytes for a paged-out segment: it is resident again (most recently used). */
  loaded(segment: LogSegment, bytes: Uint8Array, indexes?: StoredIndexes): void {
    const log = this.ownerOf(segment);
    this.wanted.delete(segment);
    if (!log?.holds(segment)) {
      if (log) segment.movePagedOut();
      return;
    }
    segment.reload(bytes, indexes);
    this.reloads++;
    this.admit(log, segment);
    this.fresh.set(segment, FRESH_PASSES);
  }

  /**
   * Reads the requested segments (or `segments`) back from `store` and hands them to `loaded`.
   * The host's side of the port: it awaits this between engine calls. Returns how many came back.
   */
  async load(store: Store, segments: readonly LogSegment[] = [...this.wanted]): Promise<number> {
    const loads = segments.flatMap((segment) => {
      const log = this.ownerOf(segment);
      return log ? [{ segment, path: `${log.dir}/${segment.logFileName}` }] : [];
    });
    // The `.index` / `.timeindex` files come back with the `.log`: an append's index entries
    // (one per append, LogSegment.append) cannot always be rebuilt from the bytes (per batch).
    const read = await Promise.all(
      loads.map((l) => {
        const dir = l.path.slice(0, l.path.length - l.segment.logFileName.length);
        return Promise.all([
          store.read(l.path),
          store.read(dir + l.segment.indexFileName),
          store.read(dir + l.segment.timeIndexFileName),
        ]);
      }),
    );
    let n = 0;
    loads.forEach((l, i) => {
      const [bytes, index, timeIndex] = read[i] ?? [null, null, null];
      if (bytes === null || bytes === undefined || !this.holdsPagedOut(l.segment)) {
        this.wanted.delete(l.segment);
        return;
      }
      this.loaded(l.segment, bytes, { index: index ?? null, timeIndex: timeIndex ?? null });
      n++;
    });
    return n;
  }

  private holdsPagedOut(segment: LogSegment): boolean {
    return segment.pagedOutIn === this.pagedOut;
  }

  private ownerOf(segment: LogSegment): PagedLog | null {
    return this.holdsPagedOut(segment) ? (segment.pagedOutOwner as PagedLog | null) : null;
  }

  private drop(segment: LogSegment): void {
    const entry = this.resident.get(segment);
    if (!entry) return;
    this.resident.delete(segment);
    this.bytes -= entry.bytes;
  }
}
