/**
 * When each partition's leader rolled a new active segment (LocalLog.roll: segment.bytes or
 * segment.ms reached). The engine announces appends, not rolls, so a roll is seen as a leader
 * append that finds a new active segment base offset.
 */
import type { Engine, EngineEvent } from '../../index';
import { toScenarioMs } from '../scenarioTime';

const MAX_ROLLS = 500;

export class SegmentRolls {
  /** Engine ms since the scenario started of each roll seen, oldest first. */
  readonly atMs: number[] = [];
  private readonly activeBase = new Map<string, number>();

  constructor(private readonly engine: Engine) {
    this.off = engine.subscribe((e) => this.onAppend(e), ['logAppended']);
  }

  private readonly off: () => void;

  /** Stops listening. */
  dispose(): void {
    this.off();
  }

  private onAppend(e: EngineEvent): void {
    if (e.type !== 'logAppended' || e.role !== 'leader' || e.topic.startsWith('__')) return;
    const log = this.engine.leaderReplica(e.topic, e.partition)?.log;
    if (!log) return;
    const key = `${e.broker}:${e.topic}-${e.partition}`;
    const base = log.activeSegment.baseOffset;
    const known = this.activeBase.get(key);
    this.activeBase.set(key, base);
    if (known === undefined || known === base) return;
    if (this.atMs[this.atMs.length - 1] !== toScenarioMs(e.atMs)) this.atMs.push(toScenarioMs(e.atMs));
    if (this.atMs.length > MAX_ROLLS) this.atMs.shift();
  }
}
