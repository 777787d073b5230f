/**
 * Session.apply is the page's one frame consumer: one store update per frame carries the data
 * path's state and the board's slice (its view and the narration of its events), and a
 * frame whose board view records new actions moves the page's address.
 */
import { describe, expect, it } from 'vitest';
import type { EngineEvent, BoardView } from '../engine/apps/types';
import type { EngineClient } from '../worker/client';
import type { ClusterView, FrameResult } from '../worker/protocol';
import { frameFixture } from './frameFixture';
import { Session } from './session';
import { createUiStore } from './store';
import { toEngineMs } from '../worker/client';

/** A client whose calls never answer: these tests hand frames to apply themselves. */
const silent = { onFatal: () => () => {}, onNotice: () => () => {} } as unknown as EngineClient;

function board(version: number, actions: BoardView['actions'] = []): BoardView {
  return { version, nowMs: 0, controllerEpoch: 1, brokers: [], groups: [], actions } as unknown as BoardView;
}

const cluster: ClusterView = { version: 1, nowMs: 1234, partitions: [] };

function frame(views: FrameResult['views'], events: EngineEvent[] = []): FrameResult {
  return frameFixture(views, { nowMs: 1234, events });
}

describe('Session.apply', () => {
  it('puts one frame into the one store in one update: clock, views, and the board slice with its story', () => {
    const store = createUiStore();
    const session = new Session(store, silent);
    let updates = 0;
    store.subscribe(() => updates++);
    const elected: EngineEvent = {
      type: 'controllerElected',
      broker: 2,
      controllerEpoch: 2,
      previousEpoch: 1,
      atMs: toEngineMs(1000),
    };
    session.apply(frame({ cluster, board: board(3) }, [elected]));
    expect(updates).toBe(1);
    const s = store.getState();
    expect(s.frames).toBe(1);
    // One time base: engine ms since the scenario started.
    expect(s.nowMs).toBe(1234);
    expect(s.view).toEqual(cluster);
    expect(s.board.view?.version).toBe(3);
    expect(s.board.story.map((l) => [l.atMs, l.kind])).toEqual([[1000, 'controller']]);
  });

  it('tells the address when a frame brings newly recorded actions, not when it brings the same ones', () => {
    const store = createUiStore();
    const session = new Session(store, silent);
    const moved: number[] = [];
    session.onScenarioMoved((v) => moved.push(v.actions.length));
    session.apply(frame({ board: board(1) }));
    const produce = { at: 500, action: { op: 'produceRecord', topic: 'orders', key: null, value: 'v', headers: [] } };
    session.apply(frame({ board: board(2, [produce] as BoardView['actions']) }));
    session.apply(frame({ board: board(3, [produce] as BoardView['actions']) }));
    expect(moved).toEqual([1]);
  });

  it('in the past the address keeps naming the live run; a fork drops what the stories told after it', () => {
    const store = createUiStore();
    const session = new Session(store, silent);
    const moved: number[] = [];
    session.onScenarioMoved((v) => moved.push(v.actions.length));
    const at = (ms: number): EngineEvent => ({
      type: 'controllerElected',
      broker: 2,
      controllerEpoch: 2,
      previousEpoch: 1,
      atMs: toEngineMs(ms),
    });
    const kill = { at: 3000, action: { op: 'killBroker', broker: 1 } } as BoardView['actions'][number];
    const later = { at: 4000, action: { op: 'killBroker', broker: 2 } } as BoardView['actions'][number];
    session.apply(frame({ board: board(1, [later]) }, [at(1000), at(5000)]));
    const past = {
      viewMs: 3000,
      liveMs: 6000,
      live: false,
      checkpoints: 0,
      checkpointsComplete: true,
      fork: null,
      restoredAtMs: null,
      horizonMs: null,
    };
    // The past's own actions (none yet at 3 s) are not the run's: the address does not move.
    session.apply({ ...frame({ board: board(2) }), travel: past });
    expect(moved).toEqual([]);
    expect(store.getState().travel).toEqual(past);
    // Forked at 3 s by a kill: the line told at 5 s never happened in this run.
    const fork = { n: 1, atMs: 3000, discardedActions: 1, discardedMs: 3000 };
    session.apply({ ...frame({ board: board(3, [kill]) }), travel: { ...past, live: true, liveMs: 3000, fork } });
    expect(store.getState().board.story.map((l) => l.atMs)).toEqual([1000]);
    expect(moved).toEqual([1]);
  });
});
