/** The auto slow-down's slice of the page's one store (store.ts; driven by autoSlow.ts). */
export interface SlowState {
  on: boolean;
  /** Engine ms (since the scenario started) until which an election plays. */
  electionUntilMs: number;
  /** A lesson runs: it sets its own speeds (lessons/lessonStore.ts). */
  lesson: boolean;
}

export const initialSlowState: SlowState = { on: true, electionUntilMs: -1, lesson: false };
