/**
 * The welcome's slice of the page's one store (store.ts; welcomeState.ts opens and closes it).
 * A learner who closed it is not greeted again on the next visit (localStorage: a UI preference,
 * not cluster data).
 */
export const WELCOME_DISMISSED_KEY = 'glassbox.welcome';

export interface WelcomeState {
  open: boolean;
}

function wasDismissed(): boolean {
  try {
    // Absent in Node (tests and benches build the store too); reading it may throw in a sandboxed page.
    const storage = (globalThis as { localStorage?: { getItem(key: string): string | null } }).localStorage;
    return storage?.getItem(WELCOME_DISMISSED_KEY) === 'dismissed';
  } catch {
    return false;
  }
}

/** Open unless this browser closed it before. */
export function initialWelcomeState(): WelcomeState {
  return { open: !wasDismissed() };
}
