/** Test support: a worker frame carrying `views` (and board events) at `nowMs`, nothing else. */
import type { EngineEvent } from '../engine/apps/types';
import type { FrameResult } from '../worker/protocol';

export function frameFixture(
  views: FrameResult['views'],
  { run = 1, nowMs = 0, events = [] }: { run?: number; nowMs?: number; events?: EngineEvent[] } = {},
): FrameResult {
  return {
    run,
    nowMs,
    events: { producer: [], dropped: 0, board: events },
    views,
    windows: [],
    jobs: [],
    travel: {
      viewMs: nowMs,
      liveMs: nowMs,
      live: true,
      checkpoints: 0,
      checkpointsComplete: true,
      fork: null,
      restoredAtMs: null,
      horizonMs: null,
    },
  };
}
