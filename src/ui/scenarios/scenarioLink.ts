/**
 * A scenario in a link: `#scenario=<base64url(JSON)>`. The JSON holds the seed, the preset, the
 * actions with their engine times, the engine time the link was made at, and whether the clock
 * was paused. Decoding checks every field, so a damaged or hand-edited link is refused with a
 * reason instead of running something half-understood.
 */
import type {
  AssignorName,
  CommitMode,
  ScenarioAction,
  PresetName,
  ProducerSettings,
  ScenarioSpec,
  TimedAction,
  TopicCleanupKey,
} from '../../engine/apps/types';
import {
  ASSIGNORS,
  COMMIT_MODES,
  currentActionOp,
  isBrokerCommandOp,
  MAX_PRODUCE_MANY_RECORDS,
  TOPIC_CLEANUP_KEYS,
} from '../../worker/client';

export interface ScenarioLink {
  spec: ScenarioSpec;
  paused: boolean;
}

const PRESET_NAMES: readonly PresetName[] = ['demo', 'empty4', 'racks4', 'eight', 'elections', 'large'];
const KEY = 'scenario';
/**
 * The most recorded steps (actions, and the slices of Send N jobs) a link carries: a few hundred
 * KB of address. A longer run is not cut to fit (that would drop its first actions): its address
 * names no scenario, and the run stays whole in this browser's storage.
 */
export const MAX_LINK_STEPS = 20_000;

/** The steps a replay of `actions` takes: each action, and each further slice of a Send N job. */
export function linkSteps(actions: readonly TimedAction[]): number {
  let n = actions.length;
  for (const t of actions) if (t.slices) n += t.slices.length / 2 - 1;
  return n;
}

export class ScenarioLinkError extends Error {}

function toBase64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(s: string): string {
  if (!/^[A-Za-z0-9_-]*$/.test(s)) throw new ScenarioLinkError('it is not base64url text');
  const b64 = s.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (s.length % 4)) % 4);
  let bin: string;
  try {
    bin = atob(b64);
  } catch {
    throw new ScenarioLinkError('it is not base64url text');
  }
  const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
}

export function encodeScenarioHash(link: ScenarioLink): string {
  const body = { v: 1, ...link.spec, paused: link.paused };
  return `#${KEY}=${toBase64Url(JSON.stringify(body))}`;
}

/** The scenario in a location hash; null when the hash has none; throws ScenarioLinkError when it is invalid. */
export function decodeScenarioHash(hash: string): ScenarioLink | null {
  const params = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
  const raw = params.get(KEY);
  if (raw === null) return null;
  let json: unknown;
  try {
    json = JSON.parse(fromBase64Url(raw));
  } catch (e) {
    if (e instanceof ScenarioLinkError) throw e;
    throw new ScenarioLinkError('it is not valid JSON');
  }
  return parseScenario(json);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function int(v: unknown, what: string, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max)
    throw new ScenarioLinkError(`${what} must be an integer in [${min}, ${max}]`);
  return v;
}

/** A record's text (key, value, header value): null or a string, up to 1 MiB. */
function text(v: unknown, what: string): string | null {
  if (v === null) return null;
  if (typeof v !== 'string' || v.length > 1024 * 1024) throw new ScenarioLinkError(`${what} must be text or null`);
  return v;
}

function str(v: unknown, what: string): string {
  if (typeof v !== 'string' || v.length === 0 || v.length > 249) throw new ScenarioLinkError(`${what} must be text`);
  return v;
}

export function parseScenario(json: unknown): ScenarioLink {
  if (!isObject(json)) throw new ScenarioLinkError('it is not an object');
  if (json.v !== 1) throw new ScenarioLinkError('its version is not 1');
  const seed = int(json.seed, 'seed', 0, 2 ** 31 - 1);
  if (!PRESET_NAMES.includes(json.preset as PresetName)) throw new ScenarioLinkError('its preset is unknown');
  if (!Array.isArray(json.actions) || json.actions.length > MAX_LINK_STEPS)
    throw new ScenarioLinkError(`actions must be a list of at most ${MAX_LINK_STEPS}`);
  const untilMs = int(json.untilMs, 'untilMs', 0, 24 * 3600 * 1000);
  let last = 0;
  let steps = 0;
  const actions: TimedAction[] = json.actions.map((t: unknown, i: number) => {
    if (!isObject(t)) throw new ScenarioLinkError(`action ${i + 1} is not an object`);
    const at = int(t.at, `action ${i + 1}'s time`, last, untilMs);
    last = at;
    const action = parseAction(t.action, i + 1);
    if (t.slices === undefined) {
      steps++;
      return { at, action };
    }
    const slices = parseSlices(t.slices, action, at, untilMs, i + 1);
    steps += slices.length / 2;
    last = at + (slices[slices.length - 2] as number);
    return { at, action, slices };
  });
  if (steps > MAX_LINK_STEPS) throw new ScenarioLinkError(`it holds more than ${MAX_LINK_STEPS} steps`);
  return {
    spec: { seed, preset: json.preset as PresetName, actions, untilMs },
    paused: json.paused === true,
  };
}

/** A Send N job's slices: pairs [ms after the action, records], from 0, in time order, summing to its count. */
function parseSlices(v: unknown, action: ScenarioAction, at: number, untilMs: number, n: number): number[] {
  if (action.op !== 'produceRecords') throw new ScenarioLinkError(`action ${n} has slices but sends no Send N job`);
  if (!Array.isArray(v) || v.length < 2 || v.length % 2 !== 0 || v.length > 2 * MAX_LINK_STEPS)
    throw new ScenarioLinkError(`action ${n}'s slices must be pairs of numbers`);
  let previous = 0;
  let total = 0;
  const slices = v.map((x: unknown, k: number) => {
    if (k % 2 === 1) return int(x, `action ${n}'s slice records`, 1, MAX_PRODUCE_MANY_RECORDS);
    const dt = int(x, `action ${n}'s slice time`, k === 0 ? 0 : previous, untilMs - at);
    if (k === 0 && dt !== 0) throw new ScenarioLinkError(`action ${n}'s first slice must be at its own time`);
    previous = dt;
    return dt;
  });
  for (let k = 1; k < slices.length; k += 2) total += slices[k] as number;
  if (total !== action.count) throw new ScenarioLinkError(`action ${n}'s slices do not add up to its count`);
  return slices;
}

function parseAction(a: unknown, n: number): ScenarioAction {
  if (!isObject(a)) throw new ScenarioLinkError(`action ${n} is not an object`);
  const broker = () => int(a.broker, `action ${n}'s broker`, 0, 100_000);
  // A link made before the actions took the engine's words says reassign, preferredElection, produce.
  const op = currentActionOp(a.op);
  if (isBrokerCommandOp(op)) return { op, broker: broker() };
  switch (op) {
    case 'addBroker':
      return { op: 'addBroker', rack: a.rack === null ? null : str(a.rack, `action ${n}'s rack`) };
    case 'createTopic': {
      const configs: Record<string, string> = {};
      if (a.configs !== undefined) {
        if (!isObject(a.configs)) throw new ScenarioLinkError(`action ${n}'s configs must be an object`);
        for (const [k, v] of Object.entries(a.configs)) configs[k] = str(v, `action ${n}'s config ${k}`);
      }
      if (a.rackAware !== undefined && typeof a.rackAware !== 'boolean')
        throw new ScenarioLinkError(`action ${n}'s rackAware must be true or false`);
      // Every field the placement reads comes back (rackAware, startPartitionId), or the replay
      // would place the topic elsewhere than the run it came from did.
      return {
        op: 'createTopic',
        name: str(a.name, `action ${n}'s topic`),
        partitions: int(a.partitions, `action ${n}'s partitions`, 1, 10_000),
        replicationFactor: int(a.replicationFactor, `action ${n}'s replication factor`, 1, 100),
        startIndex: a.startIndex === null ? null : int(a.startIndex, `action ${n}'s start index`, 0, 100_000),
        ...(a.startPartitionId === undefined
          ? {}
          : { startPartitionId: int(a.startPartitionId, `action ${n}'s start partition id`, 0, 100_000) }),
        ...(a.rackAware === undefined ? {} : { rackAware: a.rackAware }),
        ...(a.configs === undefined ? {} : { configs }),
      };
    }
    case 'setUnclean':
      if (typeof a.enabled !== 'boolean') throw new ScenarioLinkError(`action ${n}'s enabled must be true or false`);
      return { op: 'setUnclean', topic: str(a.topic, `action ${n}'s topic`), enabled: a.enabled };
    case 'alterTopicConfig': {
      if (!isObject(a.configs)) throw new ScenarioLinkError(`action ${n}'s configs must be an object`);
      const configs: Record<string, string> = {};
      for (const [k, v] of Object.entries(a.configs)) {
        if (!TOPIC_CLEANUP_KEYS.includes(k as TopicCleanupKey))
          throw new ScenarioLinkError(`action ${n}'s config ${k} cannot be changed`);
        configs[k] = str(v, `action ${n}'s config ${k}`);
      }
      return { op: 'alterTopicConfig', topic: str(a.topic, `action ${n}'s topic`), configs };
    }
    case 'electPreferredLeaders':
      return { op: 'electPreferredLeaders' };
    case 'reassignPartitions':
      if (!Array.isArray(a.replicas)) throw new ScenarioLinkError(`action ${n}'s replicas must be a list`);
      return {
        op: 'reassignPartitions',
        topic: str(a.topic, `action ${n}'s topic`),
        partition: int(a.partition, `action ${n}'s partition`, 0, 100_000),
        replicas: a.replicas.map((r: unknown) => int(r, `action ${n}'s replica`, 0, 100_000)),
      };
    case 'produceDemoRecords':
      return {
        op: 'produceDemoRecords',
        topic: str(a.topic, `action ${n}'s topic`),
        count: int(a.count, `action ${n}'s count`, 1, 10_000),
      };
    case 'addGroup':
    case 'setAssignor':
      if (!ASSIGNORS.includes(a.assignor as AssignorName))
        throw new ScenarioLinkError(`action ${n}'s assignor is unknown`);
      return { op, group: str(a.group, `action ${n}'s group`), assignor: a.assignor as 'range' };
    case 'removeGroup':
      return { op: 'removeGroup', group: str(a.group, `action ${n}'s group`) };
    case 'setProtocol':
      if (a.protocol !== 'coordinator' && a.protocol !== 'zookeeper')
        throw new ScenarioLinkError(`action ${n}'s protocol is unknown`);
      return { op: 'setProtocol', group: str(a.group, `action ${n}'s group`), protocol: a.protocol };
    case 'setCommitMode':
      if (!COMMIT_MODES.includes(a.mode as CommitMode))
        throw new ScenarioLinkError(`action ${n}'s commit mode is unknown`);
      return { op: 'setCommitMode', group: str(a.group, `action ${n}'s group`), mode: a.mode as CommitMode };
    case 'setStaticMembership':
      if (typeof a.enabled !== 'boolean') throw new ScenarioLinkError(`action ${n}'s enabled is not a boolean`);
      return { op: 'setStaticMembership', group: str(a.group, `action ${n}'s group`), enabled: a.enabled };
    case 'addConsumer':
      return {
        op: 'addConsumer',
        group: str(a.group, `action ${n}'s group`),
        ...(a.name === undefined ? {} : { name: str(a.name, `action ${n}'s consumer`) }),
      };
    case 'moveConsumer':
      return {
        op: 'moveConsumer',
        name: str(a.name, `action ${n}'s consumer`),
        group: a.group === null ? null : str(a.group, `action ${n}'s group`),
      };
    case 'removeConsumer':
    case 'crashConsumer':
      return { op, name: str(a.name, `action ${n}'s consumer`) };
    case 'produceRecord':
      if (!Array.isArray(a.headers)) throw new ScenarioLinkError(`action ${n}'s headers must be a list`);
      return {
        op: 'produceRecord',
        topic: str(a.topic, `action ${n}'s topic`),
        key: text(a.key, `action ${n}'s key`),
        value: text(a.value, `action ${n}'s value`),
        headers: a.headers.map((h: unknown) => {
          if (!isObject(h)) throw new ScenarioLinkError(`action ${n}'s header is not an object`);
          return { key: str(h.key, `action ${n}'s header key`), value: text(h.value, `action ${n}'s header value`) };
        }),
      };
    case 'produceRecords':
      return {
        op: 'produceRecords',
        topic: str(a.topic, `action ${n}'s topic`),
        from: int(a.from, `action ${n}'s first record`),
        count: int(a.count, `action ${n}'s count`, 1, MAX_PRODUCE_MANY_RECORDS),
        keyPrefix: text(a.keyPrefix, `action ${n}'s key prefix`),
        valueBytes: int(a.valueBytes, `action ${n}'s value size`, 0, 1024 * 1024),
      };
    case 'configureProducer': {
      const s = a.settings;
      if (!isObject(s)) throw new ScenarioLinkError(`action ${n}'s settings must be an object`);
      const settings: Partial<ProducerSettings> = {};
      if (s.acks !== undefined) {
        if (s.acks !== 'all' && s.acks !== '1' && s.acks !== '0')
          throw new ScenarioLinkError(`action ${n}'s acks is unknown`);
        settings.acks = s.acks;
      }
      if (s['linger.ms'] !== undefined) settings['linger.ms'] = int(s['linger.ms'], `action ${n}'s linger.ms`);
      if (s['batch.size'] !== undefined) settings['batch.size'] = int(s['batch.size'], `action ${n}'s batch.size`);
      if (s.partitioner !== undefined) {
        if (s.partitioner !== 'sticky' && s.partitioner !== 'round-robin')
          throw new ScenarioLinkError(`action ${n}'s partitioner is unknown`);
        settings.partitioner = s.partitioner;
      }
      return { op: 'configureProducer', settings };
    }
    default:
      throw new ScenarioLinkError(`action ${n} has an unknown op`);
  }
}
