/**
 * The host's reads of segments paged out of memory (SegmentCache): a read of the engine that
 * reaches one waits for it to be read back from the Store, and the segments the engine's fetches
 * wait for are read back one batch at a time between frames.
 */
import { type Engine, SegmentNotLoadedError, serializeError } from '../engine';
import type { WorkerNotice } from './protocol';

/** A host read that keeps finding paged-out segments gives up after this many loads. */
const MAX_SEGMENT_LOADS_PER_READ = 64;

export class SegmentReads {
  /** A read of paged-out segments from the Store is under way (one at a time). */
  private loading: Promise<unknown> | null = null;

  constructor(
    private readonly engine: () => Engine,
    private readonly notify: (n: WorkerNotice) => void,
  ) {}

  /**
   * Runs a read of the engine (pure and synchronous) that may reach segments paged out of
   * memory: each SegmentNotLoadedError is answered by reading that segment back from the Store,
   * then the read runs again. Reads change nothing, so running one again is safe.
   */
  async paged<T>(read: () => T): Promise<T> {
    for (let loads = 0; ; loads++) {
      try {
        return read();
      } catch (e) {
        if (!(e instanceof SegmentNotLoadedError) || loads >= MAX_SEGMENT_LOADS_PER_READ) throw e;
        await this.engine().loadSegments([e.segment]);
      }
    }
  }

  /** Starts reading the segments the engine's fetches wait for, unless a read is under way. */
  pump(engine: Engine): void {
    if (this.loading !== null) return;
    if (engine.segmentCache.pendingLoads().length === 0) return;
    this.loading = engine
      .loadSegments()
      .catch((e: unknown) => this.notify({ notice: 'storage-failed', error: serializeError(e) }))
      .finally(() => {
        this.loading = null;
      });
  }
}
