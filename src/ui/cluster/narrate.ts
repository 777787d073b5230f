/**
 * Engine events -> one sentence each, for the election and rebalance narrations. Pure: the
 * same events give the same lines (tested in Node). Every number in a sentence comes from the
 * event itself; the sentences name Kafka's own mechanisms (session expiry, watches, the first
 * live ISR member, leader epochs, JoinGroup/SyncGroup).
 */
import type { EngineEvent } from '../../engine/apps/types';
import { toScenarioMs } from '../../worker/client';

/** A line of the cluster's story (StoryPanel), kept in the board slice. */
export interface StoryLine {
  id: number;
  /** Engine ms since the scenario started. */
  atMs: number;
  kind: 'election' | 'controller' | 'isr' | 'broker' | 'unclean' | 'reassign' | 'topic';
  text: string;
  tone: 'info' | 'warn' | 'bad' | 'good';
}

export interface GroupStoryLine {
  id: number;
  atMs: number;
  groupId: string;
  /** The sentence, member ids cut to client ids. */
  text: string;
  /** The sentence with the full member ids, when they were cut. */
  full?: string;
  /** The step of the rebalance this line shows. */
  step: 'join' | 'state' | 'assign' | 'sync' | 'leave' | 'callback';
}

export interface Narration {
  story: Omit<StoryLine, 'id'>[];
  groupStory: Omit<GroupStoryLine, 'id'>[];
  /** Znodes that changed, path -> relative ms. */
  znodes: Record<string, number>;
}

const list = (xs: number[]) => `[${xs.join(', ')}]`;

/** A classic group's member id: the consumer's client.id, a dash, a UUID (GroupMetadataManager). */
const MEMBER_ID = /([\w.-]+?)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g;

/**
 * A sentence with each member id cut to its client id ("c4" for "c4-443dcd22-…"): the UUID adds
 * nothing a learner reads, and made every rebalance line three lines long. The full sentence
 * stays with the line (its tooltip).
 */
export function shortMemberIds(text: string): string {
  return text.replace(MEMBER_ID, '$1');
}

export function narrate(events: readonly EngineEvent[], offsetsPartitions: Record<string, number> = {}): Narration {
  const out: Narration = { story: [], groupStory: [], znodes: {} };
  const line = (e: { atMs: number }, kind: StoryLine['kind'], text: string, tone: StoryLine['tone'] = 'info') =>
    out.story.push({ atMs: toScenarioMs(e.atMs), kind, text, tone });
  const group = (atMs: number, groupId: string, step: GroupStoryLine['step'], full: string) => {
    const text = shortMemberIds(full);
    out.groupStory.push({ atMs: toScenarioMs(atMs), groupId, step, text, ...(text === full ? {} : { full }) });
  };
  // Elections of the internal offsets topic's many partitions are told as one line per frame.
  const internal = { count: 0, atMs: 0, controllerEpoch: 0 };
  for (const e of events) {
    if (e.type === 'partitionStateChanged' && e.topic.startsWith('__')) {
      if (e.old?.leader !== e.new.leader) internal.count++;
      internal.atMs = e.atMs;
      internal.controllerEpoch = e.controllerEpoch;
      continue;
    }
    switch (e.type) {
      case 'znodeCreated':
      case 'znodeDataChanged':
      case 'znodeDeleted':
        out.znodes[e.path] = toScenarioMs(e.atMs);
        if (e.type === 'znodeDeleted' && e.reason === 'sessionExpired')
          line(e, 'election', `Ephemeral znode ${e.path} deleted: its owner's session expired.`, 'warn');
        if (e.type === 'znodeCreated' && e.path.startsWith('/brokers/ids/'))
          line(
            e,
            'broker',
            `Broker ${e.path.slice('/brokers/ids/'.length)} registered: ephemeral znode ${e.path} created.`,
          );
        break;
      case 'sessionExpired':
        line(
          e,
          'election',
          `ZooKeeper expired the session of ${e.owner}: nothing heard for ${e.atMs - e.lastHeartbeatMs} ms (zookeeper.session.timeout.ms).`,
          'warn',
        );
        break;
      case 'watchFired':
        if (e.path === '/brokers/ids' || e.path === '/controller' || e.path.startsWith('/admin'))
          line(e, 'election', `Watch fired on ${e.path} (${e.event}) at ${e.watcher}.`);
        break;
      case 'controllerElected':
        line(
          e,
          'controller',
          `Broker ${e.broker} created /controller and became controller; /controller_epoch ${e.previousEpoch} → ${e.controllerEpoch}.`,
          'good',
        );
        break;
      case 'controllerResigned':
        line(e, 'controller', `Broker ${e.broker} resigned as controller (epoch ${e.controllerEpoch}).`, 'warn');
        break;
      case 'staleControllerRequestRejected':
        line(
          e,
          'controller',
          `Broker ${e.broker} rejected ${e.api} from a stale controller (epoch ${e.requestControllerEpoch} < ${e.knownControllerEpoch}): STALE_CONTROLLER_EPOCH.`,
          'warn',
        );
        break;
      case 'brokerDown':
        line(
          e,
          'broker',
          e.how === 'stopped'
            ? `Broker ${e.broker} shut down cleanly: logs flushed, session closed.`
            : `Broker ${e.broker} ${e.how === 'killed' ? 'was killed' : 'lost power'}${e.lostUnflushedBytes > 0 ? `, losing ${e.lostUnflushedBytes} unflushed bytes` : ''}. Its session lives until it times out.`,
          'bad',
        );
        break;
      case 'brokerStarted':
        line(e, 'broker', `Broker ${e.broker} started${e.rack ? ` on ${e.rack}` : ''}.`, 'good');
        break;
      case 'controlledShutdown':
        line(e, 'broker', `Controlled shutdown of broker ${e.broker}: ${e.remaining} partitions still led there.`);
        break;
      case 'partitionOffline':
        line(
          e,
          'election',
          `${e.topic}-${e.partition} is offline: no live broker in its ISR ${list(e.isr)} (last leader ${e.lastLeader}).`,
          'bad',
        );
        break;
      case 'partitionStateChanged': {
        const tp = `${e.topic}-${e.partition}`;
        const o = e.old;
        const n = e.new;
        if (o && o.leader === n.leader && e.reason !== 'preferredReplica') {
          if (o.isr.join() !== n.isr.join())
            line(
              e,
              'isr',
              `ISR of ${tp}: ${list(o.isr)} → ${list(n.isr)} (${e.reason === 'replicaOffline' ? 'a replica went offline' : e.reason}); leader ${n.leader} stays.`,
              n.isr.length < o.isr.length ? 'warn' : 'good',
            );
        } else if (
          e.reason === 'offlinePartition' ||
          e.reason === 'controlledShutdown' ||
          e.reason === 'replicaOffline'
        ) {
          line(
            e,
            'election',
            n.leader < 0
              ? e.reason === 'replicaOffline'
                ? `Controller (epoch ${e.controllerEpoch}) took offline leader ${o?.leader ?? -1} out of ${tp}: no leader until an election, ISR ${list(n.isr)}, leader epoch ${n.leaderEpoch}.`
                : `Controller (epoch ${e.controllerEpoch}) found no live ISR member for ${tp}: no leader, leader epoch ${n.leaderEpoch}.`
              : `Controller (epoch ${e.controllerEpoch}) chose broker ${n.leader}, the first live member of ISR ${list(o?.isr ?? n.isr)}, to lead ${tp}; leader epoch ${o?.leaderEpoch ?? -1} → ${n.leaderEpoch}.`,
            n.leader < 0 ? 'bad' : 'good',
          );
        } else if (e.reason === 'uncleanElection') {
          line(
            e,
            'unclean',
            `Unclean election: broker ${n.leader} (not in the ISR) leads ${tp}; leader epoch ${n.leaderEpoch}.`,
            'bad',
          );
        } else if (e.reason === 'preferredReplica') {
          line(
            e,
            'election',
            `Preferred-leader election: ${tp} leader ${o?.leader ?? -1} → ${n.leader}; leader epoch ${n.leaderEpoch}.`,
            'good',
          );
        } else if (e.reason === 'isrChange') {
          line(
            e,
            'isr',
            `ISR of ${tp}: ${list(o?.isr ?? [])} → ${list(n.isr)}.`,
            n.isr.length < (o?.isr.length ?? 0) ? 'warn' : 'good',
          );
        } else if (e.reason === 'reassignment') {
          line(
            e,
            'reassign',
            `Reassignment moved ${tp}: leader ${n.leader}, ISR ${list(n.isr)}, leader epoch ${n.leaderEpoch}.`,
          );
        }
        break;
      }
      case 'isrChangeRequested':
        if (e.topic.startsWith('__')) break;
        if (e.change === 'shrink')
          line(
            e,
            'isr',
            `Leader ${e.broker} shrinks the ISR of ${e.topic}-${e.partition}: ${e.lagging
              .map((l) => `broker ${l.replica} not caught up for ${l.lagMs} ms`)
              .join(', ')} (replica.lag.time.max.ms).`,
            'warn',
          );
        else
          line(
            e,
            'isr',
            `Leader ${e.broker} adds ${list(e.newIsr.filter((r) => !e.oldIsr.includes(r)))} back to the ISR of ${e.topic}-${e.partition}: caught up.`,
            'good',
          );
        break;
      case 'uncleanLeaderElection':
        line(
          e,
          'unclean',
          e.lostOffsets
            ? `Unclean election on ${e.topic}-${e.partition}: broker ${e.newLeader} leads with LEO ${e.newLeaderLogEndOffset}; offsets ${e.lostOffsets.from}–${e.lostOffsets.to - 1} are lost${e.lostCommittedOffsets ? ` (${e.lostCommittedOffsets.to - e.lostCommittedOffsets.from} of them acknowledged)` : ''}.`
            : `Unclean election on ${e.topic}-${e.partition}: broker ${e.newLeader} leads; nothing was lost.`,
          'bad',
        );
        break;
      case 'replicaTruncated':
        if (e.topic.startsWith('__')) break;
        line(
          e,
          'isr',
          `Broker ${e.broker} truncated ${e.topic}-${e.partition} from ${e.oldLogEndOffset} to ${e.newLogEndOffset} (${e.reason}).`,
          e.newLogEndOffset < e.oldLogEndOffset ? 'warn' : 'info',
        );
        break;
      case 'reassignmentStarted':
      case 'reassignmentCompleted':
        line(
          e,
          'reassign',
          `Reassignment of ${e.topic}-${e.partition} ${e.type === 'reassignmentStarted' ? 'started' : 'completed'}: ${list(e.originalReplicas)} → ${list(e.targetReplicas)}.`,
          e.type === 'reassignmentCompleted' ? 'good' : 'info',
        );
        break;
      case 'preferredLeaderElection':
        line(
          e,
          'election',
          `Preferred-leader election (${e.trigger}): ${e.partitions.length === 0 ? 'every partition already led by its preferred replica' : e.partitions.map((p) => `${p.topic}-${p.partition} ${p.from}→${p.to}`).join(', ')}.`,
        );
        break;
      case 'topicCreated':
        line(
          e,
          'topic',
          `Topic ${e.topic} created: ${e.partitions} partitions, replication factor ${e.replicationFactor}.`,
        );
        break;
      // ----------------------------------------------------------------- groups
      case 'groupRequestSent': {
        const body = e.body as { api: string; groupId?: string; key?: string };
        const groupId = body.groupId ?? body.key ?? '';
        if (e.api === 'FindCoordinator')
          group(e.sentAtMs, groupId, 'join', `${e.from} asks broker ${e.toBroker}: FindCoordinator(${groupId}).`);
        else if (e.api === 'JoinGroup') {
          const p = offsetsPartitions[groupId];
          group(
            e.sentAtMs,
            groupId,
            'join',
            `${e.from} → broker ${e.toBroker}: JoinGroup. Broker ${e.toBroker} is the coordinator because it leads __consumer_offsets-${p ?? '?'} (abs(hash("${groupId}")) % 50 = ${p ?? '?'}).`,
          );
        } else if (e.api === 'SyncGroup') {
          const req = e.body as { assignments?: unknown[] };
          group(
            e.sentAtMs,
            groupId,
            'sync',
            (req.assignments?.length ?? 0) > 0
              ? `${e.from} (group leader) → broker ${e.toBroker}: SyncGroup carrying the assignment it computed.`
              : `${e.from} → broker ${e.toBroker}: SyncGroup, waiting for its partitions.`,
          );
        } else if (e.api === 'LeaveGroup')
          group(e.sentAtMs, groupId, 'leave', `${e.from} → broker ${e.toBroker}: LeaveGroup.`);
        break;
      }
      case 'groupStateChanged':
        group(
          e.atMs,
          e.groupId,
          'state',
          `${e.groupId}: ${e.from ?? 'new'} → ${e.to} (generation ${e.generationId}; ${e.reason}).`,
        );
        break;
      case 'groupGenerationCompleted': {
        const members = Object.keys(e.assignment).length;
        group(
          e.atMs,
          e.groupId,
          'assign',
          `${e.groupId} generation ${e.generationId}: the group leader ran ${e.protocolName ?? 'no'} assignor over ${members} member${members === 1 ? '' : 's'}.`,
        );
        break;
      }
      case 'groupMemberRemoved':
        group(e.atMs, e.groupId, 'leave', `${e.groupId}: member ${e.memberId} removed (${e.reason}).`);
        break;
      case 'consumerRebalanceCallback':
        if (e.partitions.length > 0)
          group(
            e.atMs,
            e.groupId,
            'callback',
            `${e.consumerId}: ${e.callback}(${e.partitions.map((p) => `${p.topic}-${p.partition}`).join(', ')}).`,
          );
        break;
      default:
        break;
    }
  }
  if (internal.count > 0 || internal.atMs > 0)
    line(
      { atMs: internal.atMs },
      'election',
      internal.count > 0
        ? `Controller (epoch ${internal.controllerEpoch}) also moved the leaders of ${internal.count} __consumer_offsets partition${internal.count === 1 ? '' : 's'}; group coordinators move with them.`
        : `Controller (epoch ${internal.controllerEpoch}) updated the ISRs of __consumer_offsets partitions.`,
    );
  return out;
}
