import { createStore } from 'idb-keyval';
import { KafkaError } from '../engine/errors';
import type { Store } from '../engine/Store';
import { checkStorePath, checkTruncateSize } from './storePath';

/*
 * The slice of IndexedDB that IdbStore touches, typed structurally so that the Node typecheck
 * (which has no DOM lib) accepts this file. Real IDBObjectStore / IDBRequest objects fit it.
 */
export interface IdbRequestLike<T> {
  readonly result: T;
  readonly error: unknown;
  onsuccess: (() => void) | null;
  onerror: (() => void) | null;
}
export interface IdbTransactionLike {
  readonly error: unknown;
  readonly db: { readonly name: string; close(): void };
  oncomplete: (() => void) | null;
  onerror: (() => void) | null;
  onabort: (() => void) | null;
  abort(): void;
}
export interface IdbObjectStoreLike {
  readonly transaction: IdbTransactionLike;
  get(key: string): IdbRequestLike<unknown>;
  put(value: unknown, key: string): IdbRequestLike<unknown>;
  delete(key: string): IdbRequestLike<undefined>;
  getAllKeys(): IdbRequestLike<unknown[]>;
  clear(): IdbRequestLike<undefined>;
}
interface IdbFactoryLike {
  deleteDatabase(name: string): IdbRequestLike<unknown> & { onblocked: (() => void) | null };
}
/** idb-keyval's `UseStore`: runs a callback on the object store inside a fresh transaction. */
export type UseObjectStore = <T>(
  mode: 'readonly' | 'readwrite',
  callback: (store: IdbObjectStoreLike) => T | PromiseLike<T>,
) => Promise<T>;

export interface IdbStoreOptions {
  /** IndexedDB database name. Glassbox uses 'glassbox'; tests use a fresh name each. */
  dbName?: string;
  /** Object store inside that database. */
  storeName?: string;
  /**
   * Size at which a chunk is sealed: trailing chunks smaller than this are merged as appends
   * arrive (see the class comment). Default 64 KiB.
   */
  chunkBytes?: number;
  /** Replaces idb-keyval's `createStore(dbName, storeName)`; tests wrap it to count or fail writes. */
  useStore?: UseObjectStore;
  /** Called once, when the store goes offline after a failed write. */
  onFailure?: (error: KafkaError) => void;
}

/** One chunk of a file: bytes [start, start + length) stored under `key`. */
interface Chunk {
  readonly key: string;
  readonly start: number;
  readonly length: number;
}

/** Once the small chunks at a file's tail number more than this, they are merged regardless of size. */
const MAX_SMALL_CHUNKS = 16;
const KEY_PATTERN = /^(.+)#(\d{16})\+(\d+)$/;

/** The IndexedDB key of a chunk: `<path>#<start, 16 digits>+<length>`; keys sort by path, then start. */
export function chunkKey(path: string, start: number, length: number): string {
  return `${path}#${String(start).padStart(16, '0')}+${length}`;
}

function parseChunkKey(key: unknown): { path: string; chunk: Chunk } | null {
  if (typeof key !== 'string') return null;
  const m = KEY_PATTERN.exec(key);
  if (!m) return null;
  return { path: m[1]!, chunk: { key, start: Number(m[2]), length: Number(m[3]) } };
}

function request<T>(req: IdbRequestLike<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function completion(tx: IdbTransactionLike): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'));
  });
}

function concat(parts: readonly Uint8Array[], length: number): Uint8Array {
  const out = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** What went wrong, in words a person can act on. */
function describeCause(cause: unknown): string {
  const name = (cause as { name?: unknown } | null)?.name;
  const message = (cause as { message?: unknown } | null)?.message;
  if (name === 'QuotaExceededError') return "the browser's storage quota for this site is used up";
  if (typeof name === 'string' && typeof message === 'string') return `IndexedDB failed (${name}: ${message})`;
  return `IndexedDB failed (${String(cause)})`;
}

/**
 * A Store in IndexedDB (through idb-keyval), where the worker keeps the cluster's segment files.
 *
 * Layout. Each file is a run of chunks, one IndexedDB entry each:
 *
 *     key   `<path>#<start>+<length>`   e.g. `orders-0/00000000000000000000.log#0000000000065536+4096`
 *     value Uint8Array of exactly <length> bytes: the file's bytes [start, start + length)
 *
 * `start` is zero-padded to 16 digits so keys sort by path, then by position. The chunks of a
 * file tile it from 0 with no gap or overlap. An empty file is one chunk `<path>#0…0+0`. Since
 * the key says where a chunk sits and how long it is, opening the store reads keys only, and
 * `list` never touches a value. Paths may not contain `#`.
 *
 * Costs. An append puts one new chunk: O(appended bytes), whatever the file's size. To keep
 * reads fast, the chunks at a file's tail are merged like a binary counter: the new bytes absorb
 * the chunk before them while that chunk is no larger than they are (or while more than 16 small
 * chunks trail), and a chunk of `chunkBytes` (64 KiB) or more is sealed and never rewritten. So a
 * file is a few sealed chunks plus at most ~17 small ones, and each byte is rewritten about
 * log2(chunkBytes / append size) times: the cost per append is bounded, never O(file).
 *
 * Crash safety. Every mutation is ONE readwrite transaction of puts and deletes computed
 * beforehand (any bytes it needs are read first, in an earlier read-only transaction), so a tab
 * closed at any moment leaves the state before or after each operation, never a mixture. As a
 * second line of defence, reading a file keeps its longest consistent prefix: chunks are taken in
 * order while each starts where the previous ended and its value has the length its key states;
 * at the first that does not (missing, short, out of place), the file ends — with whatever
 * leading bytes that chunk does have — and the store repairs itself to match. The log's recovery
 * then sees an ordinary torn tail and truncates it as a broker would.
 *
 * Order. Operations run one at a time through a promise queue, so they apply in call order even
 * though the engine never awaits them. The queue also owns an in-memory copy of every file's
 * chunk list (loaded from the keys on first use), which is updated only after a transaction
 * commits.
 *
 * Failure. If a write fails (quota used up, IndexedDB gone), the store goes offline like a
 * failed Kafka log dir: that and every later mutation rejects with KAFKA_STORAGE_ERROR saying
 * that nothing is being saved, and `onFailure` is told once. Reads keep working. `clear()`
 * (which frees the space) brings it back online.
 */
export class IdbStore implements Store {
  readonly dbName: string;
  private readonly use: UseObjectStore;
  private readonly chunkBytes: number;
  private readonly onFailure: ((error: KafkaError) => void) | undefined;
  /** Every file's chunks, in order; null until loaded from the keys. */
  private files: Map<string, Chunk[]> | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private failure: KafkaError | null = null;
  private destroyed = false;

  constructor(options: IdbStoreOptions = {}) {
    this.dbName = options.dbName ?? 'glassbox';
    const storeName = options.storeName ?? 'files';
    this.use = options.useStore ?? (createStore(this.dbName, storeName) as unknown as UseObjectStore);
    this.chunkBytes = options.chunkBytes ?? 64 * 1024;
    this.onFailure = options.onFailure;
  }

  /**
   * Opens the store and proves it can write (a probe entry put and deleted in one transaction),
   * so a missing IndexedDB, a private window that refuses it, or a zero quota show up here as
   * KAFKA_STORAGE_ERROR rather than on the first append.
   */
  static async open(options: IdbStoreOptions = {}): Promise<IdbStore> {
    if (!options.useStore && !(globalThis as { indexedDB?: unknown }).indexedDB) {
      throw new KafkaError('KAFKA_STORAGE_ERROR', 'IndexedDB is not available here: nothing is being saved', {});
    }
    const store = new IdbStore(options);
    await store.enqueue(async () => {
      try {
        await store.load();
        await store.use('readwrite', (s) => {
          s.put(new Uint8Array(1), '#probe');
          s.delete('#probe');
          return completion(s.transaction);
        });
      } catch (cause) {
        throw new KafkaError(
          'KAFKA_STORAGE_ERROR',
          `IndexedDB database ${store.dbName} cannot be used: ${describeCause(cause)}; nothing is being saved`,
          { op: 'open', path: store.dbName, cause },
        );
      }
    });
    return store;
  }

  async list(prefix: string): Promise<string[]> {
    return this.query('list', prefix, async () => {
      const files = await this.load();
      return [...files.keys()].filter((path) => path.startsWith(prefix)).sort();
    });
  }

  async read(path: string): Promise<Uint8Array | null> {
    checkStorePath(path);
    return this.query('read', path, async () => {
      const chunks = (await this.load()).get(path);
      if (!chunks) return null;
      const values = await this.readChunks(chunks);
      const parts: Uint8Array[] = [];
      let length = 0;
      for (let i = 0; i < chunks.length; i++) {
        const chunk = chunks[i]!;
        const value = values[i];
        if (value instanceof Uint8Array && value.length === chunk.length) {
          parts.push(value);
          length += value.length;
          continue;
        }
        // A torn chunk: keep what it holds of its promised range, drop it and all after it.
        const kept = value instanceof Uint8Array ? value.subarray(0, Math.min(value.length, chunk.length)) : null;
        if (kept) {
          parts.push(kept);
          length += kept.length;
        }
        await this.maybeRepair(path, chunks, i, kept);
        break;
      }
      return concat(parts, length);
    });
  }

  async write(path: string, bytes: Uint8Array): Promise<void> {
    checkStorePath(path);
    const copy = bytes.slice(); // the caller may reuse its buffer the moment we return
    return this.mutate('write', path, async () => {
      const old = (await this.load()).get(path) ?? [];
      const chunk = { key: chunkKey(path, 0, copy.length), start: 0, length: copy.length };
      await this.commit(path, old, [[chunk, copy]], [chunk]);
    });
  }

  async append(path: string, bytes: Uint8Array): Promise<void> {
    checkStorePath(path);
    const copy = bytes.slice();
    return this.mutate('append', path, async () => {
      const chunks = (await this.load()).get(path) ?? [];
      const end = chunks.length === 0 ? 0 : chunks[chunks.length - 1]!.start + chunks[chunks.length - 1]!.length;
      if (copy.length === 0) {
        if (chunks.length > 0) return; // nothing to add to an existing file
        const empty = { key: chunkKey(path, 0, 0), start: 0, length: 0 };
        await this.commit(path, [], [[empty, copy]], [empty]);
        return;
      }
      // An empty file's marker chunk is replaced by the first real one.
      const existing = chunks.length === 1 && chunks[0]!.length === 0 ? [] : chunks;
      let absorbed = this.chunksToAbsorb(existing, copy.length);
      let merged: Uint8Array = copy;
      if (absorbed.length > 0) {
        const values = await this.readChunks(absorbed);
        const intact = values.every((v, i) => v instanceof Uint8Array && v.length === absorbed[i]!.length);
        // A damaged chunk is left for read() to find and repair: damage is never copied forward.
        if (intact) merged = concat([...(values as Uint8Array[]), copy], end - absorbed[0]!.start + copy.length);
        else absorbed = [];
      }
      const kept = existing.slice(0, existing.length - absorbed.length);
      const start = end - (merged.length - copy.length);
      const chunk = { key: chunkKey(path, start, merged.length), start, length: merged.length };
      await this.commit(path, chunks.slice(kept.length), [[chunk, merged]], [...kept, chunk]);
    });
  }

  async truncate(path: string, size: number): Promise<void> {
    checkStorePath(path);
    checkTruncateSize(path, size);
    return this.mutate('truncate', path, async () => {
      const chunks = (await this.load()).get(path);
      if (!chunks) return;
      const end = chunks[chunks.length - 1]!.start + chunks[chunks.length - 1]!.length;
      if (size >= end) return;
      const kept = chunks.filter((c) => c.start + c.length <= size);
      const cut = chunks.find((c) => c.start < size && c.start + c.length > size);
      const added: [Chunk, Uint8Array][] = [];
      if (cut) {
        const [value] = await this.readChunks([cut]);
        if (!(value instanceof Uint8Array) || value.length !== cut.length) {
          // Damaged: the chunk cannot supply the kept bytes, so the file ends where it starts.
          await this.repairTornChunk(path, chunks, chunks.indexOf(cut), null);
          return;
        }
        const piece = value.slice(0, size - cut.start);
        added.push([{ key: chunkKey(path, cut.start, piece.length), start: cut.start, length: piece.length }, piece]);
      } else if (size === 0) {
        added.push([{ key: chunkKey(path, 0, 0), start: 0, length: 0 }, new Uint8Array(0)]);
      }
      await this.commit(path, chunks.slice(kept.length), added, [...kept, ...added.map(([c]) => c)]);
    });
  }

  async delete(path: string): Promise<void> {
    checkStorePath(path);
    return this.mutate('delete', path, async () => {
      const chunks = (await this.load()).get(path);
      if (chunks) await this.commit(path, chunks, [], null);
    });
  }

  /** Removes every file (the UI's "Reset cluster"); the store stays open, and online again. */
  async clear(): Promise<void> {
    return this.query('clear', this.dbName, async () => {
      await this.use('readwrite', (s) => {
        s.clear();
        return completion(s.transaction);
      });
      this.files = new Map();
      this.failure = null;
    });
  }

  /** Closes the connection and deletes the whole database. The store cannot be used afterwards. */
  async destroy(): Promise<void> {
    return this.enqueue(async () => {
      if (this.destroyed) return;
      this.destroyed = true;
      try {
        const db = await this.use('readonly', (s) => s.transaction.db);
        db.close();
        const factory = (globalThis as { indexedDB?: IdbFactoryLike }).indexedDB;
        if (factory) {
          const req = factory.deleteDatabase(this.dbName);
          await new Promise<void>((resolve, reject) => {
            req.onsuccess = () => resolve();
            req.onerror = () => reject(req.error);
            // Another connection (another tab) still holds the database: it is deleted when that closes.
            req.onblocked = () => resolve();
          });
        }
      } catch (cause) {
        throw this.storageError('destroy', this.dbName, cause, false);
      }
      this.files = null;
    });
  }

  /** Runs `op` after every operation called before it has settled, whatever their outcome. */
  private enqueue<T>(op: () => Promise<T>): Promise<T> {
    const result = this.queue.then(op);
    this.queue = result.catch(() => undefined);
    return result;
  }

  /** A read-only operation, queued; an IndexedDB failure becomes KAFKA_STORAGE_ERROR. */
  private query<T>(op: string, path: string, run: () => Promise<T>): Promise<T> {
    return this.enqueue(async () => {
      this.assertOpen();
      try {
        return await run();
      } catch (cause) {
        throw cause instanceof KafkaError ? cause : this.storageError(op, path, cause, false);
      }
    });
  }

  /** A mutation, queued: refused while offline; a failed transaction takes the store offline. */
  private mutate(op: string, path: string, apply: () => Promise<void>): Promise<void> {
    return this.enqueue(async () => {
      this.assertOpen();
      if (this.failure) {
        throw new KafkaError(
          'KAFKA_STORAGE_ERROR',
          `cannot ${op} ${path}: storage went offline after an earlier failure, nothing is being saved`,
          { op, path, cause: this.failure },
        );
      }
      try {
        await apply();
      } catch (cause) {
        throw cause instanceof KafkaError ? cause : this.storageError(op, path, cause, true);
      }
    });
  }

  private assertOpen(): void {
    if (this.destroyed) {
      throw new KafkaError('KAFKA_STORAGE_ERROR', `the IndexedDB store ${this.dbName} was destroyed`, {});
    }
  }

  private storageError(op: string, path: string, cause: unknown, goOffline: boolean): KafkaError {
    const error = new KafkaError(
      'KAFKA_STORAGE_ERROR',
      `${op} of ${path} failed: ${describeCause(cause)}; nothing is being saved`,
      { op, path, cause },
    );
    if (goOffline && !this.failure) {
      this.failure = error;
      this.onFailure?.(error);
    }
    return error;
  }

  /** The chunk lists of all files, built from the keys on first use (repairing any that do not tile). */
  private async load(): Promise<Map<string, Chunk[]>> {
    if (this.files) return this.files;
    const keys = await this.use('readonly', (s) => request(s.getAllKeys()));
    const byPath = new Map<string, Chunk[]>();
    for (const key of keys) {
      const parsed = parseChunkKey(key);
      if (!parsed) continue; // not a chunk of ours (e.g. the open probe)
      const chunks = byPath.get(parsed.path) ?? [];
      chunks.push(parsed.chunk);
      byPath.set(parsed.path, chunks);
    }
    const files = new Map<string, Chunk[]>();
    const orphans: string[] = [];
    const emptied: Chunk[] = [];
    for (const [path, chunks] of byPath) {
      chunks.sort((a, b) => a.start - b.start || a.length - b.length);
      const tiled: Chunk[] = [];
      let end = 0;
      let broken = false;
      for (const chunk of chunks) {
        // After a gap or an overlap nothing more belongs to the file; an empty marker beside
        // real chunks is a leftover.
        broken ||= chunk.start !== end;
        if (broken || (chunk.length === 0 && chunks.length > 1)) orphans.push(chunk.key);
        else {
          tiled.push(chunk);
          end += chunk.length;
        }
      }
      if (tiled.length === 0) {
        // Not one byte survives, but the file existed: it is kept, empty.
        const marker = { key: chunkKey(path, 0, 0), start: 0, length: 0 };
        emptied.push(marker);
        tiled.push(marker);
      }
      files.set(path, tiled);
    }
    if (orphans.length > 0) {
      await this.use('readwrite', (s) => {
        for (const key of orphans) s.delete(key);
        for (const marker of emptied) s.put(new Uint8Array(0), marker.key);
        return completion(s.transaction);
      });
    }
    this.files = files;
    return files;
  }

  private readChunks(chunks: readonly Chunk[]): Promise<unknown[]> {
    return this.use('readonly', (s) => Promise.all(chunks.map((c) => request(s.get(c.key)))));
  }

  /**
   * Makes the stored file match the prefix read() returned, so later appends continue from it.
   * Skipped while offline (no mutation can follow then); if the repair itself fails, the store
   * goes offline rather than append after damage.
   */
  private async maybeRepair(path: string, chunks: Chunk[], index: number, kept: Uint8Array | null): Promise<void> {
    if (this.failure) return;
    try {
      await this.repairTornChunk(path, chunks, index, kept);
    } catch (cause) {
      this.storageError('repair', path, cause, true);
    }
  }

  /** Cuts the file at chunk `index`, keeping `kept` (its intact leading bytes) as the file's tail. */
  private async repairTornChunk(path: string, chunks: Chunk[], index: number, kept: Uint8Array | null): Promise<void> {
    const before = chunks.slice(0, index);
    const start = chunks[index]!.start;
    const added: [Chunk, Uint8Array][] = [];
    if (kept && kept.length > 0) {
      added.push([{ key: chunkKey(path, start, kept.length), start, length: kept.length }, kept.slice()]);
    } else if (before.length === 0) {
      added.push([{ key: chunkKey(path, 0, 0), start: 0, length: 0 }, new Uint8Array(0)]);
    }
    await this.commit(path, chunks.slice(index), added, [...before, ...added.map(([c]) => c)]);
  }

  /**
   * Which trailing chunks an append of `length` bytes absorbs, oldest first: while the chunk
   * before is not sealed and is no larger than what has been gathered (the binary-counter rule),
   * or while too many small chunks trail.
   */
  private chunksToAbsorb(chunks: readonly Chunk[], length: number): Chunk[] {
    let small = 0;
    while (small < chunks.length && chunks[chunks.length - 1 - small]!.length < this.chunkBytes) small++;
    let gathered = length;
    let taken = 0;
    while (taken < small && gathered < this.chunkBytes) {
      const prev = chunks[chunks.length - 1 - taken]!;
      const tooMany = small - taken + 1 > MAX_SMALL_CHUNKS;
      if (prev.length > gathered && !tooMany) break;
      gathered += prev.length;
      taken++;
    }
    return chunks.slice(chunks.length - taken);
  }

  /**
   * Applies one mutation as one transaction (deletes first, then puts), and only once it has
   * committed updates the in-memory chunk list (`next` null: the file is gone).
   */
  private async commit(
    path: string,
    removed: readonly Chunk[],
    added: readonly (readonly [Chunk, Uint8Array])[],
    next: Chunk[] | null,
  ): Promise<void> {
    await this.use('readwrite', (s) => {
      const done = completion(s.transaction);
      try {
        for (const chunk of removed) s.delete(chunk.key);
        for (const [chunk, value] of added) s.put(value, chunk.key);
      } catch (error) {
        s.transaction.abort(); // never let the requests issued so far commit on their own
        done.catch(() => undefined);
        throw error;
      }
      return done;
    });
    const files = this.files!;
    if (next) files.set(path, next);
    else files.delete(path);
  }
}
