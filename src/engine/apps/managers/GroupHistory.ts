/**
 * Each group's rebalance generations as they completed (GroupCoordinator's
 * groupGenerationCompleted: generation id, protocol, leader, every member's assignment), the last
 * 40 per group, and the member ids' consumer names the views draw them by.
 */
import type { Engine } from '../../index';
import { comparePartitions } from '../comparePartitions';
import type { GenerationView, EngineEvent } from '../types';
import type { BoardRead } from './Board';
import { toScenarioMs } from '../scenarioTime';

const GENERATIONS_KEPT = 40;

/** What the views read of the group history. */
export interface GroupHistoryRead {
  generationsOf(groupId: string): readonly GenerationView[];
  /** A member id's consumer name: the member id starts with the client id (Kafka's `<client.id>-<uuid>`). */
  nameOf(memberId: string): string;
  /** What a view learned of a member (its consumer's snapshot or its group's): kept for later generations. */
  noteMember(memberId: string, name: string): void;
}

export class GroupHistory implements GroupHistoryRead {
  private readonly generations = new Map<string, GenerationView[]>();
  private readonly memberNames = new Map<string, string>();
  private readonly off: () => void;

  constructor(
    engine: Engine,
    private readonly board: BoardRead,
    /** The scenario's engine time zero (views count ms from it). */
  ) {
    this.off = engine.subscribe((e) => this.onEvent(e), ['groupGenerationCompleted']);
  }

  dispose(): void {
    this.off();
  }

  generationsOf(groupId: string): readonly GenerationView[] {
    return this.generations.get(groupId) ?? [];
  }

  nameOf(memberId: string): string {
    const known = this.memberNames.get(memberId);
    if (known) return known;
    let best = '';
    for (const name of this.board.consumers.keys()) {
      if (memberId.startsWith(`${name}-`) && name.length > best.length) best = name;
    }
    const name = best || memberId;
    this.memberNames.set(memberId, name);
    return name;
  }

  noteMember(memberId: string, name: string): void {
    this.memberNames.set(memberId, name);
  }

  private onEvent(e: EngineEvent): void {
    if (e.type !== 'groupGenerationCompleted') return;
    const list = this.generations.get(e.groupId) ?? [];
    const assignment: Record<string, string[]> = {};
    for (const [memberId, tps] of Object.entries(e.assignment)) {
      assignment[this.nameOf(memberId)] = tps.map((tp) => `${tp.topic}-${tp.partition}`).sort(comparePartitions);
    }
    list.push({
      generation: e.generationId,
      atMs: toScenarioMs(e.atMs),
      protocol: e.protocolName,
      leader: e.leader === null ? null : this.nameOf(e.leader),
      assignment,
    });
    if (list.length > GENERATIONS_KEPT) list.shift();
    this.generations.set(e.groupId, list);
  }
}
