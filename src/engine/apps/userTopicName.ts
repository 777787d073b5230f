import { ensureNoCollision, validateTopicName, KafkaError } from '../index';

/**
 * The page's rule for a topic it creates (the create-topic dialog, a scenario's createTopic, an
 * import): Kafka's own rules (Topic.validate: 1-249 of [a-zA-Z0-9._-], not "." or "..", and no
 * '.'/'_' collision with an existing topic), plus one of glassbox's: a name starting with "__" is
 * reserved for internal topics. Kafka itself only refuses the internal names it owns
 * (`__consumer_offsets`, `__transaction_state`), but the page treats every "__" topic as internal
 * and hides it, so creating one would make a topic nobody can see (a deliberate deviation).
 */
export function validateUserTopicName(name: string, existing: Iterable<string>): void {
  validateTopicName(name);
  if (name.startsWith('__'))
    throw new KafkaError(
      'INVALID_TOPIC_EXCEPTION',
      `Topic name "${name}" is reserved: names starting with "__" are for internal topics (like __consumer_offsets), which glassbox does not list among your topics.`,
      { topic: name },
    );
  ensureNoCollision(name, existing);
}
