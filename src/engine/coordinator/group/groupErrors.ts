import type { KafkaErrorCode } from '../../errors';
import type { GroupErrorCode, JoinGroupResponse, SyncGroupResponse } from '../../clients/consumer/groupProtocol';

// The coordinator's error answers for the classic group protocol.

/** A JoinGroup that failed: no generation, no members (Kafka's JoinGroupResponse for an error). */
export function joinError(errorCode: GroupErrorCode, memberId: string): JoinGroupResponse {
  return {
    api: 'JoinGroup',
    errorCode,
    generationId: -1,
    protocolType: null,
    protocolName: null,
    leader: '',
    skipAssignment: false,
    memberId,
    members: [],
  };
}

export function syncError(errorCode: GroupErrorCode): SyncGroupResponse {
  return { api: 'SyncGroup', errorCode, protocolType: null, protocolName: null, assignment: new Uint8Array(0) };
}

/** How a failed write surfaces to group clients (Kafka's appendRecords error mapping). */
export function coordinatorWriteError(error: KafkaErrorCode): GroupErrorCode {
  switch (error) {
    case 'UNKNOWN_TOPIC_OR_PARTITION':
    case 'NOT_ENOUGH_REPLICAS':
    case 'NOT_ENOUGH_REPLICAS_AFTER_APPEND':
    case 'REQUEST_TIMED_OUT':
      return 'COORDINATOR_NOT_AVAILABLE';
    case 'NOT_LEADER_OR_FOLLOWER':
    case 'KAFKA_STORAGE_ERROR':
      return 'NOT_COORDINATOR';
    default:
      return error;
  }
}
