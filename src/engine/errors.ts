/**
 * Kafka's error codes, spelled as Kafka spells them (org.apache.kafka.common.protocol.Errors).
 * Every failure the engine reports to a caller is a KafkaError carrying one of these names,
 * so the UI and tests can match on `error.code` exactly as a Kafka client would.
 */
export type KafkaErrorCode =
  | 'CORRUPT_MESSAGE'
  | 'INVALID_RECORD'
  | 'INVALID_CONFIG'
  | 'OFFSET_OUT_OF_RANGE'
  | 'MESSAGE_TOO_LARGE'
  | 'RECORD_LIST_TOO_LARGE'
  | 'UNSUPPORTED_COMPRESSION_TYPE'
  | 'INVALID_TOPIC_EXCEPTION'
  | 'TOPIC_ALREADY_EXISTS'
  | 'INVALID_PARTITIONS'
  | 'INVALID_REPLICATION_FACTOR'
  | 'INVALID_REPLICA_ASSIGNMENT'
  | 'UNKNOWN_TOPIC_OR_PARTITION'
  | 'NOT_LEADER_OR_FOLLOWER'
  | 'LEADER_NOT_AVAILABLE'
  | 'NOT_ENOUGH_REPLICAS'
  | 'NOT_ENOUGH_REPLICAS_AFTER_APPEND'
  | 'REQUEST_TIMED_OUT'
  | 'NETWORK_EXCEPTION'
  | 'STALE_CONTROLLER_EPOCH'
  | 'FENCED_LEADER_EPOCH'
  | 'UNKNOWN_LEADER_EPOCH'
  | 'BROKER_NOT_AVAILABLE'
  | 'OUT_OF_ORDER_SEQUENCE_NUMBER'
  | 'DUPLICATE_SEQUENCE_NUMBER'
  | 'INVALID_PRODUCER_EPOCH'
  | 'COORDINATOR_NOT_AVAILABLE'
  | 'NOT_COORDINATOR'
  | 'COORDINATOR_LOAD_IN_PROGRESS'
  | 'ILLEGAL_GENERATION'
  | 'UNKNOWN_MEMBER_ID'
  | 'REBALANCE_IN_PROGRESS'
  | 'INCONSISTENT_GROUP_PROTOCOL'
  | 'INVALID_GROUP_ID'
  | 'GROUP_ID_NOT_FOUND'
  | 'NON_EMPTY_GROUP'
  | 'MEMBER_ID_REQUIRED'
  | 'FENCED_INSTANCE_ID'
  | 'INVALID_SESSION_TIMEOUT'
  | 'GROUP_MAX_SIZE_REACHED'
  | 'INVALID_COMMIT_OFFSET_SIZE'
  | 'KAFKA_STORAGE_ERROR'
  | 'NODE_EXISTS'
  | 'NO_NODE'
  | 'INVALID_REQUEST'
  | 'UNSUPPORTED_VERSION'
  | 'INVALID_REQUIRED_ACKS'
  | 'NOT_CONTROLLER'
  | 'STALE_BROKER_EPOCH'
  | 'PREFERRED_LEADER_NOT_AVAILABLE'
  | 'ELECTION_NOT_NEEDED'
  | 'ELIGIBLE_LEADERS_NOT_AVAILABLE'
  | 'NO_REASSIGNMENT_IN_PROGRESS'
  | 'UNKNOWN_PRODUCER_ID'
  | 'UNKNOWN_SERVER_ERROR'
  | 'BAD_VERSION'
  | 'NOT_EMPTY'
  // consumer groups
  | 'OFFSET_METADATA_TOO_LARGE'
  | 'UNSTABLE_OFFSET_COMMIT'
  | 'OFFSET_NOT_AVAILABLE'
  // cluster (AlterPartition)
  | 'INVALID_UPDATE_VERSION'
  | 'INELIGIBLE_REPLICA'
  | 'MISMATCHED_ENDPOINT_TYPE'
  | 'UNSUPPORTED_ENDPOINT_TYPE'
  // the Admin APIs
  | 'TOPIC_DELETION_DISABLED'
  | 'REASSIGNMENT_IN_PROGRESS'
  | 'GROUP_SUBSCRIBED_TO_TOPIC'
  | 'UNKNOWN_TOPIC_ID';

/** Kafka's numeric code for each error name, as on the wire. */
export const KAFKA_ERROR_NUMBERS: Readonly<Record<KafkaErrorCode, number>> = {
  OFFSET_OUT_OF_RANGE: 1,
  CORRUPT_MESSAGE: 2,
  UNKNOWN_TOPIC_OR_PARTITION: 3,
  LEADER_NOT_AVAILABLE: 5,
  NOT_LEADER_OR_FOLLOWER: 6,
  REQUEST_TIMED_OUT: 7,
  BROKER_NOT_AVAILABLE: 8,
  MESSAGE_TOO_LARGE: 10,
  RECORD_LIST_TOO_LARGE: 18,
  STALE_CONTROLLER_EPOCH: 11,
  NETWORK_EXCEPTION: 13,
  COORDINATOR_LOAD_IN_PROGRESS: 14,
  COORDINATOR_NOT_AVAILABLE: 15,
  NOT_COORDINATOR: 16,
  INVALID_TOPIC_EXCEPTION: 17,
  NOT_ENOUGH_REPLICAS: 19,
  NOT_ENOUGH_REPLICAS_AFTER_APPEND: 20,
  ILLEGAL_GENERATION: 22,
  INCONSISTENT_GROUP_PROTOCOL: 23,
  INVALID_GROUP_ID: 24,
  UNKNOWN_MEMBER_ID: 25,
  INVALID_SESSION_TIMEOUT: 26,
  REBALANCE_IN_PROGRESS: 27,
  INVALID_COMMIT_OFFSET_SIZE: 28,
  TOPIC_ALREADY_EXISTS: 36,
  INVALID_PARTITIONS: 37,
  INVALID_REPLICATION_FACTOR: 38,
  INVALID_REPLICA_ASSIGNMENT: 39,
  INVALID_CONFIG: 40,
  INVALID_REQUEST: 42,
  UNSUPPORTED_VERSION: 35,
  INVALID_REQUIRED_ACKS: 21,
  OUT_OF_ORDER_SEQUENCE_NUMBER: 45,
  DUPLICATE_SEQUENCE_NUMBER: 46,
  INVALID_PRODUCER_EPOCH: 47,
  KAFKA_STORAGE_ERROR: 56,
  UNSUPPORTED_COMPRESSION_TYPE: 76,
  FENCED_LEADER_EPOCH: 74,
  UNKNOWN_LEADER_EPOCH: 75,
  MEMBER_ID_REQUIRED: 79,
  FENCED_INSTANCE_ID: 82,
  GROUP_ID_NOT_FOUND: 69,
  NON_EMPTY_GROUP: 68,
  GROUP_MAX_SIZE_REACHED: 81,
  INVALID_RECORD: 87,
  // Not Kafka wire errors: ZooKeeper's KeeperException codes for the coordination store.
  NODE_EXISTS: -110,
  NO_NODE: -101,
  NOT_CONTROLLER: 41,
  STALE_BROKER_EPOCH: 77,
  PREFERRED_LEADER_NOT_AVAILABLE: 80,
  ELECTION_NOT_NEEDED: 84,
  ELIGIBLE_LEADERS_NOT_AVAILABLE: 83,
  NO_REASSIGNMENT_IN_PROGRESS: 85,
  UNKNOWN_PRODUCER_ID: 59,
  UNKNOWN_SERVER_ERROR: -1,
  // ZooKeeper KeeperException codes, like NODE_EXISTS / NO_NODE above.
  BAD_VERSION: -103,
  NOT_EMPTY: -111,
  // consumer groups
  OFFSET_METADATA_TOO_LARGE: 12,
  UNSTABLE_OFFSET_COMMIT: 88,
  OFFSET_NOT_AVAILABLE: 78,
  // cluster (AlterPartition)
  INVALID_UPDATE_VERSION: 95,
  INELIGIBLE_REPLICA: 107,
  // DescribeCluster v1 (KIP-919)
  MISMATCHED_ENDPOINT_TYPE: 114,
  UNSUPPORTED_ENDPOINT_TYPE: 115,
  // the Admin APIs
  TOPIC_DELETION_DISABLED: 73,
  REASSIGNMENT_IN_PROGRESS: 60,
  GROUP_SUBSCRIBED_TO_TOPIC: 86,
  UNKNOWN_TOPIC_ID: 100,
};

/** The one error type the engine throws or reports. `code` is Kafka's error name. */
export class KafkaError extends Error {
  readonly code: KafkaErrorCode;
  /** Structured facts about the failure (offset, position, limit...), for the UI and tests. */
  readonly details: Readonly<Record<string, unknown>>;
  /**
   * The message without its code. `message` is "<code>: <reason>", written here and nowhere else:
   * whoever shows an error shows `message` as it is, and whoever wraps one passes `reason` on.
   */
  readonly reason: string;

  constructor(code: KafkaErrorCode, message: string, details: Record<string, unknown> = {}) {
    super(`${code}: ${message}`);
    this.name = 'KafkaError';
    this.code = code;
    this.details = details;
    this.reason = message;
  }
}

/** CORRUPT_MESSAGE raised by decoders: the only thing a decoder may throw, whatever the bytes. */
export class CorruptRecordError extends KafkaError {
  constructor(message: string, details: Record<string, unknown> = {}) {
    super('CORRUPT_MESSAGE', message, details);
    this.name = 'CorruptRecordError';
  }
}

export function isKafkaError(e: unknown, code?: KafkaErrorCode): e is KafkaError {
  return e instanceof KafkaError && (code === undefined || e.code === code);
}

/**
 * Kafka's controller state machines (PartitionStateMachine, ReplicaStateMachine) refuse a
 * transition from a state not in the target's valid previous states and log this Java exception
 * (logInvalidTransition). Not a Kafka error code: it never leaves the controller.
 */
export class IllegalStateException extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IllegalStateException';
  }
}

/**
 * Java's IllegalArgumentException, which Kafka's storage and transaction code throw for a call
 * that breaks their contract (an aborted transaction appended out of order, an end-transaction
 * marker of a type other than COMMIT or ABORT). Not a Kafka error code: a bug, never an answer.
 */
export class IllegalArgumentException extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IllegalArgumentException';
  }
}
