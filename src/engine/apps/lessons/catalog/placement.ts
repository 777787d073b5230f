import type { LessonQuestion, LessonStep, LessonWorld } from '../types';
import { after } from './posts';
import { lesson, RACKS4, row } from './scenarios';

function replicas(w: LessonWorld, topic: string): string[] {
  const t = w.view.topics.find((x) => x.name === topic);
  return (t?.partitions ?? []).map((p) => p.replicas.join(','));
}

/**
 * The seed's two topics of 2 partitions × 2 replicas from start index 0, the second numbered on
 * from the first (its partitions 2 and 3); Next waits for both, then their placements are recorded.
 */
function twoTopics(
  first: string,
  second: string,
  rackAware: boolean,
  look: { topic: string; partition: number },
): Pick<LessonStep, 'actions' | 'until' | 'observe' | 'look'> {
  const topic = { op: 'createTopic', partitions: 2, replicationFactor: 2, startIndex: 0, rackAware } as const;
  return {
    look: row(look.topic, look.partition),
    actions: [
      { ...topic, name: first },
      { ...topic, name: second, startPartitionId: 2 },
    ],
    until: {
      label: `${first} and ${second} exist`,
      met: (w) => [first, second].every((n) => w.view.topics.some((t) => t.name === n && t.partitions.length === 2)),
    },
    observe: (w) => ({ [first]: replicas(w, first), [second]: replicas(w, second) }),
  };
}

/** Predict a placement: the answer is where the engine put `topic`'s partition `index`'s replicas. */
function whereDo(prompt: string, choices: string[], topic: string, index: number, why: string): LessonQuestion {
  return {
    prompt,
    choices,
    answer: (w) => replicas(w, topic)[index] ?? '',
    because: (w) => `${why} ${topic}’s partition ${index} went to [${replicas(w, topic)[index] ?? ''}].`,
  };
}

/** assignReplicasToBrokers, first without racks, then rack-aware (brokers 1, 2 on rack-1; 3, 4 on rack-2). */
export const placement = lesson(RACKS4, 'placement', 'controller', {
  title: 'Replica placement with and without racks',
  source: after('architecture', 'the example of 2 topics × 2 partitions × 2 replicas on brokers 1-4'),
  steps: [
    {
      text: 'Rack-unaware, as in the source post’s first figure: topic t1 then t2 (2 partitions, 2 replicas each, start index 0, t2 numbered on from t1). Leaders go round the brokers 1, 2, 3, 4; each follower on the next broker.',
      ...twoTopics('t1', 't2', false, { topic: 't2', partition: 1 }),
      question: whereDo(
        'Topics t1 then t2 are created next without racks (2 partitions, 2 replicas each, start index 0, t2 numbered on from t1). Where will t2’s partition 1 (the source post’s 2-2) put its replicas?',
        ['4,1', '2,3', '4,3', '1,2'],
        't2',
        1,
        'rack-unaware assignReplicasToBrokers puts partition p’s leader on broker (start index + p) mod 4 in broker order, and each next replica one broker further on (plus the shift); t2 is numbered on as partitions 2 and 3:',
      ),
    },
    {
      text: 'Rack-aware, as in the source post’s second figure: brokers are listed alternating racks (1, 3, 2, 4), so a partition’s replicas always span both racks.',
      ...twoTopics('r1', 'r2', true, { topic: 'r1', partition: 0 }),
      question: whereDo(
        'Topics r1 and r2 are created next, rack-aware (brokers 1, 2 on rack-1; 3, 4 on rack-2). Where will r1’s partition 0 put its replicas?',
        ['1,2', '1,3', '3,4', '2,4'],
        'r1',
        0,
        'rack-aware assignment first lists the brokers alternating racks (1, 3, 2, 4), then assigns as without racks over that list, so consecutive replicas land on different racks:',
      ),
    },
  ],
});
