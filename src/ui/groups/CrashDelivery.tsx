/**
 * What a consumer crash did to delivery, from the engine: per partition the crashed consumer's
 * position, how far its application had processed, and the group's committed offset, captured
 * at the crash; then what the group's delivery ledger counted since. The new owner resumes from
 * the committed offset, so seed 000's two cases show as counts: records processed but not
 * committed are processed again (case 1), records committed but not processed are never
 * processed (case 2).
 */
import type { ConsumerCrashView } from '../../engine/apps/types';
import { formatClock } from '../time/formatClock';
import { ColumnHeads } from '../table/ColumnHeads';

const MODE_TEXT: Record<ConsumerCrashView['commitMode'], string> = {
  auto: 'auto commit',
  'after-processing': 'commit after processing',
  'before-processing': 'commit before processing',
};

/** The group's last crash. */
export function CrashDelivery({ crash, groupId }: { crash: ConsumerCrashView; groupId: string }) {
  const { observed } = crash;
  const settled = observed.redelivered >= crash.redelivered && observed.skipped >= crash.skipped;
  return (
    <div
      className="crash-delivery"
      data-testid={`group-redelivered-${groupId}`}
      data-count={crash.redelivered}
      data-skipped={crash.skipped}
      data-observed-redelivered={observed.redelivered}
      data-observed-lost={observed.skipped}
      data-consumer={crash.consumer}
      data-commit-mode={crash.commitMode}
    >
      <p className="small">
        <strong>{crash.consumer}</strong> crashed at {formatClock(crash.atMs)} ({MODE_TEXT[crash.commitMode]}
        ): expected <span className="crash-dup">{crash.redelivered} redelivered</span>
        {', '}
        <span className="crash-loss">{crash.skipped} lost</span>.
      </p>
      <p className="small" data-testid={`group-delivery-observed-${groupId}`}>
        Since then, after the rebalance:{' '}
        <span className="crash-dup" data-testid={`group-observed-redelivered-${groupId}`}>
          {observed.redelivered} processed again
        </span>
        {', '}
        <span className="crash-loss" data-testid={`group-observed-lost-${groupId}`}>
          {observed.skipped} never processed
        </span>{' '}
        <span className="muted">
          {settled ? '(as the offsets predicted)' : '(the new owner has not read that far yet)'}
        </span>
      </p>
      <p className="small muted">
        The new owner resumes from the committed offset: records between the committed offset and what the crashed
        application had processed are processed twice (commit after processing: at least once); records committed before
        they were processed are lost (commit before processing: at most once).
      </p>
      <div className="table-scroll">
        <table className="mono-table small">
          <ColumnHeads names={['PARTITION', 'COMMITTED', 'PROCESSED TO', 'POSITION', 'EFFECT']} />
          <tbody>
            {crash.partitions.map((p) => {
              const committed = p.committed ?? 0;
              const d = p.processedTo - committed;
              return (
                <tr
                  key={`${p.topic}-${p.partition}`}
                  data-testid={`crash-partition-${groupId}-${p.topic}-${p.partition}`}
                  data-position={p.position}
                  data-processed-to={p.processedTo}
                  data-committed={committed}
                >
                  <td>
                    {p.topic}-{p.partition}
                  </td>
                  <td>{p.committed ?? '-'}</td>
                  <td>{p.processedTo}</td>
                  <td>{p.position}</td>
                  <td>
                    {d > 0
                      ? `offsets ${committed}–${p.processedTo - 1} again (case 1)`
                      : d < 0
                        ? `offsets ${p.processedTo}–${committed - 1} lost (case 2)`
                        : 'none'}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}
