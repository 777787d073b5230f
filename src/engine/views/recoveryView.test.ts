/**
 * The page's recovery report says what Kafka's LogLoader does after each kind of shutdown: nothing
 * recovered after a clean one (`.kafka_cleanshutdown`), and after a crash the segments from the
 * recovery point on (LogLoader.recoverLog), each with its reason.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../Clock';
import { StoreWriter } from '../log/StoreWriter';
import { MapStore, makeBatch, makeRecords } from '../log/testSupport';
import { UnifiedLog } from '../log/UnifiedLog';
import { recoveryView } from './recoveryView';

const T0 = 1_700_000_000_000;

async function threeSegments(): Promise<{ store: MapStore; bases: number[] }> {
  const store = new MapStore();
  const writer = new StoreWriter(store);
  const log = new UnifiedLog({ dir: 'orders-0', config: { 'segment.bytes': 300 }, clock: new ManualClock(T0), writer });
  while (log.localLog.segments.count < 3) log.appendAsLeader(makeBatch(makeRecords(2, 40)), 0);
  log.flush();
  await writer.settled();
  return { store, bases: log.logSegments.map((s) => s.baseOffset) };
}

const load = (store: MapStore, hadCleanShutdown: boolean, recoveryPoint: number) =>
  UnifiedLog.load(store, 'orders-0', { 'segment.bytes': 300 }, new ManualClock(T0), new StoreWriter(store), {
    hadCleanShutdown,
    recoveryPoint,
    logStartOffset: 0,
  });

describe('recoveryView', () => {
  it('after a clean shutdown: every segment opened, none recovered', async () => {
    const { store } = await threeSegments();
    const view = recoveryView('orders-0', (await load(store, true, 0)).report);
    expect(view.hadCleanShutdown).toBe(true);
    expect(view.segmentsRecovered).toBe(0);
    expect(view.summary).toMatch(/^clean shutdown \(\.kafka_cleanshutdown\): 3 segments opened, none recovered/);
  });

  it('after a crash: the segments from the recovery point on, and why', async () => {
    const { store, bases } = await threeSegments();
    const view = recoveryView('orders-0', (await load(store, false, (bases[1] as number) + 1)).report);
    expect(view.segmentsRecovered).toBe(2);
    expect(view.segments.map((s) => s.recovered)).toEqual([false, true, true]);
    expect(view.segments[0]?.reason).toMatch(/below the recovery point/);
    expect(view.summary).toContain(
      `no clean shutdown: 2 of 3 segments recovered from the recovery point ${(bases[1] as number) + 1} on, `,
    );
  });
});
