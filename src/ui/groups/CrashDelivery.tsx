/**
 * What a consumer crash did to delivery, from the engine's numbers captured at the crash: per
 * partition the crashed consumer's position and the group's committed offset. The new owner
 * resumes from the committed offset, so seed 000's two cases show as counts: records processed
 * but not committed are processed again (case 1), records committed but not processed are never
 * processed (case 2).
 */
import type { ConsumerCrashView, PlaneView } from '../../worker/plane/types';

export function CrashDelivery({ view, groupId }: { view: PlaneView; groupId: string }) {
  let crash: ConsumerCrashView | undefined;
  for (const c of view.crashes) if (c.group === groupId) crash = c;
  if (!crash) return null;
  return (
    <div
      className="crash-delivery"
      data-testid={`group-redelivered-${groupId}`}
      data-count={crash.redelivered}
      data-skipped={crash.skipped}
      data-consumer={crash.consumer}
    >
      <p className="small">
        <strong>{crash.consumer}</strong> crashed at {(crash.atMs / 1000).toFixed(1)} s:{' '}
        <span className="crash-dup">{crash.redelivered} records redelivered</span>
        {', '}
        <span className="crash-loss">{crash.skipped} skipped</span>.{' '}
        <span className="muted">
          Its partitions' new owner resumes from the committed offset: records between the committed offset and the
          crashed consumer's position are processed twice (seed 000, case 1); had it committed beyond what it processed,
          those records would be lost (case 2).
        </span>
      </p>
      <table className="mono-table small">
        <thead>
          <tr>
            <th scope="col">PARTITION</th>
            <th scope="col">COMMITTED</th>
            <th scope="col">POSITION</th>
            <th scope="col">EFFECT</th>
          </tr>
        </thead>
        <tbody>
          {crash.partitions.map((p) => {
            const committed = p.committed ?? 0;
            const d = p.position - committed;
            return (
              <tr
                key={`${p.topic}-${p.partition}`}
                data-testid={`crash-partition-${groupId}-${p.topic}-${p.partition}`}
                data-position={p.position}
                data-committed={committed}
              >
                <td>
                  {p.topic}-{p.partition}
                </td>
                <td>{p.committed ?? '-'}</td>
                <td>{p.position}</td>
                <td>
                  {d > 0
                    ? `offsets ${committed}–${p.position - 1} again (case 1)`
                    : d < 0
                      ? `offsets ${p.position}–${committed - 1} lost (case 2)`
                      : 'none'}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
