/**
 * The page's one-key perturbations (RaftScope's idea): the table the `?` help lists, which key a
 * keydown means, and what each key aims at in the board's view. Pure, so the rules are
 * unit-tested; runShortcut.ts sends the same commands the buttons send.
 */
import type { BoardBrokerView, BoardPartitionView, BoardView } from '../../engine/apps/types';

export type ShortcutKey = 'k' | 'i' | 'r' | 'p' | 'c' | ' ' | 'ArrowRight' | '?';

export interface Shortcut {
  key: ShortcutKey;
  /** The key as the help shows it. */
  label: string;
  /** What it does, in words. */
  does: string;
}

export const SHORTCUTS: readonly Shortcut[] = [
  {
    key: 'k',
    label: 'K',
    does: 'Kill (kill -9) the broker leading the selected partition (the topic shown; the partition chosen in the event log, else 0).',
  },
  {
    key: 'i',
    label: 'I',
    does: 'Isolate the broker leading the selected partition. While a broker is isolated, I heals it instead.',
  },
  { key: 'r', label: 'R', does: 'Restart the broker killed or stopped most recently (that is still down).' },
  { key: 'p', label: 'P', does: "Produce one record with the producer panel's topic, key and value." },
  { key: 'c', label: 'C', does: 'Crash the first running consumer of the selected group (else the first group).' },
  { key: ' ', label: 'Space', does: 'Play or pause the engine clock.' },
  { key: 'ArrowRight', label: '→', does: 'Step the paused clock by 10 ms.' },
  { key: '?', label: '?', does: 'Show this list.' },
];

/** What the handler needs of a keydown (KeyboardEvent has it; tests pass plain objects). */
export interface KeyPress {
  key: string;
  altKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  defaultPrevented: boolean;
  target: EventTarget | null;
}

/**
 * True when a key press belongs to the focused control rather than to the page: every key typed
 * into a field, select or editable text, and Space on a button (which presses it).
 */
export function isTyping(target: EventTarget | null, key: string): boolean {
  // Read by shape, not instanceof, so the rule is the same in a test without a DOM.
  if (target === null || typeof target !== 'object' || !('tagName' in target)) return false;
  const tag = String(target.tagName).toUpperCase();
  const editable = 'isContentEditable' in target && target.isContentEditable === true;
  if (tag === 'BUTTON') return key === ' ';
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT' || editable;
}

/**
 * The shortcut a key press means, or null: keys typed into a field or control, and keys with
 * Alt, Ctrl or Meta (the browser's and the system's own shortcuts), are not the page's. Shift is
 * allowed, since `?` needs it on most layouts; letters match either case.
 */
export function shortcutFor(e: KeyPress): Shortcut | null {
  if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || isTyping(e.target, e.key)) return null;
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
  return SHORTCUTS.find((s) => s.key === key) ?? null;
}

/** The partition K and I aim at: `topic`'s `partition` when it exists, else its partition 0, else the first user topic's. */
export function selectedPartition(
  view: BoardView,
  topic: string | null,
  partition: number | null,
): BoardPartitionView | null {
  const user = view.topics.filter((t) => !t.internal);
  const t = user.find((x) => x.name === topic) ?? user[0];
  if (!t) return null;
  return t.partitions.find((p) => p.partition === partition) ?? t.partitions[0] ?? null;
}

/** The broker the partition's leader runs on, if it has a live one (Kafka's leader -1: none). */
export function leaderBroker(view: BoardView, p: BoardPartitionView | null): BoardBrokerView | null {
  if (!p || p.leader < 0) return null;
  const b = view.brokers.find((x) => x.id === p.leader);
  return b && b.state !== 'down' ? b : null;
}

/** The broker R restarts: the one killed or stopped last (by the scenario's actions) that is still down. */
export function restartTarget(view: BoardView): number | null {
  const down = new Set(view.brokers.filter((b) => b.state === 'down').map((b) => b.id));
  for (let i = view.actions.length - 1; i >= 0; i--) {
    const a = view.actions[i]?.action;
    if (a && (a.op === 'killBroker' || a.op === 'stopBroker') && down.has(a.broker)) return a.broker;
  }
  return down.size > 0 ? Math.min(...down) : null;
}

/** The broker I heals: the first isolated one, if any. */
export function isolatedBroker(view: BoardView): number | null {
  return view.brokers.find((b) => b.isolated)?.id ?? null;
}

/** The consumer C crashes: the first running one of `group` (else of the first group that has one). */
export function crashTarget(view: BoardView, group: string | null): string | null {
  const running = view.consumers.filter((c) => c.lifecycle === 'running' && c.group !== null);
  const pick = running.find((c) => c.group === group) ?? (group === null ? running[0] : undefined);
  return pick?.name ?? null;
}
