import { OFFSETS_TOPIC } from '../coordinator/group/GroupCoordinator';
import { groupCoordinatorPartition } from '../coordinator/group/groupCoordinatorPartition';
import type {
  GroupRequest,
  GroupResponse,
  HeartbeatResponse,
  SyncGroupResponse,
} from '../clients/consumer/groupProtocol';
import type { GroupTestBed } from './GroupTestBed';
import { encodeSubscription } from '../clients/consumer/offsetsSchema';

/** A consumer-protocol Subscription (v3) to topic t with nothing owned: the metadata the raw joins send. */
export const SUBSCRIPTION_TO_T = encodeSubscription({
  version: 3,
  topics: ['t'],
  userData: null,
  ownedPartitions: [],
  generationId: -1,
  rackId: null,
});

/**
 * Test helper: hand-driven clients sending raw group requests to the group's coordinator (the
 * leader of its `__consumer_offsets` partition), as Kafka's GroupCoordinatorTest drives it; each
 * answer lands in the returned box.
 */
export class GroupWire {
  readonly coordinator: number;
  constructor(
    readonly bed: GroupTestBed,
    readonly groupId = 'g',
  ) {
    bed.groups.ensureOffsetsTopic();
    this.coordinator = bed.port.leaderOf(OFFSETS_TOPIC, groupCoordinatorPartition(groupId)) as number;
  }

  send<R extends GroupResponse = GroupResponse>(from: string, request: GroupRequest): { response: R | null } {
    const box: { response: R | null } = { response: null };
    this.bed.groups.network.send(from, this.coordinator, request, (r) => {
      box.response = r as R;
    });
    return box;
  }

  /** SyncGroup for the range protocol with no assignments (a follower's, or a leader's that assigns nothing). */
  syncGroup(from: string, memberId: string, generationId: number, groupInstanceId: string | null = null) {
    return this.send<SyncGroupResponse>(from, {
      api: 'SyncGroup',
      ...this.asMember(memberId, generationId, groupInstanceId),
      protocolType: 'consumer',
      protocolName: 'range',
      assignments: [],
    });
  }

  heartbeatGroup(from: string, memberId: string, generationId: number, groupInstanceId: string | null = null) {
    return this.send<HeartbeatResponse>(from, {
      api: 'Heartbeat',
      ...this.asMember(memberId, generationId, groupInstanceId),
    });
  }

  /** The fields by which SyncGroup and Heartbeat name the member and generation they speak for. */
  private asMember(memberId: string, generationId: number, groupInstanceId: string | null) {
    return { groupId: this.groupId, generationId, memberId, groupInstanceId };
  }
}
