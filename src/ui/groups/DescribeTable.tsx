/**
 * `kafka-consumer-groups --describe`, one table for every group on the board: GROUP, TOPIC,
 * PARTITION, CURRENT-OFFSET, LOG-END-OFFSET, LAG, CONSUMER-ID (with "-" where Kafka prints it).
 */
import type { PlaneView } from '../../worker/plane/types';

const dash = (v: number | string | null) => (v === null ? '-' : String(v));

export function DescribeTable({ view }: { view: PlaneView }) {
  return (
    <section className="describe" aria-label="kafka-consumer-groups --describe" data-testid="describe-table">
      <h3>
        <code>kafka-consumer-groups --describe</code>
      </h3>
      <div className="table-scroll">
        <table className="mono-table">
          <thead>
            <tr>
              <th scope="col">GROUP</th>
              <th scope="col">TOPIC</th>
              <th scope="col">PARTITION</th>
              <th scope="col">CURRENT-OFFSET</th>
              <th scope="col">LOG-END-OFFSET</th>
              <th scope="col">LAG</th>
              <th scope="col">CONSUMER-ID</th>
            </tr>
          </thead>
          <tbody>
            {view.describe.map((r) => (
              <tr
                key={`${r.group}-${r.topic}-${r.partition}`}
                data-testid={`describe-${r.group}-${r.topic}-${r.partition}`}
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
