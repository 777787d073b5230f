import type { LookupView } from '../../../index';
import { SEEDS_SEGMENTS, SEEDS_TARGET, SEEDS_TOPIC } from '../../demo';
import { segmentName } from '../facts';
import type { LessonTarget, LessonWorld } from '../types';
import { after } from './posts';
import { ELECTIONS, lesson, row } from './scenarios';

function trace(w: LessonWorld): LookupView {
  return w.lookup(SEEDS_TOPIC, 0, { kind: 'offset', value: SEEDS_TARGET });
}

/** The byte the forward scan starts at: the position of the .index entry the search settled on. */
function scanStart(w: LessonWorld): number {
  const r = trace(w).steps.find((s) => s.kind === 'index-result' && s.file === '.index');
  return r?.kind === 'index-result' && r.entry && 'position' in r.entry ? r.entry.position : 0;
}

/** The .index search's steps: Kafka's warm-section check, then the binary search's probes. */
function indexSearch(w: LessonWorld) {
  const steps = trace(w).steps;
  const warm = steps.find((s) => s.kind === 'index-warm-check');
  return {
    entries: warm?.kind === 'index-warm-check' ? warm.entries : 0,
    probes: steps.filter((s) => s.kind === 'index-probe').length,
  };
}

/** The lookup stepper on the seeds' lookup, stepped through the last step of kind `through`. */
function stepper(
  through: Extract<LessonTarget, { kind: 'lookup' }>['through'],
  show?: 'segments' | 'index' | 'scan',
): LessonTarget {
  return { kind: 'lookup', topic: SEEDS_TOPIC, partition: 0, offset: SEEDS_TARGET, through, ...(show ? { show } : {}) };
}

/** The source post's worked example: offset 170418, found through its segment and its .index. */
export const offsetLookup = lesson(ELECTIONS, 'offset-lookup', 'storage', {
  title: 'Finding offset 170418 (the source post’s example)',
  source: after(
    'architecture',
    'the worked example of finding message 170418 through the segment files and the .index',
  ),
  note: 'The source post says the file 00000000000000170410 starts at message 170411 (it counts messages from 1). In Kafka a segment is named by its first offset: 00000000000000170410.log starts at offset 170410, and index entry [8, 1325] means offset 170410 + 8 = 170418 at byte 1325.',
  steps: [
    {
      text: 'The source post’s partition was built: segments 00000000000000000000, 00000000000000170410 and 00000000000000239430, with an index entry every 1,200 bytes (index.interval.bytes).',
      look: row(SEEDS_TOPIC),
      actions: [{ op: 'seedsLookupExample' }],
      until: { label: 'the partition exists', met: (w) => w.logs.some((l) => l.topic === SEEDS_TOPIC) },
      observe: (w) => ({ segments: trace(w).segmentBaseOffsets.map(segmentName) }),
    },
    {
      text: 'Step 1 of a lookup, the floor search over the segments’ base offsets (their file names): the largest one at or below the target.',
      look: stepper('range-check'),
      lookAfter: stepper('segment-chosen'),
      observe: (w) => ({ segment: segmentName(trace(w).answer?.segmentBaseOffset ?? -1) }),
      question: {
        prompt: `The broker looks up offset ${SEEDS_TARGET} in this partition. Which segment holds it?`,
        choices: SEEDS_SEGMENTS.map(segmentName),
        answer: (w) => segmentName(trace(w).answer?.segmentBaseOffset ?? -1),
        because: (w) => {
          const chosen = trace(w).answer?.segmentBaseOffset ?? -1;
          return `a segment is named by its first offset, so the broker takes the largest base offset at or below ${SEEDS_TARGET}: ${chosen} (the next segment starts above it).`;
        },
      },
    },
    {
      text: 'Step 2, the sparse .index of that segment: the entry with the largest offset at or below the target gives the byte to start reading the .log at. Kafka’s AbstractIndex first compares the first entry of the index’s warm section (its last 8 KiB, kept in the page cache), then binary-searches only the part that can hold the target.',
      look: stepper('segment-chosen', 'index'),
      lookAfter: stepper('index-result'),
      observe: (w) => ({ segment: segmentName(trace(w).answer?.segmentBaseOffset ?? -1), ...indexSearch(w) }),
      question: {
        prompt: `Offset ${SEEDS_TARGET} is in segment ${segmentName(SEEDS_SEGMENTS[1])}. At which byte of its .log will the scan start?`,
        choices: ['0', '348', '1325', '170418'],
        answer: (w) => String(scanStart(w)),
        because: (w) => {
          const { entries, probes } = indexSearch(w);
          return `the .index has ${entries} entries of 8 bytes, all inside its warm section (8 KiB holds 1,024), so Kafka compares slot 0 first: [8, ${scanStart(w)}], relative offset 8 = ${SEEDS_TARGET}, not below the target. That leaves slots 0..0 to binary-search: ${probes === 0 ? 'nothing to halve, ' : ''}the entry is slot 0, byte ${scanStart(w)}.`;
        },
      },
    },
    {
      text: 'Step 3, the scan: from that byte the broker reads batch headers (each says its length) until the batch holding the target; that is how it knows where a message ends.',
      look: stepper('record-found'),
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
