import { DEMO_CLEANUP_INTERVALS } from './types';

/** Broker and client settings of the UI's clusters: Kafka's semantics, timeouts short enough to watch. */
export const DEMO_BROKER_CONFIG = {
  'zookeeper.session.timeout.ms': 6000,
  'replica.lag.time.max.ms': 5000,
  'min.insync.replicas': 1,
  ...DEMO_CLEANUP_INTERVALS,
} as const;
export const DEMO_CONSUMER_CONFIG = {
  'session.timeout.ms': 10_000,
  'heartbeat.interval.ms': 1000,
  'auto.commit.interval.ms': 1000,
  'auto.offset.reset': 'earliest',
} as const;
