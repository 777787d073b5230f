/**
 * The engine's Store over a directory (`npm run broker -- --data DIR`): each store path is a file
 * under the root, so the brokers' log dirs are real Kafka log dirs on disk
 * (`broker-<id>/<log dir>/<topic>-<p>/<20 digits>.log`, `.index`, `.timeindex`, checkpoints,
 * and `zookeeper/<znode path>`), readable by `npm run dump-log`.
 * Semantics are the Store contract's (storage/storeContract.ts): operations apply in call order
 * even when nobody awaits them (one queue), bytes are copied when the call is made, a truncate
 * never extends a file, deleting a missing file is no error, list returns sorted paths.
 */
import { appendFile, mkdir, open, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { KafkaError, type Store } from '../engine/index';
import { checkStorePath, checkTruncateSize } from '../storage/storePath';

export class FileStore implements Store {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(readonly root: string) {}

  /** Runs `op` after every operation called before it, whatever their outcome. */
  private inOrder<T>(op: () => Promise<T>): Promise<T> {
    const next = this.queue.then(op, op);
    this.queue = next.catch(() => undefined);
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
    return this.inOrder(() => this.listNow(prefix));
  }

  private async listNow(prefix: string): Promise<string[]> {
    const out: string[] = [];
    const walk = async (dir: string): Promise<void> => {
      let entries: import('node:fs').Dirent[];
      try {
        entries = await readdir(dir, { withFileTypes: true });
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
        throw e;
      }
      for (const entry of entries) {
        const full = join(dir, entry.name);
        if (entry.isDirectory()) await walk(full);
        else if (entry.isFile()) {
          const path = relative(this.root, full).split(sep).join('/');
          if (path.startsWith(prefix)) out.push(path);
        }
      }
    };
    await walk(this.root);
    return out.sort();
  }

  async read(path: string): Promise<Uint8Array | null> {
    const file = this.file(path);
    return this.inOrder(() => readOrNull(file));
  }

  async write(path: string, bytes: Uint8Array): Promise<void> {
    return this.put(path, bytes, writeFile);
  }

  async append(path: string, bytes: Uint8Array): Promise<void> {
    return this.put(path, bytes, appendFile);
  }

  /** A write or an append: the bytes copied now, the directory made when the turn comes. */
  private put(path: string, bytes: Uint8Array, how: (file: string, data: Uint8Array) => Promise<void>): Promise<void> {
    const file = this.file(path);
    const copy = bytes.slice();
    return this.inOrder(async () => {
      await mkdir(dirname(file), { recursive: true });
      await how(file, copy);
    });
  }

  async truncate(path: string, size: number): Promise<void> {
    const file = this.file(path);
    checkTruncateSize(path, size);
    return this.inOrder(() => truncateDown(file, size));
  }

  async delete(path: string): Promise<void> {
    const file = this.file(path);
    return this.inOrder(() => rm(file, { force: true }));
  }
}

async function readOrNull(file: string): Promise<Uint8Array | null> {
  try {
    return new Uint8Array(await readFile(file));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

/** Shortens a file to `size` bytes; a missing file, or one not longer, is left as it is. */
async function truncateDown(file: string, size: number): Promise<void> {
  let handle: import('node:fs/promises').FileHandle;
  try {
    handle = await open(file, 'r+');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw e;
  }
  try {
    if ((await handle.stat()).size > size) await handle.truncate(size);
  } finally {
    await handle.close();
  }
}
