import { describe, expect, it } from 'vitest';
import { MapStore } from '../../log/testSupport';
import { ClusterApps } from '../ClusterApps';
import { packLag } from './LagSampler';

describe('LagSampler', () => {
  it('packs (partition, samples) lists into one typed array with start indexes', () => {
    const packed = packLag([
      ['orders-0', [[1000, 3]]],
      [
        'orders-1',
        [
          [1000, 0],
          [2000, 5],
        ],
      ],
    ]);
    expect(packed.partitions).toEqual(['orders-0', 'orders-1']);
    expect([...packed.start]).toEqual([0, 1, 3]);
    expect([...packed.data]).toEqual([1000, 3, 1000, 0, 2000, 5]);
  });

  it("samples each board group's committed lag every engine second, partitions in order", () => {
    const apps = new ClusterApps(1, 'demo', { store: new MapStore() });
    apps.tick(15_000);
    const h = apps.lag.historyOf('billing');
    expect(h.partitions).toEqual(['orders-0', 'orders-1', 'orders-2', 'orders-3', 'orders-4', 'orders-5']);
    const first = h.data.slice(0, ((h.start[1] ?? 0) - (h.start[0] ?? 0)) * 2);
    const times = first.filter((_, i) => i % 2 === 0);
    for (let i = 1; i < times.length; i++) expect((times[i] ?? 0) - (times[i - 1] ?? 0)).toBe(1000);
    expect(apps.lag.historyOf('nobody').partitions).toEqual([]);
    expect(apps.lag.committedLag('billing')).not.toBeNull();
  });

  it('stops sampling once disposed', () => {
    const apps = new ClusterApps(1, 'demo', { store: new MapStore() });
    apps.tick(15_000);
    apps.lag.dispose();
    const before = apps.lag.historyOf('billing').data.length;
    expect(before).toBeGreaterThan(0);
    apps.tick(3000);
    expect(apps.lag.historyOf('billing').data.length).toBe(before);
  });
});
