import { MapStore } from '../log/testSupport';
import { describe, expect, it } from 'vitest';
import { isKafkaError } from '../errors';
import { ClusterApps } from './ClusterApps';
import { MAX_TOPIC_PARTITIONS, type ScenarioAction } from './types';

function refusal(apps: ClusterApps, action: ScenarioAction) {
  const topicsBefore = apps.cluster.topicNames();
  let error: unknown;
  try {
    apps.apply(action);
  } catch (e) {
    error = e;
  }
  expect(apps.cluster.topicNames()).toEqual(topicsBefore);
  expect(isKafkaError(error)).toBe(true);
  return error as Error & { code: string };
}

const topic = (name: string, partitions = 2, replicationFactor = 1): ScenarioAction => ({
  op: 'createTopic',
  name,
  partitions,
  replicationFactor,
  rackAware: false,
  startIndex: 0,
});

describe("the page's createTopic", () => {
  it('names its error once: "INVALID_REPLICATION_FACTOR: Replication factor: ..." (no doubled code)', () => {
    const apps = new ClusterApps(1, 'empty4', { store: new MapStore() });
    apps.tick(300);
    const e = refusal(apps, topic('wide', 2, 9));
    expect(e.code).toBe('INVALID_REPLICATION_FACTOR');
    // AdminUtils.assignReplicasToBrokers: "Replication factor: 9 larger than available brokers: 4."
    expect(e.message).toBe('INVALID_REPLICATION_FACTOR: Replication factor: 9 larger than available brokers: 4.');
  });

  it(`refuses more than ${MAX_TOPIC_PARTITIONS} partitions, a "__" name, and a '.'/'_' collision`, () => {
    const apps = new ClusterApps(1, 'empty4', { store: new MapStore() });
    apps.tick(300);
    expect(refusal(apps, topic('wide', 5000)).code).toBe('INVALID_PARTITIONS');
    expect(refusal(apps, topic('__secret')).code).toBe('INVALID_TOPIC_EXCEPTION');
    apps.apply(topic('col.x'));
    const e = refusal(apps, topic('col_x'));
    expect(e.message).toBe("INVALID_TOPIC_EXCEPTION: Topic 'col_x' collides with existing topics: col.x");
  });
});
