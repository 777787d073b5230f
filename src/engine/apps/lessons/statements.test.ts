import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lookupView, ManualClock, StoreWriter } from '../../index';
import { MapStore } from '../../log/testSupport';
import { ClusterApps } from '../ClusterApps';
import { buildSeedsLog, SEEDS_TARGET, SEEDS_TOPIC } from '../demo';
import { LESSONS } from './catalog';
import type { LessonTrace } from './replay';
import type { Lesson } from './types';

/**
 * What the lessons say, held to Kafka and to the engine: nothing on screen before a question gives
 * its answer away, no file-number jargon, and each statement issue 23 found wrong stays fixed,
 * proved by a replay where the engine can prove it. The traces are the golden ones, which
 * golden.test.ts replays against the engine.
 */
function golden(id: string): LessonTrace {
  return JSON.parse(readFileSync(join(import.meta.dirname, 'golden', `${id}.json`), 'utf8'));
}

function lessonById(id: string): Lesson {
  const l = LESSONS.find((x) => x.id === id);
  if (!l) throw new Error(`no lesson ${id}`);
  return l;
}

/** Every text a lesson shows (header, steps, questions, note). */
function texts(l: Lesson): string[] {
  return [
    l.title,
    l.note ?? '',
    ...l.steps.flatMap((s) => [s.text, s.until?.label ?? '', s.question?.prompt ?? '', ...(s.question?.choices ?? [])]),
  ];
}

function flat(v: unknown): string {
  return Array.isArray(v) ? v.join(' ') : String(v);
}

describe('predict, then reveal: nothing shown before a question gives its answer away', () => {
  for (const l of LESSONS) {
    it(`${l.id}: the header, earlier steps and the prompt never single out the answer`, () => {
      const trace = golden(l.id);
      l.steps.forEach((step, i) => {
        const q = step.question;
        const answer = trace.steps[i]?.answer;
        // Single digits and yes/no are found inside any text; their choices are their own check.
        if (!q || !answer || answer.length < 4) return;
        // What the learner can read while predicting: the header (the note waits for the last
        // answer), everything earlier steps showed, and the question itself.
        const shown = [
          l.title,
          l.source,
          q.prompt,
          ...l.steps
            .slice(0, i)
            .flatMap((s, j) => [
              s.text,
              trace.steps[j]?.because ?? '',
              ...Object.values(trace.steps[j]?.observed ?? {}).map(flat),
            ]),
        ];
        const others = q.choices.filter((c) => c !== answer);
        for (const text of shown) {
          // A text that names every choice alike (a list of segments) singles out none.
          const singlesOut = text.includes(answer) && !others.every((c) => text.includes(c));
          expect(singlesOut, `${l.id} step ${i}: "${answer}" in "${text}"`).toBe(false);
        }
      });
    });
  }

  it('the note waits for the last answer only when it could tell one', () => {
    // The offset lookup's note names [8, 1325]: the page shows notes after the last question.
    expect(lessonById('offset-lookup').note).toContain('1325');
  });
});

describe('lesson texts say what they mean', () => {
  it('no source-file jargon ("seed 000") in what a lesson shows; its source names the post', () => {
    for (const l of LESSONS) {
      for (const t of texts(l)) expect(t, l.id).not.toMatch(/\bseeds?\s+\d{3}\b|\bseed’s\b|\bthe seeds\b/i);
      expect(l.source, l.id).toMatch(/^(After the (post|reading notes)\b.*seed 00\d\): |Kafka’s documentation)/);
    }
  });

  it('records-lag-max is never called "not yet committed": it is HW − the consumer’s fetch position', () => {
    for (const l of LESSONS) {
      for (const t of texts(l)) {
        expect(t, l.id).not.toMatch(/not yet committed by the group/);
        if (t.includes('records-lag-max')) expect(t, l.id).toContain('fetch position');
      }
    }
  });

  it('closed segments: never said to "never change" (compaction rewrites them), and the compaction replay rewrites closed ones', () => {
    for (const l of LESSONS) for (const t of texts(l)) expect(t, l.id).not.toMatch(/never change/);
    const compacted = golden('compaction').steps[1]?.observed?.segments as number[];
    const before = golden('compaction').steps[0]?.observed?.segments as number[];
    expect(compacted.length).toBeGreaterThan(0);
    // Every rewritten segment was closed: the active one is the last of those before.
    expect(Math.max(...compacted)).toBeLessThan(Math.max(...before));
  });

  it('the ISR note gives the leader’s check interval, replica.lag.time.max.ms / 2', () => {
    expect(lessonById('isr').note).toMatch(/every replica\.lag\.time\.max\.ms \/ 2/);
  });
});

describe('acks: min.insync.replicas is a floor, and acks=1 with ISR [1] goes offline rather than lose', () => {
  it('the acks lesson has a retry acknowledged with 2 replicas in sync, not 3', () => {
    const t = golden('acks');
    expect(t.steps[2]?.answer).toBe('NOT_ENOUGH_REPLICAS');
    expect(t.steps[3]?.observed).toEqual({ acked: 2, isr: [1, 2] });
    const text = texts(lessonById('acks')).join(' ');
    expect(text).not.toMatch(/with 3 in sync/);
    expect(text).not.toMatch(/lost it if broker 1 had died/);
  });

  it('acks=1, ISR [1], unclean election off: killing the leader takes the partition offline, nothing is lost', () => {
    const apps = new ClusterApps(1, 'elections', { store: new MapStore(), panelProducer: true });
    apps.apply({
      op: 'createTopic',
      name: 'ledger',
      partitions: 1,
      replicationFactor: 3,
      startIndex: 0,
      configs: { 'min.insync.replicas': '2', 'unclean.leader.election.enable': 'false' },
    });
    const ledger = () => apps.view().topics.find((t) => t.name === 'ledger')?.partitions[0];
    const until = (ok: () => boolean) => {
      for (let i = 0; i < 600 && !ok(); i++) apps.tick(100);
      expect(ok()).toBe(true);
    };
    until(() => ledger()?.isr.length === 3);
    apps.apply({ op: 'isolateBroker', broker: 2 });
    apps.apply({ op: 'isolateBroker', broker: 3 });
    until(() => ledger()?.isr.length === 1);
    apps.apply({ op: 'configureProducer', settings: { acks: '1' } });
    apps.apply({ op: 'produceRecord', topic: 'ledger', key: 'tx-1', value: '100 EUR', headers: [] });
    until(() => (apps.panel?.acked ?? 0) >= 1);
    apps.apply({ op: 'killBroker', broker: 1 });
    until(() => ledger()?.offline === true);
    apps.tick(10_000);
    // Offline, not lost: no other replica was elected and nothing was truncated away.
    expect(ledger()?.offline).toBe(true);
    expect(apps.view().lost.filter((l) => l.topic === 'ledger')).toEqual([]);
  });
});

describe('leader epoch (ZooKeeper mode): an ISR change the controller writes bumps it too', () => {
  it('the controller removing an offline broker from the ISR bumps the epoch with the leader unchanged', () => {
    // Kafka 3.9's ReplicaStateMachine.doRemoveReplicasFromIsr writes leaderAndIsr.newLeaderAndIsr(leader, isr),
    // and LeaderAndIsr.newLeaderAndIsr adds one to the leader epoch.
    const t = golden('isr').steps[0];
    expect(t?.observed?.removedBy).toMatch(/^controller/);
    expect(t?.observed?.isr).toEqual([1, 2]);
    const apps = new ClusterApps(1, 'elections', { store: new MapStore() });
    const before = apps.view().topics.find((x) => x.name === 'payments')?.partitions[0];
    expect(t?.observed?.leaderEpoch).toBe((before?.leaderEpoch ?? -9) + 1);
    expect(before?.leader).toBe(1);
  });
});

describe('offset lookup: the warm-section check comes before the binary search', () => {
  it('the source post’s 170418 says the check settled it: slot 0 of 93, nothing left to halve', () => {
    const log = buildSeedsLog(`${SEEDS_TOPIC}-0`, new ManualClock(0), new StoreWriter(new MapStore()));
    const v = lookupView(SEEDS_TOPIC, 0, log, { kind: 'offset', value: SEEDS_TARGET });
    const warm = v.steps.find((s) => s.kind === 'index-warm-check');
    // Kafka's AbstractIndex.indexSlotRangeFor: compare the first warm entry, then binarySearch(0, firstHotEntry).
    expect(warm?.explanation).toMatch(/^Warm-section check first: all 93 entries/);
    expect(warm?.explanation).toMatch(/slots 0\.\.0: one slot, nothing to halve\.$/);
    expect(v.steps.filter((s) => s.kind === 'index-probe')).toEqual([]);
    const lesson = texts(lessonById('offset-lookup')).join(' ');
    expect(lesson).not.toMatch(/the binary search in (its|the) sparse \.index/);
    expect(golden('offset-lookup').steps[2]?.because).toMatch(/warm section.*slot 0 first/);
  });
});
