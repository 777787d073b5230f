import { useUi } from '../store';

/** Each partition log with its segment files by their real names and its record count. */
export function PartitionList() {
  const partitions = useUi((s) => s.view?.partitions ?? []);
  return (
    <section aria-label="Partition logs" className="partition-list">
      {partitions.map((p) => (
        <article
          key={p.dir}
          className="card"
          data-testid={`partition-${p.topic}-${p.partition}`}
          data-leo={p.logEndOffset}
          data-hw={p.highWatermark}
        >
          <h2 className="card-title">
            {p.dir}{' '}
            <span className="muted" data-testid={`record-count-${p.topic}-${p.partition}`}>
              {p.recordCount} records
            </span>
          </h2>
          <ul className="segment-files">
            {p.segments.map((s) =>
              s.files.map((f) => (
                <li key={f.name} data-testid="segment-file" className={s.active ? 'active' : undefined}>
                  <code>{f.name}</code> <span className="muted">{f.bytes} B</span>
                </li>
              )),
            )}
          </ul>
        </article>
      ))}
    </section>
  );
}
