import type { LookupView } from '../../../index';
import { SEEDS_SEGMENTS, SEEDS_TARGET, SEEDS_TOPIC } from '../../demo';
import { segmentName } from '../facts';
import type { LessonWorld } from '../types';
import { ELECTIONS, lesson } from './scenarios';

function trace(w: LessonWorld): LookupView {
  return w.lookup(SEEDS_TOPIC, 0, { kind: 'offset', value: SEEDS_TARGET });
}

/** The byte the forward scan starts at: the position of the .index entry the search settled on. */
function scanStart(w: LessonWorld): number {
  const r = trace(w).steps.find((s) => s.kind === 'index-result' && s.file === '.index');
  return r?.kind === 'index-result' && r.entry && 'position' in r.entry ? r.entry.position : 0;
}

/** seed 000's worked example: offset 170418 through segment 170410 and its index entry [8, 1325]. */
export const offsetLookup = lesson(ELECTIONS, 'offset-lookup', 'storage', {
  title: 'Finding offset 170418 (the seeds’ example)',
  source: 'seed 000: 00000000000000170410.index entry [8, 1325]',
  note: 'The seed says the file 00000000000000170410 starts at message 170411 (it counts messages from 1). In Kafka a segment is named by its first offset: 00000000000000170410.log starts at offset 170410, and index entry [8, 1325] means offset 170410 + 8 = 170418 at byte 1325.',
  steps: [
    {
      text: 'The seeds’ partition is built: segments 00000000000000000000, 00000000000000170410 and 00000000000000239430, with an index entry every 1,200 bytes (index.interval.bytes).',
      actions: [{ op: 'seedsLookupExample' }],
      until: { label: 'the seeds’ partition exists', met: (w) => w.logs.some((l) => l.topic === SEEDS_TOPIC) },
      observe: (w) => ({ segments: trace(w).segmentBaseOffsets.map(segmentName) }),
      question: {
        prompt: 'Which segment holds offset 170418?',
        choices: SEEDS_SEGMENTS.map(segmentName),
        answer: (w) => segmentName(trace(w).answer?.segmentBaseOffset ?? -1),
      },
    },
    {
      text: 'Step 1, the floor search: the largest segment base offset <= 170418 is 170410. Step 2, the binary search in its sparse .index: the largest entry <= 170418 is [8, 1325].',
      observe: (w) => {
        const t = trace(w);
        const probes = t.steps.filter((s) => s.kind === 'index-probe' || s.kind === 'index-warm-check');
        return { segment: segmentName(t.answer?.segmentBaseOffset ?? -1), indexSteps: probes.length };
      },
      question: {
        prompt: 'At which byte of 00000000000000170410.log does the scan start?',
        choices: ['0', '348', '1325', '170418'],
        answer: (w) => String(scanStart(w)),
      },
    },
    {
      text: 'Step 3, the scan: from byte 1325 the broker reads batch headers (each says its length) until the batch holding 170418; that is how it knows where a message ends.',
      observe: (w) => {
        const a = trace(w).answer;
        const batches = trace(w).steps.filter((s) => s.kind === 'batch-header').length;
        return {
          offset: a?.offset ?? null,
          scanFrom: scanStart(w),
          batchHeadersRead: batches,
          file: a?.fileName ?? null,
        };
      },
    },
  ],
});
