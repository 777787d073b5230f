import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runStoreContract } from '../storage/storeContract';
import { FileStore } from './FileStore';

runStoreContract(
  'FileStore',
  async () => new FileStore(await mkdtemp(join(tmpdir(), 'glassbox-store-'))),
  (store) => rm(store.root, { recursive: true, force: true }),
);

describe('FileStore', () => {
  it('refuses a path that would leave its directory', async () => {
    const store = new FileStore(await mkdtemp(join(tmpdir(), 'glassbox-store-')));
    try {
      await expect(store.write('../escape', new Uint8Array([1]))).rejects.toThrow(/INVALID_REQUEST/);
      await expect(store.read('/etc/passwd')).rejects.toThrow(/INVALID_REQUEST/);
      await expect(store.write('a//b', new Uint8Array([1]))).rejects.toThrow(/INVALID_REQUEST/);
    } finally {
      await rm(store.root, { recursive: true, force: true });
    }
  });
});
