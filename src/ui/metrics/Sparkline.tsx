/** A metric's last minute as a line: one point per engine second, scaled to its own range. */
export function Sparkline({
  series,
  width = 120,
  height = 28,
}: {
  series: readonly number[];
  width?: number;
  height?: number;
}) {
  if (series.length < 2) return <svg className="sparkline" width={width} height={height} aria-hidden="true" />;
  const max = Math.max(...series);
  const min = Math.min(0, ...series);
  const span = max - min || 1;
  const step = width / (series.length - 1);
  const points = series.map(
    (v, i) => `${(i * step).toFixed(1)},${(height - 2 - ((v - min) / span) * (height - 4)).toFixed(1)}`,
  );
  return (
    <svg className="sparkline" width={width} height={height} viewBox={`0 0 ${width} ${height}`} aria-hidden="true">
      <polyline points={points.join(' ')} fill="none" stroke="currentColor" strokeWidth="1.5" />
    </svg>
  );
}
