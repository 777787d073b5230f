import { describe, expect, it } from 'vitest';
import { ManualClock } from '../Clock';
import { type NetworkEvent, Network, type RequestMessage, type ResponseMessage } from './Network';
import type { MetadataRequest, MetadataResponse } from './requests';
import { Scheduler } from './Scheduler';

const metadataRequest: MetadataRequest = { api: 'Metadata', topics: null, allowAutoTopicCreation: false };
const metadataResponse: MetadataResponse = {
  api: 'Metadata',
  throttleTimeMs: 0,
  brokers: [],
  clusterId: 'c',
  controllerId: -1,
  topics: [],
};

function setup(latencyMs = 5) {
  const clock = new ManualClock(0);
  const scheduler = new Scheduler(clock);
  const events: NetworkEvent[] = [];
  const net = new Network(scheduler, (e) => events.push(e), { latencyMs });
  const got: { node: string; at: number; msg: RequestMessage | ResponseMessage }[] = [];
  const resets: string[] = [];
  const attach = (node: string, answer = true) =>
    net.attach(node, {
      onRequest: (m) => {
        got.push({ node, at: clock.now(), msg: m });
        if (answer) net.reply(m, metadataResponse);
      },
      onResponse: (m) => got.push({ node, at: clock.now(), msg: m }),
      onDisconnect: (peer, cid) => resets.push(`${node}<-${peer}#${cid}`),
    });
  return { clock, scheduler, net, events, got, resets, attach };
}

describe('Network', () => {
  it('delivers a request after the latency and the response one latency later, with times in events', () => {
    const { net, scheduler, got, events, attach } = setup(5);
    attach('client');
    attach('broker-1');
    const cid = net.send('client', 'broker-1', metadataRequest);
    scheduler.runUntil(4);
    expect(got).toEqual([]);
    scheduler.runUntil(100);
    expect(got.map((g) => [g.node, g.at, g.msg.kind, g.msg.correlationId])).toEqual([
      ['broker-1', 5, 'request', cid],
      ['client', 10, 'response', cid],
    ]);
    const sent = events.filter((e) => e.type === 'messageSent');
    expect(sent.map((e) => (e.type === 'messageSent' ? [e.from, e.to, e.sentAtMs, e.arriveAtMs] : null))).toEqual([
      ['client', 'broker-1', 0, 5],
      ['broker-1', 'client', 5, 10],
    ]);
  });

  it('keeps links FIFO when latency drops and delivers same-time messages in send order', () => {
    const { net, scheduler, got, attach } = setup(10);
    attach('a', false);
    attach('b', false);
    net.send('a', 'b', metadataRequest);
    net.setLatency(1);
    net.send('a', 'b', metadataRequest);
    scheduler.runUntil(50);
    expect(got.map((g) => [g.at, g.msg.correlationId])).toEqual([
      [10, 1],
      [10, 2],
    ]);
  });

  it('delivers nothing to or from an isolated node, and silently', () => {
    const { net, scheduler, got, events, resets, attach } = setup(5);
    attach('client');
    attach('broker-1');
    net.isolate('broker-1');
    net.send('client', 'broker-1', metadataRequest);
    scheduler.runUntil(100);
    expect(got).toEqual([]);
    expect(resets).toEqual([]);
    expect(events.some((e) => e.type === 'messageDropped' && e.reason === 'receiverIsolated')).toBe(true);
    net.heal('broker-1');
    net.send('client', 'broker-1', metadataRequest);
    scheduler.runUntil(200);
    expect(got.length).toBe(2);
  });

  it('after an isolation lost a Produce request, later ones on that connection are lost until the producer closes it', () => {
    // TCP never delivers a later request of a stream after a lost one; Kafka's NetworkClient
    // closes the connection on a request timeout (handleTimedOutRequests), failing them all.
    const { net, scheduler, got, events, attach } = setup(5);
    attach('client');
    attach('broker-1', false);
    const produce = {
      api: 'Produce' as const,
      transactionalId: null,
      acks: -1 as const,
      timeoutMs: 1000,
      topicData: [],
    };
    net.isolate('broker-1');
    const lost = net.send('client', 'broker-1', produce);
    scheduler.runUntil(100);
    net.heal('broker-1');
    const behind = net.send('client', 'broker-1', produce);
    net.send('client', 'broker-1', metadataRequest); // other requests are not held back
    scheduler.runUntil(200);
    expect(got.map((g) => g.msg.api)).toEqual(['Metadata']);
    expect(events.some((e) => e.type === 'messageDropped' && e.reason === 'connectionBroken')).toBe(true);
    net.abandon(lost);
    net.abandon(behind);
    net.send('client', 'broker-1', produce);
    scheduler.runUntil(300);
    expect(got.map((g) => g.msg.api)).toEqual(['Metadata', 'Produce']);
  });

  it('a crash resets connections (peers hear a disconnect); a power failure does not', () => {
    const { net, scheduler, resets, attach } = setup(5);
    attach('client');
    attach('broker-1', false); // holds the request, like a purgatory
    attach('broker-2', false);
    const c1 = net.send('client', 'broker-1', metadataRequest);
    const c2 = net.send('client', 'broker-2', metadataRequest);
    scheduler.runUntil(6);
    net.detach('broker-1', true);
    net.detach('broker-2', false);
    scheduler.runUntil(100);
    expect(resets).toEqual([`client<-broker-1#${c1}`]);
    expect(c2).toBeGreaterThan(c1);
    // A request to a crashed process is refused; to a powered-off machine it vanishes.
    const c3 = net.send('client', 'broker-1', metadataRequest);
    net.send('client', 'broker-2', metadataRequest);
    scheduler.runUntil(200);
    expect(resets).toEqual([`client<-broker-1#${c1}`, `client<-broker-1#${c3}`]);
  });
});

describe('Scheduler', () => {
  it('runs tasks in time then insertion order with the clock at each due time', () => {
    const clock = new ManualClock(0);
    const s = new Scheduler(clock);
    const log: string[] = [];
    s.schedule(10, () => log.push(`a@${clock.now()}`));
    s.schedule(5, () => {
      log.push(`b@${clock.now()}`);
      s.schedule(0, () => log.push(`c@${clock.now()}`));
    });
    const cancelled = s.schedule(7, () => log.push('never'));
    s.cancel(cancelled);
    const p = s.schedulePeriodic(3, 4, () => log.push(`p@${clock.now()}`));
    s.runUntil(12);
    p.cancel();
    s.runUntil(30);
    expect(log).toEqual(['p@3', 'b@5', 'c@5', 'p@7', 'a@10', 'p@11']);
    expect(clock.now()).toBe(30);
  });
});
