/**
 * Elections in lock-step with their tokens. The controller writes a partition's new leader to
 * its state znode, then tells the brokers with LeaderAndIsr; a broker leads only once that request
 * reaches it. The board draws the same order: a replica the view already names leader lights up
 * as leader only when the LeaderAndIsr token to its broker, sent at or after the election, has
 * landed on screen (MessageTokens replays each hop over REPLAY_MS). Pure: the caller passes the
 * wall clock, so it is tested in Node.
 */

/** A partition's leader moved (the controller's partitionStateChanged), as the page first saw it. */
export interface LeaderChange {
  /** `<topic>-<partition>` */
  tp: string;
  leader: number;
  /** Engine ms since the scenario started. */
  atMs: number;
  /** Wall ms the page saw it. */
  seenAt: number;
}

/** A LeaderAndIsr request token and the wall ms it lands on its broker's card. */
export interface LeaderAndIsrLanding {
  to: number;
  /** Engine ms since the scenario started. */
  sentAtMs: number;
  landsAt: number;
}

/**
 * Wall ms after which a new leader lights up even if no token was seen for it (a board drawn at
 * scale draws no tokens; a burst of messages may leave the one it waits for out of the view).
 */
export const NO_TOKEN_MS = 8_000;

function landingFor(change: LeaderChange, landings: readonly LeaderAndIsrLanding[]): LeaderAndIsrLanding | undefined {
  let best: LeaderAndIsrLanding | undefined;
  for (const l of landings)
    if (l.to === change.leader && l.sentAtMs >= change.atMs && (best === undefined || l.landsAt < best.landsAt))
      best = l;
  return best;
}

/** Whether the board may draw `change`'s leader as leader at wall time `now`. */
export function leaderLit(
  change: LeaderChange | undefined,
  landings: readonly LeaderAndIsrLanding[],
  now: number,
): boolean {
  if (!change) return true;
  if (now - change.seenAt >= NO_TOKEN_MS) return true;
  const l = landingFor(change, landings);
  return l !== undefined && l.landsAt <= now;
}

/** Wall ms at which `leaderLit` turns true, or null if it already is. */
export function litAt(
  change: LeaderChange | undefined,
  landings: readonly LeaderAndIsrLanding[],
  now: number,
): number | null {
  if (leaderLit(change, landings, now) || !change) return null;
  const l = landingFor(change, landings);
  return Math.min(l?.landsAt ?? Number.POSITIVE_INFINITY, change.seenAt + NO_TOKEN_MS);
}
