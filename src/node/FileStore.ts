/**
 * The engine's Store over a directory (`npm run broker -- --data DIR`): each store path is a file
 * under the root, so the brokers' log dirs are real Kafka log dirs on disk
 * (`broker-<id>/<log dir>/<topic>-<p>/<20 digits>.log`, `.index`, `.timeindex`, checkpoints,
 * and `zookeeper/<znode path>`), readable by `npm run dump-log`.
 *
 * Semantics are the Store contract's (storage/storeContract.ts): operations apply in call order
 * even when nobody awaits them, bytes are copied when the call is made, a truncate never extends a
 * file, deleting a missing file is no error, list returns sorted paths.
 *
 * As a broker's files: a settled write or append is in the file (the OS page cache, which outlives
 * a crash of this process, not of the machine); `fsync` is Kafka's flush. Call order is kept per
 * file (each file's operations run one after another) and for lists (a list waits for every
 * operation called before it on a path it covers); operations on different files run side by
 * side, as a broker's threads write different segments at once and a restart reads hundreds of
 * partition directories at once (num.recovery.threads.per.data.dir). The StoreWriter counts an
 * operation durable only once every earlier one is too, so an acknowledgement still waits for
 * everything issued before it.
 * Appends go through file handles kept open (Kafka keeps each segment's FileChannel open), so an
 * append is one write(2), not an open, a write and a close.
 */
import { closeSync, fstatSync, openSync, readdirSync, readSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { mkdir, open, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { KafkaError, type Store } from '../engine/index';
import { checkStorePath, checkTruncateSize } from '../storage/storePath';

/** Files up to this size are read without leaving the event loop (see readOrNull). */
const READ_IN_PLACE_BYTES = 1 << 20;

/** Open append handles kept at most (a broker keeps one per segment file; this bounds descriptors). */
const MAX_OPEN_FILES = 512;

export class FileStore implements Store {
  /** Each store path's last operation not yet settled: the next one on that path runs after it. */
  private readonly tails = new Map<string, Promise<unknown>>();
  /** Append handles by file, least recently used first (Map keeps insertion order). */
  private readonly handles = new Map<string, FileHandle>();
  /** Files with an append running (their handles must stay open). */
  private readonly busy = new Set<string>();
  /** Directories known to exist (made or seen), so an append does not ask again. */
  private readonly dirs = new Set<string>();
  /**
   * Files this process fsynced and has not changed since: another fsync has nothing to force.
   * (A file not fsynced by this process may hold a crashed one's writes, still only in the page cache.)
   */
  private readonly forced = new Set<string>();

  constructor(readonly root: string) {}

  /** Runs `op` after every operation called before it on `path`, whatever their outcome. */
  private onPath<T>(path: string, op: () => Promise<T>): Promise<T> {
    const before = this.tails.get(path) ?? Promise.resolve();
    const next = before.then(op, op);
    const tail = next.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(path, tail);
    void tail.then(() => {
      if (this.tails.get(path) === tail) this.tails.delete(path);
    });
    return next;
  }

  /** The file behind a store path; a path that would leave the root is refused. */
  private file(path: string): string {
    checkStorePath(path);
    const parts = path.split('/');
    if (path.startsWith('/') || parts.some((p) => p === '..' || p === '.' || p === '')) {
      throw new KafkaError(
        'INVALID_REQUEST',
        `invalid store path ${JSON.stringify(path)}: it must stay inside the store`,
        {
          path,
        },
      );
    }
    return join(this.root, ...parts);
  }

  async list(prefix: string): Promise<string[]> {
    const before = [...this.tails].filter(([path]) => path.startsWith(prefix)).map(([, tail]) => tail);
    await Promise.all(before);
    return this.listNow(prefix);
  }

  /**
   * Walks only the directories a path under `prefix` can be in. Directory entries come from the
   * kernel's cache: read in place (as readOrNull reads small files), a restart lists thousands of
   * partition directories in milliseconds.
   */
  private async listNow(prefix: string): Promise<string[]> {
    const out: string[] = [];
    const walk = (dir: string, rel: string): void => {
      let entries: import('node:fs').Dirent[];
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
        throw e;
      }
      for (const entry of entries) {
        const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
        if (entry.isDirectory()) {
          if (path.startsWith(prefix) || prefix.startsWith(`${path}/`)) walk(join(dir, entry.name), path);
        } else if (entry.isFile() && path.startsWith(prefix)) out.push(path);
      }
    };
    walk(this.root, '');
    return out.sort();
  }

  async read(path: string): Promise<Uint8Array | null> {
    const file = this.file(path);
    return this.onPath(path, () => readOrNull(file));
  }

  async write(path: string, bytes: Uint8Array): Promise<void> {
    const file = this.file(path);
    const copy = bytes.slice();
    return this.onPath(path, async () => {
      await this.closeHandle(file);
      await this.ensureDir(file);
      await writeFile(file, copy);
      this.forced.delete(file);
    });
  }

  async append(path: string, bytes: Uint8Array): Promise<void> {
    const file = this.file(path);
    const copy = bytes.slice();
    return this.onPath(path, async () => {
      this.busy.add(file);
      try {
        const handle = await this.appendHandle(file);
        for (let at = 0; at < copy.length; ) at += (await handle.write(copy, at)).bytesWritten;
      } finally {
        this.busy.delete(file);
      }
      this.forced.delete(file);
    });
  }

  async truncate(path: string, size: number): Promise<void> {
    const file = this.file(path);
    checkTruncateSize(path, size);
    // An O_APPEND handle writes at the new end after the cut, so it may stay open.
    return this.onPath(path, async () => {
      await truncateDown(file, size);
      this.forced.delete(file);
    });
  }

  async delete(path: string): Promise<void> {
    const file = this.file(path);
    return this.onPath(path, async () => {
      await this.closeHandle(file);
      await rm(file, { force: true });
      this.forced.delete(file);
    });
  }

  /**
   * Kafka's flush (FileChannel.force): the file's bytes reach the disk, not only the page cache.
   * A missing file has nothing to sync.
   */
  async fsync(path: string): Promise<void> {
    const file = this.file(path);
    return this.onPath(path, async () => {
      // Nothing written since this process last forced it: nothing to force.
      if (this.forced.has(file)) return;
      const cached = this.handles.get(file);
      if (cached) await cached.datasync();
      else if (!(await withExistingFile(file, 'r', (handle) => handle.datasync()))) return;
      this.forced.add(file);
    });
  }

  /** Closes every open handle (the host's stop; a later append opens again). */
  async close(): Promise<void> {
    await Promise.all([...this.tails.values()]);
    const all = [...this.handles.values()];
    this.handles.clear();
    await Promise.all(all.map((h) => h.close()));
  }

  private async ensureDir(file: string): Promise<void> {
    const dir = dirname(file);
    if (this.dirs.has(dir)) return;
    await mkdir(dir, { recursive: true });
    this.dirs.add(dir);
  }

  private async appendHandle(file: string): Promise<FileHandle> {
    const cached = this.handles.get(file);
    if (cached) {
      // Most recently used goes last.
      this.handles.delete(file);
      this.handles.set(file, cached);
      return cached;
    }
    await this.ensureDir(file);
    let handle: FileHandle;
    try {
      handle = await open(file, 'a');
    } catch (e) {
      // The directory went away under us (removed outside the store): make it again, once.
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      this.dirs.delete(dirname(file));
      await this.ensureDir(file);
      handle = await open(file, 'a');
    }
    this.handles.set(file, handle);
    // Over the bound, the least recently used handles go, but not one whose file has an operation
    // running (an append may be writing through it): a few of the oldest are looked at, and a
    // busy burst may leave the map over the bound for a while.
    let looked = 0;
    for (const [other, h] of this.handles) {
      if (this.handles.size <= MAX_OPEN_FILES || looked++ >= 8) break;
      if (other === file || this.busy.has(other)) continue;
      this.handles.delete(other);
      await h.close();
    }
    return handle;
  }

  private async closeHandle(file: string): Promise<void> {
    const h = this.handles.get(file);
    if (!h) return;
    this.handles.delete(file);
    await h.close();
  }
}

/**
 * A file's bytes, or null when there is none. A small file (a checkpoint, an index, a snapshot, a
 * short segment) is read in place: from the page cache that costs a few microseconds, less than a
 * trip through libuv's 4-thread pool, and a restart reads thousands of them. A larger one is read
 * off the event loop.
 */
async function readOrNull(file: string): Promise<Uint8Array | null> {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
  try {
    const size = fstatSync(fd).size;
    if (size > READ_IN_PLACE_BYTES) return new Uint8Array(await readFile(file));
    const out = new Uint8Array(size);
    for (let at = 0; at < size; ) {
      const n = readSync(fd, out, at, size - at, at);
      if (n === 0) return out.subarray(0, at);
      at += n;
    }
    return out;
  } finally {
    closeSync(fd);
  }
}

/** Shortens a file to `size` bytes; a missing file, or one not longer, is left as it is. */
async function truncateDown(file: string, size: number): Promise<void> {
  await withExistingFile(file, 'r+', async (handle) => {
    if ((await handle.stat()).size > size) await handle.truncate(size);
  });
}

/**
 * Opens `file` (`flags` as for fs.open), runs `use` on the handle and closes it: true. A missing
 * file is not an error here: false, having done nothing.
 */
async function withExistingFile(
  file: string,
  flags: string,
  use: (handle: FileHandle) => Promise<void>,
): Promise<boolean> {
  let handle: FileHandle;
  try {
    handle = await open(file, flags);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw e;
  }
  try {
    await use(handle);
  } finally {
    await handle.close();
  }
  return true;
}
