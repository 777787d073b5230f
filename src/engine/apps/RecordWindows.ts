/**
 * The record windows the page asked for, each sent again only when what it covers may have
 * changed (leader, log start and end, high watermark, segment count): a producer at thousands of
 * records a second changes a log every frame, and a window nobody can read that fast need not
 * be rebuilt each time.
 */
import {
  type DataPath,
  type RecordWindow,
  type RecordWindowRequest,
  recordWindow,
  SegmentNotLoadedError,
} from '../index';

export class RecordWindows {
  /** What each partition's last sent window covered, by `<topic>-<partition>`. */
  private readonly sent = new Map<string, string>();

  clear(): void {
    this.sent.clear();
  }

  /**
   * The windows to send now: a request not seen before at once, the others only when `due` (the
   * page asked for the cluster view in this frame: its pacing, ui/FramePacing.ts) and changed. A window whose records are in a segment being read back
   * from the Store waits for a later frame.
   */
  take(data: DataPath, requests: readonly RecordWindowRequest[], due: boolean): RecordWindow[] {
    const windows: RecordWindow[] = [];
    for (const req of requests) {
      const key = `${req.topic}-${req.partition}`;
      const newRequest = !this.sent.get(key)?.startsWith(JSON.stringify(req));
      if (!due && !newRequest) continue;
      const replica = data.replica(req.topic, req.partition);
      if (!replica) continue;
      const log = replica.log;
      const stamp = `${JSON.stringify(req)}|${replica.broker}|${log.logStartOffset}|${log.logEndOffset}|${replica.highWatermark}|${log.logSegments.length}`;
      if (this.sent.get(key) === stamp) continue;
      try {
        windows.push(recordWindow(req.topic, req.partition, log, req));
      } catch (e) {
        if (e instanceof SegmentNotLoadedError) continue;
        throw e;
      }
      this.sent.set(key, stamp);
    }
    return windows;
  }
}
