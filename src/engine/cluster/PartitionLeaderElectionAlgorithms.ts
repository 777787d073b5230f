/**
 * How the controller picks a partition leader (Kafka's PartitionLeaderElectionAlgorithms). Each
 * walks the replicas in assignment order — not ISR order — and returns the first that qualifies,
 * or null when none does (the partition then stays offline, or keeps its leader).
 */

/**
 * A leader died: the first assigned replica that is alive and in the ISR; failing that, with
 * unclean.leader.election.enable, the first assigned replica that is alive at all (an unclean
 * election: records only the old leader had are lost).
 */
export function offlinePartitionLeaderElection(
  assignment: readonly number[],
  isr: readonly number[],
  liveReplicas: ReadonlySet<number>,
  uncleanLeaderElectionEnabled: boolean,
): { leader: number; unclean: boolean } | null {
  const clean = assignment.find((id) => liveReplicas.has(id) && isr.includes(id));
  if (clean !== undefined) return { leader: clean, unclean: false };
  if (!uncleanLeaderElectionEnabled) return null;
  const any = assignment.find((id) => liveReplicas.has(id));
  return any === undefined ? null : { leader: any, unclean: true };
}

/** A reassignment finishing: the first replica of the target assignment alive and in the ISR. */
export function reassignPartitionLeaderElection(
  reassignment: readonly number[],
  isr: readonly number[],
  liveReplicas: ReadonlySet<number>,
): number | null {
  return reassignment.find((id) => liveReplicas.has(id) && isr.includes(id)) ?? null;
}

/** The preferred replica (the first assigned), if it is alive and in the ISR. */
export function preferredReplicaPartitionLeaderElection(
  assignment: readonly number[],
  isr: readonly number[],
  liveReplicas: ReadonlySet<number>,
): number | null {
  const preferred = assignment[0];
  return preferred !== undefined && liveReplicas.has(preferred) && isr.includes(preferred) ? preferred : null;
}

/** A broker shutting down: the first assigned replica alive, in the ISR and not shutting down. */
export function controlledShutdownPartitionLeaderElection(
  assignment: readonly number[],
  isr: readonly number[],
  liveReplicas: ReadonlySet<number>,
  shuttingDownBrokers: ReadonlySet<number>,
): number | null {
  return assignment.find((id) => liveReplicas.has(id) && isr.includes(id) && !shuttingDownBrokers.has(id)) ?? null;
}
