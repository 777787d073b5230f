import { KafkaError } from '../engine/errors';
import type { Store } from '../engine/Store';
import { checkStorePath, checkTruncateSize } from './storePath';

export interface MemoryStoreOptions {
  /**
   * Total bytes the store may hold before a write fails with KAFKA_STORAGE_ERROR, the way
   * IndexedDB fails on a full quota. Lets tests drive the engine's storage-failure path
   * without a browser. Unlimited by default.
   */
  quotaBytes?: number;
}

/** One file: a buffer that grows by doubling, of which the first `length` bytes are the file. */
interface MemoryFile {
  buffer: Uint8Array;
  length: number;
}

/**
 * A Store held in a Map, for tests, benchmarks, and as the fallback when IndexedDB is missing
 * (then nothing is saved across reloads).
 *
 * Every operation takes effect synchronously, at the moment it is called, and returns an
 * already-settled promise, so operations apply in call order whether or not anyone awaits them.
 * Bytes are copied in and out: a caller may reuse its buffer after `append` returns, and may
 * mutate what `read` returned without touching the stored file. Appends grow the file's buffer
 * by doubling, so an append costs O(appended bytes) amortized.
 */
export class MemoryStore implements Store {
  private readonly files = new Map<string, MemoryFile>();
  private readonly quotaBytes: number;
  private usedBytes = 0;

  constructor(options: MemoryStoreOptions = {}) {
    this.quotaBytes = options.quotaBytes ?? Number.POSITIVE_INFINITY;
  }

  async list(prefix: string): Promise<string[]> {
    const paths: string[] = [];
    for (const path of this.files.keys()) if (path.startsWith(prefix)) paths.push(path);
    return paths.sort();
  }

  async read(path: string): Promise<Uint8Array | null> {
    checkStorePath(path);
    const file = this.files.get(path);
    return file ? file.buffer.slice(0, file.length) : null;
  }

  async write(path: string, bytes: Uint8Array): Promise<void> {
    checkStorePath(path);
    const old = this.files.get(path)?.length ?? 0;
    this.reserve(path, bytes.length - old);
    this.files.set(path, { buffer: bytes.slice(), length: bytes.length });
  }

  async append(path: string, bytes: Uint8Array): Promise<void> {
    checkStorePath(path);
    this.reserve(path, bytes.length);
    let file = this.files.get(path);
    if (!file) {
      file = { buffer: new Uint8Array(Math.max(bytes.length, 64)), length: 0 };
      this.files.set(path, file);
    }
    const needed = file.length + bytes.length;
    if (needed > file.buffer.length) {
      const grown = new Uint8Array(Math.max(needed, file.buffer.length * 2));
      grown.set(file.buffer.subarray(0, file.length));
      file.buffer = grown;
    }
    file.buffer.set(bytes, file.length);
    file.length = needed;
  }

  async truncate(path: string, size: number): Promise<void> {
    checkStorePath(path);
    checkTruncateSize(path, size);
    const file = this.files.get(path);
    if (!file || size >= file.length) return;
    this.usedBytes -= file.length - size;
    file.length = size;
  }

  async delete(path: string): Promise<void> {
    checkStorePath(path);
    const file = this.files.get(path);
    if (!file) return;
    this.usedBytes -= file.length;
    this.files.delete(path);
  }

  /** Removes every file ("Reset cluster"). */
  async clear(): Promise<void> {
    this.files.clear();
    this.usedBytes = 0;
  }

  /** Bytes currently held, summed over all files. */
  get sizeBytes(): number {
    return this.usedBytes;
  }

  /** Accounts for `delta` more bytes, or throws the quota error and changes nothing. */
  private reserve(path: string, delta: number): void {
    if (this.usedBytes + delta > this.quotaBytes) {
      throw new KafkaError(
        'KAFKA_STORAGE_ERROR',
        `storage quota of ${this.quotaBytes} bytes exceeded while writing ${path}: these bytes were not saved`,
        { path, quotaBytes: this.quotaBytes, usedBytes: this.usedBytes, requestedBytes: delta },
      );
    }
    this.usedBytes += delta;
  }
}
