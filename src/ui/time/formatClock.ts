/**
 * The page's one way to show an engine instant: hh:mm:ss.mmm of engine time since the scenario
 * started (the one time base: frames, views and story lines all count from the scenario's
 * start). Hours keep counting past 24; a negative or fractional time shows its whole ms from 0.
 */
export function formatClock(ms: number): string {
  const t = Math.max(0, Math.floor(ms));
  const h = Math.floor(t / 3_600_000);
  const m = Math.floor(t / 60_000) % 60;
  const s = Math.floor(t / 1000) % 60;
  const milli = t % 1000;
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(h)}:${two(m)}:${two(s)}.${String(milli).padStart(3, '0')}`;
}
