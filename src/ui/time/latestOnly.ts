/**
 * Runs an async task for the latest value only: while one runs, newer values wait and only the
 * newest is run next. A scrubber drag asks for many moments; the worker replays just the ones it
 * has time for, and always the one the drag ended on.
 */
export function latestOnly<T>(run: (value: T) => Promise<unknown>, onIdle?: () => void): (value: T) => void {
  let running = false;
  let pending: { value: T } | null = null;
  const next = (value: T): void => {
    running = true;
    void run(value)
      .catch(() => undefined)
      .finally(() => {
        running = false;
        const p = pending;
        pending = null;
        if (p) next(p.value);
        else onIdle?.();
      });
  };
  return (value: T) => {
    if (running) pending = { value };
    else next(value);
  };
}
