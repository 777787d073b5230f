/**
 * Create a topic: name, partitions, replication factor, racks on or off, start index fixed or
 * random. "Preview" animates where Kafka's assignReplicasToBrokers puts every replica before
 * anything exists; "Create" creates exactly that placement. The seeds' examples are presets
 * that start the cluster they describe and create their topics.
 */
import { useState } from 'react';
import type { ScenarioAction, BoardView, PresetName } from '../../engine/apps/types';
import { MAX_TOPIC_PARTITIONS } from '../../worker/client';
import { errorText } from '../errorText';
import type { Session } from '../session';
import { act, startScenario } from './boardClient';
import { getBoard, setBoard } from '../store';
import { NumberField } from '../forms/NumberField';
import { checkWholeNumber } from '../forms/validate';

/** The form's bounds: the replication factor as the page offers it, a start index as the scenario link reads it. */
const MAX_REPLICATION_FACTOR = 20;
const MAX_START_INDEX = 100_000;

interface SeedExample {
  id: string;
  label: string;
  preset: PresetName;
  topics: Extract<ScenarioAction, { op: 'createTopic' }>[];
}

const topic = (
  name: string,
  partitions: number,
  replicationFactor: number,
  startPartitionId = 0,
): Extract<ScenarioAction, { op: 'createTopic' }> => ({
  op: 'createTopic',
  name,
  partitions,
  replicationFactor,
  startIndex: 0,
  startPartitionId,
});

export const SEED_EXAMPLES: SeedExample[] = [
  {
    id: 'seed-2x2-norack',
    label: 'Seed 000: 2 topics × 2 partitions × RF 2 on 4 brokers, no racks',
    preset: 'empty4',
    topics: [topic('topic1', 2, 2), topic('topic2', 2, 2, 2)],
  },
  {
    id: 'seed-2x2-racks',
    label: 'Seed 000: the same on 2 racks (brokers 1, 2 | 3, 4)',
    preset: 'racks4',
    topics: [topic('topic1', 2, 2), topic('topic2', 2, 2, 2)],
  },
  {
    id: 'seed-13-19',
    label: 'Seed 002: topic1 (13 partitions) + topic2 (19) on 8 brokers, RF 1',
    preset: 'eight',
    topics: [topic('topic1', 13, 1), topic('topic2', 19, 1, 13)],
  },
];

export async function runSeedExample(session: Session, id: string): Promise<void> {
  const ex = SEED_EXAMPLES.find((e) => e.id === id);
  if (!ex) return;
  const spec = { seed: 1, preset: ex.preset, actions: [], untilMs: 0 };
  if (!(await startScenario(session, spec, `Running the example “${ex.label}”`))) return;
  for (const t of ex.topics) await act(session, t);
}

export function CreateTopicDialog({ session, view }: { session: Session; view: BoardView }) {
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('events');
  // The numbers as typed: checked (forms/validate) before anything is sent, never read as 0 or 1e1.
  const [partitions, setPartitions] = useState('4');
  const [rf, setRf] = useState('2');
  const [racks, setRacks] = useState(true);
  const [random, setRandom] = useState(false);
  const [start, setStart] = useState('0');
  const [message, setMessage] = useState<string | null>(null);
  const hasRacks = view.brokers.some((b) => b.rack !== null);

  /** The request, or null with the first field's message shown. */
  function checkedArgs() {
    const p = checkWholeNumber(partitions, 'Partitions', 1, MAX_TOPIC_PARTITIONS, 'INVALID_PARTITIONS');
    const r = checkWholeNumber(rf, 'The replication factor', 1, MAX_REPLICATION_FACTOR, 'INVALID_REPLICATION_FACTOR');
    const s = random ? null : checkWholeNumber(start, 'The start index', 0, MAX_START_INDEX, 'INVALID_REQUEST');
    for (const c of [p, r, s]) {
      if (c && !c.ok) {
        setMessage(c.message);
        return null;
      }
    }
    if (!p.ok || !r.ok || (s && !s.ok)) return null;
    return { name, partitions: p.value, replicationFactor: r.value, rackAware: racks, startIndex: s ? s.value : null };
  }

  async function preview() {
    const args = checkedArgs();
    if (!args) return;
    const p = await session.call('previewPlacement', args);
    if (p.error) {
      setMessage(errorText(p.error));
      return;
    }
    setMessage(null);
    setBoard({
      placement: {
        title: `Preview of ${name}: ${args.partitions} × RF ${args.replicationFactor}`,
        preview: p,
        shown: 0,
        source: 'preview',
      },
    });
  }

  async function create() {
    const args = checkedArgs();
    if (!args) return;
    const ok = await act(session, { op: 'createTopic', ...args });
    if (ok) {
      setOpen(false);
      setMessage(null);
    } else setMessage(getBoard().error);
  }

  return (
    <div className="create-topic">
      <button
        type="button"
        className="btn"
        data-testid="create-topic"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
      >
        Create topic…
      </button>
      <label className="inline">
        <span className="visually-hidden">Seed examples</span>
        <select
          data-testid="create-topic-preset"
          value=""
          onChange={(e) => void runSeedExample(session, e.target.value)}
          aria-label="Seed placement examples"
        >
          <option value="">Seed examples…</option>
          {SEED_EXAMPLES.map((x) => (
            <option key={x.id} value={x.id}>
              {x.label}
            </option>
          ))}
        </select>
      </label>
      {open && (
        <form
          className="create-topic-form"
          aria-label="Create topic"
          // The page's own checks say what is wrong; the browser's would block silently.
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void create();
          }}
        >
          <label>
            Name
            <input data-testid="create-topic-name" value={name} onChange={(e) => setName(e.target.value)} />
          </label>
          <NumberField
            before="Partitions"
            testid="create-topic-partitions"
            min={1}
            max={MAX_TOPIC_PARTITIONS}
            value={partitions}
            onChange={setPartitions}
          />
          <NumberField
            before="Replication factor"
            testid="create-topic-rf"
            min={1}
            max={MAX_REPLICATION_FACTOR}
            value={rf}
            onChange={setRf}
          />
          <label className="check">
            <input
              type="checkbox"
              data-testid="create-topic-racks"
              checked={racks && hasRacks}
              disabled={!hasRacks}
              onChange={(e) => setRacks(e.target.checked)}
            />
            rack-aware
          </label>
          <label className="check">
            <input
              type="checkbox"
              checked={random}
              onChange={(e) => setRandom(e.target.checked)}
              data-testid="create-topic-random"
            />
            random start index
          </label>
          {!random && (
            <NumberField
              before="Start index"
              testid="create-topic-start"
              min={0}
              max={MAX_START_INDEX}
              value={start}
              onChange={setStart}
            />
          )}
          <div className="row">
            <button type="button" className="btn" data-testid="create-topic-preview" onClick={() => void preview()}>
              Preview placement
            </button>
            <button type="submit" className="btn btn-primary" data-testid="create-topic-submit">
              Create
            </button>
          </div>
          {message && (
            <p className="error small" role="alert" data-testid="create-topic-error">
              {message}
            </p>
          )}
        </form>
      )}
    </div>
  );
}
