/**
 * The page's one pacing policy: which views a frame asks for (and with which versions), and
 * that a replaced cluster's new run holds none of the old one's versions.
 */
import { describe, expect, it } from 'vitest';
import type { ClusterView, FrameResult, JobView, PartitionView } from '../worker/protocol';
import { frameFixture } from './frameFixture';
import {
  BUSY_VIEW_EVERY_MS,
  FramePacing,
  LONG_WORKER_FRAME_MS,
  nextAskAt,
  type PacingState,
  VIEW_EVERY_MS,
} from './FramePacing';

function paced() {
  let now = 0;
  const pacing = new FramePacing(() => now);
  return { pacing, at: (ms: number) => (now = ms) };
}

const idle: PacingState = { jobs: {}, accumulator: false, metrics: false, eventLog: false, shown: null, brokers: 3 };
const runningJob = { jobId: 1, state: 'running' } as JobView;

function frame(run: number, views: FrameResult['views']): FrameResult {
  return frameFixture(views, { run });
}

describe('FramePacing.ask', () => {
  it('asks for the cluster and board views every VIEW_EVERY_MS, holding nothing at first', () => {
    const { pacing, at } = paced();
    expect(pacing.ask(idle)).toEqual({ run: 0, have: { cluster: -1, board: -1 } });
    at(VIEW_EVERY_MS - 1);
    expect(pacing.ask(idle).have).toEqual({});
    at(VIEW_EVERY_MS);
    expect(Object.keys(pacing.ask(idle).have).sort()).toEqual(['board', 'cluster']);
  });

  it('asks for the metrics and the event log only while their tab is open', () => {
    const { pacing, at } = paced();
    pacing.ask(idle);
    at(VIEW_EVERY_MS);
    expect(Object.keys(pacing.ask({ ...idle, metrics: true }).have).sort()).toEqual(['board', 'cluster', 'metrics']);
    at(2 * VIEW_EVERY_MS);
    expect(Object.keys(pacing.ask({ ...idle, eventLog: true }).have).sort()).toEqual(['board', 'cluster', 'eventLog']);
  });

  it('backs off to BUSY_VIEW_EVERY_MS while a bulk job runs', () => {
    const { pacing, at } = paced();
    const busy = { ...idle, jobs: { 1: runningJob } };
    pacing.ask(busy);
    at(VIEW_EVERY_MS);
    expect(pacing.ask(busy).have).toEqual({});
    at(BUSY_VIEW_EVERY_MS);
    expect(Object.keys(pacing.ask(busy).have).sort()).toEqual(['board', 'cluster']);
  });

  it('asks for a large cluster board view ten times less often, its logs as during a job, and for the accumulator every frame it is shown', () => {
    const { pacing, at } = paced();
    const large = { ...idle, brokers: 13, accumulator: true };
    pacing.ask(large);
    at(VIEW_EVERY_MS);
    expect(pacing.ask(large).have).toEqual({ accumulator: -1 });
    at(BUSY_VIEW_EVERY_MS);
    expect(pacing.ask(large).have).toEqual({ cluster: -1, accumulator: -1 });
    at(10 * VIEW_EVERY_MS);
    expect(pacing.ask(large).have).toHaveProperty('board');
  });

  it('passes the versions received, and forgets them when a frame brings a new run', () => {
    const { pacing, at } = paced();
    pacing.ask(idle);
    pacing.received(frame(1, { cluster: { version: 4, nowMs: 0, partitions: [] } }));
    at(VIEW_EVERY_MS);
    expect(pacing.ask(idle)).toEqual({ run: 1, have: { cluster: 4, board: -1 } });
    pacing.received(frame(2, {}));
    at(2 * VIEW_EVERY_MS);
    expect(pacing.ask(idle)).toEqual({ run: 2, have: { cluster: -1, board: -1 } });
  });
});

describe('FramePacing.coalesce', () => {
  const part = (partition: number, logEndOffset: number) =>
    ({ topic: 'orders', partition, dir: `orders-${partition}`, logEndOffset }) as PartitionView;
  const logs = (version: number, ends: number[]): ClusterView => ({
    version,
    nowMs: 0,
    partitions: ends.map((e, i) => part(i, e)),
  });

  it('draws everything that arrived when no bulk job runs', () => {
    const { pacing } = paced();
    const drawn = pacing.coalesce(frame(1, { cluster: logs(1, [1, 2]) }), idle);
    expect(drawn.view?.partitions.map((p) => p.logEndOffset)).toEqual([1, 2]);
  });

  it('with no job running, redraws a partition scrolled out of view at most every 2 s, and at once when it scrolls back', () => {
    const { pacing, at } = paced();
    const shown = logs(1, [0, 0]);
    pacing.coalesce(frame(1, { cluster: shown }), { ...idle, shown: null });
    pacing.setOnScreen('orders-1', false);
    at(VIEW_EVERY_MS);
    const drawn = pacing.coalesce(frame(1, { cluster: logs(2, [5, 7]) }), { ...idle, shown });
    expect(drawn.view?.partitions.map((p) => p.logEndOffset)).toEqual([5, 0]);
    at(2 * VIEW_EVERY_MS);
    pacing.setOnScreen('orders-1', true);
    const back = pacing.coalesce(frame(1, {}), { ...idle, shown: drawn.view });
    expect(back.view?.partitions.map((p) => p.logEndOffset)).toEqual([5, 7]);
  });

  it('while a bulk job runs, redraws one partition per frame, the one waiting longest, each at most every BUSY_VIEW_EVERY_MS', () => {
    const { pacing, at } = paced();
    const shown = logs(1, [0, 0]);
    const busy = { ...idle, jobs: { 1: runningJob }, shown };
    // Both were drawn at 0 (the first frame draws what it is given).
    pacing.coalesce(frame(1, { cluster: shown }), { ...busy, shown: null });
    at(BUSY_VIEW_EVERY_MS);
    const first = pacing.coalesce(frame(1, { cluster: logs(2, [5, 7]) }), busy);
    const changed = (v: ClusterView | null) => v?.partitions.filter((p) => p.logEndOffset > 0).map((p) => p.partition);
    expect(changed(first.view)).toHaveLength(1);
    // The other one's turn comes in the next frame, with what was held back for it.
    const next = pacing.coalesce(frame(1, {}), { ...busy, shown: first.view });
    expect(changed(next.view)).toHaveLength(2);
  });
});

describe('nextAskAt: at scale the worker takes at most half the time once it falls behind', () => {
  it('at scale, asks again at once after a short frame, and after as long again after a long one', () => {
    expect(nextAskAt(1000, 1000 + LONG_WORKER_FRAME_MS, 50)).toBe(1000 + LONG_WORKER_FRAME_MS);
    expect(nextAskAt(1000, 1120, 50)).toBe(1240);
  });

  it('the demo (3 brokers) always asks again at once: a slow frame there is the machine, not the engine', () => {
    expect(nextAskAt(1000, 1120, 3)).toBe(1120);
  });
});
