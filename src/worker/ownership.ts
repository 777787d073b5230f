/// <reference lib="webworker" />
/**
 * One tab owns the cluster in IndexedDB at a time. Two engines writing the same segment files
 * would interleave appends and corrupt them, so the worker holds an exclusive Web Lock for as
 * long as it runs the cluster. A second tab finds the lock taken and says so; it may take over
 * (`steal`), and then the first tab's worker is told it lost ownership and stops writing at once.
 */

export const CLUSTER_LOCK = 'glassbox-cluster';

export type Ownership =
  | { status: 'owner' }
  | { status: 'held-elsewhere' }
  /** The browser has no Web Locks (very old, or an unusual embed): run, but warn. */
  | { status: 'unsupported' };

export class OwnershipLock {
  private release: (() => void) | null = null;

  /**
   * Tries to take the lock. With `steal`, takes it from whoever holds it. `onLost` runs if another
   * tab steals it later.
   */
  async acquire(steal: boolean, onLost: () => void): Promise<Ownership> {
    const locks = (self.navigator as WorkerNavigator & { locks?: LockManager }).locks;
    if (!locks) return { status: 'unsupported' };
    return new Promise<Ownership>((resolve) => {
      const options: LockOptions = steal
        ? { mode: 'exclusive', steal: true }
        : { mode: 'exclusive', ifAvailable: true };
      locks
        .request(CLUSTER_LOCK, options, (lock) => {
          if (!lock) {
            resolve({ status: 'held-elsewhere' });
            return undefined;
          }
          resolve({ status: 'owner' });
          // Hold the lock until released here, or until another tab steals it.
          return new Promise<void>((release) => {
            this.release = release;
          });
        })
        .catch((e: unknown) => {
          // A stolen lock rejects the holder's request with an AbortError.
          if (e instanceof DOMException && e.name === 'AbortError' && this.release) {
            this.release = null;
            onLost();
          }
        });
    });
  }

  releaseLock(): void {
    this.release?.();
    this.release = null;
  }
}
