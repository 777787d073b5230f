/**
 * What the learner sees of time: how many wall (real) milliseconds one engine millisecond takes on
 * screen. Two paces exist and the page states both in one form, "1 engine ms = N real ms":
 *  - the clock: at speed s the session advances s engine ms per wall ms (session.ts), so one engine
 *    ms lasts 1/s real ms;
 *  - a request token: a hop of f engine ms is replayed over REPLAY_MS wall ms, so one engine ms of
 *    that hop lasts REPLAY_MS/f real ms, whatever the speed (the engine clock is never bent).
 */

/** Wall milliseconds each request hop is drawn over. */
export const REPLAY_MS = 600;

/** Real ms one engine ms takes on the clock at `speed` (engine ms per wall ms). */
export function clockRealMsPerEngineMs(speed: number): number {
  return 1 / speed;
}

/** Real ms one engine ms of a hop takes on its token, for a hop of `flightMs` engine ms. */
export function tokenRealMsPerEngineMs(flightMs: number): number {
  return REPLAY_MS / Math.max(flightMs, 0.001);
}

/** How many times slower than the clock (at `speed`) a hop of `flightMs` is drawn. */
export function tokenSlowdown(flightMs: number, speed: number): number {
  return tokenRealMsPerEngineMs(flightMs) / clockRealMsPerEngineMs(speed);
}

/** A number of real ms as the learner reads it: 4, 0.5, 0.063, 1,200. */
export function formatRealMs(ms: number): string {
  if (ms >= 10) return Math.round(ms).toLocaleString('en');
  return String(Number(ms.toPrecision(2)));
}

/** The one statement of a pace: "1 engine ms = N real ms". */
export function paceStatement(realMsPerEngineMs: number): string {
  return `1 engine ms = ${formatRealMs(realMsPerEngineMs)} real ms`;
}

/** The clock's pace at `speed`, as shown next to the speed select. */
export function clockStatement(speed: number): string {
  return paceStatement(clockRealMsPerEngineMs(speed));
}

/** The tokens' pace, as shown on the board: the same form as the clock's, then what it means. */
export function tokenStatement(flightMs: number, speed: number): string {
  const slower = Math.round(tokenSlowdown(flightMs, speed)).toLocaleString('en');
  return (
    `Requests drawn slowed down: tokens show ${paceStatement(tokenRealMsPerEngineMs(flightMs))} ` +
    `(a ${flightMs} ms hop over ${REPLAY_MS / 1000} s), ${slower}× slower than the clock (${clockStatement(speed)} at ${speed}x).`
  );
}
