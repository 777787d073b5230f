import { describe, expect, it } from 'vitest';
import { decodeScenarioHash, encodeScenarioHash, type ScenarioLink, ScenarioLinkError } from './scenarioLink';

describe('scenario links', () => {
  const link: ScenarioLink = {
    spec: {
      seed: 7,
      preset: 'demo' as const,
      actions: [
        { at: 1200, action: { op: 'killBroker' as const, broker: 2 } },
        { at: 1500, action: { op: 'moveConsumer' as const, name: 'c1', group: 'analytics' } },
        { at: 1500, action: { op: 'moveConsumer' as const, name: 'c2', group: null } },
        {
          at: 3000,
          action: {
            op: 'createTopic' as const,
            name: 'καφές-is-not-a-topic-name-but-text-survives',
            partitions: 13,
            replicationFactor: 2,
            startIndex: null,
            configs: { 'unclean.leader.election.enable': 'true' },
          },
        },
        {
          at: 3500,
          action: {
            op: 'alterTopicConfig' as const,
            topic: 'orders',
            configs: { 'retention.bytes': '20000', 'cleanup.policy': 'compact' },
          },
        },
      ],
      untilMs: 4000,
    },
    paused: true,
  };

  it('round-trips through the hash, UTF-8 included', () => {
    const hash = encodeScenarioHash(link);
    expect(hash).toMatch(/^#scenario=[A-Za-z0-9_-]+$/);
    expect(decodeScenarioHash(hash)).toEqual(link);
  });

  it('keeps what placed a created topic (rackAware, startPartitionId) and adds nothing it did not have', () => {
    // Recorded as the create-topic dialog and the seed examples send it (seed 000's topic2 continues at partition 2).
    const created = {
      seed: 1,
      preset: 'racks4' as const,
      actions: [
        {
          at: 100,
          action: {
            op: 'createTopic' as const,
            name: 'topic2',
            partitions: 2,
            replicationFactor: 2,
            rackAware: false,
            startIndex: 0,
            startPartitionId: 2,
          },
        },
      ],
      untilMs: 200,
    };
    expect(decodeScenarioHash(encodeScenarioHash({ spec: created, paused: false }))?.spec).toEqual(created);
  });

  it('has no scenario when the hash has none', () => {
    expect(decodeScenarioHash('')).toBeNull();
    expect(decodeScenarioHash('#other=1')).toBeNull();
  });

  it('refuses damaged links with a reason', () => {
    expect(() => decodeScenarioHash('#scenario=%%%')).toThrow(ScenarioLinkError);
    expect(() => decodeScenarioHash('#scenario=bm90IGpzb24')).toThrow('it is not valid JSON');
    const bad = (body: unknown) => `#scenario=${btoa(JSON.stringify(body)).replace(/=+$/, '')}`;
    expect(() => decodeScenarioHash(bad({ v: 2 }))).toThrow('version');
    expect(() => decodeScenarioHash(bad({ v: 1, seed: 1, preset: 'moon', actions: [], untilMs: 0 }))).toThrow('preset');
    expect(() =>
      decodeScenarioHash(
        bad({ v: 1, seed: 1, preset: 'demo', actions: [{ at: 5, action: { op: 'explode' } }], untilMs: 9 }),
      ),
    ).toThrow('unknown op');
    // Actions must be in time order and not after the link's own time.
    expect(() =>
      decodeScenarioHash(
        bad({
          v: 1,
          seed: 1,
          preset: 'demo',
          actions: [{ at: 50, action: { op: 'preferredElection' } }],
          untilMs: 10,
        }),
      ),
    ).toThrow("action 1's time");
  });
});

describe('scenario links: long runs', () => {
  const send = (at: number) => ({
    at,
    action: { op: 'produceRecord' as const, topic: 'tt', key: null, value: `v${at}`, headers: [] },
  });

  it('carry 405 actions whole, the first ones included (no cap of 400 dropping them)', () => {
    const actions = [
      { at: 0, action: { op: 'addGroup' as const, group: 'early', assignor: 'range' as const } },
      ...Array.from({ length: 405 }, (_, i) => send(i + 1)),
    ];
    const link: ScenarioLink = { spec: { seed: 1, preset: 'demo', actions, untilMs: 500 }, paused: false };
    expect(decodeScenarioHash(encodeScenarioHash(link))).toEqual(link);
  });

  it("carry a Send N job's slices, checked: from 0, in time order, adding up to its count", () => {
    const job = { op: 'produceRecords' as const, topic: 'tt', from: 0, count: 30, keyPrefix: null, valueBytes: 8 };
    const link = (slices: number[], count = 30): ScenarioLink => ({
      spec: { seed: 1, preset: 'demo', actions: [{ at: 10, action: { ...job, count }, slices }], untilMs: 100 },
      paused: false,
    });
    const good = link([0, 10, 16, 10, 32, 10]);
    expect(decodeScenarioHash(encodeScenarioHash(good))).toEqual(good);
    for (const bad of [link([0, 10, 16, 10]), link([5, 30]), link([0, 10, 32, 10, 16, 10]), link([0, 30, 200, 1], 31)])
      expect(() => decodeScenarioHash(encodeScenarioHash(bad))).toThrow(ScenarioLinkError);
  });
});

describe('scenario links made before the actions took the engine’s words', () => {
  // Made by the page before issue 24: produce, reassign and preferredElection (legacyActionOps.ts).
  const OLD_LINK =
    '#scenario=eyJ2IjoxLCJzZWVkIjozLCJwcmVzZXQiOiJkZW1vIiwiYWN0aW9ucyI6W3siYXQiOjEwMDAsImFjdGlvbiI6eyJvcCI6InByb2R1Y2UiLCJ0b3BpYyI6Im9yZGVycyIsImNvdW50IjoyMH19LHsiYXQiOjIwMDAsImFjdGlvbiI6eyJvcCI6InJlYXNzaWduIiwidG9waWMiOiJvcmRlcnMiLCJwYXJ0aXRpb24iOjAsInJlcGxpY2FzIjpbMywyLDFdfX0seyJhdCI6OTAwMCwiYWN0aW9uIjp7Im9wIjoicHJlZmVycmVkRWxlY3Rpb24ifX1dLCJ1bnRpbE1zIjoxMjAwMCwicGF1c2VkIjp0cnVlfQ';

  it('decode in today’s words', () => {
    expect(decodeScenarioHash(OLD_LINK)).toEqual({
      spec: {
        seed: 3,
        preset: 'demo',
        actions: [
          { at: 1000, action: { op: 'produceDemoRecords', topic: 'orders', count: 20 } },
          { at: 2000, action: { op: 'reassignPartitions', topic: 'orders', partition: 0, replicas: [3, 2, 1] } },
          { at: 9000, action: { op: 'electPreferredLeaders' } },
        ],
        untilMs: 12000,
      },
      paused: true,
    });
  });
});
