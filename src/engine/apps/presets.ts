/**
 * The clusters a scenario starts from, built only through the engine's own operations (add a
 * broker, create a topic, start clients), so a preset is just the first few actions of a run.
 *
 * A preset has three parts, because a restart from the Store keeps only some of them: the
 * deployment (`racks`: brokers 1..n, what each broker's server.properties says), the cluster's
 * metadata (topics, made with `board.presetTopic`, which lives in ZooKeeper and is not made again
 * on a restart), and the applications around the cluster (groups, consumers, producers), which
 * start again with every restart.
 */
import type { CreateTopicOptions } from '../index';
import type { PresetName, ScenarioAction } from './types';

/** What a preset builds on: a ClusterApps, while it starts. */
export interface PresetTarget {
  /** A topic of the preset (not made again on a restart: it is in the znodes). */
  presetTopic(options: CreateTopicOptions): void;
  tick(ms: number): void;
  apply(action: ScenarioAction): unknown;
  /** The preset's own actions are not the scenario's: they are forgotten once it is built. */
  readonly recorder: { clear(): void };
  startTrickle(topic: string, perSecond: number): void;
}

export interface Preset {
  label: string;
  description: string;
  /** One broker per entry (ids 1, 2, ...), with its rack or none. */
  racks: (string | null)[];
  /** Runs after the brokers registered and elected a controller. */
  build(apps: PresetTarget): void;
}

export const PRESETS: Record<PresetName, Preset> = {
  demo: {
    label: 'Demo cluster',
    description: 'Three brokers on two racks, topic orders (6 partitions, RF 3), two consumer groups.',
    racks: ['rack-a', 'rack-b', 'rack-a'],
    build(apps) {
      apps.presetTopic({
        name: 'orders',
        partitions: 6,
        replicationFactor: 3,
        fixedStartIndex: 0,
        configs: { 'min.insync.replicas': 2 },
      });
      apps.tick(200);
      apps.apply({ op: 'addGroup', group: 'billing', assignor: 'range' });
      apps.apply({ op: 'addGroup', group: 'analytics', assignor: 'roundrobin' });
      for (const name of ['c1', 'c2', 'c3']) apps.apply({ op: 'addConsumer', group: 'billing', name });
      for (const name of ['c4', 'c5']) apps.apply({ op: 'addConsumer', group: 'analytics', name });
      apps.recorder.clear();
      apps.startTrickle('orders', 4);
    },
  },
  empty4: {
    label: 'Four brokers, no racks',
    description: "The seeds' placement example without racks: brokers 1-4, no topics yet.",
    racks: [null, null, null, null],
    build() {},
  },
  racks4: {
    label: 'Four brokers, two racks',
    description: "The seeds' placement example with racks: brokers 1, 2 on rack-1 and 3, 4 on rack-2.",
    racks: ['rack-1', 'rack-1', 'rack-2', 'rack-2'],
    build() {},
  },
  eight: {
    label: 'Eight brokers',
    description: "The seeds' 13 + 19 partitions example: brokers 1-8, no topics yet.",
    racks: [null, null, null, null, null, null, null, null],
    build() {},
  },
  elections: {
    label: 'Elections',
    description: 'Three brokers and topic payments (1 partition, RF 3) with unclean leader election allowed.',
    racks: [null, null, null],
    build(apps) {
      apps.presetTopic({
        name: 'payments',
        partitions: 1,
        replicationFactor: 3,
        fixedStartIndex: 0,
        configs: { 'unclean.leader.election.enable': true },
      });
      apps.tick(200);
    },
  },
  large: {
    label: 'Large (scale test)',
    description: '50 brokers on 5 racks, 1,000 partitions, 20 groups of 25 consumers.',
    racks: Array.from({ length: 50 }, (_, i) => `rack-${(i % 5) + 1}`),
    build(apps) {
      for (let t = 0; t < 10; t++) {
        apps.presetTopic({ name: t === 0 ? 'orders' : `topic-${t}`, partitions: 100, replicationFactor: 3 });
      }
      apps.tick(200);
      for (let g = 1; g <= 20; g++) {
        apps.apply({ op: 'addGroup', group: `group-${g}`, assignor: 'range' });
        for (let i = 1; i <= 25; i++) apps.apply({ op: 'addConsumer', group: `group-${g}`, name: `g${g}-c${i}` });
      }
      apps.recorder.clear();
      apps.startTrickle('orders', 50);
    },
  },
  node: {
    label: 'Node host',
    description: 'The brokers of `npm run broker`: real Kafka clients make the topics, producers and groups.',
    // NodeHost deploys its own --brokers (AppsStorage.deployment); three when it does not say.
    racks: [null, null, null],
    build() {},
  },
};
