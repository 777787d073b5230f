import type { Cluster } from './Cluster';
import type { Partition } from './Partition';

/**
 * The replication invariants, checked against every running broker's own state:
 *
 *  - for a follower in the leader's ISR: follower HW <= leader HW <= follower LEO <= leader LEO
 *  - for every follower: follower HW <= leader HW
 *  - at most one leader per partition per leader epoch (kept by the cluster as leaders arise)
 *
 * A follower is compared with the leader it follows only once it has fetched from that leader
 * in the current leader epoch (its HW was learned from it): right after an election a follower
 * may still carry the HW it learned from the previous leader, which Kafka also allows.
 *
 * Returns the violations as sentences; an empty list means all hold.
 */
export function checkReplicationInvariants(target: Cluster | { cluster: Cluster }): string[] {
  const cluster = 'cluster' in target ? target.cluster : target;
  const violations = [...cluster.violations];
  const byPartition = new Map<string, Partition[]>();
  for (const b of cluster.brokers.values()) {
    if (b.state === 'down') continue;
    for (const [key, p] of b.replicaManager.partitions) {
      const list = byPartition.get(key) ?? [];
      list.push(p);
      byPartition.set(key, list);
    }
  }
  for (const [key, replicas] of byPartition) {
    const leaders = replicas.filter((p) => p.isLeader);
    const epochs = new Map<number, number>();
    for (const l of leaders) {
      const other = epochs.get(l.leaderEpoch);
      if (other !== undefined)
        violations.push(`${key}: brokers ${other} and ${l.brokerId} both lead epoch ${l.leaderEpoch}`);
      epochs.set(l.leaderEpoch, l.brokerId);
    }
    const leader = leaders.sort((a, b) => b.leaderEpoch - a.leaderEpoch)[0];
    if (!leader) continue;
    if (leader.highWatermark > leader.logEndOffset())
      violations.push(
        `${key}: leader ${leader.brokerId} HW ${leader.highWatermark} > its LEO ${leader.logEndOffset()}`,
      );
    for (const f of replicas) {
      if (f === leader || f.isLeader) continue;
      if (f.leaderId !== leader.brokerId || f.leaderEpoch !== leader.leaderEpoch) continue;
      if (f.highWatermarkEpoch !== leader.leaderEpoch) continue;
      const fHw = f.highWatermark;
      const fLeo = f.logEndOffset();
      const lHw = leader.highWatermark;
      const lLeo = leader.logEndOffset();
      if (fHw > lHw) violations.push(`${key}: follower ${f.brokerId} HW ${fHw} > leader ${leader.brokerId} HW ${lHw}`);
      if (leader.isr.includes(f.brokerId)) {
        if (lHw > fLeo)
          violations.push(`${key}: leader ${leader.brokerId} HW ${lHw} > ISR follower ${f.brokerId} LEO ${fLeo}`);
        if (fLeo > lLeo)
          violations.push(`${key}: ISR follower ${f.brokerId} LEO ${fLeo} > leader ${leader.brokerId} LEO ${lLeo}`);
      }
    }
  }
  return violations;
}
