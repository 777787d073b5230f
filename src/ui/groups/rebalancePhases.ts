/**
 * A classic rebalance, as the group card draws it, in five phases and a rest:
 *
 *   leave    a member leaves (LeaveGroup, removed on session timeout) or the coordinator moves
 *            the group to PreparingRebalance; members revoke their partitions (eager) before
 *            they rejoin
 *   join     members send JoinGroup; the coordinator waits for every known member
 *   compute  the join phase completed (CompletingRebalance, a new generation): the JoinGroup
 *            answers went out and the group leader runs the assignor
 *   sync     members send SyncGroup, the leader's carrying the assignment it computed
 *   assign   the leader's SyncGroup made the group Stable: every member gets its partitions
 *   stable   nothing left to show
 *
 * Each phase is read from an engine event (the page never guesses one): this file turns a
 * frame's board events into marks, pure and in engine order.
 */
import type { EngineEvent } from '../../engine/apps/types';
import { toScenarioMs } from '../../worker/client';

export const PHASES = ['leave', 'join', 'compute', 'sync', 'assign', 'stable'] as const;
export type RebalancePhase = (typeof PHASES)[number];

/**
 * What a member's rebalance listener was told (ConsumerRebalanceListener): partitions it gave up
 * (onPartitionsRevoked, onPartitionsLost) or gained (onPartitionsAssigned), each `topic-p`.
 * Eager protocols revoke everything before JoinGroup and are assigned everything after
 * SyncGroup; cooperative-sticky revokes only what moves.
 */
export interface OwnershipDelta {
  consumer: string;
  revoked: string[];
  assigned: string[];
}

export interface PhaseMark {
  groupId: string;
  phase: RebalancePhase;
  /** Engine ms since the scenario started. */
  atMs: number;
  /** The generation this phase completes or builds, when the event names it (compute, assign, stable). */
  generation: number | null;
  /** What happened, in Kafka's words (the strip's tooltip). */
  why: string;
  /** The ownership it changes, for a rebalance listener's callback. */
  delta?: OwnershipDelta;
}

/** The order of phases within one rebalance. */
export function phaseIndex(p: RebalancePhase): number {
  return PHASES.indexOf(p);
}

function groupOfRequest(e: Extract<EngineEvent, { type: 'groupRequestSent' }>): string | null {
  const body = e.body as { groupId?: string };
  return body.groupId ?? null;
}

/** The phase marks told by `events` (a frame's board events), in their order. */
export function phaseMarks(events: readonly EngineEvent[]): PhaseMark[] {
  const out: PhaseMark[] = [];
  const mark = (
    groupId: string,
    phase: RebalancePhase,
    atMs: number,
    generation: number | null,
    why: string,
    delta?: OwnershipDelta,
  ) => out.push({ groupId, phase, atMs: toScenarioMs(atMs), generation, why, ...(delta ? { delta } : {}) });
  for (const e of events) {
    switch (e.type) {
      case 'groupRequestSent': {
        const groupId = groupOfRequest(e);
        if (groupId === null) break;
        if (e.api === 'LeaveGroup') mark(groupId, 'leave', e.sentAtMs, null, `${e.from} sent LeaveGroup`);
        else if (e.api === 'JoinGroup') mark(groupId, 'join', e.sentAtMs, null, `${e.from} sent JoinGroup`);
        else if (e.api === 'SyncGroup') mark(groupId, 'sync', e.sentAtMs, null, `${e.from} sent SyncGroup`);
        break;
      }
      case 'groupMemberRemoved':
        mark(e.groupId, 'leave', e.atMs, null, `member removed (${e.reason})`);
        break;
      case 'consumerRebalanceCallback': {
        const tps = e.partitions.map((p) => `${p.topic}-${p.partition}`);
        if (e.callback !== 'onPartitionsAssigned' && e.partitions.length > 0)
          mark(e.groupId, 'leave', e.atMs, null, `${e.consumerId}: ${e.callback}`, {
            consumer: e.consumerId,
            revoked: tps,
            assigned: [],
          });
        else if (e.callback === 'onPartitionsAssigned')
          mark(e.groupId, 'assign', e.atMs, e.generationId, `${e.consumerId}: onPartitionsAssigned`, {
            consumer: e.consumerId,
            revoked: [],
            assigned: tps,
          });
        break;
      }
      case 'groupStateChanged':
        if (e.to === 'PreparingRebalance') mark(e.groupId, 'leave', e.atMs, null, `PreparingRebalance: ${e.reason}`);
        else if (e.to === 'CompletingRebalance')
          mark(e.groupId, 'compute', e.atMs, e.generationId, `CompletingRebalance: generation ${e.generationId}`);
        else if (e.to === 'Stable')
          mark(e.groupId, 'assign', e.atMs, e.generationId, `Stable: generation ${e.generationId}`);
        else if (e.to === 'Empty')
          mark(e.groupId, 'stable', e.atMs, e.generationId, `Empty: generation ${e.generationId}, no members`);
        break;
      default:
        break;
    }
  }
  return out;
}
