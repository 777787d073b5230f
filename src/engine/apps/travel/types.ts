/** What the page is shown of time travel, with every frame. */
export interface TravelView {
  /** The engine time shown (ms since the scenario started): the past, or the live run's now. */
  viewMs: number;
  /** The live run's now: the scrubber's end. */
  liveMs: number;
  /** True while the live run is shown (it is paused while the past is). */
  live: boolean;
  /** Checkpoints ready (replicas a seek can start from): a seek replays at most their spacing past one. */
  checkpoints: number;
  /** Every gap between checkpoints is at most their spacing (none is being rebuilt). */
  checkpointsComplete: boolean;
  /** The last fork of this run (an action taken in the past), until another scenario replaces it. */
  fork: ForkView | null;
  /**
   * When the run was restarted from the Store (a reload), engine ms; null for a run started from
   * its scenario. Such a run's past is what the Store kept, which no replay of the scenario
   * rebuilds (records the reload dropped, a restarted producer), so it offers no past to show or
   * fork from: a replay would rewrite acknowledged records.
   */
  restoredAtMs: number | null;
  /**
   * The latest moment time travel can show (null: any): a busy run's replays past it would hold
   * more memory than time travel may (TimeMachine's TRAVEL_MAX_BYTES), so a seek later stops here.
   */
  horizonMs: number | null;
}

export interface ForkView {
  /** Counts forks, so the page shows each one's notice once. */
  n: number;
  /** Where the run forked: the past moment the action was taken at. */
  atMs: number;
  /** The recorded actions after it that were discarded. */
  discardedActions: number;
  /** How much engine time after it was discarded. */
  discardedMs: number;
}
