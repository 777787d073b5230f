/**
 * The clusters a scenario starts from, built only through the engine's own operations (add a
 * broker, create a topic, start clients), so a preset is just the first few actions of a run.
 */
import type { ClusterApps } from './ClusterApps';
import type { PresetName } from './types';

export interface Preset {
  label: string;
  description: string;
  build(plane: ClusterApps): void;
}

function brokers(plane: ClusterApps, racks: (string | null)[]): void {
  racks.forEach((rack, i) => {
    plane.cluster.addBroker(rack === null ? { id: i + 1 } : { id: i + 1, rack });
  });
  // Let the brokers register and elect a controller.
  plane.tick(100);
}

export const PRESETS: Record<PresetName, Preset> = {
  demo: {
    label: 'Demo cluster',
    description: 'Three brokers on two racks, topic orders (6 partitions, RF 3), two consumer groups.',
    build(plane) {
      brokers(plane, ['rack-a', 'rack-b', 'rack-a']);
      plane.cluster.createTopic({
        name: 'orders',
        partitions: 6,
        replicationFactor: 3,
        fixedStartIndex: 0,
        configs: { 'min.insync.replicas': 2 },
      });
      plane.tick(200);
      plane.apply({ op: 'addGroup', group: 'billing', assignor: 'range' });
      plane.apply({ op: 'addGroup', group: 'analytics', assignor: 'roundrobin' });
      for (const name of ['c1', 'c2', 'c3']) plane.apply({ op: 'addConsumer', group: 'billing', name });
      for (const name of ['c4', 'c5']) plane.apply({ op: 'addConsumer', group: 'analytics', name });
      plane.actions.length = 0;
      plane.startTrickle('orders', 4);
    },
  },
  empty4: {
    label: 'Four brokers, no racks',
    description: "The seeds' placement example without racks: brokers 1-4, no topics yet.",
    build(plane) {
      brokers(plane, [null, null, null, null]);
    },
  },
  racks4: {
    label: 'Four brokers, two racks',
    description: "The seeds' placement example with racks: brokers 1, 2 on rack-1 and 3, 4 on rack-2.",
    build(plane) {
      brokers(plane, ['rack-1', 'rack-1', 'rack-2', 'rack-2']);
    },
  },
  eight: {
    label: 'Eight brokers',
    description: "The seeds' 13 + 19 partitions example: brokers 1-8, no topics yet.",
    build(plane) {
      brokers(plane, [null, null, null, null, null, null, null, null]);
    },
  },
  elections: {
    label: 'Elections',
    description: 'Three brokers and topic payments (1 partition, RF 3) with unclean leader election allowed.',
    build(plane) {
      brokers(plane, [null, null, null]);
      plane.cluster.createTopic({
        name: 'payments',
        partitions: 1,
        replicationFactor: 3,
        fixedStartIndex: 0,
        configs: { 'unclean.leader.election.enable': true },
      });
      plane.tick(200);
    },
  },
  large: {
    label: 'Large (scale test)',
    description: '50 brokers on 5 racks, 1,000 partitions, 20 groups of 25 consumers.',
    build(plane) {
      brokers(
        plane,
        Array.from({ length: 50 }, (_, i) => `rack-${(i % 5) + 1}`),
      );
      for (let t = 0; t < 10; t++) {
        plane.cluster.createTopic({ name: t === 0 ? 'orders' : `topic-${t}`, partitions: 100, replicationFactor: 3 });
      }
      plane.tick(200);
      for (let g = 1; g <= 20; g++) {
        plane.apply({ op: 'addGroup', group: `group-${g}`, assignor: 'range' });
        for (let i = 1; i <= 25; i++) plane.apply({ op: 'addConsumer', group: `group-${g}`, name: `g${g}-c${i}` });
      }
      plane.actions.length = 0;
      plane.startTrickle('orders', 50);
    },
  },
};
