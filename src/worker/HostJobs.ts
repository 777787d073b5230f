/**
 * The page's long work as jobs (a Send N job, a long replay): each has a view the page draws as
 * progress with a Cancel button, sent with the next frame after it changed; a job that ended is
 * sent once more and forgotten.
 */
import type { JobView } from './protocol';

/** Long work the page sees as a job (progress, Cancel): a Send N job, a long replay. */
export interface HostJob {
  readonly view: JobView;
  cancelled: boolean;
}

export class HostJobs {
  private readonly jobs = new Map<number, HostJob>();
  private readonly changedIds = new Set<number>();
  private nextId = 1;
  /** The replay running, if any: while it runs it decides what the cluster is. */
  replay: HostJob | null = null;

  /** The id the next job gets. */
  newId(): number {
    return this.nextId++;
  }

  add(job: HostJob): void {
    this.jobs.set(job.view.jobId, job);
    this.changedIds.add(job.view.jobId);
  }

  /** The job's view changed: it goes with the next frame. */
  changed(jobId: number): void {
    this.changedIds.add(jobId);
  }

  cancel(jobId: number): void {
    const job = this.jobs.get(jobId);
    if (job) job.cancelled = true;
  }

  /** Cancels every job (but `except`). */
  cancelAll(except: HostJob | null = null): void {
    for (const job of this.jobs.values()) if (job !== except) job.cancelled = true;
  }

  /** The views that changed since the last call (copies); jobs that ended are forgotten. */
  takeChanged(): JobView[] {
    const out: JobView[] = [];
    for (const id of this.changedIds) {
      const j = this.jobs.get(id);
      if (!j) continue;
      out.push({ ...j.view });
      if (j.view.state !== 'running') this.jobs.delete(id);
    }
    this.changedIds.clear();
    return out;
  }
}
