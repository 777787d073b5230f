/**
 * Several pages may watch the Node engine; one at a time controls it. The first page attached
 * controls; when it leaves, the page attached longest after it takes the seat. A watching page
 * sees everything, but its commands that would change the cluster are refused (a clear error,
 * and the page says "watching").
 */
import type { CommandName, SerializedError, WorkerRequest } from '../worker/protocol';
import type { PageRole } from '../link/hostFrames';

/** Commands a watching page may send: they read the cluster and change nothing in it. */
const READS: ReadonlySet<CommandName> = new Set<CommandName>([
  'open',
  'frame',
  'snapshot',
  'lookup',
  'segment',
  'exportPartition',
  'lessons',
  'lessonProbe',
  'previewPlacement',
  'checkScenario',
]);

/** Whether `request` only reads (a frame's advanceMs is ignored on the Node host: wall-clock time). */
export function isRead(request: WorkerRequest): boolean {
  if (request.type === 'loadScenario') return request.data === null;
  return READS.has(request.type);
}

/**
 * Commands no page may send here: the cluster is the one real clients use, so no scenario or
 * reset replaces it, no replay rewinds it (time travel), nothing moves its clock ahead of the
 * wall clock (that would expire real clients' sessions), and it has no IndexedDB to save again.
 */
const NOT_ON_NODE: ReadonlySet<CommandName> = new Set<CommandName>([
  'reset',
  'repersist',
  'travelSeek',
  'travelNext',
  'runUntilIdle',
  'advanceClock',
]);

/** Why `request` is refused on the Node host whoever sends it; null when it is offered. */
export function notOffered(request: WorkerRequest): SerializedError | null {
  const replaces = request.type === 'loadScenario' && request.data !== null;
  if (!replaces && !NOT_ON_NODE.has(request.type)) return null;
  const message = `INVALID_REQUEST: ${request.type} is not offered on the Node host: its cluster is the one real clients use, so nothing replaces, rewinds or fast-forwards it.`;
  return { name: 'KafkaError', code: 'INVALID_REQUEST', message, details: {} };
}

/** Kafka's name for a request the caller may not make on the cluster (error 31). */
export function watchingError(): SerializedError {
  const message =
    'CLUSTER_AUTHORIZATION_FAILED: this page is watching; another page controls the Node engine. Close that page to take control here.';
  return { name: 'KafkaError', code: 'CLUSTER_AUTHORIZATION_FAILED', message, details: {} };
}

export class PageSeats<P> {
  private readonly pages: P[] = [];

  constructor(private readonly tell: (page: P, role: PageRole) => void) {}

  join(page: P): void {
    this.pages.push(page);
    this.announce();
  }

  leave(page: P): void {
    const i = this.pages.indexOf(page);
    if (i < 0) return;
    this.pages.splice(i, 1);
    this.announce();
  }

  controls(page: P): boolean {
    return this.pages[0] === page;
  }

  private announce(): void {
    for (const p of this.pages)
      this.tell(p, { role: this.controls(p) ? 'controls' : 'watching', pages: this.pages.length });
  }
}
