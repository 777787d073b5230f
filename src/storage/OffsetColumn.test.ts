import { describe, expect, it } from 'vitest';
import { retainedBytesMeter } from '../engine/retainedMemory.testing';
import type { PackedLayout } from './chunkLayout';
import { FileTable } from './FileTable';
import { OffsetColumn } from './OffsetColumn';

describe('OffsetColumn', () => {
  it('answers get, set, delete, size and keys like a Map by offset, in any order (seeded)', () => {
    let seed = 12345;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const column = new OffsetColumn();
    const model = new Map<number, PackedLayout>();
    for (let step = 0; step < 5000; step++) {
      const offset = next(4) === 0 ? next(300) : 300 + step; // mostly appends, some anywhere
      const op = next(10);
      if (op < 7) {
        const layout: PackedLayout = next(5) === 0 ? [4096, next(100)] : next(3) === 0 ? 2 ** 33 : next(70000);
        expect(column.set(offset, layout)).toBe(!model.has(offset));
        model.set(offset, layout);
      } else {
        const victim = next(2) === 0 ? Math.min(...model.keys()) : offset;
        expect(column.delete(victim)).toBe(model.delete(victim));
      }
      expect(column.size).toBe(model.size);
    }
    for (const [offset, layout] of model) expect(column.get(offset)).toEqual(layout);
    // Overwrites and deletes of several-chunk layouts left runs behind, squeezed out on the way.
    expect((column as unknown as { poolEnd: number }).poolEnd).toBeLessThan(4 * 5000);
    expect([...column.keys()]).toEqual([...model.keys()].sort((a, b) => a - b));
    expect(column.get(-1)).toBeUndefined();
  });

  it("keeps IdbStore's file table under 32 bytes of memory a segment file (Map entries with lists of chunk lengths cost ~60)", () => {
    const used = retainedBytesMeter();
    const table = new FileTable();
    const name = (dir: string, offset: number, ext: string) => `${dir}/${String(offset).padStart(20, '0')}.${ext}`;
    const add = (from: number, to: number) => {
      for (let i = from; i < to; i++)
        // A `.log` written by many appends is several chunks: its layout is a list of lengths.
        for (const ext of ['log', 'index', 'timeindex', 'snapshot'])
          table.set(
            name(`orders-${i % 8}`, i * 37, ext),
            ext === 'log' ? [4096, 4096, 1000 + (i % 50)] : 1000 + (i % 50),
          );
    };
    add(0, 2_000);
    const before = used();
    add(2_000, 22_000);
    const perFile = (used() - before) / (20_000 * 4);
    expect(table.size).toBe(22_000 * 4);
    expect(perFile).toBeLessThan(32);
  });
});
