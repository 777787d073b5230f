import type { Session } from '../session';
import { uiStore, useUi } from '../store';
import { DismissButton } from './DismissButton';

/** One formatter for every count (toLocaleString builds one per call, every frame a job runs). */
const COUNT = new Intl.NumberFormat('en-US');

/** Long work in the worker (bulk produce): a progress bar each, with Cancel; finished ones can be dismissed. */
export function Jobs({ session }: { session: Session }) {
  const jobs = useUi((s) => s.jobs);
  const list = Object.values(jobs);
  if (list.length === 0) return null;
  return (
    <div className="jobs">
      {list.map((j) => {
        const pct = j.total === 0 ? 100 : (j.done / j.total) * 100;
        return (
          <div
            key={j.jobId}
            className={`job job-${j.state}`}
            data-testid="job-progress"
            data-state={j.state}
            data-done={j.done}
          >
            <span className="job-label">{j.label}</span>
            <progress max={j.total} value={j.done} aria-label={j.label} />
            <span className="mono job-count">
              {COUNT.format(j.done)} / {COUNT.format(j.total)} ({pct.toFixed(0)}%)
            </span>
            {j.state === 'running' ? (
              <button
                type="button"
                className="btn btn-small"
                data-testid="job-cancel"
                onClick={() => void session.call('cancelJob', { jobId: j.jobId })}
              >
                Cancel
              </button>
            ) : (
              <>
                <span className="job-state">
                  {j.state}
                  {j.error ? `: ${j.error.message}` : ''}
                </span>
                <DismissButton
                  onDismiss={() =>
                    uiStore.setState((s) => {
                      const { [j.jobId]: _gone, ...rest } = s.jobs;
                      return { jobs: rest };
                    })
                  }
                />
              </>
            )}
          </div>
        );
      })}
    </div>
  );
}
