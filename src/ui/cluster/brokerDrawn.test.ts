import { describe, expect, it } from 'vitest';
import type { BoardBrokerView } from '../../engine/apps/types';
import { brokerDrawn, brokerWords, controllerDrawn } from './brokerDrawn';

const broker = (over: Partial<BoardBrokerView>): BoardBrokerView => ({
  id: 1,
  rack: null,
  state: 'running',
  alive: true,
  isolated: false,
  controller: false,
  sessionId: 7,
  lastHeartbeatMs: 1000,
  leaderCount: 19,
  ...over,
});

describe('brokerDrawn: one state per broker, named the same on every surface', () => {
  it('kill -9: the process is gone, the ZooKeeper session lives until zookeeper.session.timeout.ms, counted down', () => {
    // CoordinationStore.expireSessions: expired once now - lastHeartbeat >= the timeout.
    const d = brokerDrawn(broker({ state: 'down', alive: true, lastHeartbeatMs: 1000 }), 2800, 6000);
    expect(d).toEqual({ state: 'session-alive', sessionLeftMs: 4200 });
    expect(brokerWords(d)).toBe('process gone, session alive for 4.2 s');
  });

  it('down once the session expired; alive, isolated and unregistered otherwise', () => {
    expect(brokerDrawn(broker({ state: 'down', alive: false }), 9000, 6000).state).toBe('down');
    expect(brokerDrawn(broker({}), 0, 6000).state).toBe('alive');
    expect(brokerDrawn(broker({ isolated: true }), 0, 6000).state).toBe('isolated');
    expect(brokerDrawn(broker({ alive: false }), 0, 6000).state).toBe('unregistered');
  });

  it('the controller: the active one; else the broker /controller still names; else nobody (an election)', () => {
    const znode = { path: '/controller', data: '{"version":1,"brokerid":1,"timestamp":"1700000000000"}' };
    const z = [{ ...znode, ephemeral: true, owner: '7', version: 0, dataWatches: 2, childWatches: 0, mtimeMs: 0 }];
    expect(controllerDrawn({ controller: 2, znodes: [] })).toEqual({ broker: 2, processGone: false });
    expect(controllerDrawn({ controller: null, znodes: z })).toEqual({ broker: 1, processGone: true });
    expect(controllerDrawn({ controller: null, znodes: [] })).toEqual({ broker: null, processGone: false });
  });
});
