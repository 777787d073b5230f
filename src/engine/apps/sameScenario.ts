/**
 * Whether a scenario is the one running (its time aside): a reload of the page's own link
 * replaces nothing. Compared by content, since a link's decoder builds each command with its own
 * key order.
 */
import type { ClusterApps } from './ClusterApps';
import type { ScenarioSpec } from './types';

export function sameScenario(spec: ScenarioSpec, apps: ClusterApps): boolean {
  if (spec.seed !== apps.seed || spec.preset !== apps.preset) return false;
  return canonicalJson(spec.actions) === canonicalJson(apps.actions);
}

/** JSON with every object's keys sorted. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : v,
  );
}
