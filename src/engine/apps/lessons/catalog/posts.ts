/**
 * The source posts the lessons follow (DESIGN.md's seeds), named by their titles rather than their
 * file numbers: a lesson's header shows its concept and cites the post in a tooltip.
 */
export const POSTS = {
  /** seeds/000: partitions, segments and index files, replication, the controller, consumer groups. */
  architecture: 'the post “kafka 架构及其原理” (Kafka’s architecture and principles, seed 000)',
  /** seeds/001: reading notes on the book “Apache Kafka 实战”, the producer and batching. */
  practice: 'the reading notes on “Apache Kafka 实战” (Apache Kafka in practice, seed 001)',
  /** seeds/002: partitions, ZooKeeper and the old consumer's rebalance. */
  zookeeper: 'the post on partitions, ZooKeeper and consumer rebalance (seed 002)',
} as const;

/** A lesson's source line: what it takes from which post. */
export function after(post: keyof typeof POSTS, what: string): string {
  return `After ${POSTS[post]}: ${what}`;
}
