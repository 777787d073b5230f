/**
 * True when `a` and `b` hold the same value (===) under each of `keys`. Memo comparators use it:
 * views arrive as new objects every frame, and a component whose fields are unchanged is not
 * rendered again.
 */
export function sameKeys<T>(a: T, b: T, keys: readonly (keyof T)[]): boolean {
  for (const k of keys) if (a[k] !== b[k]) return false;
  return true;
}
