import { useEffect, useRef, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { byIdentity } from '../byIdentity';
import type { PartitionChoice, PartitionView, ProducerSettings } from '../../worker/protocol';
import { MAX_PRODUCE_MANY_RECORDS } from '../../worker/client';
import { errorText } from '../errorText';
import { checkProducerSetting, checkRate, checkRecordCount, formHeaders } from '../forms/validate';
import { formatCount } from '../log/format';
import type { Session } from '../session';
import { RecordJourney } from './RecordJourney';
import { uiStore, useUi } from '../store';
import { Options } from '../forms/Options';
import { NumberField } from '../forms/NumberField';

/** The fastest pace the rate field offers (records per second; 0 = as fast as the worker goes). */
const MAX_PRODUCE_RATE = 1_000_000;

/** The demo's starting settings (the engine's DEFAULT_PRODUCER_SETTINGS); Kafka 3.9's linger.ms default is 0. */
const DEFAULT_SETTINGS: ProducerSettings = { acks: 'all', 'linger.ms': 5, 'batch.size': 16384, partitioner: 'sticky' };
/** A stable empty list while no cluster view has arrived (byIdentity keeps its topics). */
const NO_PARTITIONS: PartitionView[] = [];

/**
 * The producer: one record at a time (with the partitioner's arithmetic shown), or N at once as a
 * job with progress. Settings use Kafka's names: acks, linger.ms, batch.size, partitioner.
 */
export function ProducerPanel({ session }: { session: Session }) {
  // Only the topic names (compared item by item): the partition views change on every redraw
  // while producing, and the panel need not re-render for that.
  const topics = useUi(useShallow((s) => topicNames(s.view?.partitions ?? NO_PARTITIONS)));
  const lastChoice = useUi((s) => s.lastChoice);
  const selectedTopic = useUi((s) => s.selectedTopic);
  const [topic, setTopic] = useState<string>('');
  const [key, setKey] = useState('user-1');
  const [nullKey, setNullKey] = useState(false);
  const [value, setValue] = useState('hello, kafka');
  const [headerKey, setHeaderKey] = useState('');
  const [headerValue, setHeaderValue] = useState('');
  const [n, setN] = useState('1000');
  const [rate, setRate] = useState('0');
  const [settings, setSettings] = useState<ProducerSettings>(DEFAULT_SETTINGS);
  const [error, setError] = useState<string | null>(null);
  const [settingsError, setSettingsError] = useState<string | null>(null);
  // What is typed in linger.ms / batch.size, shown as typed until it is valid and in force.
  const [typed, setTyped] = useState<{ 'linger.ms': string; 'batch.size': string }>({
    'linger.ms': String(DEFAULT_SETTINGS['linger.ms']),
    'batch.size': String(DEFAULT_SETTINGS['batch.size']),
  });
  const t = topics.includes(topic)
    ? topic
    : selectedTopic && topics.includes(selectedTopic)
      ? selectedTopic
      : (topics[0] ?? '');

  // The record as typed is the P shortcut's (keys/runShortcut.ts).
  useEffect(() => {
    uiStore.setState({
      producerDraft: { topic: t, key: nullKey ? null : key, value, headers: formHeaders(headerKey, headerValue) },
    });
  }, [t, key, nullKey, value, headerKey, headerValue]);

  const pendingSend = useRef<{ producer: string; sendId: number } | null>(null);
  const [journey, setJourney] = useState<{ producer: string; sendId: number } | null>(null);
  // A replaced cluster has a new producer: the old one's last record is no longer on its way.
  const clusterRun = useUi((s) => s.clusterRun);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the cluster is replaced
  useEffect(() => {
    pendingSend.current = null;
    setJourney(null);
  }, [clusterRun]);
  useEffect(
    () =>
      session.onEvents((events) => {
        const p = pendingSend.current;
        if (!p) return;
        for (const e of events) {
          if (e.type === 'recordPartitioned' && e.producer === p.producer && e.sendId === p.sendId) {
            uiStore.setState({ lastChoice: e.choice });
          }
        }
      }),
    [session],
  );

  useEffect(() => {
    let live = true;
    session
      .call('setProducerSettings', {})
      .then((s) => live && setSettings(s))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [session]);

  useEffect(() => {
    setTyped({ 'linger.ms': String(settings['linger.ms']), 'batch.size': String(settings['batch.size']) });
  }, [settings]);

  async function changeSetting<K extends keyof ProducerSettings>(k: K, v: ProducerSettings[K]) {
    setSettingsError(null);
    try {
      setSettings(await session.call('setProducerSettings', { [k]: v }));
    } catch (e) {
      setSettingsError(errorText(e));
    }
  }

  /** linger.ms / batch.size as typed: sent once Kafka's ConfigDef would accept it, else its message. */
  function typeSetting(k: 'linger.ms' | 'batch.size', text: string) {
    setTyped((t) => ({ ...t, [k]: text }));
    const checked = checkProducerSetting(k, text);
    if (!checked.ok) {
      setSettingsError(checked.message);
      return;
    }
    void changeSetting(k, checked.value);
  }

  async function send() {
    setError(null);
    try {
      const r = await session.call('produceRecord', {
        topic: t,
        key: nullKey ? null : key,
        value,
        headers: formHeaders(headerKey, headerValue),
      });
      // Without metadata yet, the choice comes later as a record-partitioned event (see below).
      pendingSend.current = { producer: r.producer, sendId: r.sendId };
      setJourney({ producer: r.producer, sendId: r.sendId });
      uiStore.setState({ lastChoice: r.choice, selectedTopic: t });
    } catch (e) {
      setError(errorText(e));
    }
  }

  async function sendMany() {
    setError(null);
    const checked = checkRecordCount(n, MAX_PRODUCE_MANY_RECORDS);
    if (!checked.ok) {
      setError(checked.message);
      return;
    }
    const pace = checkRate(rate, MAX_PRODUCE_RATE);
    if (!pace.ok) {
      setError(pace.message);
      return;
    }
    try {
      await session.call('produceRecords', {
        topic: t,
        count: checked.value,
        keyPrefix: nullKey ? null : 'key-',
        valueBytes: 100,
        ratePerSecond: pace.value,
      });
    } catch (e) {
      setError(errorText(e));
    }
  }

  return (
    <section className="producer" aria-label="Producer">
      <form
        className="form-grid"
        // The page's own checks (forms/validate) say what is wrong; the browser's would block silently.
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void send();
        }}
      >
        <label className="field">
          <span>Topic</span>
          <select className="select" data-testid="producer-topic" value={t} onChange={(e) => setTopic(e.target.value)}>
            <Options values={topics} />
          </select>
        </label>
        <TextField label="Key" testid="producer-key" value={key} disabled={nullKey} onChange={setKey} />
        <label className="field checkbox-field">
          <input
            type="checkbox"
            data-testid="producer-null-key"
            checked={nullKey}
            onChange={(e) => setNullKey(e.target.checked)}
          />
          <span>null key</span>
        </label>
        <TextField label="Value" testid="producer-value" full value={value} onChange={setValue} />
        <TextField label="Header key" value={headerKey} onChange={setHeaderKey} />
        <TextField label="Header value" value={headerValue} onChange={setHeaderValue} />
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" data-testid="producer-send" disabled={!t}>
            Send
          </button>
          <span className="send-n">
            <button
              type="button"
              className="btn"
              data-testid="producer-send-n"
              disabled={!t}
              onClick={() => void sendMany()}
            >
              Send N
            </button>
            <NumberField
              before={<span className="visually-hidden">N</span>}
              inputClassName="input mono n-input"
              testid="producer-n"
              min={1}
              max={MAX_PRODUCE_MANY_RECORDS}
              value={n}
              invalid={!checkRecordCount(n, MAX_PRODUCE_MANY_RECORDS).ok}
              onChange={setN}
            />
            <span className="muted">records</span>
            <NumberField
              className="rate"
              before={<span className="muted">at</span>}
              after={<span className="muted">/s (0 = max)</span>}
              inputClassName="input mono n-input"
              testid="producer-rate"
              min={0}
              max={MAX_PRODUCE_RATE}
              value={rate}
              ariaLabel="Records per second (0 = as fast as possible)"
              invalid={!checkRate(rate, MAX_PRODUCE_RATE).ok}
              onChange={setRate}
            />
          </span>
          <p className="hint muted">Send N uses keys key-0, key-1, … (or null keys), 100-byte values.</p>
        </div>
      </form>
      {error && (
        <p className="inline-error" role="alert" data-testid="producer-error">
          {error}
        </p>
      )}
      <RecordJourney session={session} send={journey} topic={t} />
      {lastChoice && <ChoiceExplanation choice={lastChoice} />}
      <fieldset className="settings">
        <legend>Producer settings</legend>
        <label className="field">
          <span>acks</span>
          <select
            className="select"
            data-testid="producer-acks"
            value={settings.acks}
            onChange={(e) => void changeSetting('acks', e.target.value as ProducerSettings['acks'])}
          >
            <option value="all">all</option>
            <option value="1">1</option>
            <option value="0">0</option>
          </select>
        </label>
        {(
          [
            ['linger.ms', 'producer-linger'],
            ['batch.size', 'producer-batch-size'],
          ] as const
        ).map(([k, testId]) => (
          <label className="field" key={k}>
            <span>{k}</span>
            <input
              className="input mono"
              type="number"
              min={0}
              data-testid={testId}
              value={typed[k]}
              aria-invalid={!checkProducerSetting(k, typed[k]).ok}
              onChange={(e) => typeSetting(k, e.target.value)}
            />
          </label>
        ))}
        <label className="field">
          <span>partitioner (null keys)</span>
          <select
            className="select"
            data-testid="producer-partitioner"
            value={settings.partitioner}
            onChange={(e) => void changeSetting('partitioner', e.target.value as ProducerSettings['partitioner'])}
          >
            <option value="sticky">uniform sticky (Kafka ≥ 3.3, default)</option>
            <option value="sticky-2.4">sticky (Kafka 2.4–3.2)</option>
            <option value="round-robin">round-robin (RoundRobinPartitioner, ignores keys)</option>
          </select>
        </label>
        <p className="hint muted" data-testid="producer-defaults">
          Kafka 3.9's defaults: <code>acks</code>=all, <code>linger.ms</code>=0, <code>batch.size</code>=16384. This
          demo's producer starts with <code>linger.ms</code>={DEFAULT_SETTINGS['linger.ms']} (Kafka 4.0's default), so
          records sent close together share a batch.
        </p>
        {settingsError && (
          <p className="inline-error" role="alert" data-testid="producer-settings-error">
            {settingsError}
          </p>
        )}
      </fieldset>
    </section>
  );
}

function hex(n: number, width: number): string {
  return (n >>> 0).toString(16).padStart(width, '0');
}

/** The partitioner's arithmetic for the last record sent, step by step. */
export function ChoiceExplanation({ choice }: { choice: PartitionChoice }) {
  return (
    <div
      className="choice"
      data-testid="partition-choice"
      data-partition={choice.partition}
      data-strategy={choice.strategy}
      data-key={choice.strategy === 'key-hash' ? new TextDecoder().decode(choice.keyBytes) : undefined}
    >
      <ChoiceSteps choice={choice} />
    </div>
  );
}

/** One strategy's steps: murmur2 of the key, the round-robin counter, the sticky partition, or the partition asked for. */
function ChoiceSteps({ choice }: { choice: PartitionChoice }) {
  if (choice.strategy === 'key-hash') {
    const bytes = [...choice.keyBytes];
    return (
      <>
        <h4>
          Why partition <strong>{choice.partition}</strong>
        </h4>
        <table className="choice-table">
          <tbody>
            <tr>
              <th scope="row">key bytes ({bytes.length})</th>
              <td className="mono key-bytes" data-testid="choice-key-bytes">
                {bytes.map((b) => hex(b, 2)).join(' ')}
              </td>
            </tr>
            <tr>
              <th scope="row">murmur2(key)</th>
              <td className="mono" data-testid="choice-murmur2">
                {choice.murmur2} <span className="muted">0x{hex(choice.murmur2, 8)}</span>
              </td>
            </tr>
            <tr>
              <th scope="row">&amp; 0x7fffffff</th>
              <td className="mono" data-testid="choice-positive">
                {choice.positive} <span className="muted">sign bit cleared</span>
              </td>
            </tr>
            <tr>
              <th scope="row">% {choice.numPartitions} partitions</th>
              <td className="mono" data-testid="choice-modulo">
                = <strong>{choice.partition}</strong>
              </td>
            </tr>
          </tbody>
        </table>
      </>
    );
  }
  if (choice.strategy === 'round-robin') {
    return (
      <>
        <h4>
          Round-robin: partition <strong>{choice.partition}</strong>
        </h4>
        <p>
          Counter <span className="mono">{formatCount(choice.counter)}</span> over partitions [
          {choice.candidates.join(', ')}]:{' '}
          <span className="mono">
            {choice.counter} % {choice.candidates.length} = {choice.candidates.indexOf(choice.partition)}
          </span>
          . The next record, with or without a key, goes to the next partition; a record that would open a new batch
          there is placed again with the next counter (KafkaProducer.doSend after abortForNewBatch, KAFKA-9965).
        </p>
      </>
    );
  }
  if (choice.strategy === 'sticky') {
    return (
      <>
        <h4>
          Null key, sticky: partition <strong>{choice.partition}</strong>
        </h4>
        <p>
          {choice.switched
            ? `${choice.previous === null ? 'The topic had no sticky partition yet' : choice.stickyBatchSize !== undefined ? `batch.size (${choice.stickyBatchSize} bytes) was produced to the last one` : 'A new batch was needed'}, so the producer switched its sticky partition${choice.previous === null ? '' : ` from ${choice.previous}`} to ${choice.partition} (chosen at random among [${choice.candidates.join(', ')}]).`
            : choice.stickyBatchSize !== undefined
              ? `Records without a key stick to partition ${choice.partition} until batch.size (${choice.stickyBatchSize} bytes) were produced to it: ${choice.producedBytes ?? 0} so far (KIP-794).`
              : `Records without a key stick to partition ${choice.partition} until its batch is sealed, so batches fill up (KIP-480).`}
        </p>
      </>
    );
  }
  return <h4>Explicit partition {choice.partition}</h4>;
}

/** The user topics' names, in the order of the partition views. */
/** The user topics of the cluster view's partitions, derived once per view (the store updates every frame). */
const topicNames = byIdentity((partitions: PartitionView[]): string[] =>
  [...new Set(partitions.map((p) => p.topic))].filter((t) => !t.startsWith('__')),
);

/** One of the record's text fields (key, value, a header), in monospace as the bytes will be sent. */
function TextField(props: {
  label: string;
  testid?: string;
  full?: boolean;
  value: string;
  disabled?: boolean;
  onChange: (value: string) => void;
}) {
  return (
    <label className={props.full ? 'field full' : 'field'}>
      <span>{props.label}</span>
      <input
        className="input mono"
        data-testid={props.testid}
        value={props.value}
        disabled={props.disabled}
        onChange={(e) => props.onChange(e.target.value)}
      />
    </label>
  );
}
