import { KafkaError } from '../engine/errors';
import type { Store } from '../engine/Store';
import { IdbStore, type IdbStoreOptions } from './IdbStore';
import { MemoryStore } from './MemoryStore';

export type BestStoreResult =
  | { kind: 'indexeddb'; persistent: true; store: IdbStore }
  | {
      kind: 'memory';
      persistent: false;
      store: MemoryStore;
      /** One sentence for the page: what failed, and that nothing is being saved. */
      reason: string;
      /** The KAFKA_STORAGE_ERROR that made us fall back. */
      error: KafkaError;
    };

export interface OpenBestStoreOptions extends IdbStoreOptions {
  /** Give up on IndexedDB after this long (some browsers leave `open` pending forever). Default 5 s. */
  timeoutMs?: number;
}

/**
 * The store a worker should use: IndexedDB when it opens and accepts a write, otherwise memory,
 * with the reason spelled out so the page can say that nothing is being saved (private windows,
 * a used-up quota, browsers without IndexedDB). Never rejects.
 */
export async function openBestStore(options: OpenBestStoreOptions = {}): Promise<BestStoreResult> {
  const timeoutMs = options.timeoutMs ?? 5000;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new KafkaError(
            'KAFKA_STORAGE_ERROR',
            `IndexedDB did not open within ${timeoutMs} ms: nothing is being saved`,
            {
              timeoutMs,
            },
          ),
        ),
      timeoutMs,
    );
  });
  try {
    const store = await Promise.race([IdbStore.open(options), timeout]);
    return { kind: 'indexeddb', persistent: true, store };
  } catch (cause) {
    const error =
      cause instanceof KafkaError
        ? cause
        : new KafkaError(
            'KAFKA_STORAGE_ERROR',
            `IndexedDB could not be opened (${String(cause)}): nothing is being saved`,
            {
              cause,
            },
          );
    return {
      kind: 'memory',
      persistent: false,
      store: new MemoryStore(),
      reason: `${error.message.replace(/^KAFKA_STORAGE_ERROR: /, '')}. The cluster runs in this tab's memory only and is lost on reload.`,
      error,
    };
  } finally {
    clearTimeout(timer);
  }
}

/** Narrows a Store to one that knows how to wipe itself ("Reset cluster"). */
export function isClearable(store: Store): store is Store & { clear(): Promise<void> } {
  return typeof (store as { clear?: unknown }).clear === 'function';
}
