import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { createStore, del, get, keys, set } from 'idb-keyval';
import { beforeEach, describe, expect, it } from 'vitest';
import type { KafkaError } from '../engine/errors';
import { Rng } from '../engine/Rng';
import { chunkKey, MAX_SMALL_CHUNKS } from './chunkLayout';
import { IdbStore, type IdbObjectStoreLike, OWNER_KEY, type UseObjectStore } from './IdbStore';
import { expectSameBytes, expectStoreEquals, runStoreContract } from './storeContract';

const g = globalThis as { indexedDB?: unknown };
let dbCount = 0;
const freshDbName = (): string => `glassbox-test-${++dbCount}`;

// Each test starts from an empty IndexedDB: a new fake factory holds no databases at all.
beforeEach(() => {
  g.indexedDB = new IDBFactory();
});

/** idb-keyval's handle on a test database, for looking behind the store's back. */
const rawStore = (dbName: string) => createStore(dbName, 'files');
/** The chunk keys (the owner entry, `#owner`, is not a chunk). */
const rawKeys = async (dbName: string): Promise<string[]> =>
  ((await keys(rawStore(dbName))) as string[]).filter((k) => k !== OWNER_KEY).sort();

runStoreContract(
  'IdbStore (fake-indexeddb)',
  () => IdbStore.open({ dbName: freshDbName() }),
  (s) => s.destroy(),
);
// Tiny chunks: every contract test then exercises chunk merging, cuts inside merged chunks, and
// files made of hundreds of chunks.
runStoreContract(
  'IdbStore with 64-byte chunks',
  () => IdbStore.open({ dbName: freshDbName(), chunkBytes: 64 }),
  (s) => s.destroy(),
);

/** What a spy saw: bytes put into IndexedDB, and write transactions. */
interface WriteStats {
  putBytes: number;
  writeTransactions: number;
}

/**
 * Wraps idb-keyval's store so that every `put` is counted (by the size of the buffer that gets
 * structured-cloned, which would expose a view into a larger buffer), and `onWrite` can tamper
 * with a readwrite transaction: abort it like a closed tab, or fail it like a full disk.
 */
function spiedUse(
  dbName: string,
  onWrite?: (index: number, store: IdbObjectStoreLike) => 'abort' | 'quota' | undefined,
): { use: UseObjectStore; stats: WriteStats } {
  const inner = createStore(dbName, 'files') as unknown as UseObjectStore;
  const stats: WriteStats = { putBytes: 0, writeTransactions: 0 };
  const use: UseObjectStore = (mode, callback) =>
    inner(mode, (store) => {
      if (mode === 'readonly') return callback(store);
      const fault = onWrite?.(stats.writeTransactions, store);
      stats.writeTransactions++;
      const spy = new Proxy(store, {
        get(target, prop) {
          if (prop === 'put') {
            return (value: Uint8Array, key: string) => {
              if (fault === 'quota') throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
              stats.putBytes += value.buffer.byteLength;
              return target.put(value, key);
            };
          }
          const member = Reflect.get(target, prop, target);
          return typeof member === 'function' ? member.bind(target) : member;
        },
      });
      const result = callback(spy);
      if (fault === 'abort') store.transaction.abort(); // the tab closed before the commit
      return result;
    });
  return { use, stats };
}

const pattern = (length: number, seed: number): Uint8Array =>
  Uint8Array.from({ length }, (_, i) => (i * 13 + seed * 101) & 0xff);

describe('IdbStore key layout', () => {
  it('keys each chunk as <path>#<16-digit start>+<length>, merging small tail chunks like a binary counter', async () => {
    const dbName = freshDbName();
    const store = await IdbStore.open({ dbName, chunkBytes: 64 });
    const path = 'orders-0/00000000000000000000.log';
    await store.append(path, pattern(10, 1));
    await store.append(path, pattern(5, 2)); // 10 > 5: stays a chunk of its own
    expect(await rawKeys(dbName)).toEqual([chunkKey(path, 0, 10), chunkKey(path, 10, 5)]);
    expect(chunkKey(path, 10, 5)).toBe('orders-0/00000000000000000000.log#0000000000000010+5');
    await store.append(path, pattern(5, 3)); // 5 <= 5, then 10 <= 10: all three merge
    expect(await rawKeys(dbName)).toEqual([chunkKey(path, 0, 20)]);
    await store.append(path, pattern(50, 4)); // 20 <= 50: merges to 70, which seals it (>= 64)
    await store.append(path, pattern(30, 5)); // the sealed chunk is never absorbed
    expect(await rawKeys(dbName)).toEqual([chunkKey(path, 0, 70), chunkKey(path, 70, 30)]);
    await store.write('meta/empty', new Uint8Array(0));
    expect(await rawKeys(dbName)).toContain('meta/empty#0000000000000000+0');
    expect(await get(chunkKey(path, 70, 30), rawStore(dbName))).toEqual(pattern(30, 5));
  });

  it('keeps few chunks: 1,000 appends of 100 bytes leave at most size/chunkBytes + 16 keys', async () => {
    const dbName = freshDbName();
    const store = await IdbStore.open({ dbName, chunkBytes: 4096 });
    for (let i = 0; i < 1000; i++) void store.append('a.log', pattern(100, i));
    expect((await store.read('a.log'))?.length).toBe(100_000);
    expect((await rawKeys(dbName)).length).toBeLessThanOrEqual(Math.ceil(100_000 / 4096) + MAX_SMALL_CHUNKS);
  });
});

describe('IdbStore reload', () => {
  it('a new IdbStore on the same database reads back every file after a random history', async () => {
    const dbName = freshDbName();
    const rng = new Rng(7);
    const model = new Map<string, Uint8Array>();
    let store = await IdbStore.open({ dbName, chunkBytes: 128 });
    for (let round = 0; round < 4; round++) {
      for (let i = 0; i < 150; i++) {
        const path = rng.pick(['t-0/0.log', 't-0/0.index', 't-1/0.log', 'meta/topics']);
        const current = model.get(path) ?? new Uint8Array(0);
        const roll = rng.next();
        if (roll < 0.65) {
          const data = pattern(rng.nextInt(200), i);
          void store.append(path, data);
          const next = new Uint8Array(current.length + data.length);
          next.set(current);
          next.set(data, current.length);
          model.set(path, next);
        } else if (roll < 0.85) {
          const size = rng.nextInt(current.length + 1);
          void store.truncate(path, size);
          if (model.has(path)) model.set(path, current.slice(0, size));
        } else if (roll < 0.95) {
          const data = pattern(rng.nextInt(300), i + 1);
          void store.write(path, data);
          model.set(path, data);
        } else {
          void store.delete(path);
          model.delete(path);
        }
      }
      await expectStoreEquals(store, model);
      store = await IdbStore.open({ dbName, chunkBytes: 128 }); // the page reloads
      await expectStoreEquals(store, model);
    }
  });
});

describe('IdbStore torn chunks (a crash, or damage, under the store)', () => {
  const path = 't-0/00000000000000000000.log';

  /** A file of four 10-byte chunks (chunkBytes 10 seals each one), and its bytes. */
  async function fourChunks(dbName: string): Promise<{ store: IdbStore; whole: Uint8Array }> {
    const store = await IdbStore.open({ dbName, chunkBytes: 10 });
    const whole = pattern(40, 9);
    for (let at = 0; at < 40; at += 10) await store.append(path, whole.slice(at, at + 10));
    expect(await rawKeys(dbName)).toEqual([0, 10, 20, 30].map((s) => chunkKey(path, s, 10)));
    return { store, whole };
  }

  it('a short last chunk reads as the bytes it holds, like a torn tail, and the store repairs to match', async () => {
    const dbName = freshDbName();
    const { whole } = await fourChunks(dbName);
    await set(chunkKey(path, 30, 10), whole.slice(30, 34), rawStore(dbName)); // only 4 of 10 bytes landed
    const store = await IdbStore.open({ dbName, chunkBytes: 10 }); // reload
    expectSameBytes(await store.read(path), whole.slice(0, 34));
    expect(await rawKeys(dbName)).toEqual([
      chunkKey(path, 0, 10),
      chunkKey(path, 10, 10),
      chunkKey(path, 20, 10),
      chunkKey(path, 30, 4),
    ]);
    await store.append(path, Uint8Array.of(1, 2)); // the log's recovery truncates and appends on
    const again = await IdbStore.open({ dbName, chunkBytes: 10 });
    expectSameBytes(await again.read(path), Uint8Array.from([...whole.slice(0, 34), 1, 2]));
  });

  it('a short chunk in the middle ends the file there: nothing after it is read, never a hole', async () => {
    const dbName = freshDbName();
    const { store, whole } = await fourChunks(dbName);
    await set(chunkKey(path, 10, 10), whole.slice(10, 13), rawStore(dbName));
    expectSameBytes(await store.read(path), whole.slice(0, 13)); // found without a reload too
    expect(await rawKeys(dbName)).toEqual([chunkKey(path, 0, 10), chunkKey(path, 10, 3)]);
    await store.append(path, Uint8Array.of(7));
    expectSameBytes(await store.read(path), Uint8Array.from([...whole.slice(0, 13), 7]));
  });

  it('a missing chunk in the middle: a reload keeps the prefix before the gap and deletes the rest', async () => {
    const dbName = freshDbName();
    const { whole } = await fourChunks(dbName);
    await del(chunkKey(path, 20, 10), rawStore(dbName));
    const store = await IdbStore.open({ dbName, chunkBytes: 10 });
    expect(await rawKeys(dbName)).toEqual([chunkKey(path, 0, 10), chunkKey(path, 10, 10)]);
    expectSameBytes(await store.read(path), whole.slice(0, 20));
    // Appending must not re-attach the orphaned chunk at 30.
    await store.append(path, pattern(10, 1));
    await store.append(path, pattern(10, 2));
    const again = await IdbStore.open({ dbName, chunkBytes: 10 });
    expectSameBytes(
      await again.read(path),
      Uint8Array.from([...whole.slice(0, 20), ...pattern(10, 1), ...pattern(10, 2)]),
    );
  });

  it('a missing chunk discovered by read (the store already open) cuts the file at the gap', async () => {
    const dbName = freshDbName();
    const { store, whole } = await fourChunks(dbName);
    await del(chunkKey(path, 10, 10), rawStore(dbName));
    expectSameBytes(await store.read(path), whole.slice(0, 10));
    expect(await store.list('')).toEqual([path]);
  });

  it('a missing first chunk leaves the file existing but empty', async () => {
    const dbName = freshDbName();
    await fourChunks(dbName);
    await del(chunkKey(path, 0, 10), rawStore(dbName));
    const store = await IdbStore.open({ dbName, chunkBytes: 10 });
    expect(await store.list('')).toEqual([path]);
    expect(await store.read(path)).toEqual(new Uint8Array(0));
    expect(await rawKeys(dbName)).toEqual([chunkKey(path, 0, 0)]);
  });

  it('a value that is too long, or not bytes at all, is torn too', async () => {
    const dbName = freshDbName();
    const { store, whole } = await fourChunks(dbName);
    await set(chunkKey(path, 20, 10), pattern(15, 3), rawStore(dbName));
    expectSameBytes(await store.read(path), Uint8Array.from([...whole.slice(0, 20), ...pattern(10, 3)]));
    await set(chunkKey(path, 0, 10), 'garbage', rawStore(dbName));
    expect(await store.read(path)).toEqual(new Uint8Array(0));
  });

  it('truncating into a damaged chunk ends the file where that chunk starts', async () => {
    const dbName = freshDbName();
    const { store, whole } = await fourChunks(dbName);
    await del(chunkKey(path, 20, 10), rawStore(dbName));
    await store.truncate(path, 25);
    expectSameBytes(await store.read(path), whole.slice(0, 20));
  });
});

/**
 * `count` random operations on a.log and b.log (seeded): an append with chance `appendShare`
 * (always while a file is shorter than 2 bytes), else a truncate with chance `truncateShare`
 * (1: never a delete), else a delete; with the files' contents after each prefix of them.
 */
function randomHistory(seed: number, count: number, appendShare: number, truncateShare: number) {
  const rng = new Rng(seed);
  const ops: ((s: IdbStore) => Promise<void>)[] = [];
  const model = new Map<string, Uint8Array>();
  const models: Map<string, Uint8Array>[] = [new Map()];
  for (let i = 0; i < count; i++) {
    const path = rng.pick(['a.log', 'b.log']);
    const current = model.get(path) ?? new Uint8Array(0);
    if (rng.next() < appendShare || current.length < 2) {
      const data = pattern(1 + rng.nextInt(20), i);
      ops.push((s) => s.append(path, data));
      model.set(path, Uint8Array.from([...current, ...data]));
    } else if (truncateShare === 1 || rng.next() < truncateShare) {
      const size = rng.nextInt(current.length); // always a real cut
      ops.push((s) => s.truncate(path, size));
      model.set(path, current.slice(0, size));
    } else {
      ops.push((s) => s.delete(path));
      model.delete(path);
    }
    models.push(new Map(model));
  }
  return { ops, models };
}

describe('IdbStore crash at every transaction', () => {
  it('a tab closed during any write leaves exactly the operations before it, never a mixture', async () => {
    // A history with merges, cuts inside merged chunks, rewrites and deletes (chunkBytes 32).
    const { ops, models } = randomHistory(99, 40, 0.7, 0.8);
    for (let crashAt = 0; crashAt < ops.length; crashAt++) {
      const dbName = freshDbName();
      let crashed = -1;
      let opIndex = 0;
      const { use } = spiedUse(dbName, () => {
        if (opIndex !== crashAt) return undefined;
        crashed = opIndex;
        return 'abort';
      });
      const store = new IdbStore({ dbName, chunkBytes: 32, useStore: use });
      const results = [];
      for (opIndex = 0; opIndex < ops.length; opIndex++) {
        results.push(
          await ops[opIndex]!(store).then(
            () => 'ok',
            (e: KafkaError) => e.code,
          ),
        );
      }
      expect(crashed, `crash point ${crashAt}`).toBe(crashAt);
      expect(results.slice(0, crashAt).every((r) => r === 'ok')).toBe(true);
      expect(results.slice(crashAt).every((r) => r === 'KAFKA_STORAGE_ERROR')).toBe(true); // offline after
      await expectStoreEquals(await IdbStore.open({ dbName, chunkBytes: 32 }), models[crashAt]!);
    }
  });

  it('with the operations fired without awaiting (grouped appends), a crash still leaves a prefix of them', async () => {
    const { ops, models } = randomHistory(5, 60, 0.85, 1);
    const prefixes = models.map((m) => JSON.stringify([...m].map(([p, b]) => [p, [...b]]).sort()));
    let crashPoints = 0;
    for (let crashAt = 0; ; crashAt++) {
      crashPoints++;
      const dbName = freshDbName();
      const { use, stats } = spiedUse(dbName, (index) => (index === crashAt ? 'abort' : undefined));
      const store = new IdbStore({ dbName, chunkBytes: 32, useStore: use });
      await Promise.allSettled(ops.map((op) => op(store)));
      const reopened = await IdbStore.open({ dbName, chunkBytes: 32 });
      const state = new Map<string, Uint8Array>();
      for (const p of await reopened.list('')) state.set(p, (await reopened.read(p))!);
      const seen = JSON.stringify([...state].map(([p, b]) => [p, [...b]]).sort());
      expect(prefixes, `crash at write transaction ${crashAt}`).toContain(seen);
      if (stats.writeTransactions <= crashAt) break; // no transaction left to crash
    }
    expect(crashPoints).toBe(12); // 60 operations, 11 write transactions: appends grouped between the truncates: far fewer transactions than operations
  });
});

describe('IdbStore costs', () => {
  it("an append writes O(appended bytes): the bytes put per append do not grow with the file's size", async () => {
    const dbName = freshDbName();
    const { use, stats } = spiedUse(dbName);
    const store = new IdbStore({ dbName, useStore: use }); // default 64 KiB chunks
    const piece = pattern(4096, 1);
    const perAppend: number[] = [];
    for (let i = 0; i < 1024; i++) {
      const before = stats.putBytes;
      await store.append('big.log', piece);
      perAppend.push(stats.putBytes - before);
    }
    expect((await store.read('big.log'))?.length).toBe(4 * 1024 * 1024);
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const first = perAppend.slice(0, 128); // file under 512 KiB
    const last = perAppend.slice(-128); // file near 4 MiB
    expect(mean(last)).toBe(mean(first)); // the same cycle of merges, whatever lies before it
    // Each cycle of 16 appends that seals a 64 KiB chunk puts 4+8+4+16+4+8+4+32+4+8+4+16+4+8+4+64
    // = 192 KiB: every appended byte is written 3 times on average, however large the file is.
    expect(mean(last)).toBe(3 * 4096);
    expect(Math.max(...perAppend)).toBe(64 * 1024); // the largest write is one sealed chunk
    expect(stats.writeTransactions).toBe(1024); // one transaction per append
  });
});

describe('IdbStore group commit', () => {
  it('appends fired while the store is busy land together in one transaction, in call order', async () => {
    const dbName = freshDbName();
    const { use, stats } = spiedUse(dbName);
    const store = new IdbStore({ dbName, chunkBytes: 256, useStore: use });
    const model = new Map<string, number[]>();
    const pending: Promise<void>[] = [];
    for (let i = 0; i < 300; i++) {
      const path = ['t-0/0.log', 't-0/0.index', 't-0/0.timeindex'][i % 3]!;
      const data = pattern(1 + (i % 50), i);
      model.set(path, [...(model.get(path) ?? []), ...data]);
      pending.push(store.append(path, data));
    }
    await Promise.all(pending);
    expect(stats.writeTransactions).toBe(1);
    for (const [path, content] of model) expect(await store.read(path)).toEqual(Uint8Array.from(content));
  });

  it('any other operation closes the group: appends after it form a new one behind it', async () => {
    const dbName = freshDbName();
    const { use, stats } = spiedUse(dbName);
    const store = new IdbStore({ dbName, useStore: use });
    void store.append('a.log', Uint8Array.of(1, 2, 3));
    void store.append('a.log', Uint8Array.of(4, 5));
    const read = store.read('a.log');
    void store.truncate('a.log', 4);
    void store.append('a.log', Uint8Array.of(6));
    const last = store.append('a.log', Uint8Array.of(7));
    await last;
    expect(await read).toEqual(Uint8Array.of(1, 2, 3, 4, 5));
    expect(await store.read('a.log')).toEqual(Uint8Array.of(1, 2, 3, 4, 6, 7));
    expect(stats.writeTransactions).toBe(3); // append group, truncate, append group
  });
});

describe('IdbStore failures', () => {
  it('a full quota rejects with KAFKA_STORAGE_ERROR, changes nothing, and takes the store offline', async () => {
    const dbName = freshDbName();
    let full = false;
    const failures: KafkaError[] = [];
    const { use } = spiedUse(dbName, () => (full ? 'quota' : undefined));
    const store = new IdbStore({ dbName, chunkBytes: 8, useStore: use, onFailure: (e) => failures.push(e) });
    await store.append('a.log', pattern(6, 1));
    await store.append('a.log', pattern(6, 2));
    full = true;
    const error = await store.append('a.log', pattern(6, 3)).catch((e: KafkaError) => e);
    expect(error).toMatchObject({ name: 'KafkaError', code: 'KAFKA_STORAGE_ERROR' });
    expect((error as KafkaError).message).toMatch(/quota.*used up.*nothing is being saved/);
    full = false; // even with space again, the store stays offline: Kafka's failed log dir
    await expect(store.write('b.log', pattern(1, 1))).rejects.toMatchObject({ code: 'KAFKA_STORAGE_ERROR' });
    expect(failures).toEqual([error]);
    expect(await store.read('a.log')).toEqual(Uint8Array.from([...pattern(6, 1), ...pattern(6, 2)]));
    const reloaded = await IdbStore.open({ dbName });
    expect(await reloaded.read('a.log')).toEqual(Uint8Array.from([...pattern(6, 1), ...pattern(6, 2)]));
    await store.clear(); // "Reset cluster" frees the space and brings it back online
    await store.append('a.log', pattern(3, 4));
    expect(await store.read('a.log')).toEqual(pattern(3, 4));
  });

  it('open fails with KAFKA_STORAGE_ERROR when there is no IndexedDB', async () => {
    g.indexedDB = undefined;
    await expect(IdbStore.open({ dbName: freshDbName() })).rejects.toMatchObject({
      code: 'KAFKA_STORAGE_ERROR',
      message: expect.stringMatching(/not available.*nothing is being saved/),
    });
  });

  it('open fails with KAFKA_STORAGE_ERROR when IndexedDB refuses to open (as in some private windows)', async () => {
    g.indexedDB = {
      open() {
        throw new DOMException(
          'A mutation operation was attempted on a database that did not allow mutations.',
          'InvalidStateError',
        );
      },
    };
    await expect(IdbStore.open({ dbName: freshDbName() })).rejects.toMatchObject({
      code: 'KAFKA_STORAGE_ERROR',
      message: expect.stringMatching(/InvalidStateError.*nothing is being saved/),
    });
  });
});

describe('IdbStore clear and destroy', () => {
  it('clear removes every file and the store keeps working', async () => {
    const dbName = freshDbName();
    const store = await IdbStore.open({ dbName });
    await store.append('a.log', pattern(10, 1));
    await store.write('meta/x', pattern(3, 1));
    await store.clear();
    expect(await store.list('')).toEqual([]);
    expect(await rawKeys(dbName)).toEqual([]);
    await store.append('a.log', pattern(2, 2));
    expect(await (await IdbStore.open({ dbName })).read('a.log')).toEqual(pattern(2, 2));
  });

  it('destroy deletes the database; the destroyed store refuses further use', async () => {
    const dbName = freshDbName();
    const store = await IdbStore.open({ dbName });
    await store.append('a.log', pattern(10, 1));
    await store.destroy();
    const factory = g.indexedDB as InstanceType<typeof IDBFactory>;
    expect((await factory.databases()).map((d: { name?: string }) => d.name)).not.toContain(dbName);
    await expect(store.read('a.log')).rejects.toMatchObject({ code: 'KAFKA_STORAGE_ERROR' });
    await expect(store.append('a.log', pattern(1, 1))).rejects.toMatchObject({ code: 'KAFKA_STORAGE_ERROR' });
    expect(await (await IdbStore.open({ dbName })).list('')).toEqual([]);
  });
});

/** What each queued operation came to: 'ok', or the error it rejected with. */
const outcome = (p: Promise<void>): Promise<'ok' | KafkaError> =>
  p.then(
    () => 'ok' as const,
    (e: KafkaError) => e,
  );

describe('IdbStore fencing (one owner at a time)', () => {
  it('a store taken over while it has queued writes commits none of them after the take-over, and later writes reject typed', async () => {
    const dbName = freshDbName();
    const failures: KafkaError[] = [];
    const a = await IdbStore.open({ dbName, chunkBytes: 64, ownerId: 'tab-a', onFailure: (e) => failures.push(e) });
    expect(a.ownerEpoch).toBe(1);
    await a.append('orders-0/0.log', pattern(8, 0));
    // Tab A's engine keeps writing without waiting (each write a transaction of its own) ...
    const appended: Uint8Array[] = [];
    const results: Promise<'ok' | KafkaError>[] = [];
    let settled = 0;
    for (let i = 1; i <= 60; i++) {
      const bytes = pattern(8, i);
      appended.push(bytes);
      results.push(outcome(a.append('orders-0/0.log', bytes)).finally(() => settled++));
      results.push(outcome(a.write('meta/cluster.json', pattern(4, i))).finally(() => settled++));
    }
    // ... while tab B opens the same database and becomes the owner.
    const b = await IdbStore.open({ dbName, chunkBytes: 64, ownerId: 'tab-b' });
    expect(b.ownerEpoch).toBe(2);
    expect(settled).toBeLessThan(results.length); // A still had writes queued at the take-over
    const atTakeOver = await b.read('orders-0/0.log');
    const metaAtTakeOver = await b.read('meta/cluster.json');

    const outcomes = await Promise.all(results);
    // A prefix of A's writes landed (before B's claim); every one after it was fenced.
    const firstFenced = outcomes.findIndex((o) => o !== 'ok');
    expect(firstFenced).toBeGreaterThanOrEqual(0);
    expect(outcomes.slice(firstFenced).every((o) => o !== 'ok')).toBe(true);
    const landedAppends = outcomes.filter((o, i) => o === 'ok' && i % 2 === 0).length;
    expect(atTakeOver).toEqual(
      Uint8Array.from([...pattern(8, 0), ...appended.slice(0, landedAppends).flatMap((x) => [...x])]),
    );
    expect(await b.read('orders-0/0.log')).toEqual(atTakeOver); // nothing of A's landed after B opened
    expect(await b.read('meta/cluster.json')).toEqual(metaAtTakeOver);
    for (const o of outcomes.slice(firstFenced)) {
      expect(o).toMatchObject({ name: 'KafkaError', code: 'KAFKA_STORAGE_ERROR' });
    }
    expect((outcomes[firstFenced] as KafkaError).message).toMatch(/another tab took over \(owner epoch 2 > 1\)/);
    expect(failures).toHaveLength(1);
    expect(failures[0]!.details).toMatchObject({ reason: 'fenced', ownerEpoch: 2, epoch: 1 });
    expect(a.offline).toBe('fenced');

    // B's writes are B's alone: A's later writes reject at once and change nothing.
    await b.append('orders-0/0.log', pattern(8, 99));
    await expect(a.append('orders-0/0.log', pattern(8, 100))).rejects.toMatchObject({ code: 'KAFKA_STORAGE_ERROR' });
    await expect(a.truncate('orders-0/0.log', 0)).rejects.toMatchObject({ code: 'KAFKA_STORAGE_ERROR' });
    await expect(a.clear()).rejects.toMatchObject({ code: 'KAFKA_STORAGE_ERROR' }); // never wipes B's files
    const reader = await IdbStore.open({ dbName });
    expect(await reader.read('orders-0/0.log')).toEqual(Uint8Array.from([...atTakeOver!, ...pattern(8, 99)]));
    expect(await reader.read('meta/cluster.json')).toEqual(metaAtTakeOver);
  });

  it('fence() takes the store offline without IndexedDB: writes already queued are refused too', async () => {
    const dbName = freshDbName();
    const failures: KafkaError[] = [];
    const a = await IdbStore.open({ dbName, onFailure: (e) => failures.push(e) });
    await a.append('a.log', pattern(4, 1));
    const queued = [outcome(a.append('a.log', pattern(4, 2))), outcome(a.delete('a.log'))];
    a.fence('another tab took over this cluster');
    for (const o of await Promise.all(queued)) {
      expect(o).toMatchObject({ code: 'KAFKA_STORAGE_ERROR', message: expect.stringMatching(/another tab took over/) });
    }
    expect(failures).toHaveLength(1);
    expect(await a.read('a.log')).toEqual(pattern(4, 1));
    expect(await (await IdbStore.open({ dbName })).read('a.log')).toEqual(pattern(4, 1));
  });

  it('clear() keeps the owner entry: the owner still writes, and the epoch is not reset', async () => {
    const dbName = freshDbName();
    await IdbStore.open({ dbName });
    const owner = await IdbStore.open({ dbName });
    expect(owner.ownerEpoch).toBe(2);
    await owner.append('a.log', pattern(4, 1));
    await owner.clear();
    await owner.append('a.log', pattern(4, 2));
    expect(await get(OWNER_KEY, rawStore(dbName))).toEqual({ epoch: 2, ownerId: owner.ownerId });
    expect((await IdbStore.open({ dbName })).ownerEpoch).toBe(3);
  });
});

describe('IdbStore deleted under a running page (versionchange)', () => {
  it('closes its connection so deleteDatabase elsewhere goes through, goes offline, and reopen() saves again', async () => {
    const dbName = freshDbName();
    const failures: KafkaError[] = [];
    const store = await IdbStore.open({ dbName, onFailure: (e) => failures.push(e) });
    await store.append('a.log', pattern(6, 1));
    // Another page (DevTools' "Clear site data" does this) deletes the database.
    const factory = g.indexedDB as InstanceType<typeof IDBFactory>;
    const deletion = factory.deleteDatabase(dbName);
    const how = await new Promise<string>((resolve) => {
      deletion.onsuccess = () => resolve('deleted');
      deletion.onerror = () => resolve('error');
      deletion.onblocked = () => resolve('blocked'); // an open connection that never closes
    });
    expect(how).toBe('deleted');
    expect(store.offline).toBe('deleted');
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatchObject({ code: 'KAFKA_STORAGE_ERROR', details: { reason: 'deleted' } });
    expect(failures[0]!.message).toMatch(/deleted or changed elsewhere.*nothing is being saved/);
    await expect(store.append('a.log', pattern(2, 2))).rejects.toMatchObject({
      code: 'KAFKA_STORAGE_ERROR',
      message: expect.stringMatching(/deleted or changed elsewhere/),
    });

    // "Save again from memory": a new database, this store its owner, every file written anew.
    await store.reopen();
    expect(store.offline).toBeNull();
    expect(await store.list('')).toEqual([]);
    await store.write('a.log', pattern(6, 1));
    await store.append('a.log', pattern(2, 2));
    expect(await (await IdbStore.open({ dbName })).read('a.log')).toEqual(
      Uint8Array.from([...pattern(6, 1), ...pattern(2, 2)]),
    );
  });
});
