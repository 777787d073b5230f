/**
 * The page's election hold (leaderHold.ts): the leader changes of the user topics from the
 * session's plane events, and the LeaderAndIsr landings MessageTokens schedules. While the board
 * draws no tokens (another tab, a cluster drawn at scale) nothing is held.
 */
import { useEffect, useReducer } from 'react';
import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import type { PlaneEvent, PlaneReplicaView } from '../../engine/apps/types';
import { PLANE_EPOCH_MS } from '../../worker/client';
import type { Session } from '../session';
import { uiStore } from '../store';
import { type LeaderAndIsrLanding, type LeaderChange, leaderLit, litAt } from './leaderHold';

interface HoldState {
  changes: Record<string, LeaderChange>;
  landings: LeaderAndIsrLanding[];
  /** True while MessageTokens is on screen drawing the board's messages. */
  drawing: boolean;
}

export const leaderHoldStore = createStore<HoldState>()(() => ({ changes: {}, landings: [], drawing: false }));

const MAX_LANDINGS = 200;

/** A frame's plane events: each user partition whose leader moved is held until its token lands. */
export function takeLeaderChanges(events: readonly PlaneEvent[], now: number): void {
  let changes: Record<string, LeaderChange> | null = null;
  for (const e of events) {
    if (e.type !== 'partitionStateChanged' || e.topic.startsWith('__')) continue;
    if (e.new.leader < 0 || e.old?.leader === e.new.leader) continue;
    changes ??= { ...leaderHoldStore.getState().changes };
    const tp = `${e.topic}-${e.partition}`;
    changes[tp] = { tp, leader: e.new.leader, atMs: e.atMs - PLANE_EPOCH_MS, seenAt: now };
  }
  if (changes) leaderHoldStore.setState({ changes });
}

/** LeaderAndIsr tokens MessageTokens has scheduled (wall ms they land). */
export function takeLandings(landings: readonly LeaderAndIsrLanding[]): void {
  if (landings.length === 0) return;
  leaderHoldStore.setState((s) => ({ landings: [...s.landings, ...landings].slice(-MAX_LANDINGS) }));
}

export function setDrawingTokens(drawing: boolean): void {
  if (leaderHoldStore.getState().drawing !== drawing) leaderHoldStore.setState({ drawing });
}

export function forgetLeaderChanges(): void {
  leaderHoldStore.setState({ changes: {}, landings: [] });
}

/**
 * The role a replica chip draws: the view's, except that a new leader stays a follower until the
 * LeaderAndIsr token to its broker has landed. Re-renders itself when that time comes.
 */
export function useShownRole(tp: string, broker: number, role: PlaneReplicaView['role']): PlaneReplicaView['role'] {
  const change = useStore(leaderHoldStore, (s) => (s.changes[tp]?.leader === broker ? s.changes[tp] : undefined));
  const landings = useStore(leaderHoldStore, (s) => s.landings);
  const drawing = useStore(leaderHoldStore, (s) => s.drawing);
  const [, wake] = useReducer((n: number) => n + 1, 0);
  const now = performance.now();
  const held = role === 'leader' && drawing && !leaderLit(change, landings, now);
  const at = held ? litAt(change, landings, now) : null;
  useEffect(() => {
    if (at === null) return;
    const id = window.setTimeout(wake, Math.max(0, at - performance.now()) + 1);
    return () => window.clearTimeout(id);
  }, [at]);
  return held ? 'follower' : role;
}

/** Feeds the hold from the session's plane events; a replaced cluster holds nothing. */
export function useLeaderHold(session: Session): void {
  useEffect(() => {
    const stopEvents = session.onPlaneEvents((events) => takeLeaderChanges(events, performance.now()));
    const stopRun = uiStore.subscribe((s, prev) => {
      if (s.clusterRun !== prev.clusterRun) forgetLeaderChanges();
    });
    return () => {
      stopEvents();
      stopRun();
    };
  }, [session]);
}
