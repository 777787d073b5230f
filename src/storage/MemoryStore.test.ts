import { describe, expect, it } from 'vitest';
import { MemoryStore } from './MemoryStore';
import { runStoreContract } from './storeContract';

runStoreContract('MemoryStore', () => new MemoryStore());

describe('MemoryStore', () => {
  it('applies an operation at the moment it is called, before its promise is awaited', async () => {
    const store = new MemoryStore();
    void store.append('a.log', Uint8Array.of(1, 2, 3));
    void store.truncate('a.log', 1);
    expect(store.sizeBytes).toBe(1);
    expect(await store.read('a.log')).toEqual(Uint8Array.of(1));
  });

  it('fails a write beyond quotaBytes with KAFKA_STORAGE_ERROR and keeps the file as it was', async () => {
    const store = new MemoryStore({ quotaBytes: 10 });
    await store.append('a.log', new Uint8Array(8));
    await expect(store.append('a.log', new Uint8Array(3))).rejects.toMatchObject({
      code: 'KAFKA_STORAGE_ERROR',
      details: { quotaBytes: 10, usedBytes: 8, requestedBytes: 3 },
    });
    expect((await store.read('a.log'))?.length).toBe(8);
    await store.truncate('a.log', 4); // freeing space makes room again
    await store.append('b.log', new Uint8Array(6));
    expect(store.sizeBytes).toBe(10);
    await store.write('a.log', new Uint8Array(0));
    await store.delete('b.log');
    expect(store.sizeBytes).toBe(0);
  });

  it('clear removes every file', async () => {
    const store = new MemoryStore();
    await store.write('a', Uint8Array.of(1));
    await store.append('b', Uint8Array.of(2));
    await store.clear();
    expect(await store.list('')).toEqual([]);
    expect(store.sizeBytes).toBe(0);
  });
});
