import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { beforeEach, describe, expect, it } from 'vitest';
import { IdbStore } from './IdbStore';
import { MemoryStore } from './MemoryStore';
import { isClearable, openBestStore } from './openBestStore';

const g = globalThis as { indexedDB?: unknown };
beforeEach(() => {
  g.indexedDB = new IDBFactory();
});

describe('openBestStore', () => {
  it('opens IndexedDB (database "glassbox" by default) when it works', async () => {
    const result = await openBestStore();
    expect(result).toMatchObject({ kind: 'indexeddb', persistent: true });
    expect(result.store).toBeInstanceOf(IdbStore);
    expect((result.store as IdbStore).dbName).toBe('glassbox');
    await result.store.append('a.log', Uint8Array.of(1));
    expect(await (await IdbStore.open()).read('a.log')).toEqual(Uint8Array.of(1));
  });

  it('falls back to memory, saying why and that nothing is being saved, when there is no IndexedDB', async () => {
    g.indexedDB = undefined;
    const result = await openBestStore();
    expect(result.kind).toBe('memory');
    expect(result.persistent).toBe(false);
    expect(result.store).toBeInstanceOf(MemoryStore);
    if (result.kind !== 'memory') throw new Error('unreachable');
    expect(result.error.code).toBe('KAFKA_STORAGE_ERROR');
    expect(result.reason).toBe(
      "IndexedDB is not available here: nothing is being saved. The cluster runs in this tab's memory only and is lost on reload.",
    );
  });

  it('falls back to memory when IndexedDB refuses to open, as in some private windows', async () => {
    g.indexedDB = {
      open() {
        throw new DOMException('The operation is insecure.', 'SecurityError');
      },
    };
    const result = await openBestStore();
    expect(result.kind).toBe('memory');
    if (result.kind !== 'memory') throw new Error('unreachable');
    expect(result.reason).toMatch(/SecurityError: The operation is insecure.*nothing is being saved/);
  });

  it('falls back to memory when IndexedDB never answers', async () => {
    g.indexedDB = { open: () => ({}) }; // a request whose events never fire
    const result = await openBestStore({ timeoutMs: 20 });
    expect(result.kind).toBe('memory');
    if (result.kind !== 'memory') throw new Error('unreachable');
    expect(result.reason).toMatch(/did not open within 20 ms: nothing is being saved/);
  });

  it('both stores can be wiped for "Reset cluster"', async () => {
    expect(isClearable(new MemoryStore())).toBe(true);
    expect(isClearable((await openBestStore()).store)).toBe(true);
  });
});
