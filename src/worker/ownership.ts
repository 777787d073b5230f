/// <reference lib="webworker" />
/**
 * One tab owns the cluster in IndexedDB at a time. Two engines writing the same segment files
 * would interleave appends and corrupt them, so the worker holds an exclusive Web Lock for as
 * long as it runs the cluster. A second tab finds the lock taken and says so; it may take over
 * (`steal`), and then the first tab's worker is told it lost ownership and stops writing at once.
 *
 * A tab that was just closed releases the lock only when its worker is gone (the page terminates
 * it on `pagehide`), which can take a moment, so a new tab queues for the lock for up to
 * WAIT_FOR_LOCK_MS before it says the cluster is open elsewhere: a dead owner never needs a take-over.
 */

/** How long a tab waits in the lock's queue before offering "Take over here". */
export const WAIT_FOR_LOCK_MS = 3000;

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
  async acquire(steal: boolean, onLost: () => void, waitMs = WAIT_FOR_LOCK_MS): Promise<Ownership> {
    const locks = (self.navigator as WorkerNavigator & { locks?: LockManager }).locks;
    if (!locks) return { status: 'unsupported' };
    return new Promise<Ownership>((resolve) => {
      // Without steal: wait in the queue a little (a closing tab's worker is about to let go).
      const giveUp = steal ? null : new AbortController();
      const timer = giveUp ? setTimeout(() => giveUp.abort(), waitMs) : undefined;
      const options: LockOptions = steal
        ? { mode: 'exclusive', steal: true }
        : { mode: 'exclusive', signal: (giveUp as AbortController).signal };
      locks
        .request(CLUSTER_LOCK, options, (lock) => {
          clearTimeout(timer);
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
          clearTimeout(timer);
          if (!(e instanceof DOMException && e.name === 'AbortError')) return;
          if (this.release) {
            // A stolen lock rejects the holder's request with an AbortError.
            this.release = null;
            onLost();
          } else {
            // We gave up waiting: another tab is alive and holds it.
            resolve({ status: 'held-elsewhere' });
          }
        });
    });
  }

  releaseLock(): void {
    this.release?.();
    this.release = null;
  }
}
