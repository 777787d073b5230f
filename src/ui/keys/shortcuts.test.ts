import { describe, expect, it } from 'vitest';
import type { BoardView } from '../../engine/apps/types';
import {
  crashTarget,
  isolatedBroker,
  leaderBroker,
  restartTarget,
  SHORTCUTS,
  selectedPartition,
  shortcutFor,
  type KeyPress,
} from './shortcuts';

const press = (key: string, more: Partial<KeyPress> = {}): KeyPress => ({
  key,
  altKey: false,
  ctrlKey: false,
  metaKey: false,
  defaultPrevented: false,
  target: null,
  ...more,
});

/** A target shaped like a DOM element (the unit tests run without a DOM). */
const element = (tagName: string, isContentEditable = false) =>
  ({ tagName, isContentEditable }) as unknown as EventTarget;

describe('the shortcut table', () => {
  it("lists issue 12's keys once each, with words for every one", () => {
    expect(SHORTCUTS.map((s) => s.label)).toEqual(['K', 'I', 'R', 'P', 'C', 'Space', '→', '?']);
    expect(new Set(SHORTCUTS.map((s) => s.key)).size).toBe(SHORTCUTS.length);
    for (const s of SHORTCUTS) expect(s.does.length).toBeGreaterThan(10);
  });

  it('maps a letter in either case, Space, the right arrow and ? (typed with Shift)', () => {
    expect(shortcutFor(press('k'))?.key).toBe('k');
    expect(shortcutFor(press('K'))?.key).toBe('k');
    expect(shortcutFor(press(' '))?.key).toBe(' ');
    expect(shortcutFor(press('ArrowRight'))?.key).toBe('ArrowRight');
    expect(shortcutFor(press('?'))?.key).toBe('?');
    expect(shortcutFor(press('x'))).toBeNull();
  });

  it('ignores keys typed into inputs, selects, textareas and editable text, and Space on a button', () => {
    for (const tag of ['input', 'SELECT', 'TEXTAREA'])
      expect(shortcutFor(press('k', { target: element(tag) }))).toBeNull();
    expect(shortcutFor(press(' ', { target: element('BUTTON') }))).toBeNull();
    // A letter on a focused button (e.g. just after clicking Pause) is still the page's.
    expect(shortcutFor(press('k', { target: element('BUTTON') }))?.key).toBe('k');
    expect(shortcutFor(press('p', { target: element('DIV', true) }))).toBeNull();
    expect(shortcutFor(press('p', { target: element('BODY') }))?.key).toBe('p');
  });

  it("ignores keys with Ctrl, Alt or Meta (the browser's own, e.g. Ctrl+R) and keys already handled", () => {
    expect(shortcutFor(press('r', { ctrlKey: true }))).toBeNull();
    expect(shortcutFor(press('k', { altKey: true }))).toBeNull();
    expect(shortcutFor(press('c', { metaKey: true }))).toBeNull();
    expect(shortcutFor(press(' ', { defaultPrevented: true }))).toBeNull();
  });
});

const broker = (id: number, state = 'running', isolated = false) => ({ id, state, isolated, alive: state !== 'down' });
const partition = (topic: string, p: number, leader: number) => ({ topic, partition: p, leader });

function view(v: Partial<Record<keyof BoardView, unknown>>): BoardView {
  return {
    brokers: [broker(1), broker(2), broker(3)],
    topics: [
      { name: '__consumer_offsets', internal: true, partitions: [partition('__consumer_offsets', 0, 1)] },
      { name: 'orders', internal: false, partitions: [partition('orders', 0, 2), partition('orders', 1, 3)] },
    ],
    actions: [],
    consumers: [],
    ...v,
  } as unknown as BoardView;
}

describe('what the keys aim at', () => {
  it("K and I: the chosen partition's leader, else partition 0 of the topic shown, else of the first user topic", () => {
    const v = view({});
    expect(selectedPartition(v, 'orders', 1)?.leader).toBe(3);
    expect(selectedPartition(v, 'orders', null)?.leader).toBe(2);
    expect(selectedPartition(v, 'gone', null)?.topic).toBe('orders');
    expect(leaderBroker(v, selectedPartition(v, 'orders', 1))?.id).toBe(3);
    // No leader (Kafka's -1), or a leader that is down: nothing to kill.
    expect(leaderBroker(v, partition('orders', 0, -1) as never)).toBeNull();
    expect(leaderBroker(view({ brokers: [broker(2, 'down')] }), selectedPartition(v, 'orders', 0))).toBeNull();
  });

  it('I heals while a broker is isolated', () => {
    expect(isolatedBroker(view({}))).toBeNull();
    expect(isolatedBroker(view({ brokers: [broker(1), broker(2, 'running', true)] }))).toBe(2);
  });

  it('R: the broker killed or stopped last that is still down', () => {
    const actions = [
      { at: 1, action: { op: 'killBroker', broker: 1 } },
      { at: 2, action: { op: 'stopBroker', broker: 3 } },
      { at: 3, action: { op: 'restartBroker', broker: 3 } },
    ];
    expect(restartTarget(view({ brokers: [broker(1, 'down'), broker(2), broker(3)], actions }))).toBe(1);
    expect(restartTarget(view({ actions }))).toBeNull();
  });

  it('C: the first running consumer of the selected group, else of any group', () => {
    const consumers = [
      { name: 'c-1', group: 'g1', lifecycle: 'crashed' },
      { name: 'c-2', group: 'g1', lifecycle: 'running' },
      { name: 'c-3', group: 'g2', lifecycle: 'running' },
      { name: 'c-4', group: null, lifecycle: 'running' },
    ];
    expect(crashTarget(view({ consumers }), 'g2')).toBe('c-3');
    expect(crashTarget(view({ consumers }), null)).toBe('c-2');
    expect(crashTarget(view({ consumers }), 'g3')).toBeNull();
  });
});
