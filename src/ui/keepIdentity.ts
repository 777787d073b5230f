/**
 * Structural sharing for the snapshots the worker sends. Each frame's views arrive as new
 * objects (structured clone), so a memoized card cannot tell by identity whether its part moved.
 * `keepIdentity(prev, next)` returns `next` with every part equal to the same part of `prev`
 * replaced by prev's object: a part that did not change keeps its identity, one that did (a new
 * field included) is a new object, and so is every object above it. Cards then compare their
 * props by identity (sameProps.ts) and nothing lists the fields a card draws.
 */
export function keepIdentity<T>(prev: T | null | undefined, next: T): T {
  return share(prev, next) as T;
}

function isPlain(x: unknown): x is Record<string, unknown> {
  if (typeof x !== 'object' || x === null) return false;
  const proto = Object.getPrototypeOf(x);
  return proto === Object.prototype || proto === null;
}

function share(prev: unknown, next: unknown): unknown {
  if (Object.is(prev, next)) return prev;
  if (Array.isArray(next)) {
    if (!Array.isArray(prev)) return next;
    let same = prev.length === next.length;
    const out = next.map((x, i) => {
      const kept = share(prev[i], x);
      if (kept !== prev[i]) same = false;
      return kept;
    });
    return same ? prev : out;
  }
  if (isPlain(next)) {
    if (!isPlain(prev)) return next;
    const keys = Object.keys(next);
    let same = keys.length === Object.keys(prev).length;
    const out: Record<string, unknown> = {};
    for (const k of keys) {
      const kept = share(prev[k], next[k]);
      if (!Object.hasOwn(prev, k) || kept !== prev[k]) same = false;
      out[k] = kept;
    }
    return same ? prev : out;
  }
  // Anything else (a typed array, a class instance) is new whenever it is another object.
  return next;
}
