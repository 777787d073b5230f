import { describe, expect, it } from 'vitest';
import { ManualClock } from '../Clock';
import { isKafkaError } from '../errors';
import { Cluster } from './Cluster';
import { hasCollision, hasCollisionChars, unifyCollisionChars } from './TopicCollision';

function cluster() {
  const c = new Cluster({ clock: new ManualClock(0), seed: 1, emit: () => {} });
  c.addBroker({ id: 1 });
  c.tick(100);
  return c;
}

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (e) {
    return e;
  }
  return undefined;
}

describe("topic names that differ only in '.' and '_' collide (Kafka's Topic.hasCollision)", () => {
  it('unifies like Topic.unifyCollisionChars and spots collision chars like Topic.hasCollisionChars', () => {
    // Topic.java: unifyCollisionChars(topic) = topic.replace('.', '_'); hasCollisionChars = contains '_' or '.'.
    expect(unifyCollisionChars('a.b.c_d')).toBe('a_b_c_d');
    expect(hasCollisionChars('orders')).toBe(false);
    expect(hasCollisionChars('col.x')).toBe(true);
    expect(hasCollisionChars('col_x')).toBe(true);
    expect(hasCollision('col.x', 'col_x')).toBe(true);
    expect(hasCollision('col.x', 'col-x')).toBe(false);
  });

  it("refuses col_x beside col.x with AdminZkClient's message, and creates nothing", () => {
    const c = cluster();
    c.createTopic({ name: 'col.x', partitions: 1, replicationFactor: 1 });
    const e = thrown(() => c.createTopic({ name: 'col_x', partitions: 1, replicationFactor: 1 }));
    expect(isKafkaError(e, 'INVALID_TOPIC_EXCEPTION')).toBe(true);
    // AdminZkClient.validateTopicCreate: s"Topic '$topic' collides with existing topics: ${collidingTopics.mkString(", ")}"
    expect((e as Error).message).toBe("INVALID_TOPIC_EXCEPTION: Topic 'col_x' collides with existing topics: col.x");
    expect(c.topicNames()).toEqual(['col.x']);
    expect(c.zk.exists('/config/topics/col_x')).toBeFalsy();
  });

  it('still says TOPIC_ALREADY_EXISTS for the same name, and lets unrelated names through', () => {
    const c = cluster();
    c.createTopic({ name: 'a_b', partitions: 1, replicationFactor: 1 });
    expect(
      isKafkaError(
        thrown(() => c.createTopic({ name: 'a_b', partitions: 1 })),
        'TOPIC_ALREADY_EXISTS',
      ),
    ).toBe(true);
    c.createTopic({ name: 'a-b', partitions: 1, replicationFactor: 1 });
    expect(c.topicNames().sort()).toEqual(['a-b', 'a_b']);
  });
});
