import type { LogSegment } from './LogSegment';
import type { LookupStep } from './LookupTrace';

/**
 * The segments of one partition log, ordered by base offset (Kafka's LogSegments, a skip-list
 * map there, a sorted array here). The last one is the active segment, the only one appended to.
 *
 * Invariant: base offsets strictly increase; each segment's offsets lie in
 * [its base offset, the next segment's base offset).
 */
export class LogSegments {
  private list: LogSegment[] = [];

  get values(): readonly LogSegment[] {
    return this.list;
  }

  get count(): number {
    return this.list.length;
  }

  get first(): LogSegment | undefined {
    return this.list[0];
  }

  get last(): LogSegment | undefined {
    return this.list[this.list.length - 1];
  }

  /** Adds a segment after the current last one. */
  add(segment: LogSegment): void {
    const last = this.last;
    if (last && segment.baseOffset <= last.baseOffset) {
      throw new RangeError(`segment ${segment.baseOffset} does not follow ${last.baseOffset}`);
    }
    this.list.push(segment);
  }

  remove(segment: LogSegment): void {
    const i = this.list.indexOf(segment);
    if (i >= 0) this.list.splice(i, 1);
  }

  /** Replaces `old` (consecutive segments) by `replacement`, keeping order. */
  replace(old: readonly LogSegment[], replacement: LogSegment | null): void {
    const first = old[0];
    if (!first) return;
    const at = this.list.indexOf(first);
    this.list.splice(at, old.length, ...(replacement ? [replacement] : []));
  }

  clear(): void {
    this.list = [];
  }

  /** Index of the segment after `segment`, or -1. */
  higherSegment(segment: LogSegment): LogSegment | undefined {
    const i = this.list.indexOf(segment);
    return i >= 0 ? this.list[i + 1] : undefined;
  }

  /**
   * Kafka's floorSegment: the segment with the largest base offset <= offset, by binary search
   * over the base offsets — which are the file names, so this is the search the seeds describe.
   * Pushes one step per comparison to `trace` when given.
   */
  floorSegment(offset: number, trace?: LookupStep[]): LogSegment | undefined {
    const list = this.list;
    let lo = 0;
    let hi = list.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const seg = list[mid] as LogSegment;
      const base = seg.baseOffset;
      if (trace) {
        const fileName = seg.logFileName;
        trace.push({
          kind: 'segment-probe',
          lo,
          hi,
          mid,
          baseOffset: base,
          fileName,
          comparison: base < offset ? 'less' : base > offset ? 'greater' : 'equal',
          explanation:
            base <= offset
              ? `Segment ${fileName} starts at ${base} <= ${offset}: it may hold the offset, so remember it and ${mid + 1 <= hi ? `look at later segments (${mid + 1}..${hi})` : 'no later segment is left to check'}.`
              : `Segment ${fileName} starts at ${base} > ${offset}: the offset is in an earlier segment${lo <= mid - 1 ? ` (${lo}..${mid - 1})` : ', and none is left to check'}.`,
        });
      }
      if (base <= offset) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    const seg = found >= 0 ? list[found] : undefined;
    if (trace && seg) {
      const next = list[found + 1];
      trace.push({
        kind: 'segment-chosen',
        baseOffset: seg.baseOffset,
        fileName: seg.logFileName,
        explanation: next
          ? `${seg.logFileName} is the last segment starting at or before ${offset} (the next starts at ${next.baseOffset}), so offset ${offset} lives in it.`
          : `${seg.logFileName} is the last (active) segment and starts at or before ${offset}, so offset ${offset} lives in it.`,
      });
    }
    return seg;
  }
}
