/**
 * Where segment files and metadata live: the engine's only door to durable storage.
 *
 * Paths look like a broker's log dir: `<topic>-<partition>/<20-digit base offset>.log`
 * (or `.index`, `.timeindex`), and metadata under `meta/...`. Implementations:
 * MemoryStore (tests, benchmarks) and IdbStore (IndexedDB in the browser), both in
 * src/storage and both held to one contract test suite.
 *
 * The engine never awaits a Store on its hot path. It issues operations in order and lets
 * them complete behind it (see log/StoreWriter), the way Kafka leaves flushing to the page
 * cache. An implementation must therefore apply operations in the order they were called,
 * even when a later call starts before an earlier one has settled, and settle a mutation only
 * once it is durable (IndexedDB: its transaction's `complete` event): the StoreWriter counts a
 * settled operation as saved, and the page tells the user so.
 */
export interface Store {
  /** Every file path that starts with `prefix` ('' lists everything), sorted. */
  list(prefix: string): Promise<string[]>;
  /** The whole file, or null if there is none. */
  read(path: string): Promise<Uint8Array | null>;
  /** Creates the file, or replaces its content entirely. */
  write(path: string, bytes: Uint8Array): Promise<void>;
  /** Adds bytes at the end, creating the file if needed. Costs O(bytes), not O(file). */
  append(path: string, bytes: Uint8Array): Promise<void>;
  /** Cuts the file to `size` bytes (no-op if it is already shorter). */
  truncate(path: string, size: number): Promise<void>;
  /** Removes the file; removing a missing file is not an error. */
  delete(path: string): Promise<void>;
  /**
   * Kafka's flush (FileChannel.force): the file's settled bytes reach the disk itself. Only a
   * Store whose settled writes may still sit in a cache (FileStore: the OS page cache) has it; for
   * the others a settled write is already as durable as it gets.
   */
  fsync?(path: string): Promise<void>;
}
