/**
 * The one time base of the page and the applications: engine ms since the scenario started.
 * The engine's clock starts every scenario at SCENARIO_EPOCH_MS (a fixed instant, so record
 * timestamps replay the same), and its events carry that clock's ms; they are converted here and
 * nowhere else, so no view, line or chart subtracts the epoch by hand.
 */

/** The engine clock at the start of every scenario. */
export const SCENARIO_EPOCH_MS = 1_700_000_000_000;

/** An engine clock reading (an event's `atMs`, `Engine.now()`) as ms since the scenario started. */
export function toScenarioMs(engineMs: number): number {
  return engineMs - SCENARIO_EPOCH_MS;
}

/** Ms since the scenario started as the engine clock reads then. */
export function toEngineMs(scenarioMs: number): number {
  return scenarioMs + SCENARIO_EPOCH_MS;
}
