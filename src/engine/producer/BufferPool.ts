/**
 * Kafka's BufferPool, reduced to what the simulation needs: batch buffers of the poolable size
 * (batch.size, up to the first-buffer cap) are handed back when a batch is done and reused by the
 * next batch instead of allocating a fresh one, at most buffer.memory worth of them kept.
 * Kafka's pool also makes send() block when buffer.memory is exhausted; glassbox does not model
 * that wait.
 *
 * A buffer may only come back when no one can read it any more: the Sender returns one only
 * after the single request that carried it was answered (see Sender.deallocate).
 */
export class BufferPool {
  private readonly free: Uint8Array[] = [];
  private readonly maxFree: number;

  constructor(
    readonly poolableSize: number,
    totalMemory: number,
  ) {
    this.maxFree = poolableSize > 0 ? Math.floor(totalMemory / poolableSize) : 0;
  }

  /** A buffer of `size` bytes; a reused one holds old bytes (callers write before they read). */
  allocate(size: number): Uint8Array {
    if (size === this.poolableSize) {
      const reused = this.free.pop();
      if (reused) return reused;
    }
    return new Uint8Array(size);
  }

  /** Takes a buffer back; only the poolable size is kept, as in Kafka. */
  deallocate(buffer: Uint8Array): void {
    if (buffer.length === this.poolableSize && this.free.length < this.maxFree) this.free.push(buffer);
  }

  /** Buffers waiting to be reused. */
  get freeBuffers(): number {
    return this.free.length;
  }
}
