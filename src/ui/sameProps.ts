/**
 * A memo comparer by identity: two renders of a component are the same when every prop is the
 * same value (===), an array prop holding the same values in order. Snapshot parts keep their
 * identity while they do not change (keepIdentity.ts), so a card is drawn again exactly when
 * something it was given changed, a field added to the snapshot included.
 *
 * `drawnElsewhere` names, per prop, the fields of its object (or of each object in its array)
 * that move often and that the component does not draw (a consumer's positions, a group's lag
 * history): they are the only fields a comparison skips, so a new field is compared by default.
 */
export type DrawnElsewhere<P> = { [K in keyof P]?: readonly string[] };

export function sameProps<P extends object>(drawnElsewhere: DrawnElsewhere<P> = {}): (a: P, b: P) => boolean {
  return (a, b) => {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]) as Set<keyof P & string>;
    for (const k of keys) {
      const skip = drawnElsewhere[k];
      if (!sameValue(a[k], b[k], skip)) return false;
    }
    return true;
  };
}

function sameValue(x: unknown, y: unknown, skip: readonly string[] | undefined): boolean {
  if (Object.is(x, y)) return true;
  if (Array.isArray(x) && Array.isArray(y))
    return x.length === y.length && x.every((v, i) => Object.is(v, y[i]) || sameFields(v, y[i], skip));
  return sameFields(x, y, skip);
}

/** Two objects whose fields are the same values, but for the fields `skip` names (none: false). */
function sameFields(x: unknown, y: unknown, skip: readonly string[] | undefined): boolean {
  if (!skip || typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false;
  if (Array.isArray(x) || Array.isArray(y)) return false;
  const a = x as Record<string, unknown>;
  const b = y as Record<string, unknown>;
  for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (skip.includes(k)) continue;
    if (!Object.is(a[k], b[k])) return false;
  }
  return true;
}
