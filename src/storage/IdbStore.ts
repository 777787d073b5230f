import { KafkaError } from '../engine/errors';
import type { Store } from '../engine/Store';
import {
  type Chunk,
  type ChunkWrite,
  chunkAt,
  chunksToAbsorb,
  concatBytes,
  fileEnd,
  isEmptyFile,
  isIntact,
  packLayout,
  parseChunkKey,
  tileChunks,
  unpackLayout,
} from './chunkLayout';
import { FileTable } from './FileTable';
import {
  completion,
  type IdbFactoryLike,
  type IdbObjectStoreLike,
  idbKeyvalStore,
  request,
  type UseObjectStore,
} from './idbObjects';
import { checkStorePath, checkTruncateSize } from './storePath';

export type { IdbObjectStoreLike, IdbTransactionLike, UseObjectStore } from './idbObjects';

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
  /**
   * Called once, when the store goes offline: after a failed write (`details.reason` 'failed'),
   * when a newer owner fenced it ('fenced'), or when the database was deleted or upgraded from
   * elsewhere ('deleted').
   */
  onFailure?: (error: KafkaError) => void;
  /** Who opens the store, written into the owner entry. Default: a random id. */
  ownerId?: string;
}

/**
 * The owner entry, beside the chunks in the same object store (its key has no `+length`, so it
 * is never taken for a file). Opening the store bumps `epoch`: the opener becomes the owner.
 */
export const OWNER_KEY = '#owner';
export interface OwnerEntry {
  readonly epoch: number;
  readonly ownerId: string;
}

/** Why a store went offline. */
export type OfflineReason = 'failed' | 'fenced' | 'deleted';

/** Appends waiting in the queue to be applied together, in one transaction. */
interface AppendGroup {
  readonly appends: { path: string; bytes: Uint8Array }[];
  bytes: number;
  done: Promise<void>;
}

/** One file's part of a mutation: chunks to delete, chunks to put, and the chunk list after. */
interface FileChange {
  readonly path: string;
  readonly removed: readonly Chunk[];
  readonly added: readonly ChunkWrite[];
  /** null: the file is gone. */
  readonly next: Chunk[] | null;
}

/** An append group stops taking new appends at this size, so one transaction stays modest. */
const MAX_GROUP_BYTES = 4 * 1024 * 1024;

/** A file's chunks, unpacked from the in-memory layout; undefined for a file that does not exist. */
function chunksOf(files: FileTable, path: string): Chunk[] | undefined {
  const layout = files.get(path);
  return layout === undefined ? undefined : unpackLayout(path, layout);
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
 * Layout (chunkLayout.ts). Each file is a run of chunks, one IndexedDB entry each, keyed
 * `<path>#<16-digit start>+<length>` with exactly that many bytes as the value. The keys alone
 * give every file's layout, so opening reads keys only and `list` never touches a value.
 *
 * Costs. An append puts one new chunk: O(appended bytes), whatever the file's size. The chunks at
 * a file's tail are merged like a binary counter as appends arrive, and a chunk of `chunkBytes`
 * (64 KiB) is sealed, never rewritten: a file stays a few sealed chunks plus a short run of small
 * ones, so reads stay fast, and each byte is rewritten about log2(chunkBytes / append size)
 * times. Appends that pile up in the queue while IndexedDB is busy (the engine fires them
 * without waiting) are applied together in one transaction, like a group commit.
 *
 * Crash safety. Every mutation (or group of appends) is ONE readwrite transaction of puts and
 * deletes computed beforehand (any bytes it needs are read first, in a read-only transaction), so
 * a tab closed at any moment leaves the files as they were after some prefix of the operations,
 * never a mixture. As a second line of defence, reading a file keeps its longest consistent
 * prefix: chunks are taken in order while each starts where the previous ended and its value has
 * the length its key states; at the first that does not (missing, short, out of place), the file
 * ends, with whatever leading bytes that chunk does have, and the store repairs itself to match.
 * The log's recovery then sees an ordinary torn tail and truncates it as a broker would.
 *
 * Order. Operations run one at a time through a promise queue, so they apply in call order even
 * though the engine never awaits them. Bytes are copied at call time, so callers may reuse their
 * buffers. The queue owns an in-memory copy of every file's layout (loaded from the keys on first
 * use), updated only after a transaction commits: just its chunk lengths (chunkLayout's
 * PackedLayout, a bare number for a one-chunk file), since it is held for every file that exists.
 *
 * Failure. If a write fails (quota used up, IndexedDB gone), the store goes offline like a failed
 * Kafka log dir: that and every later mutation rejects with KAFKA_STORAGE_ERROR saying that
 * nothing is being saved, and `onFailure` is told once. Reads keep working. `clear()` (which
 * frees the space) brings it back online.
 *
 * Fencing. Only one store may write the database: the one that opened it last. `open()` bumps
 * the owner epoch in the `#owner` entry, and every write transaction first reads that entry and
 * aborts itself if it no longer names this store's epoch (like a broker refusing a request with
 * a stale controller epoch). IndexedDB runs readwrite transactions on one object store one after
 * another, across tabs too, so a writer that lost the cluster can still have transactions queued,
 * and each of them commits nothing. The first one fenced takes the store offline.
 *
 * Deletion. When another page deletes the database ("Clear site data", DevTools) or upgrades it,
 * this connection gets `versionchange`: the store closes it at once (else the deletion would wait
 * for this tab forever), goes offline, and `reopen()` can create the database again.
 */
export class IdbStore implements Store {
  readonly dbName: string;
  readonly ownerId: string;
  private use: UseObjectStore;
  /** A fresh connection (the old one is closed after a versionchange). */
  private readonly connect: () => UseObjectStore;
  private readonly chunkBytes: number;
  private readonly onFailure: ((error: KafkaError) => void) | undefined;
  /** Every file's chunk lengths (chunkLayout's PackedLayout, kept in a FileTable); null until loaded from the keys. */
  private files: FileTable | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  /** The append group still taking appends: the last thing in the queue, not yet started. */
  private openGroup: AppendGroup | null = null;
  private failure: KafkaError | null = null;
  private offlineReason: OfflineReason | null = null;
  private destroyed = false;
  /** The owner epoch this store holds; null for a store made with `new` (tests), which is not fenced. */
  private epoch: number | null = null;
  /** Connections already watched for versionchange. */
  private readonly watched = new WeakSet<object>();

  constructor(options: IdbStoreOptions = {}) {
    this.dbName = options.dbName ?? 'glassbox';
    const storeName = options.storeName ?? 'files';
    const injected = options.useStore;
    this.connect = injected ? () => injected : () => idbKeyvalStore(this.dbName, storeName);
    this.use = this.watching(this.connect());
    this.chunkBytes = options.chunkBytes ?? 64 * 1024;
    this.onFailure = options.onFailure;
    this.ownerId = options.ownerId ?? globalThis.crypto.randomUUID();
  }

  /** The owner epoch this store holds (null: not an owner). */
  get ownerEpoch(): number | null {
    return this.epoch;
  }

  /** Why the store is offline, or null while it is online. */
  get offline(): OfflineReason | null {
    return this.offlineReason;
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
        await store.claimOwnership(false);
        await store.load();
      } catch (cause) {
        if (cause instanceof KafkaError) throw cause;
        throw new KafkaError(
          'KAFKA_STORAGE_ERROR',
          `IndexedDB database ${store.dbName} cannot be used: ${describeCause(cause)}; nothing is being saved`,
          { op: 'open', path: store.dbName, cause },
        );
      }
    });
    return store;
  }

  /**
   * After the database was deleted elsewhere: opens a new connection (creating the database
   * again), empties it, and takes ownership, so the caller can write every file anew. Refused
   * once another owner fenced this store: the files are theirs now.
   */
  async reopen(): Promise<void> {
    return this.enqueue(async () => {
      this.assertOpen();
      if (this.offlineReason === 'fenced' && this.failure) throw this.failure;
      try {
        this.use = this.watching(this.connect());
        await this.claimOwnership(true);
      } catch (cause) {
        throw cause instanceof KafkaError ? cause : this.storageError('reopen', this.dbName, cause, false);
      }
      this.files = new FileTable();
      this.failure = null;
      this.offlineReason = null;
    });
  }

  /**
   * Takes the store offline at once, without touching IndexedDB: the caller knows another tab owns
   * the cluster now (its Web Lock was taken). Every queued and later mutation is refused.
   */
  fence(message: string): void {
    this.goOffline('fenced', new KafkaError('KAFKA_STORAGE_ERROR', message, { reason: 'fenced' }));
  }

  /**
   * One transaction: reads the owner entry, writes it back with the next epoch and this store's
   * id (and, with `wipe`, empties the object store first), and proves that writing works at all
   * (a probe put and deleted), so a zero quota shows up here rather than on the first append.
   */
  private async claimOwnership(wipe: boolean): Promise<void> {
    let claimed = 0;
    await this.use('readwrite', (s) => {
      const done = completion(s.transaction);
      const current = s.get(OWNER_KEY);
      current.onsuccess = () => {
        const previous = current.result as Partial<OwnerEntry> | undefined;
        claimed = (typeof previous?.epoch === 'number' ? previous.epoch : 0) + 1;
        // Still inside the transaction: request callbacks keep it active.
        if (wipe) s.clear();
        const entry: OwnerEntry = { epoch: claimed, ownerId: this.ownerId };
        s.put(entry, OWNER_KEY);
        s.put(new Uint8Array(1), '#probe');
        s.delete('#probe');
      };
      return done;
    });
    this.epoch = claimed;
  }

  /** Wraps a connection so the database it runs on is watched for versionchange. */
  private watching(use: UseObjectStore): UseObjectStore {
    return (mode, callback) =>
      use(mode, (s) => {
        const db = s.transaction.db;
        if (db && !this.watched.has(db)) {
          this.watched.add(db);
          db.onversionchange = () => {
            // Close at once: the deletion (or upgrade) elsewhere waits until every connection has.
            db.close();
            this.files = null;
            this.goOffline(
              'deleted',
              new KafkaError(
                'KAFKA_STORAGE_ERROR',
                `the IndexedDB database ${this.dbName} was deleted or changed elsewhere (another tab, or "Clear site data"); nothing is being saved`,
                { reason: 'deleted' },
              ),
            );
          };
        }
        return callback(s);
      });
  }

  async list(prefix: string): Promise<string[]> {
    return this.query('list', prefix, async () => {
      const files = await this.load();
      return [...files.paths()].filter((path) => path.startsWith(prefix)).sort();
    });
  }

  async read(path: string): Promise<Uint8Array | null> {
    checkStorePath(path);
    return this.query('read', path, async () => {
      const chunks = chunksOf(await this.load(), path);
      if (!chunks) return null;
      const values = await this.readChunks(chunks);
      const parts: Uint8Array[] = [];
      for (let i = 0; i < chunks.length; i++) {
        const chunk = chunks[i]!;
        const value = values[i];
        if (isIntact(chunk, value)) {
          parts.push(value);
          continue;
        }
        // A torn chunk: keep what it holds of its promised range, drop it and all after it.
        const kept = value instanceof Uint8Array ? value.subarray(0, Math.min(value.length, chunk.length)) : null;
        if (kept) parts.push(kept);
        await this.maybeRepair(path, chunks, i, kept);
        break;
      }
      return concatBytes(parts);
    });
  }

  async write(path: string, bytes: Uint8Array): Promise<void> {
    checkStorePath(path);
    const copy = bytes.slice(); // the caller may reuse its buffer the moment we return
    return this.mutate('write', path, async () => {
      const old = chunksOf(await this.load(), path) ?? [];
      const chunk = chunkAt(path, 0, copy.length);
      await this.commit([{ path, removed: old, added: [[chunk, copy]], next: [chunk] }]);
    });
  }

  async append(path: string, bytes: Uint8Array): Promise<void> {
    checkStorePath(path);
    const copy = bytes.slice();
    let group = this.openGroup;
    if (!group || group.bytes >= MAX_GROUP_BYTES) {
      const fresh: AppendGroup = { appends: [], bytes: 0, done: Promise.resolve() };
      fresh.done = this.mutate('append', path, () => {
        if (this.openGroup === fresh) this.openGroup = null; // later appends queue behind it
        return this.applyAppends(fresh.appends);
      });
      this.openGroup = group = fresh;
    }
    group.appends.push({ path, bytes: copy });
    group.bytes += copy.length;
    return group.done;
  }

  async truncate(path: string, size: number): Promise<void> {
    checkStorePath(path);
    checkTruncateSize(path, size);
    return this.mutate('truncate', path, async () => {
      const chunks = chunksOf(await this.load(), path);
      if (!chunks || size >= fileEnd(chunks)) return;
      const kept = chunks.filter((c) => c.start + c.length <= size);
      const cut = chunks[kept.length];
      const added: ChunkWrite[] = [];
      if (cut && cut.start < size) {
        const [value] = await this.readChunks([cut]);
        if (!isIntact(cut, value)) {
          // Damaged: it cannot supply the bytes to keep, so the file ends where it starts.
          await this.repairTornChunk(path, chunks, kept.length, null);
          return;
        }
        added.push([chunkAt(path, cut.start, size - cut.start), value.slice(0, size - cut.start)]);
      } else if (size === 0) {
        added.push([chunkAt(path, 0, 0), new Uint8Array(0)]);
      }
      const next = [...kept, ...added.map(([c]) => c)];
      await this.commit([{ path, removed: chunks.slice(kept.length), added, next }]);
    });
  }

  async delete(path: string): Promise<void> {
    checkStorePath(path);
    return this.mutate('delete', path, async () => {
      const chunks = chunksOf(await this.load(), path);
      if (chunks) await this.commit([{ path, removed: chunks, added: [], next: null }]);
    });
  }

  /** Removes every file (the UI's "Reset cluster"); the store stays open, and online again. */
  async clear(): Promise<void> {
    return this.query('clear', this.dbName, async () => {
      if (this.offlineReason === 'fenced' && this.failure) throw this.failure;
      await this.writeTransaction('clear', this.dbName, (s) => {
        s.clear();
        // The owner entry stays: clearing the files does not give up the cluster.
        if (this.epoch !== null) s.put({ epoch: this.epoch, ownerId: this.ownerId } satisfies OwnerEntry, OWNER_KEY);
      });
      this.files = new FileTable();
      this.failure = null;
      this.offlineReason = null;
    });
  }

  /** Closes the connection and deletes the whole database. The store cannot be used afterwards. */
  async destroy(): Promise<void> {
    return this.enqueue(async () => {
      if (this.destroyed) return;
      this.destroyed = true;
      this.files = null;
      try {
        const db = await this.use('readonly', (s) => s.transaction.db);
        db.close();
        const factory = (globalThis as { indexedDB?: IdbFactoryLike }).indexedDB;
        if (!factory) return;
        const req = factory.deleteDatabase(this.dbName);
        await new Promise<void>((resolve, reject) => {
          req.onsuccess = () => resolve();
          req.onerror = () => reject(req.error);
          // Another connection (another tab) still holds the database: it goes when that closes.
          req.onblocked = () => resolve();
        });
      } catch (cause) {
        throw this.storageError('destroy', this.dbName, cause, false);
      }
    });
  }

  /**
   * Runs `op` after every operation called before it has settled, whatever their outcome.
   * Whatever is queued closes the open append group: appends called later must come after it.
   */
  private enqueue<T>(op: () => Promise<T>): Promise<T> {
    this.openGroup = null;
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
        const why =
          this.offlineReason === 'failed'
            ? 'storage went offline after an earlier failure, nothing is being saved'
            : this.failure.message.replace(/^KAFKA_STORAGE_ERROR: /, '');
        throw new KafkaError('KAFKA_STORAGE_ERROR', `cannot ${op} ${path}: ${why}`, {
          op,
          path,
          reason: this.offlineReason,
          cause: this.failure,
        });
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
    if (goOffline) this.goOffline('failed', error);
    return error;
  }

  /** The first reason wins; `onFailure` hears of it once. */
  private goOffline(reason: OfflineReason, error: KafkaError): void {
    if (this.failure) return;
    this.failure = error;
    this.offlineReason = reason;
    this.onFailure?.(error);
  }

  /**
   * Runs `body` in one readwrite transaction that first checks this store still holds the owner
   * epoch; if another store took ownership, the transaction aborts (nothing of `body` commits)
   * and the store goes offline with the fencing error.
   */
  private async writeTransaction(op: string, path: string, body: (s: IdbObjectStoreLike) => void): Promise<void> {
    let fencedBy: Partial<OwnerEntry> | null = null;
    try {
      await this.use('readwrite', (s) => {
        const done = completion(s.transaction);
        if (this.epoch !== null) {
          const mine = this.epoch;
          const check = s.get(OWNER_KEY);
          // Requests run in order and the transaction cannot commit before this callback has run,
          // so aborting here undoes the writes issued below even if they already ran.
          check.onsuccess = () => {
            const owner = (check.result ?? {}) as Partial<OwnerEntry>;
            if (owner.epoch !== mine || owner.ownerId !== this.ownerId) {
              fencedBy = owner;
              s.transaction.abort();
            }
          };
        }
        try {
          body(s);
        } catch (error) {
          s.transaction.abort(); // never let the requests issued so far commit on their own
          done.catch(() => undefined);
          throw error;
        }
        return done;
      });
    } catch (cause) {
      if (fencedBy === null) throw cause;
      const owner: Partial<OwnerEntry> = fencedBy;
      const error = new KafkaError(
        'KAFKA_STORAGE_ERROR',
        `another tab took over (owner epoch ${owner.epoch ?? 'none'} > ${this.epoch}); this tab's ${op} of ${path} was refused and nothing more is saved here`,
        { op, path, reason: 'fenced', ownerEpoch: owner.epoch ?? null, epoch: this.epoch },
      );
      this.goOffline('fenced', error);
      throw error;
    }
  }

  /** The chunk lists of all files, built from the keys on first use; orphaned chunks are deleted. */
  private async load(): Promise<FileTable> {
    if (this.files) return this.files;
    const keys = await this.use('readonly', (s) => request(s.getAllKeys()));
    const found = new Map<string, Chunk[]>();
    for (const key of keys) {
      const parsed = parseChunkKey(key);
      if (!parsed) continue;
      const chunks = found.get(parsed.path);
      if (chunks) chunks.push(parsed.chunk);
      else found.set(parsed.path, [parsed.chunk]);
    }
    const files = new FileTable();
    const repairs: FileChange[] = [];
    for (const [path, chunks] of found) {
      const { tiled, orphans, emptied } = tileChunks(path, chunks);
      files.set(path, packLayout(tiled));
      if (orphans.length > 0) {
        const added: ChunkWrite[] = emptied ? [[emptied, new Uint8Array(0)]] : [];
        repairs.push({ path, removed: orphans, added, next: tiled });
      }
    }
    await this.commit(repairs); // before the layout is trusted: no append may land beside an orphan
    this.files = files;
    return files;
  }

  private readChunks(chunks: readonly Chunk[]): Promise<unknown[]> {
    return this.use('readonly', (s) => Promise.all(chunks.map((c) => request(s.get(c.key)))));
  }

  /**
   * Applies a group of appends (in call order) as one transaction: each file's new bytes become
   * one chunk, which absorbs the small chunks before it (chunksToAbsorb).
   */
  private async applyAppends(appends: readonly { path: string; bytes: Uint8Array }[]): Promise<void> {
    const files = await this.load();
    const newBytes = new Map<string, Uint8Array[]>();
    for (const { path, bytes } of appends) {
      const parts = newBytes.get(path);
      if (parts) parts.push(bytes);
      else newBytes.set(path, [bytes]);
    }
    const plans: { path: string; chunks: Chunk[]; bytes: Uint8Array; absorbed: Chunk[] }[] = [];
    const changes: FileChange[] = [];
    for (const [path, parts] of newBytes) {
      const chunks = chunksOf(files, path) ?? [];
      const bytes = concatBytes(parts);
      if (bytes.length === 0) {
        // Appending nothing creates the file if needed, and otherwise changes nothing.
        const empty = chunkAt(path, 0, 0);
        if (chunks.length === 0) changes.push({ path, removed: [], added: [[empty, bytes]], next: [empty] });
        continue;
      }
      const existing = isEmptyFile(chunks) ? [] : chunks; // the empty marker gives way to real bytes
      plans.push({ path, chunks, bytes, absorbed: chunksToAbsorb(existing, bytes.length, this.chunkBytes) });
    }
    const toRead = plans.flatMap((p) => p.absorbed);
    const values = toRead.length > 0 ? await this.readChunks(toRead) : [];
    let at = 0;
    for (const { path, chunks, bytes, absorbed } of plans) {
      const old = values.slice(at, (at += absorbed.length));
      // A damaged chunk is left for read() to find and repair: damage is never copied forward.
      const merge = old.every((value, i) => isIntact(absorbed[i]!, value));
      const taken = merge ? absorbed.length : 0;
      const kept = isEmptyFile(chunks) ? [] : chunks.slice(0, chunks.length - taken);
      const merged = merge ? concatBytes([...(old as Uint8Array[]), bytes]) : bytes;
      const chunk = chunkAt(path, fileEnd(chunks) + bytes.length - merged.length, merged.length);
      changes.push({ path, removed: chunks.slice(kept.length), added: [[chunk, merged]], next: [...kept, chunk] });
    }
    await this.commit(changes);
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
    const added: ChunkWrite[] = [];
    if (kept && kept.length > 0) added.push([chunkAt(path, start, kept.length), kept.slice()]);
    else if (before.length === 0) added.push([chunkAt(path, 0, 0), new Uint8Array(0)]);
    await this.commit([{ path, removed: chunks.slice(index), added, next: [...before, ...added.map(([c]) => c)] }]);
  }

  /**
   * Applies changes as one transaction (all deletes first, then the puts), and only once it has
   * committed updates the in-memory chunk lists.
   */
  private async commit(changes: readonly FileChange[]): Promise<void> {
    if (changes.length === 0) return;
    await this.writeTransaction('write', changes[0]!.path, (s) => {
      for (const change of changes) for (const chunk of change.removed) s.delete(chunk.key);
      for (const change of changes) for (const [chunk, value] of change.added) s.put(value, chunk.key);
    });
    for (const { path, next } of changes) {
      if (next) this.files?.set(path, packLayout(next));
      else this.files?.delete(path);
    }
  }
}
