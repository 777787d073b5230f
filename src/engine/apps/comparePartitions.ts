/** Orders `<topic>-<partition>` names by topic, then by partition number (orders-2 before orders-10). */
export function comparePartitions(a: string, b: string): number {
  const ia = a.lastIndexOf('-');
  const ib = b.lastIndexOf('-');
  const ta = a.slice(0, ia);
  const tb = b.slice(0, ib);
  if (ta !== tb) return ta < tb ? -1 : 1;
  return Number(a.slice(ia + 1)) - Number(b.slice(ib + 1));
}
