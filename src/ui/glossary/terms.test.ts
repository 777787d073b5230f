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

  it('leader epoch: in ZooKeeper mode an ISR change the controller writes bumps it too (issue 23)', () => {
    // Kafka 3.9's ReplicaStateMachine.doRemoveReplicasFromIsr writes leaderAndIsr.newLeaderAndIsr,
    // which adds one to the leader epoch (the lessons' statements.test proves it on the engine).
    const d = TERMS['leader epoch'].definition;
    expect(d).not.toMatch(/grows by one with every new leader/);
    expect(d).toMatch(/controller/);
    expect(d).toMatch(/ISR/);
  });

  it('lag is named: committed lag is HW − committed offset, records-lag-max is HW − fetch position (issue 23)', () => {
    expect(TERMS['committed lag'].definition).toMatch(/high watermark minus the group's committed offset/);
    expect(TERMS.lag.definition).toMatch(/high watermark minus the group's committed offset/);
    expect(TERMS.lag.kafkaName).not.toMatch(/records-lag/);
    expect(TERMS['records-lag-max'].definition).toMatch(/high watermark minus its fetch position/);
    expect(TERMS['records-lag-max'].kafkaName).toBe(
      'kafka.consumer:type=consumer-fetch-manager-metrics,records-lag-max',
    );
    for (const [name, e] of Object.entries(TERMS))
      expect(e.definition, name).not.toMatch(/not yet committed by the group/);
  });

  it('the ISR check interval is given where removal is described (issue 23)', () => {
    expect(TERMS['out-of-sync follower'].definition).toMatch(/every replica\.lag\.time\.max\.ms \/ 2/);
  });

  it('does not treat inherited object keys as terms', () => {
    expect(isTermName('toString')).toBe(false);
    expect(isTermName('constructor')).toBe(false);
  });
});
