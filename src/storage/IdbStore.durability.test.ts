import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { createStore } from 'idb-keyval';
import { beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../engine/Clock';
import { UnifiedLog } from '../engine/log/UnifiedLog';
import { StoreWriter } from '../engine/log/StoreWriter';
import { makeBatch } from '../engine/log/testSupport';
import { IdbStore, type IdbObjectStoreLike, type IdbTransactionLike, type UseObjectStore } from './IdbStore';

const g = globalThis as { indexedDB?: unknown };
let dbCount = 0;
const freshDbName = (): string => `glassbox-durable-${++dbCount}`;
beforeEach(() => {
  g.indexedDB = new IDBFactory();
});

/**
 * idb-keyval's store with every readwrite transaction's `complete` event held back: IndexedDB has
 * committed (`committed` counts those), but the IdbStore only hears of it when the test calls
 * `release()`. What the store resolves before then, it resolved before the transaction completed.
 */
function heldCompletions(dbName: string) {
  const inner = createStore(dbName, 'files') as unknown as UseObjectStore;
  const held: (() => void)[] = [];
  const state = { committed: 0 };
  const use: UseObjectStore = (mode, callback) =>
    inner(mode, (store) => {
      if (mode === 'readonly') return callback(store);
      const tx = store.transaction;
      let onComplete: (() => void) | null = null;
      tx.oncomplete = () => {
        state.committed++;
        held.push(() => onComplete?.());
      };
      const txProxy = new Proxy(tx, {
        set(target, prop, value) {
          if (prop === 'oncomplete') onComplete = value as () => void;
          else Reflect.set(target, prop, value, target);
          return true;
        },
        get(target, prop) {
          const member = Reflect.get(target, prop, target);
          return typeof member === 'function' ? member.bind(target) : member;
        },
      }) as IdbTransactionLike;
      const storeProxy = new Proxy(store, {
        get(target, prop) {
          if (prop === 'transaction') return txProxy;
          const member = Reflect.get(target, prop, target);
          return typeof member === 'function' ? member.bind(target) : member;
        },
      }) as IdbObjectStoreLike;
      return callback(storeProxy);
    });
  return {
    use,
    state,
    release: () => {
      for (const run of held.splice(0)) run();
    },
    get held() {
      return held.length;
    },
  };
}

/** Waits until `check` holds, letting IndexedDB's (fake, timer-driven) events run. */
async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 1));
  expect(check()).toBe(true);
}

describe('IdbStore: an operation settles only on its transaction’s complete event', () => {
  it('an append resolves after `complete`, not when its puts succeed', async () => {
    const dbName = freshDbName();
    const hold = heldCompletions(dbName);
    const store = new IdbStore({ dbName, useStore: hold.use });
    let settled = false;
    const done = store.append('orders-0/00000000000000000000.log', new Uint8Array([1, 2, 3])).then(() => {
      settled = true;
    });
    await until(() => hold.held === 1); // committed in IndexedDB, event held back
    expect(settled).toBe(false);
    hold.release();
    await done;
    expect(settled).toBe(true);
  });

  it('a UnifiedLog over IdbStore: durableOffset waits for the complete events, recoveryPoint does not', async () => {
    const dbName = freshDbName();
    const hold = heldCompletions(dbName);
    const store = new IdbStore({ dbName, useStore: hold.use });
    const writer = new StoreWriter(store);
    const clock = new ManualClock(1_700_000_000_000);
    const log = new UnifiedLog({ dir: 'orders-0', config: { 'flush.messages': 1 }, clock, writer });
    log.appendAsLeader(
      makeBatch([
        { key: 'k0', value: 'v0' },
        { key: 'k1', value: 'v1' },
      ]),
    );
    expect(log.recoveryPoint).toBe(2);
    // Everything is committed in IndexedDB one transaction after another, but no complete event is heard yet.
    await until(() => hold.held === 1);
    expect(log.durableOffset).toBe(0);
    for (let i = 0; i < 20 && writer.inFlight > 0; i++) {
      hold.release();
      await until(() => hold.held > 0 || writer.inFlight === 0);
    }
    await writer.settled();
    expect(writer.durableSequence).toBe(writer.operationsIssued);
    expect(log.durableOffset).toBe(2);
    // And what it confirmed is what a reopened store holds.
    const { log: reloaded } = await UnifiedLog.load(await IdbStore.open({ dbName }), 'orders-0', {}, clock);
    expect(reloaded.logEndOffset).toBe(2);
  });
});
