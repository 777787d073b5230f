/**
 * The Store contract as one test suite, run against every implementation (the habit of
 * automerge-repo's storage-adapter-tests): MemoryStore.test.ts and IdbStore.test.ts each call
 * `runStoreContract` with a factory, so both stores are held to exactly the same behaviour.
 *
 * The factory is called once per test and must return an empty, independent store.
 * `cleanup`, when given, is called with that store after the test.
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { concatBytes } from '../engine/codec/bytes';
import { Rng } from '../engine/Rng';
import { applyStoreOperation, type StoreOperation } from '../engine/log/StoreWriter';
import type { Store } from '../engine/Store';

export type StoreFactory<S extends Store> = () => S | Promise<S>;

const bytes = (...values: number[]): Uint8Array => Uint8Array.from(values);

/** `length` bytes whose values depend on their position and a seed, so misplaced bytes show. */
function pattern(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) out[i] = (i * 31 + seed * 7 + (i >>> 8)) & 0xff;
  return out;
}

/**
 * Asserts two byte arrays are equal, reporting the first differing position. Much faster than
 * `toEqual` on megabytes, which compares element by element through the generic matcher.
 */
export function expectSameBytes(actual: Uint8Array | null, expected: Uint8Array): void {
  expect(actual, 'file is missing').not.toBeNull();
  const a = actual as Uint8Array;
  expect(a.length, 'file length').toBe(expected.length);
  let firstDifference = -1;
  for (let i = 0; i < a.length; i++) {
    if (a[i] !== expected[i]) {
      firstDifference = i;
      break;
    }
  }
  expect(firstDifference, 'first differing byte position').toBe(-1);
}

/** How a plain Map of byte arrays (the model) applies one Store operation. */
function applyToModel(model: Map<string, Uint8Array>, op: StoreOperation): void {
  const current = model.get(op.path);
  switch (op.op) {
    case 'write':
      model.set(op.path, op.bytes.slice());
      break;
    case 'append':
      model.set(op.path, concatBytes([current ?? new Uint8Array(0), op.bytes]));
      break;
    case 'truncate':
      if (current && op.size < current.length) model.set(op.path, current.slice(0, op.size));
      break;
    case 'delete':
      model.delete(op.path);
      break;
  }
}

/** Asserts the store holds exactly the model's files with exactly the model's bytes. */
export async function expectStoreEquals(store: Store, model: ReadonlyMap<string, Uint8Array>): Promise<void> {
  expect(await store.list('')).toEqual([...model.keys()].sort());
  for (const [path, content] of model) expect(await store.read(path), path).toEqual(content);
}

export function runStoreContract<S extends Store>(
  name: string,
  makeStore: StoreFactory<S>,
  cleanup?: (store: S) => void | Promise<void>,
): void {
  describe(`Store contract: ${name}`, () => {
    const made: S[] = [];
    const fresh = async (): Promise<S> => {
      const store = await makeStore();
      made.push(store);
      return store;
    };
    afterEach(async () => {
      for (const store of made.splice(0)) await cleanup?.(store);
    });

    it('reads null for a file that was never written', async () => {
      const store = await fresh();
      expect(await store.read('t-0/00000000000000000000.log')).toBeNull();
      expect(await store.list('')).toEqual([]);
    });

    it('write creates a file and a second write replaces it entirely', async () => {
      const store = await fresh();
      await store.write('meta/topics', bytes(1, 2, 3, 4, 5));
      expect(await store.read('meta/topics')).toEqual(bytes(1, 2, 3, 4, 5));
      await store.write('meta/topics', bytes(9));
      expect(await store.read('meta/topics')).toEqual(bytes(9));
    });

    it('an empty file exists: it is listed and reads as zero bytes', async () => {
      const store = await fresh();
      await store.write('t-0/00000000000000000000.index', new Uint8Array(0));
      expect(await store.list('')).toEqual(['t-0/00000000000000000000.index']);
      expect(await store.read('t-0/00000000000000000000.index')).toEqual(new Uint8Array(0));
    });

    it('append creates the file, then adds at the end', async () => {
      const store = await fresh();
      await store.append('t-0/00000000000000000000.log', bytes(1, 2));
      await store.append('t-0/00000000000000000000.log', bytes(3));
      await store.append('t-0/00000000000000000000.log', new Uint8Array(0));
      await store.append('t-0/00000000000000000000.log', bytes(4, 5, 6));
      expect(await store.read('t-0/00000000000000000000.log')).toEqual(bytes(1, 2, 3, 4, 5, 6));
    });

    it('many appends of varied sizes read back as one file', async () => {
      const store = await fresh();
      const parts: Uint8Array[] = [];
      for (let i = 0; i < 200; i++) {
        const part = pattern(1 + ((i * 37) % 300), i);
        parts.push(part);
        await store.append('t-0/00000000000000000000.log', part);
      }
      expectSameBytes(await store.read('t-0/00000000000000000000.log'), concatBytes(parts));
    });

    it('truncate cuts mid-way, keeps the prefix, and later appends continue from the cut', async () => {
      const store = await fresh();
      const path = 't-0/00000000000000000000.log';
      for (let i = 0; i < 10; i++) await store.append(path, pattern(100, i));
      const whole = (await store.read(path))!;
      await store.truncate(path, 550); // in the middle of the sixth append
      expect(await store.read(path)).toEqual(whole.slice(0, 550));
      await store.append(path, bytes(7, 7, 7));
      expect(await store.read(path)).toEqual(concatBytes([whole.slice(0, 550), bytes(7, 7, 7)]));
      await store.truncate(path, 300); // exactly at an append boundary
      expect(await store.read(path)).toEqual(whole.slice(0, 300));
    });

    it('truncate to 0 leaves an empty file that still exists', async () => {
      const store = await fresh();
      await store.append('a.log', pattern(1000, 1));
      await store.truncate('a.log', 0);
      expect(await store.read('a.log')).toEqual(new Uint8Array(0));
      expect(await store.list('')).toEqual(['a.log']);
      await store.append('a.log', bytes(1));
      expect(await store.read('a.log')).toEqual(bytes(1));
    });

    it('truncate to the length or beyond is a no-op, and does not create a missing file', async () => {
      const store = await fresh();
      await store.append('a.log', bytes(1, 2, 3));
      await store.truncate('a.log', 3);
      await store.truncate('a.log', 1_000_000);
      expect(await store.read('a.log')).toEqual(bytes(1, 2, 3));
      await store.truncate('missing.log', 0);
      expect(await store.read('missing.log')).toBeNull();
      expect(await store.list('')).toEqual(['a.log']);
    });

    it('delete removes a file; deleting a missing file is not an error', async () => {
      const store = await fresh();
      await store.append('a.log', bytes(1, 2, 3));
      await store.append('b.log', bytes(4));
      await store.delete('a.log');
      await store.delete('a.log');
      await store.delete('never-was.log');
      expect(await store.read('a.log')).toBeNull();
      expect(await store.list('')).toEqual(['b.log']);
      await store.append('a.log', bytes(5));
      expect(await store.read('a.log')).toEqual(bytes(5)); // a fresh file, nothing of the old one
    });

    it('list returns the paths under a prefix, sorted', async () => {
      const store = await fresh();
      const paths = [
        'orders-1/00000000000000000000.log',
        'orders-0/00000000000000000100.log',
        'orders-0/00000000000000000000.timeindex',
        'orders-0/00000000000000000000.log',
        'orders-0/00000000000000000000.index',
        'meta/topics',
        'orders-10/00000000000000000000.log',
      ];
      for (const p of paths) await store.append(p, bytes(1));
      expect(await store.list('')).toEqual([...paths].sort());
      expect(await store.list('orders-0/')).toEqual([
        'orders-0/00000000000000000000.index',
        'orders-0/00000000000000000000.log',
        'orders-0/00000000000000000000.timeindex',
        'orders-0/00000000000000000100.log',
      ]);
      expect(await store.list('orders-1')).toEqual([
        'orders-1/00000000000000000000.log',
        'orders-10/00000000000000000000.log',
      ]);
      expect(await store.list('nothing/')).toEqual([]);
    });

    it('copies bytes in: reusing the caller buffer after append or write changes nothing stored', async () => {
      const store = await fresh();
      const buffer = bytes(1, 2, 3, 4);
      const appended = store.append('a.log', buffer.subarray(1, 3));
      buffer.fill(0); // the engine reuses its buffers as soon as the call returns
      const written = store.write('b.log', buffer);
      buffer.fill(9);
      await Promise.all([appended, written]);
      expect(await store.read('a.log')).toEqual(bytes(2, 3));
      expect(await store.read('b.log')).toEqual(bytes(0, 0, 0, 0));
    });

    it('copies bytes out: mutating what read returned does not change the file', async () => {
      const store = await fresh();
      await store.write('a.log', bytes(1, 2, 3));
      const first = (await store.read('a.log'))!;
      first.fill(0);
      expect(await store.read('a.log')).toEqual(bytes(1, 2, 3));
    });

    it('applies un-awaited operations in call order (100 appends and truncates fired at once)', async () => {
      const store = await fresh();
      const rng = new Rng(2024);
      const model = new Map<string, Uint8Array>();
      const pending: Promise<void>[] = [];
      for (let i = 0; i < 100; i++) {
        const path = rng.pick(['t-0/a.log', 't-0/a.index', 't-1/b.log']);
        const length = model.get(path)?.length ?? 0;
        const op: StoreOperation =
          rng.next() < 0.7
            ? { op: 'append', path, bytes: pattern(1 + rng.nextInt(700), i) }
            : { op: 'truncate', path, size: rng.nextInt(length + 20) };
        applyToModel(model, op);
        pending.push(applyStoreOperation(store, op));
      }
      // A read issued behind them sees all of them, before anything was awaited.
      const reads = [...model.keys()].map((p) => store.read(p));
      await Promise.all(pending);
      expect(await Promise.all(reads)).toEqual([...model.values()]);
      await expectStoreEquals(store, model);
    });

    it('matches a plain model for random sequences of all operations, fired without awaiting', async () => {
      const paths = ['p-0/0.log', 'p-0/0.index', 'p-1/0.log'];
      const opArb: fc.Arbitrary<StoreOperation> = fc.oneof(
        fc.record({
          op: fc.constant('append' as const),
          path: fc.constantFrom(...paths),
          bytes: fc.uint8Array({ maxLength: 300 }),
        }),
        fc.record({
          op: fc.constant('write' as const),
          path: fc.constantFrom(...paths),
          bytes: fc.uint8Array({ maxLength: 300 }),
        }),
        fc.record({ op: fc.constant('truncate' as const), path: fc.constantFrom(...paths), size: fc.nat(900) }),
        fc.record({ op: fc.constant('delete' as const), path: fc.constantFrom(...paths) }),
      );
      await fc.assert(
        fc.asyncProperty(fc.array(opArb, { maxLength: 60 }), async (ops) => {
          const store = await fresh();
          const model = new Map<string, Uint8Array>();
          const pending = ops.map((op) => {
            applyToModel(model, op);
            return applyStoreOperation(store, op);
          });
          await Promise.all(pending);
          await expectStoreEquals(store, model);
        }),
        { numRuns: 25 },
      );
    });

    it('a 4 MiB file appended in 4 KiB pieces reads back byte for byte', async () => {
      const store = await fresh();
      const piece = new Uint8Array(4096);
      const expected = pattern(4 * 1024 * 1024, 5);
      const pending: Promise<void>[] = [];
      for (let at = 0; at < expected.length; at += piece.length) {
        piece.set(expected.subarray(at, at + piece.length)); // one reused buffer, as the engine does
        pending.push(store.append('big-0/00000000000000000000.log', piece));
      }
      await Promise.all(pending);
      expectSameBytes(await store.read('big-0/00000000000000000000.log'), expected);
    });

    it('rejects a path containing # or an empty path with INVALID_REQUEST, changing nothing', async () => {
      const store = await fresh();
      await expect(store.append('a#1', bytes(1))).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
      await expect(store.write('', bytes(1))).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
      await expect(store.truncate('a.log', -1)).rejects.toMatchObject({ code: 'INVALID_REQUEST' });
      expect(await store.list('')).toEqual([]);
    });
  });
}
