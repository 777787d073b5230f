import type { LessonWorld } from '../types';
import { after } from './posts';
import { DEMO, lesson } from './scenarios';

const GROUP = 'legacy';
const OWNERS = /\/owners\/orders\/\d+$/;
const OTHERS = 'every other consumer, through its ZooKeeper watch';

function consumerZnodes(w: LessonWorld): string[] {
  return w.view.znodes.filter((z) => z.path.startsWith(`/consumers/${GROUP}`)).map((z) => z.path);
}

/** The owner each /owners/orders/<p> znode names (its data: the owning consumer thread's id). */
function owners(w: LessonWorld): string[] {
  return w.view.znodes
    .filter((z) => z.path.startsWith(`/consumers/${GROUP}`) && OWNERS.test(z.path))
    .map((z) => z.data);
}

/** The old high-level consumer coordinated through ZooKeeper itself. */
export const zookeeperConsumer = lesson(DEMO, 'zookeeper-consumer', 'groups', {
  title: 'The legacy ZooKeeper consumer: ids, owners, offsets',
  source: after('zookeeper', '/consumers/[group]/ids, /owners, /offsets'),
  note: 'This is the pre-0.9 high-level consumer, removed in Kafka 2.0; today’s consumers use a group coordinator on a broker instead.',
  steps: [
    {
      text: 'A group legacy using the ZooKeeper protocol was added with consumers z1 and z2. Each registers an ephemeral /consumers/legacy/ids/<id>, watches the ids and the topic’s partitions, and claims partitions by creating ephemeral /consumers/legacy/owners/orders/<p>.',
      look: { kind: 'znodes', path: `/consumers/${GROUP}` },
      actions: [
        { op: 'addGroup', group: GROUP, assignor: 'range' },
        { op: 'setProtocol', group: GROUP, protocol: 'zookeeper' },
        { op: 'addConsumer', group: GROUP, name: 'z1' },
        { op: 'addConsumer', group: GROUP, name: 'z2' },
      ],
      until: {
        label: 'all 6 owners znodes exist',
        met: (w) => consumerZnodes(w).filter((p) => OWNERS.test(p)).length === 6,
      },
      slow: true,
      observe: (w) => ({
        ids: consumerZnodes(w).filter((p) => p.includes('/ids/')).length,
        owners: consumerZnodes(w).filter((p) => OWNERS.test(p)).length,
      }),
    },
    {
      text: 'Positions are committed to persistent znodes /consumers/legacy/offsets/orders/<p>, not to __consumer_offsets.',
      look: { kind: 'znodes', path: `/consumers/${GROUP}/offsets` },
      until: {
        label: 'offsets znodes exist',
        met: (w) => consumerZnodes(w).some((p) => /\/offsets\/orders\/\d+$/.test(p)),
      },
      observe: (w) => ({ offsets: consumerZnodes(w).filter((p) => /\/offsets\/orders\/\d+$/.test(p)).length }),
    },
    {
      text: 'z1 crashed: when its ZooKeeper session expired its ephemeral ids and owners znodes vanished, z2’s watch fired, and z2 claimed all six partitions.',
      look: { kind: 'znodes', path: `/consumers/${GROUP}/owners` },
      actions: [{ op: 'crashConsumer', name: 'z1' }],
      until: {
        label: 'one consumer id left and 6 owners',
        met: (w) =>
          consumerZnodes(w).filter((p) => p.includes('/ids/')).length === 1 &&
          consumerZnodes(w).filter((p) => OWNERS.test(p)).length === 6,
      },
      slow: true,
      observe: (w) => ({
        ids: consumerZnodes(w).filter((p) => p.includes('/ids/')).length,
        owners: [...new Set(owners(w))],
      }),
      question: {
        prompt:
          'z1 and z2 share orders’ 6 partitions through ZooKeeper. z1 crashes next. Who will notice and move its partitions?',
        choices: ['the group coordinator broker', OTHERS, 'the controller'],
        answer: (w) => {
          const o = [...new Set(owners(w))];
          return o.length === 1 && o[0]?.includes('z2') ? OTHERS : 'the group coordinator broker';
        },
        because: (w) =>
          `no broker takes part: z1’s session expired, ZooKeeper deleted its ephemeral znodes, and the child watch z2 had set on /consumers/legacy/ids fired; z2 rebalanced itself and now owns all six (/owners data: ${[...new Set(owners(w))].join(', ')}).`,
      },
    },
  ],
});
