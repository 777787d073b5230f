/**
 * `kafka-consumer-groups --describe`, one table for every group on the board: GROUP, TOPIC,
 * PARTITION, CURRENT-OFFSET, LOG-END-OFFSET, LAG, CONSUMER-ID (with "-" where Kafka prints it).
 */
import type { BoardView } from '../../engine/apps/types';
import { ColumnHeads } from '../table/ColumnHeads';

const dash = (v: number | string | null) => (v === null ? '-' : String(v));

/** Above this many rows, only the selected group's rows are listed. */
const MANY_ROWS = 200;

/** kafka-consumer-groups --describe's columns (ConsumerGroupCommand), as it prints them. */
const DESCRIBE_COLUMNS = ['GROUP', 'TOPIC', 'PARTITION', 'CURRENT-OFFSET', 'LOG-END-OFFSET', 'LAG', 'CONSUMER-ID'];
/** The columns that are glossary terms (CONSUMER-ID is the member id the coordinator gave). */
const DESCRIBE_TERMS = { 'LOG-END-OFFSET': 'LEO', LAG: 'lag', 'CONSUMER-ID': 'member id' } as const;

export function DescribeTable({ view, focus }: { view: BoardView; focus: string | null }) {
  const rows =
    view.describe.length > MANY_ROWS && focus ? view.describe.filter((r) => r.group === focus) : view.describe;
  return (
    <section className="describe" aria-label="kafka-consumer-groups --describe" data-testid="describe-table">
      <h3>
        <code>kafka-consumer-groups --describe</code>
      </h3>
      <p className="small muted">
        LAG is the committed lag: LOG-END-OFFSET (the high watermark a consumer can read to) − CURRENT-OFFSET (the
        committed offset). The consumers' own records-lag-max (HW − fetch position) is on each group's card.
      </p>
      <div className="table-scroll">
        <table className="mono-table">
          <ColumnHeads names={DESCRIBE_COLUMNS} terms={DESCRIBE_TERMS} />
          <tbody>
            {rows.map((r) => (
              <tr
                key={`${r.group}-${r.topic}-${r.partition}`}
                data-testid={`describe-${r.group}-${r.topic}-${r.partition}`}
                data-current-offset={r.currentOffset ?? ''}
              >
                <td>{r.group}</td>
                <td>{r.topic}</td>
                <td>{r.partition}</td>
                <td>{dash(r.currentOffset)}</td>
                <td>{r.logEndOffset}</td>
                <td className={r.lag && r.lag > 0 ? 'lagging' : ''}>{dash(r.lag)}</td>
                <td>{dash(r.consumerId)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
