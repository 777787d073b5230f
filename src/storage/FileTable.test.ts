import { describe, expect, it } from 'vitest';
import { FileTable } from './FileTable';

/** IdbStore's in-memory file list: segment files are kept by offset, not by path string, and read the same. */
describe('FileTable', () => {
  const seg = (dir: string, offset: number, ext: string) => `${dir}/${String(offset).padStart(20, '0')}.${ext}`;

  it('answers get, size and paths exactly like a Map by path, for segment files and any other path', () => {
    const table = new FileTable();
    const model = new Map<string, number | readonly number[]>();
    const paths = [
      seg('orders-0', 0, 'log'),
      seg('orders-0', 0, 'index'),
      seg('orders-0', 0, 'timeindex'),
      seg('orders-0', 1200, 'snapshot'),
      seg('__consumer_offsets-12', 9_007_199_254_740_991, 'log'),
      'orders-0/leader-epoch-checkpoint',
      'meta/cluster.json',
      'zookeeper/brokers/ids/1',
      'orders-0/99999999999999999999.log', // not a safe integer: kept by path
      'orders-0/0000000000000000001.log', // 19 digits: not a segment name, kept by path
    ];
    paths.forEach((p, i) => {
      table.set(p, i === 3 ? [4096, 12] : 100 + i);
      model.set(p, i === 3 ? [4096, 12] : 100 + i);
    });
    table.set(paths[0] as string, 7); // overwrite
    model.set(paths[0] as string, 7);
    for (const p of paths) expect(table.get(p)).toEqual(model.get(p));
    expect(table.size).toBe(model.size);
    expect([...table.paths()].sort()).toEqual([...model.keys()].sort());
    expect(table.get(seg('orders-0', 1, 'log'))).toBeUndefined();

    for (const p of [paths[0], paths[4], paths[6], 'never/there'] as string[]) {
      table.delete(p);
      model.delete(p);
    }
    expect(table.size).toBe(model.size);
    expect([...table.paths()].sort()).toEqual([...model.keys()].sort());
    for (const p of paths) expect(table.get(p)).toEqual(model.get(p));
  });
});
