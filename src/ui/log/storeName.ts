import type { StorageStatus } from '../../worker/protocol';
import { useUi } from '../store';

/** Where saved bytes go, in words: this browser's IndexedDB, or the Node host's log dirs (`--data`). */
export function storeName(kind: StorageStatus['kind'] | undefined): string {
  return kind === 'files' ? "the Node host's files" : 'IndexedDB';
}

export function useStoreName(): string {
  return storeName(useUi((s) => s.storage?.kind));
}
