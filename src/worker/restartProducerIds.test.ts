import { describe, expect, it } from 'vitest';
import { ManualClock } from '../engine/Clock';
import { StoreWriter } from '../engine/log/StoreWriter';
import { MemoryStore } from '../storage/MemoryStore';
import { DataPath } from '../engine';
import { PANEL_CLIENT_ID, panelProducerConfig } from '../engine/apps/ProducerApp';
import { ClusterApps, DEMO_TOPIC_DEFAULTS } from '../engine/apps/ClusterApps';
import { readStoredCluster, recordWindow } from '../engine';
import { SCENARIO_EPOCH_MS } from '../engine/apps/scenarioTime';

const enc = new TextEncoder();
const SETTINGS = { acks: 'all', 'linger.ms': 5, 'batch.size': 16384, partitioner: 'sticky' } as const;

/** The page's producer on a board; resolves each send to the offset its delivery report gives. */
function panel(apps: ClusterApps) {
  const reports: { sendId: number; offset: number | null }[] = [];
  const producer = apps.createProducer({
    clientId: PANEL_CLIENT_ID,
    config: panelProducerConfig(SETTINGS),
    salt: 0x5eed0001,
  });
  apps.engine.subscribe(
    (e) => {
      if (e.type === 'deliveryReport' && e.producer === producer.clientId)
        reports.push({ sendId: e.report.sendId, offset: e.report.offset ?? null });
    },
    ['deliveryReport'],
  );
  producer.warmUp('orders');
  return { producer, reports };
}

describe('a restart (a reload, or a take-over) keeps producer ids unique', () => {
  it("the new owner's producer gets a fresh id, so its records are appended, not taken for the old owner's duplicates", async () => {
    const store = new MemoryStore();
    const clock = new ManualClock(SCENARIO_EPOCH_MS);
    const first = new ClusterApps(1, 'demo', { store, recoveredLogs: new Map(), clock });
    const before = panel(first);
    first.tick(500);
    const a = before.producer.send('orders', enc.encode('same-key'), enc.encode('from-the-old-owner'), []);
    first.tick(3000); // acknowledged and flushed (flush.ms)
    expect(before.reports.find((r) => r.sendId === a.sendId)?.offset).not.toBeNull();
    await new StoreWriter(store).settled();

    // The restart: every replica log recovered from the store, the same seed, the same producer.
    const again = new ManualClock(clock.now());
    const stored = await readStoredCluster(store, {
      clock: again,
      writer: new StoreWriter(store),
      topicDefaults: DEMO_TOPIC_DEFAULTS,
    });
    const second = new ClusterApps(1, 'demo', { store, clock: again, restart: { stored, actions: [] } });
    const data = new DataPath(second.engine, stored.logs);
    const after = panel(second);
    second.tick(500);
    const b = after.producer.send('orders', enc.encode('same-key'), enc.encode('from-the-new-owner'), []);
    second.tick(3000);
    const offset = after.reports.find((r) => r.sendId === b.sendId)?.offset;
    expect(offset).toEqual(expect.any(Number));
    const partition = b.choice?.partition as number;
    const window = recordWindow('orders', partition, data.log('orders', partition), {
      topic: 'orders',
      partition,
      from: offset as number,
      count: 1,
    });
    // The acknowledged offset holds the new owner's record (on the old code it held the old one's).
    expect(window.records[0]).toMatchObject({ offset, key: 'same-key', value: 'from-the-new-owner' });
  });
});
