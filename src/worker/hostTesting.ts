/**
 * For tests of the worker host in Node over fake-indexeddb: a fresh IndexedDB per test, no Web
 * Locks (the host then runs as the sole owner), a typed call of a handler, and an opened host.
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { beforeEach, vi } from 'vitest';
import { EngineHost } from './EngineHost';
import { type HostClock, realHostClock } from './HostClock';
import type { CommandArgs, CommandName, CommandResult } from './protocol';

/** Call once at the top of a test file. */
export function withFreshIndexedDb(): void {
  vi.stubGlobal('self', { navigator: {} });
  beforeEach(() => {
    (globalThis as { indexedDB?: unknown }).indexedDB = new IDBFactory();
  });
}

export async function call<K extends CommandName>(
  host: EngineHost,
  type: K,
  data: CommandArgs<K>,
): Promise<CommandResult<K>> {
  const handler = host.handlers[type] as (d: CommandArgs<K>) => unknown;
  return (await handler(data)) as CommandResult<K>;
}

/** A host opened on IndexedDB (the default demo cluster), on the real clock unless given one. */
export async function openHost(clock: HostClock = realHostClock): Promise<EngineHost> {
  const host = new EngineHost(() => undefined, clock);
  const opened = await call(host, 'open', { storage: 'indexeddb', takeOver: false });
  if (opened.status !== 'opened' || opened.storage.kind !== 'indexeddb') throw new Error('IndexedDB did not open');
  return host;
}

/**
 * The real clock read as if this machine were `factor` times slower: the cost estimates of long
 * replays then do not depend on how fast the machine running the tests is.
 */
export function slowedHostClock(factor: number): HostClock {
  return { ...realHostClock, now: () => realHostClock.now() * factor };
}
