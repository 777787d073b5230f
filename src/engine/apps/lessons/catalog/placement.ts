import type { LessonWorld } from '../types';
import { lesson, RACKS4 } from './scenarios';

function replicas(w: LessonWorld, topic: string): string[] {
  const t = w.view.topics.find((x) => x.name === topic);
  return (t?.partitions ?? []).map((p) => p.replicas.join(','));
}

function created(...topics: string[]) {
  return {
    label: `${topics.join(' and ')} exist`,
    met: (w: LessonWorld) => topics.every((n) => w.view.topics.some((t) => t.name === n && t.partitions.length === 2)),
  };
}

/** seed 000: assignReplicasToBrokers, first without racks, then rack-aware (brokers 1, 2 on rack-1; 3, 4 on rack-2). */
export const placement = lesson(RACKS4, 'placement', 'controller', {
  title: 'Replica placement with and without racks',
  source: 'seed 000: the 2 topics × 2 partitions × 2 replicas example on brokers 1-4',
  steps: [
    {
      text: 'Rack-unaware, as the seed’s first figure: topic t1 then t2 (2 partitions, 2 replicas each, start index 0, t2 numbered on from t1). Leaders go round the brokers 1, 2, 3, 4; each follower on the next broker.',
      actions: [
        { op: 'createTopic', name: 't1', partitions: 2, replicationFactor: 2, startIndex: 0, rackAware: false },
        {
          op: 'createTopic',
          name: 't2',
          partitions: 2,
          replicationFactor: 2,
          startIndex: 0,
          startPartitionId: 2,
          rackAware: false,
        },
      ],
      until: created('t1', 't2'),
      observe: (w) => ({ t1: replicas(w, 't1'), t2: replicas(w, 't2') }),
      question: {
        prompt: 'Where does t2’s partition 1 (the seed’s 2-2) put its replicas?',
        choices: ['4,1', '2,3', '4,3', '1,2'],
        answer: (w) => replicas(w, 't2')[1] ?? '',
      },
    },
    {
      text: 'Rack-aware, as the seed’s second figure: brokers are listed alternating racks (1, 3, 2, 4), so a partition’s replicas always span both racks.',
      actions: [
        { op: 'createTopic', name: 'r1', partitions: 2, replicationFactor: 2, startIndex: 0, rackAware: true },
        {
          op: 'createTopic',
          name: 'r2',
          partitions: 2,
          replicationFactor: 2,
          startIndex: 0,
          startPartitionId: 2,
          rackAware: true,
        },
      ],
      until: created('r1', 'r2'),
      observe: (w) => ({ r1: replicas(w, 'r1'), r2: replicas(w, 'r2') }),
      question: {
        prompt: 'Where do r1’s partition 0 replicas go?',
        choices: ['1,2', '1,3', '3,4', '2,4'],
        answer: (w) => replicas(w, 'r1')[0] ?? '',
      },
    },
  ],
});
