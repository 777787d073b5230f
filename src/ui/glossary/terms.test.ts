import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isTermName, TERMS } from './terms';

const UI = join(import.meta.dirname, '..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) return sources(p);
    return /\.tsx?$/.test(f) && !f.endsWith('.test.ts') ? [p] : [];
  });
}

/** Every literal name handed to <Term name="..."> anywhere under src/ui. */
function usedNames(): { file: string; name: string }[] {
  return sources(UI).flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/<Term\s+name=(?:"([^"]+)"|\{'([^']+)'\})/g)].map((m) => ({
      file,
      name: m[1] ?? m[2] ?? '',
    })),
  );
}

describe('glossary', () => {
  it('has an entry for every term the UI names', () => {
    const used = usedNames();
    expect(used.length).toBeGreaterThan(10);
    expect(used.filter((u) => !isTermName(u.name))).toEqual([]);
  });

  it('covers the terms issue 12 names for the board', () => {
    for (const name of ['LEO', 'HW', 'log start', 'ISR', 'generation', 'controller epoch', 'coordinator', 'lag']) {
      expect(isTermName(name), name).toBe(true);
    }
  });

  it("covers every classic group state (Kafka's GroupState: Empty, PreparingRebalance, CompletingRebalance, Stable, Dead)", () => {
    for (const s of ['Empty', 'PreparingRebalance', 'CompletingRebalance', 'Stable', 'Dead']) {
      expect(isTermName(s), s).toBe(true);
    }
  });

  it('keeps definitions short enough for a popover', () => {
    for (const [name, e] of Object.entries(TERMS)) {
      expect(e.definition.length, name).toBeGreaterThan(20);
      expect(e.definition.length, name).toBeLessThanOrEqual(260);
    }
  });

  it('does not treat inherited object keys as terms', () => {
    expect(isTermName('toString')).toBe(false);
    expect(isTermName('constructor')).toBe(false);
  });
});
