/**
 * What the host checks before a scenario may replace or fork the running cluster: that it
 * replays whole (a refused action changes nothing), and what a fork in the past would delete.
 */
import { KafkaError } from '../engine';
import { ClusterApps, type ScenarioSpec, storedTopics } from '../engine/apps';
import { MemoryStore } from '../storage/MemoryStore';
import type { Running } from './hostRun';

export class ScenarioChecks {
  /** The last scenario replayed whole in memory. */
  private replayed: string | null = null;

  /**
   * Replays a scenario on a scratch MemoryStore and throws its failing action's KafkaError: a
   * scenario must replay whole before it may replace the running cluster. The replay is
   * deterministic, so the run started afterwards on the real store is the same one.
   */
  replayInMemory(spec: ScenarioSpec): void {
    // A preset alone runs no actions, so nothing in it can be refused (its untilMs is run by start()).
    if (spec.actions.length === 0) return;
    const key = JSON.stringify(spec);
    if (this.replayed === key) return;
    ClusterApps.fromScenario(spec, { store: new MemoryStore(), panelProducer: true });
    this.replayed = key;
  }
}

/**
 * An action in the past (at `atMs`) forks the run from its scenario's replay, which holds no
 * import and no seeds' example (`unreplayable`): unless the page confirmed this fork, it is
 * refused with what it would delete (details.forkDrops), so the page can ask first; nothing changes.
 */
export function checkForkDrops(
  atMs: number,
  unreplayable: ReadonlySet<string>,
  confirmedAt: number | null,
  r: Running,
): void {
  if (unreplayable.size === 0 || confirmedAt === atMs) return;
  const drops = storedTopics(
    r.data,
    [...unreplayable].filter((t) => r.data.topics().includes(t)),
  );
  if (drops.length === 0) return;
  const laterActions = r.apps.actions.filter((a) => a.at > atMs).length;
  throw new KafkaError(
    'INVALID_REQUEST',
    `acting at ${atMs} ms forks the run from its scenario's replay, which does not hold ${drops.map((d) => d.name).join(', ')} (imported, not recorded): ${drops.length === 1 ? 'it' : 'they'} would be deleted, with ${laterActions} later action${laterActions === 1 ? '' : 's'}`,
    // As JSON: error details cross to the page flat (serializeError).
    { forkDrops: JSON.stringify(drops), atMs, laterActions },
  );
}
