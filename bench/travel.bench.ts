/**
 * Time travel: how long a seek takes anywhere in a 10-minute demo run (issue 12: at most 200 ms),
 * with the checkpoints the worker builds in the background, and what building them costs.
 * The same code path the worker runs (TimeMachine.seek over MemoryStore replicas), in Node.
 */
import { ClusterApps, TimeMachine } from '../src/engine/apps';
import { MemoryStore } from '../src/storage/MemoryStore';
import { type BenchSuite, percentile } from './harness';

const RUN_MS = 10 * 60_000;

const suite: BenchSuite = {
  name: 'time travel (10-minute demo run)',
  run(report) {
    // The live run: the demo with a broker killed at 2 min and restarted at 4 min, ticked like frames.
    const live = new ClusterApps(1, 'demo', { store: new MemoryStore(), panelProducer: true });
    while (live.nowMs < RUN_MS) {
      live.tick(100);
      if (live.nowMs === 120_000) live.apply({ op: 'killBroker', broker: 1 });
      if (live.nowMs === 240_000) live.apply({ op: 'restartBroker', broker: 1 });
    }
    const tm = new TimeMachine(() => live, { newStore: () => new MemoryStore() });
    let started = performance.now();
    while (tm.work(live.nowMs, 1000));
    const buildMs = performance.now() - started;
    report({ name: 'travel: build every checkpoint of 10 min', value: buildMs, unit: 'ms' });
    report({ name: 'travel: checkpoints kept', value: tm.checkpointTimes().length, unit: 'replicas' });
    // One seek in each checkpoint interval, at a seeded random offset, in ascending order: each
    // starts from the checkpoint below it (the one a seek takes is behind the next seek), so every
    // seek replays as a learner's would with the checkpoints in place.
    let x = 12345;
    const times: number[] = [];
    const cps = tm.checkpointTimes();
    for (const [i, c] of cps.entries()) {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      const end = cps[i + 1] ?? live.nowMs;
      const at = c + 1 + (x % Math.max(1, end - c - 1));
      started = performance.now();
      tm.seek(at).view();
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    report({ name: `travel: seek + board view, median of ${times.length}`, value: percentile(times, 50), unit: 'ms' });
    const worst = times[times.length - 1] ?? 0;
    report({
      name: `travel: seek + board view, worst of ${times.length}`,
      value: worst,
      unit: 'ms',
      target: '<= 200 ms',
      met: worst <= 200,
    });
    // A drag back over the run without pause: each seek takes the replica below it (the viewers the
    // seeks above left, parked one per interval), and nothing is rebuilt in between.
    const drag: number[] = [];
    for (let at = RUN_MS - 10_000; at > 30_000; at -= 47_000) {
      started = performance.now();
      tm.seek(at).view();
      drag.push(performance.now() - started);
    }
    report({ name: 'travel: drag back 9:50 -> 0:30, worst seek', value: Math.max(...drag), unit: 'ms' });
    // Without checkpoints: a replay from the start.
    started = performance.now();
    new TimeMachine(() => live, { newStore: () => new MemoryStore() }).seek(RUN_MS - 1000).view();
    report({ name: 'travel: seek to minute 10 without checkpoints', value: performance.now() - started, unit: 'ms' });
  },
};
export default suite;
