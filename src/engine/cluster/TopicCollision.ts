import { KafkaError } from '../errors';

/**
 * Topic names that differ only in '.' versus '_' collide: Kafka's metric names replace '.' by
 * '_', so `col.x` and `col_x` would report as one topic. Kafka refuses to create the second
 * (org.apache.kafka.common.internals.Topic.hasCollisionChars / unifyCollisionChars /
 * hasCollision, checked by AdminZkClient.validateTopicCreate).
 */
export function hasCollisionChars(topic: string): boolean {
  return topic.includes('_') || topic.includes('.');
}

/** The name as metrics see it: every '.' becomes '_'. */
export function unifyCollisionChars(topic: string): string {
  return topic.replaceAll('.', '_');
}

export function hasCollision(a: string, b: string): boolean {
  return unifyCollisionChars(a) === unifyCollisionChars(b);
}

/**
 * Throws INVALID_TOPIC_EXCEPTION when `topic` collides with an existing topic other than itself,
 * with Kafka's message ("Topic 'col_x' collides with existing topics: col.x").
 */
export function ensureNoCollision(topic: string, existing: Iterable<string>): void {
  if (!hasCollisionChars(topic)) return;
  const colliding = [...existing].filter((t) => t !== topic && hasCollision(topic, t));
  if (colliding.length > 0)
    throw new KafkaError(
      'INVALID_TOPIC_EXCEPTION',
      `Topic '${topic}' collides with existing topics: ${colliding.join(', ')}`,
      { topic, colliding },
    );
}
