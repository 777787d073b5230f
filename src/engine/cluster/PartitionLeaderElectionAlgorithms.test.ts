import { describe, expect, it } from 'vitest';
import {
  controlledShutdownPartitionLeaderElection,
  offlinePartitionLeaderElection,
  preferredReplicaPartitionLeaderElection,
  reassignPartitionLeaderElection,
} from './PartitionLeaderElectionAlgorithms';

// Every case from apache/kafka core/src/test/scala/unit/kafka/controller/PartitionLeaderElectionAlgorithmsTest.scala
describe('PartitionLeaderElectionAlgorithms (Kafka test cases)', () => {
  const set = (...xs: number[]) => new Set(xs);

  it('testOfflinePartitionLeaderElection', () => {
    expect(offlinePartitionLeaderElection([2, 4], [2, 4], set(4), false)).toEqual({ leader: 4, unclean: false });
  });
  it('testOfflinePartitionLeaderElectionLastIsrOfflineUncleanLeaderElectionDisabled', () => {
    expect(offlinePartitionLeaderElection([2, 4], [2], set(4), false)).toBeNull();
  });
  it('testOfflinePartitionLeaderElectionLastIsrOfflineUncleanLeaderElectionEnabled', () => {
    expect(offlinePartitionLeaderElection([2, 4], [2], set(4), true)).toEqual({ leader: 4, unclean: true });
  });
  it('testReassignPartitionLeaderElection (and with no live ISR, with an empty ISR)', () => {
    expect(reassignPartitionLeaderElection([2, 4], [2, 4], set(4))).toBe(4);
    expect(reassignPartitionLeaderElection([2, 4], [2], set())).toBeNull();
    expect(reassignPartitionLeaderElection([2, 4], [], set(2))).toBeNull();
  });
  it('testPreferredReplicaPartitionLeaderElection (and its three refusals)', () => {
    expect(preferredReplicaPartitionLeaderElection([2, 4], [2, 4], set(2, 4))).toBe(2);
    expect(preferredReplicaPartitionLeaderElection([2, 4], [2], set())).toBeNull();
    expect(preferredReplicaPartitionLeaderElection([2, 4], [4], set(2, 4))).toBeNull();
    expect(preferredReplicaPartitionLeaderElection([2, 4], [], set())).toBeNull();
  });
  it('testControlledShutdownPartitionLeaderElection (and the last ISR / all ISR shutting down)', () => {
    expect(controlledShutdownPartitionLeaderElection([2, 4], [2, 4], set(2, 4), set(2))).toBe(4);
    expect(controlledShutdownPartitionLeaderElection([2, 4], [2], set(2, 4), set(2))).toBeNull();
    expect(controlledShutdownPartitionLeaderElection([2, 4], [2, 4], set(2, 4), set(2, 4))).toBeNull();
  });
  it('walks the assignment, not the ISR order (the seeds say "the first ISR member"; Kafka means in assignment order)', () => {
    expect(offlinePartitionLeaderElection([1, 2, 3], [3, 2], set(2, 3), false)).toEqual({ leader: 2, unclean: false });
  });
});
