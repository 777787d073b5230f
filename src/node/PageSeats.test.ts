import { describe, expect, it } from 'vitest';
import type { PageRole } from '../link/hostFrames';
import type { WorkerRequest } from '../worker/protocol';
import { isRead, notOffered, PageSeats } from './PageSeats';

const req = (r: Omit<WorkerRequest, 'messageId'>) => ({ messageId: 1, ...r }) as WorkerRequest;

describe('PageSeats: one page controls the Node engine, the others watch', () => {
  it('the first page controls; when it leaves, the page attached longest after it does', () => {
    const told: [string, PageRole][] = [];
    const seats = new PageSeats<string>((p, role) => told.push([p, role]));
    seats.join('a');
    seats.join('b');
    seats.join('c');
    expect(seats.controls('a')).toBe(true);
    expect(seats.controls('b')).toBe(false);
    expect(told.slice(-3)).toEqual([
      ['a', { role: 'controls', pages: 3 }],
      ['b', { role: 'watching', pages: 3 }],
      ['c', { role: 'watching', pages: 3 }],
    ]);
    seats.leave('a');
    expect(seats.controls('b')).toBe(true);
    expect(told.slice(-2)).toEqual([
      ['b', { role: 'controls', pages: 2 }],
      ['c', { role: 'watching', pages: 2 }],
    ]);
  });

  it('reads pass for a watcher; anything that acts does not', () => {
    expect(isRead(req({ type: 'frame', data: { advanceMs: 16, windows: [], run: 0, have: {} } }))).toBe(true);
    expect(isRead(req({ type: 'loadScenario', data: null }))).toBe(true);
    expect(isRead(req({ type: 'applyAction', data: { op: 'killBroker', broker: 1 } }))).toBe(false);
    expect(isRead(req({ type: 'produceRecord', data: { topic: 't', key: null, value: 'v', headers: [] } }))).toBe(
      false,
    );
  });

  it('nothing replaces or rewinds the cluster real clients use, whoever asks', () => {
    expect(notOffered(req({ type: 'reset', data: null }))?.code).toBe('INVALID_REQUEST');
    expect(notOffered(req({ type: 'travelSeek', data: { atMs: 0 } }))?.code).toBe('INVALID_REQUEST');
    // Its clock is the wall clock: moving it ahead would expire real clients' sessions.
    expect(notOffered(req({ type: 'runUntilIdle', data: null }))?.code).toBe('INVALID_REQUEST');
    expect(notOffered(req({ type: 'advanceClock', data: { ms: 1000 } }))?.code).toBe('INVALID_REQUEST');
    const spec = { seed: 1, preset: 'demo' as const, actions: [], untilMs: 0 };
    expect(notOffered(req({ type: 'loadScenario', data: spec }))?.message).toMatch(/^INVALID_REQUEST: loadScenario/);
    expect(notOffered(req({ type: 'loadScenario', data: null }))).toBeNull();
    expect(notOffered(req({ type: 'applyAction', data: { op: 'restartBroker', broker: 1 } }))).toBeNull();
  });
});
