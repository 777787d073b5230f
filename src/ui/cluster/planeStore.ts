/**
 * What the control-plane views draw: the latest PlaneView from the worker, plus what the page
 * derives from engine events for motion — the election and rebalance narrations, znodes that
 * just changed (to flash them), and a placement being stepped through. Kept in its own small
 * zustand store beside the page's main one; nothing here is invented, every line comes from
 * an engine event or view.
 */
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import type {
  EventLogView,
  MetricsView,
  PlacementPreview,
  PlaneEvent,
  PlaneView,
  ScenarioSpec,
} from '../../engine/apps/types';

export type PlaneTab = 'cluster' | 'groups' | 'scenarios';

export interface StoryLine {
  id: number;
  /** Engine ms since the scenario started. */
  atMs: number;
  kind: 'election' | 'controller' | 'isr' | 'broker' | 'unclean' | 'reassign' | 'topic';
  text: string;
  tone: 'info' | 'warn' | 'bad' | 'good';
}

export interface GroupStoryLine {
  id: number;
  atMs: number;
  groupId: string;
  text: string;
  /** The step of the rebalance this line shows. */
  step: 'join' | 'state' | 'assign' | 'sync' | 'leave' | 'callback';
}

export interface PlacementShow {
  title: string;
  preview: PlacementPreview;
  /** How many steps are shown so far. */
  shown: number;
  /** 'preview' before the topic exists; 'created' replays the engine's own steps of a created topic. */
  source: 'preview' | 'created';
}

export interface PlaneUiState {
  view: PlaneView | null;
  tab: PlaneTab;
  story: StoryLine[];
  groupStory: GroupStoryLine[];
  /** Znode path -> engine ms of its last change, for the flash. */
  changedZnodes: Record<string, number>;
  /** The last refused action's error, in words. */
  error: string | null;
  /** A notice about the link the page was opened with (e.g. it was invalid). */
  linkNotice: string | null;
  /** The link's scenario when opening it was declined: it can still be opened from the notice. */
  pendingLink: ScenarioSpec | null;
  placement: PlacementShow | null;
  /** A consumer picked up with the keyboard, waiting for a group to be chosen. */
  picked: string | null;
  /** The guided scenario being walked through, and its step. */
  guide: { id: string; step: number } | null;
  /** The one event log and Kafka's metrics, as the worker last sent them (each only when it changed). */
  eventLog: EventLogView | null;
  metrics: MetricsView | null;
  /** What the event last clicked in the log is about: the board highlights it. */
  focus: EventFocus | null;
}

export interface EventFocus {
  /** The entry's n. */
  entry: number;
  brokers: number[];
  partitions: string[];
  groups: string[];
}

export const initialPlaneState: PlaneUiState = {
  view: null,
  tab: 'cluster',
  story: [],
  groupStory: [],
  changedZnodes: {},
  error: null,
  linkNotice: null,
  pendingLink: null,
  placement: null,
  picked: null,
  guide: null,
  eventLog: null,
  metrics: null,
  focus: null,
};

export const planeStore = createStore<PlaneUiState>()(() => ({ ...initialPlaneState }));

export function usePlane<T>(selector: (s: PlaneUiState) => T): T {
  return useStore(planeStore, selector);
}

export type { PlaneEvent };

/** Whether the event chosen in the log is about this broker, partition (`<topic>-<p>`) or group. */
export function useFocused(what: 'broker' | 'partition' | 'group', key: number | string): boolean {
  return usePlane((s) => {
    const f = s.focus;
    if (!f) return false;
    if (what === 'broker') return f.brokers.includes(Number(key));
    if (what === 'partition') return f.partitions.includes(String(key));
    return f.groups.includes(String(key));
  });
}
