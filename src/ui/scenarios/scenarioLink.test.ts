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
