import { describe, expect, it } from 'vitest';
import { Engine, ManualClock } from '../../index';
import { MapStore } from '../../log/testSupport';
import { DeliveryAudit } from './DeliveryAudit';
import { SCENARIO_EPOCH_MS, toEngineMs } from '../scenarioTime';

function audit(): { engine: Engine; audit: DeliveryAudit } {
  const engine = new Engine({ seed: 1, store: new MapStore(), clock: new ManualClock(SCENARIO_EPOCH_MS) });
  return { engine, audit: new DeliveryAudit(engine) };
}

describe('DeliveryAudit', () => {
  it('predicts from the offsets what a crash redelivers (processed, not committed) and skips (committed, not processed)', () => {
    const { audit: a } = audit();
    a.recordCrash({
      consumerId: 'c1',
      groupId: 'billing',
      atMs: toEngineMs(2500),
      commitMode: 'after-processing',
      partitions: [
        { topic: 'orders', partition: 0, position: 30, processedTo: 25, committed: 20 },
        { topic: 'orders', partition: 1, position: 12, processedTo: 8, committed: 12 },
        { topic: 'orders', partition: 2, position: 4, processedTo: 4, committed: null },
      ],
    });
    const [crash] = a.crashViews();
    expect(crash).toMatchObject({ consumer: 'c1', group: 'billing', atMs: 2500, redelivered: 9, skipped: 4 });
    // Nothing was delivered since: the ledger's counts have not moved from the crash's baseline.
    expect(crash?.observed).toEqual({ redelivered: 0, skipped: 0 });
  });

  it('keeps the last 20 crashes', () => {
    const { audit: a } = audit();
    for (let i = 0; i < 25; i++)
      a.recordCrash({ consumerId: `c${i}`, groupId: 'g', atMs: SCENARIO_EPOCH_MS, commitMode: 'auto', partitions: [] });
    expect(a.crashViews().map((c) => c.consumer)).toEqual(Array.from({ length: 20 }, (_, i) => `c${i + 5}`));
  });

  it("keeps the offsets an unclean election lost and each consumer's last detected truncation", () => {
    const { engine, audit: a } = audit();
    engine.emit({
      type: 'uncleanLeaderElection',
      topic: 'payments',
      partition: 0,
      newLeader: 3,
      newLeaderLogEndOffset: 10,
      lostOffsets: { from: 10, to: 14 },
      lostCommittedOffsets: { from: 10, to: 12 },
      atMs: toEngineMs(700),
    });
    engine.emit({
      type: 'uncleanLeaderElection',
      topic: 'payments',
      partition: 0,
      newLeader: 2,
      newLeaderLogEndOffset: 10,
      lostOffsets: null,
      lostCommittedOffsets: null,
      atMs: toEngineMs(800),
    });
    engine.emit({
      type: 'consumerLogTruncation',
      consumerId: 'c1',
      groupId: 'billing',
      topic: 'payments',
      partition: 0,
      fetchOffset: 14,
      offsetEpoch: 1,
      divergentOffset: 10,
      divergentEpoch: 1,
      outcome: 'seek',
      atMs: toEngineMs(900),
    });
    expect(a.lostOffsets()).toEqual([
      {
        topic: 'payments',
        partition: 0,
        newLeader: 3,
        from: 10,
        to: 14,
        committedFrom: 10,
        committedTo: 12,
        atMs: 700,
      },
    ]);
    expect(a.truncationOf('c1')).toEqual({
      topic: 'payments',
      partition: 0,
      fetchOffset: 14,
      offsetEpoch: 1,
      divergentOffset: 10,
      outcome: 'seek',
      atMs: 900,
    });
    expect(a.truncationOf('c2')).toBeNull();
  });
});
