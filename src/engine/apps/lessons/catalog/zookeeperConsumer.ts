import type { LessonWorld } from '../types';
import { DEMO, lesson } from './scenarios';

const GROUP = 'legacy';

function consumerZnodes(w: LessonWorld): string[] {
  return w.view.znodes.filter((z) => z.path.startsWith(`/consumers/${GROUP}`)).map((z) => z.path);
}

/** seed 002: the old high-level consumer coordinated through ZooKeeper itself. */
export const zookeeperConsumer = lesson(DEMO, 'zookeeper-consumer', 'groups', {
  title: 'The legacy ZooKeeper consumer: ids, owners, offsets',
  source: 'seed 002: /consumers/[group]/ids, /owners, /offsets',
  note: 'This is the pre-0.9 high-level consumer, removed in Kafka 2.0; today’s consumers use a group coordinator on a broker instead.',
  steps: [
    {
      text: 'A group legacy using the ZooKeeper protocol was added with consumers z1 and z2. Each registers an ephemeral /consumers/legacy/ids/<id>, watches the ids and the topic’s partitions, and claims partitions by creating ephemeral /consumers/legacy/owners/orders/<p>.',
      actions: [
        { op: 'addGroup', group: GROUP, assignor: 'range' },
        { op: 'setProtocol', group: GROUP, protocol: 'zookeeper' },
        { op: 'addConsumer', group: GROUP, name: 'z1' },
        { op: 'addConsumer', group: GROUP, name: 'z2' },
      ],
      until: {
        label: 'all 6 owners znodes exist',
        met: (w) => consumerZnodes(w).filter((p) => /\/owners\/orders\/\d+$/.test(p)).length === 6,
      },
      slow: true,
      observe: (w) => ({
        ids: consumerZnodes(w).filter((p) => p.includes('/ids/')).length,
        owners: consumerZnodes(w).filter((p) => /\/owners\/orders\/\d+$/.test(p)).length,
      }),
      question: {
        prompt: 'z1 crashes next. Who notices and moves its partitions?',
        choices: [
          'the group coordinator broker',
          'every other consumer, through its ZooKeeper watch',
          'the controller',
        ],
        answer: () => 'every other consumer, through its ZooKeeper watch',
      },
    },
    {
      text: 'Positions are committed to persistent znodes /consumers/legacy/offsets/orders/<p>, not to __consumer_offsets.',
      until: {
        label: 'offsets znodes exist',
        met: (w) => consumerZnodes(w).some((p) => /\/offsets\/orders\/\d+$/.test(p)),
      },
      observe: (w) => ({ offsets: consumerZnodes(w).filter((p) => /\/offsets\/orders\/\d+$/.test(p)).length }),
    },
    {
      text: 'z1 crashed: when its ZooKeeper session expires its ephemeral ids and owners znodes vanish, z2’s watch fires, and z2 claims all six partitions.',
      actions: [{ op: 'crashConsumer', name: 'z1' }],
      until: {
        label: 'one consumer id left and 6 owners',
        met: (w) =>
          consumerZnodes(w).filter((p) => p.includes('/ids/')).length === 1 &&
          consumerZnodes(w).filter((p) => /\/owners\/orders\/\d+$/.test(p)).length === 6,
      },
      slow: true,
      observe: (w) => ({ ids: consumerZnodes(w).filter((p) => p.includes('/ids/')).length }),
    },
  ],
});
