import { elapsed, group, partitionState, rebalancedSince } from '../facts';
import type { OffsetEntry } from '../journal';
import type { LessonWorld } from '../types';
import { after } from './posts';
import { DEMO, lesson } from './scenarios';
import { toEngineMs, toScenarioMs } from '../../scenarioTime';

const ANALYTICS = { kind: 'group', group: 'analytics' } as const;

function card(w: LessonWorld, consumer: string) {
  return w.view.crashes.find((c) => c.consumer === consumer);
}

/** The consumer's group has a committed offset for every partition it owns. */
function committedAll(w: LessonWorld, name: string): boolean {
  const c = w.view.consumers.find((x) => x.name === name);
  if (!c || c.partitions.length === 0) return false;
  return c.partitions.every((p) =>
    w.view.describe.some((r) => r.group === c.group && `${r.topic}-${r.partition}` === p && r.currentOffset !== null),
  );
}

/** The consumer holds an unfinished batch and its group has committed offsets for what it owns. */
function midBatch(w: LessonWorld, name: string): boolean {
  const c = w.view.consumers.find((x) => x.name === name);
  return !!c && c.inHand > 0 && committedAll(w, name);
}

/**
 * Where analytics' offsets live in this scenario (seed 1): __consumer_offsets-10, led by its
 * coordinator, broker 2, with broker 3 a follower. The steps below observe it, so a change shows
 * in the golden trace.
 */
const OFFSETS = '__consumer_offsets';
const OFFSETS_FOLLOWER = 3;
/** Records (25 ms each) that keep c5 busy a while after the clock pauses: it commits them after the cut. */
const BATCH = 20;

function offsetsPartition(w: LessonWorld) {
  const g = group(w, 'analytics');
  return g ? partitionState(w, OFFSETS, g.offsetsPartition) : undefined;
}

/** Engine events carry the engine clock's ms; a step's start is ms since the scenario started. */
function at(t: number): number {
  return toEngineMs(t);
}

type FetchAnswer = Extract<OffsetEntry, { kind: 'fetchAnswered' }>;

/** The consumer's OffsetFetch answers since `sinceMs`, in order. */
function fetchesOf(w: LessonWorld, consumer: string, sinceMs: number): FetchAnswer[] {
  return w.offsets.filter(
    (e): e is FetchAnswer => e.kind === 'fetchAnswered' && e.consumer === consumer && e.atMs >= at(sinceMs),
  );
}

/** The first answer that gave the consumer an offset for every partition it asked about. */
function settledFetch(w: LessonWorld, consumer: string, sinceMs: number): FetchAnswer | undefined {
  return fetchesOf(w, consumer, sinceMs).find(
    (f) => f.error === 'NONE' && f.partitions.every((p) => p.error === 'NONE'),
  );
}

/** The last offset `consumer` sent for a partition before `beforeMs`, if it sent one since `sinceMs`. */
function lastSent(
  w: LessonWorld,
  consumer: string,
  topic: string,
  partition: number,
  sinceMs: number,
  beforeMs: number,
) {
  let offset: number | null = null;
  for (const e of w.offsets) {
    if (e.kind !== 'commitSent' || e.consumer !== consumer || e.atMs < at(sinceMs) || e.atMs >= beforeMs) continue;
    for (const p of e.partitions) if (p.topic === topic && p.partition === partition) offset = p.offset;
  }
  return offset;
}

const UNSTABLE = 'UNSTABLE_OFFSET_COMMIT, then asks again';
const OLDER = 'the offset committed before it';
const NEWEST = 'the offset c5 was committing';

/** What c6's OffsetFetch gave for the partitions c5 had just committed, against what c5 sent last. */
function c6Fetch(w: LessonWorld, t: number) {
  const first = fetchesOf(w, 'c6', t)[0];
  const settled = settledFetch(w, 'c6', t);
  const rows = (settled?.partitions ?? []).map((p) => ({
    topic: p.topic,
    partition: p.partition,
    tp: `${p.topic}-${p.partition}`,
    fetched: p.offset,
    sent: lastSent(w, 'c5', p.topic, p.partition, t, settled?.atMs ?? 0),
  }));
  const unstable = first?.partitions.some((p) => p.error === 'UNSTABLE_OFFSET_COMMIT') ?? false;
  const older = rows.some((r) => r.sent !== null && r.fetched < r.sent);
  return { first, settled, rows, answer: unstable ? UNSTABLE : older ? OLDER : NEWEST };
}

/** The consumer's OffsetCommits that waited a second or more for their answer: "sent → answered: ok | failed". */
function slowCommits(w: LessonWorld, consumer: string): string[] {
  return w.offsets.flatMap((e) =>
    e.kind === 'commitAnswered' && e.consumer === consumer && e.atMs - e.sentAtMs >= 1000
      ? [
          `${seconds(toScenarioMs(e.sentAtMs))} → ${seconds(toScenarioMs(e.atMs))}: ${e.errors.every((x) => x === 'NONE') ? 'ok' : 'failed'}`,
        ]
      : [],
  );
}

/** c6 has read every partition it took up to the offset c5 had last sent for it. */
function c6ReadPast(w: LessonWorld): boolean {
  const c6 = w.view.consumers.find((c) => c.name === 'c6');
  const rows = c6Fetch(w, 0).rows;
  return (
    !!c6 &&
    rows.length > 0 &&
    rows.every((r) => {
      const pos = c6.positions.find((p) => p.topic === r.topic && p.partition === r.partition)?.position ?? null;
      return pos !== null && pos >= (r.sent ?? r.fetched);
    })
  );
}

/** Why c6 got what it got, from the journal: its answers, c5's commits and how they ended. */
function because(w: LessonWorld, t: number): string {
  const f = c6Fetch(w, t);
  const got = f.rows
    .map((r) => `${r.tp} → ${r.fetched}${r.sent !== null && r.sent !== r.fetched ? ` (c5 had sent ${r.sent})` : ''}`)
    .join(', ');
  const synced = syncedAt(w, 'c6', t);
  const isr = offsetsPartition(w)?.isr.join(', ') ?? '';
  const rare =
    'UNSTABLE_OFFSET_COMMIT answers a fetch that meets a commit still being written, which a rebalance never leaves behind: it comes with a transaction’s offsets (TxnOffsetCommit) not yet ended, or between consumers that assign() their partitions themselves.';
  const order = `c6 learns which partitions it owns only from its SyncGroup answer, and the coordinator answers SyncGroup once the assignment it writes to __consumer_offsets-10 is replicated (acks=all, as for a commit); that record comes after c5’s commit in the same log.`;
  if (f.rows.every((r) => r.sent === null))
    return `c5 sent no commit for c6’s partitions while the group rebalanced, so there was none being written when c6 asked: ${got}. ${rare}`;
  if (f.answer === UNSTABLE)
    return `c6’s first OffsetFetch met c5’s commit still being written: the coordinator answered UNSTABLE_OFFSET_COMMIT with offset −1, and c6 asked again at its next poll, once the commit was replicated (${got}). Without require_stable (before KIP-447) it would have been handed the offset before that commit.`;
  if (f.answer === OLDER) {
    const failed = w.offsets.find(
      (e) => e.kind === 'commitAnswered' && e.consumer === 'c5' && e.sentAtMs >= at(t) && !e.errors.includes('NONE'),
    );
    const commit =
      failed?.kind === 'commitAnswered'
        ? `c5’s commit waited for broker 3 longer than offsets.commit.timeout.ms (5 s): it timed out after ${seconds(failed.atMs - failed.sentAtMs)}, and the coordinator kept the offset before it`
        : 'c5’s commit failed, and the coordinator kept the offset before it';
    const syncFailed = w.offsets.some(
      (e) => e.kind === 'syncAnswered' && e.consumer === 'c6' && e.atMs >= at(t) && e.error !== 'NONE',
    );
    const assignment = syncFailed
      ? `the assignment’s write timed out too, and the group rebalanced again once broker 3 had left the ISR ([${isr}])`
      : `the assignment, written after it, was answered once broker 3 had left the ISR ([${isr}])`;
    return `${order} ${commit}; ${assignment}. When c6 asked (${synced === null ? '?' : seconds(synced - at(t))} after it joined) nothing was being written any more, so there was nothing for require_stable to hold back: ${got}. c6 processes those records again. ${rare}`;
  }
  const commit = lastCommit(w, 'c5', t, f.settled?.atMs ?? 0);
  const waited =
    commit && commit.answeredAtMs - commit.sentAtMs >= 1000
      ? `c5’s commit waited ${seconds(commit.answeredAtMs - commit.sentAtMs)} for broker 3 to leave the ISR ([${isr}]), and the assignment behind it was answered with it`
      : `c5’s commit came once broker 3 had left the ISR ([${isr}])`;
  return `${order} ${waited}: SyncGroup answered c6 ${synced === null ? '?' : seconds(synced - at(t))} after it joined, and by then nothing was being written, so c6’s OffsetFetch got c5’s commit: ${got}. Nothing is processed twice. ${rare}`;
}

/** The consumer's last OffsetCommit sent between the step's start and `beforeMs`, and when it was answered. */
function lastCommit(w: LessonWorld, consumer: string, sinceMs: number, beforeMs: number) {
  const sent = w.offsets.filter(
    (e) => e.kind === 'commitSent' && e.consumer === consumer && e.atMs >= at(sinceMs) && e.atMs < beforeMs,
  );
  const last = sent.at(-1);
  if (!last) return null;
  const answer = w.offsets.find(
    (e) => e.kind === 'commitAnswered' && e.consumer === consumer && e.sentAtMs === last.atMs,
  );
  return answer?.kind === 'commitAnswered' ? { sentAtMs: last.atMs, answeredAtMs: answer.atMs } : null;
}

function syncedAt(w: LessonWorld, consumer: string, sinceMs: number): number | null {
  return (
    w.offsets.find(
      (e) => e.kind === 'syncAnswered' && e.consumer === consumer && e.atMs >= at(sinceMs) && e.error === 'NONE',
    )?.atMs ?? null
  );
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** The source post's cases 1 and 2: commit after processing gives duplicates, before processing loses records. */
export const delivery = lesson(DEMO, 'delivery', 'groups', {
  title: 'Commit after vs before processing: duplicates and losses',
  source: after(
    'architecture',
    'its case 1 (commit after processing: duplicates) and case 2 (commit before processing: losses)',
  ),
  steps: [
    {
      text: 'analytics now commits after processing each batch, billing before processing (as soon as poll() returns). Their applications restart with that and rebalance.',
      look: ANALYTICS,
      actions: [
        { op: 'setCommitMode', group: 'analytics', mode: 'after-processing' },
        { op: 'setCommitMode', group: 'billing', mode: 'before-processing' },
      ],
      until: {
        label: 'both groups rebalanced and are Stable',
        met: (w, t) => rebalancedSince(w, 'billing', t, 3) && rebalancedSince(w, 'analytics', t, 2),
      },
      observe: (w) => ({ modes: w.view.groups.map((g) => `${g.groupId}:${g.commitMode}`) }),
    },
    {
      text: '300 orders arrived; every consumer works through its batch at 25 ms a record (watch “processing” on the chips). analytics commits only when a batch is done.',
      look: ANALYTICS,
      actions: [{ op: 'produceDemoRecords', topic: 'orders', count: 300 }],
      until: {
        label: 'c4 finished its first batch and committed it',
        met: (w) => committedAll(w, 'c4') && (w.view.consumers.find((c) => c.name === 'c4')?.inHand ?? 1) === 0,
      },
    },
    {
      text: '300 more orders arrived: c4 and c1 are each in the middle of a new batch, and the clock pauses there. billing committed its batch the moment poll() returned it; analytics has not committed its batch yet.',
      look: ANALYTICS,
      actions: [{ op: 'produceDemoRecords', topic: 'orders', count: 300 }],
      until: {
        label: 'c4 and c1 are mid-batch',
        met: (w, t) => elapsed(w, t, 1500) && ['c4', 'c1'].every((n) => midBatch(w, n)),
      },
      slow: true,
      hold: true,
    },
    {
      text: 'c4 (analytics) and c1 (billing) crashed mid-batch: no LeaveGroup. After session.timeout.ms (10 s) the coordinator removes them; the new owners start from the committed offsets.',
      look: { ...ANALYTICS, member: 'c4' },
      lookAfter: { ...ANALYTICS, crash: true },
      actions: [
        { op: 'crashConsumer', name: 'c4' },
        { op: 'crashConsumer', name: 'c1' },
      ],
      until: {
        label: 'both crash cards are filled',
        met: (w) => (card(w, 'c4')?.observed.redelivered ?? 0) > 0 && (card(w, 'c1')?.observed.skipped ?? 0) > 0,
      },
      slow: true,
      observe: (w) => ({
        c4: `${card(w, 'c4')?.redelivered ?? 0} redelivered (observed ${card(w, 'c4')?.observed.redelivered ?? 0})`,
        c1: `${card(w, 'c1')?.skipped ?? 0} skipped (observed ${card(w, 'c1')?.observed.skipped ?? 0})`,
      }),
      question: {
        prompt:
          'c4 (analytics, commits after processing) and c1 (billing, commits before processing) crash next, each in the middle of a batch. What will happen to the records c4 processed since its last commit?',
        choices: ['processed twice', 'lost', 'nothing'],
        answer: (w) => ((card(w, 'c4')?.redelivered ?? 0) > 0 ? 'processed twice' : 'nothing'),
        because: (w) =>
          `c4’s group had committed only up to its previous batch, so the new owners of its partitions start from there and process again the ${card(w, 'c4')?.redelivered ?? 0} records c4 had already processed (case 1). c1’s group had committed its whole batch before processing it, so the ${card(w, 'c1')?.skipped ?? 0} records c1 had not processed yet are skipped: lost (case 2).`,
      },
    },
    {
      look: { kind: 'group', group: 'billing', crash: true },
      text: 'Each card compares what the offsets predicted with what the new owners actually did: c4’s records were processed twice (case 1), c1’s committed-but-unprocessed records are never processed (case 2).',
      until: {
        label: 'the new owners read past the crash',
        met: (w) =>
          (card(w, 'c4')?.observed.redelivered ?? 0) >= (card(w, 'c4')?.redelivered ?? 1) &&
          (card(w, 'c1')?.observed.skipped ?? 0) >= (card(w, 'c1')?.skipped ?? 1),
      },
      observe: (w) => ({
        duplicates: card(w, 'c4')?.observed.redelivered ?? 0,
        losses: card(w, 'c1')?.observed.skipped ?? 0,
      }),
    },
    {
      text: '150 more orders arrived. c5, alone in analytics since c4 crashed, is in the middle of a batch, and the clock pauses there.',
      look: { ...ANALYTICS, member: 'c5' },
      actions: [{ op: 'produceDemoRecords', topic: 'orders', count: 150 }],
      until: {
        label: 'c5 is in the middle of a batch',
        met: (w) => (w.view.consumers.find((c) => c.name === 'c5')?.inHand ?? 0) >= BATCH,
      },
      slow: true,
      hold: true,
      observe: (w) => ({ c5InHand: w.view.consumers.find((c) => c.name === 'c5')?.inHand ?? 0 }),
    },
    {
      text: 'Broker 3 was cut off and c6 joined analytics at the same moment. The group rebalanced once c5 had finished its batch and committed it, and c6 asked for the committed offsets of the partitions it took from c5 (OffsetFetch, require_stable).',
      look: ANALYTICS,
      lookAfter: { ...ANALYTICS, member: 'c6' },
      actions: [
        { op: 'isolateBroker', broker: OFFSETS_FOLLOWER },
        { op: 'addConsumer', group: 'analytics', name: 'c6' },
      ],
      until: { label: 'c6 has the committed offsets of its partitions', met: (w, t) => !!settledFetch(w, 'c6', t) },
      slow: true,
      observe: (w) => {
        const f = c6Fetch(w, 0);
        const p = offsetsPartition(w);
        return {
          offsetsPartition: p ? `${p.topic}-${p.partition}` : null,
          replicas: p?.replicas ?? [],
          fetches: fetchesOf(w, 'c6', 0).map((x) =>
            x.partitions.map((p) => `${p.topic}-${p.partition}:${p.offset}:${p.error}`).join(' '),
          ),
          c5LastSent: f.rows.map((r) => `${r.tp}:${r.sent ?? '-'}`),
          c5SlowCommits: slowCommits(w, 'c5'),
          isr: offsetsPartition(w)?.isr ?? [],
        };
      },
      question: {
        prompt:
          'Next, broker 3 is cut off. It follows __consumer_offsets-10, where analytics’ coordinator (broker 2) writes the group’s commits with acks=all, so they wait for broker 3 until it leaves the ISR (replica.lag.time.max.ms, 5 s). At the same moment c6 joins and will take some of c5’s partitions; c5 commits its batch, then rejoins. c6 then fetches their committed offsets with require_stable, which answers UNSTABLE_OFFSET_COMMIT for a commit still being written. What will c6 get?',
        choices: [UNSTABLE, OLDER, NEWEST],
        answer: (w, t) => c6Fetch(w, t).answer,
        because: (w, t) => because(w, t),
      },
    },
    {
      text: 'Broker 3 was healed: it fetched what it missed and rejoined the ISR of __consumer_offsets-10. analytics’ consumers read on from the offsets they were given (its card counts the records processed more than once).',
      look: ANALYTICS,
      actions: [{ op: 'healBroker', broker: OFFSETS_FOLLOWER }],
      until: {
        label: 'c6 read past c5’s last commits and broker 3 is back in the ISR',
        met: (w) => (offsetsPartition(w)?.isr.includes(OFFSETS_FOLLOWER) ?? false) && c6ReadPast(w),
      },
      observe: (w) => ({
        duplicates: group(w, 'analytics')?.delivery.duplicates ?? 0,
        isr: offsetsPartition(w)?.isr ?? [],
      }),
    },
  ],
});
