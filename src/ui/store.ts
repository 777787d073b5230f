/**
 * The page's one store (zustand, vanilla): everything the views draw, fed by the worker's frames.
 * Components read slices with `useUi(selector)`; per-frame motion subscribes to the store directly
 * (`uiStore.subscribe`) and writes styles, so a frame does not re-render React.
 */
import { createStore } from 'zustand/vanilla';
import { useStore } from 'zustand';
import type { ClusterView, StorageStatus } from '../worker/protocol';

export type Phase =
  /** Waiting for the worker to open the cluster. */
  | 'starting'
  /** The cluster is open and running in this tab. */
  | 'ready'
  /** Another tab owns the cluster. */
  | 'locked'
  /** The worker could not start. */
  | 'failed';

export const SPEEDS = [0.25, 0.5, 1, 2, 4, 8, 16] as const;
export type Speed = (typeof SPEEDS)[number];

export interface UiState {
  phase: Phase;
  /** Why the page is 'failed', in words. */
  failure: string | null;
  storage: StorageStatus | null;
  view: ClusterView | null;
  /** Engine clock, milliseconds since the epoch. */
  nowMs: number;
  playing: boolean;
  speed: Speed;
}

export const initialUiState: UiState = {
  phase: 'starting',
  failure: null,
  storage: null,
  view: null,
  nowMs: 0,
  playing: true,
  speed: 1,
};

export type UiStore = ReturnType<typeof createUiStore>;

export function createUiStore(init: Partial<UiState> = {}) {
  return createStore<UiState>()(() => ({ ...initialUiState, ...init }));
}

/** The page's store. Tests of pure helpers build their own with createUiStore. */
export const uiStore = createUiStore();

export function useUi<T>(selector: (s: UiState) => T): T {
  return useStore(uiStore, selector);
}
