import { useBoard } from '../store';

/** Whether the event chosen in the log is about this broker, partition (`<topic>-<p>`) or group. */
export function useFocused(what: 'broker' | 'partition' | 'group', key: number | string): boolean {
  return useBoard((s) => {
    const f = s.focus;
    if (!f) return false;
    if (what === 'broker') return f.brokers.includes(Number(key));
    if (what === 'partition') return f.partitions.includes(String(key));
    return f.groups.includes(String(key));
  });
}
