import { elapsed, recordsIn } from '../facts';
import type { LessonWorld } from '../types';
import { after } from './posts';
import { ELECTIONS, lesson, PAYMENTS, row } from './scenarios';

/** The first record of the second wave: its timestamp is what the lesson looks up. */
const SECOND_WAVE = 80;

function secondWaveTimestamp(w: LessonWorld): number {
  return w.lookup(PAYMENTS, 0, { kind: 'offset', value: SECOND_WAVE }).answer?.timestamp ?? -1;
}

/** .timeindex maps timestamps to offsets, then the offset lookup finishes the job. */
export const timeLookup = lesson(ELECTIONS, 'time-lookup', 'storage', {
  title: 'Looking up by time with .timeindex',
  source: after('architecture', 'the index files; Kafka’s offsetsForTimes'),
  steps: [
    {
      text: 'A first wave of 80 records (1,000 bytes each) was written; the log rolled once, and each segment’s .timeindex got an entry (timestamp, relative offset) alongside its .index entries.',
      look: row(PAYMENTS),
      actions: [{ op: 'produceRecords', topic: PAYMENTS, from: 0, count: 80, keyPrefix: 'a', valueBytes: 1000 }],
      until: recordsIn(PAYMENTS, 0, 80),
    },
    {
      text: 'Three seconds of engine time pass with nothing written: the next records carry later timestamps.',
      look: row(PAYMENTS),
      until: { label: '3 s have passed', met: (w, t) => elapsed(w, t, 3000) },
    },
    {
      text: 'A second wave of 80 records (offsets 80 to 159) was written three seconds after the first.',
      look: row(PAYMENTS),
      actions: [{ op: 'produceRecords', topic: PAYMENTS, from: 80, count: 80, keyPrefix: 'b', valueBytes: 1000 }],
      until: recordsIn(PAYMENTS, 0, 160),
      question: {
        prompt:
          'A second wave of 80 records (offsets 80 to 159) is written next, three seconds after the first. Looking up the timestamp of the second wave’s first record: which offset will come back?',
        choices: ['0', '79', '80', '159'],
        answer: (w) =>
          String(w.lookup(PAYMENTS, 0, { kind: 'timestamp', value: secondWaveTimestamp(w) }).answer?.offset ?? -1),
        because: (w) =>
          `a time lookup (offsetsForTimes) returns the first offset whose timestamp is at or after the time asked; every record of the first wave is 3 s older, so it is the second wave’s first record, offset ${w.lookup(PAYMENTS, 0, { kind: 'timestamp', value: secondWaveTimestamp(w) }).answer?.offset ?? -1}.`,
      },
    },
    {
      look: row(PAYMENTS),
      text: 'The time lookup compares each segment’s largest timestamp, searches that segment’s .timeindex for the last entry at or before the time (the same warm-section check, then binary search, as the .index), then scans forward to the first record whose timestamp is at or after it.',
      observe: (w) => {
        const t = w.lookup(PAYMENTS, 0, { kind: 'timestamp', value: secondWaveTimestamp(w) });
        return {
          offset: t.answer?.offset ?? null,
          segment: t.answer?.segmentBaseOffset ?? null,
          timeIndexSteps: t.steps.filter((s) => 'file' in s && s.file === '.timeindex').length,
        };
      },
    },
  ],
});
