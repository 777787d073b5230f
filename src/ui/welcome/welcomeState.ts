/**
 * Whether the first screen's welcome is shown. A learner who closed it is not greeted again on
 * the next visit (localStorage: a UI preference, not cluster data); the top bar's "Start here"
 * brings it back.
 */
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';

export const WELCOME_DISMISSED_KEY = 'glassbox.welcome';

function wasDismissed(): boolean {
  try {
    return localStorage.getItem(WELCOME_DISMISSED_KEY) === 'dismissed';
  } catch {
    return false;
  }
}

const welcomeStore = createStore<{ open: boolean }>()(() => ({ open: !wasDismissed() }));

export function useWelcomeOpen(): boolean {
  return useStore(welcomeStore, (s) => s.open);
}

export function closeWelcome(): void {
  welcomeStore.setState({ open: false });
  try {
    localStorage.setItem(WELCOME_DISMISSED_KEY, 'dismissed');
  } catch {
    // A private window may refuse storage: the welcome then shows again next visit.
  }
}

export function openWelcome(): void {
  welcomeStore.setState({ open: true });
}
