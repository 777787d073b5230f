/**
 * Whether the first screen's welcome is shown (the `welcome` slice, welcomeSlice.ts); the top
 * bar's "Start here" brings it back.
 */
import { sliceOf, useUi } from '../store';
import { WELCOME_DISMISSED_KEY } from './welcomeSlice';

const welcome = sliceOf('welcome');

export function useWelcomeOpen(): boolean {
  return useUi((s) => s.welcome.open);
}

export function closeWelcome(): void {
  welcome.setState({ open: false });
  try {
    localStorage.setItem(WELCOME_DISMISSED_KEY, 'dismissed');
  } catch {
    // A private window may refuse storage: the welcome then shows again next visit.
  }
}

export function openWelcome(): void {
  welcome.setState({ open: true });
}
