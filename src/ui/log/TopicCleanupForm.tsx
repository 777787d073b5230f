import { memo, useState } from 'react';
import type { TopicCleanupKey } from '../../engine/apps/types';
import { DEMO_CLEANUP_INTERVALS } from '../../worker/client';
import { act } from '../cluster/boardClient';
import { getBoard, useBoard } from '../store';
import type { Session } from '../session';
import { Options } from '../forms/Options';

const POLICIES = ['delete', 'compact', 'compact,delete'];

/**
 * A topic's retention.ms, retention.bytes and cleanup.policy, changed like kafka-configs --alter
 * (the board's alterTopicConfig action: recorded, replayable, validated by the worker).
 * The current values come from the board's view; the form is rebuilt when they change.
 */
export const TopicCleanupForm = memo(function TopicCleanupForm({
  session,
  topic,
}: {
  session: Session;
  topic: string;
}) {
  // One string, so the form is not rendered again for every view while producing.
  const current = useBoard((s) => {
    const t = s.view?.topics.find((x) => x.name === topic);
    return t ? `${t.retentionMs}|${t.retentionBytes}|${t.cleanupPolicy}` : '';
  });
  if (current === '') return null;
  return <Form key={`${topic}|${current}`} session={session} topic={topic} current={current} />;
});

function Form({ session, topic, current }: { session: Session; topic: string; current: string }) {
  const [retentionMs = '', retentionBytes = '', policy = 'delete'] = current.split('|');
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const retentionS = DEMO_CLEANUP_INTERVALS['log.retention.check.interval.ms'] / 1000;
  const cleanerS = DEMO_CLEANUP_INTERVALS['log.cleaner.backoff.ms'] / 1000;

  const onSubmit = async (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const was: Record<TopicCleanupKey, string> = {
      'retention.ms': retentionMs,
      'retention.bytes': retentionBytes,
      'cleanup.policy': policy,
    };
    const configs: Partial<Record<TopicCleanupKey, string>> = {};
    for (const key of Object.keys(was) as TopicCleanupKey[]) {
      const value = String(form.get(key) ?? '').trim();
      if (value !== was[key]) configs[key] = value;
    }
    if (Object.keys(configs).length === 0) {
      setMessage({ text: 'Nothing changed.', error: false });
      return;
    }
    setBusy(true);
    const ok = await act(session, { op: 'alterTopicConfig', topic, configs });
    setBusy(false);
    // On success the view's new values rebuild this form (and its message); on failure say why.
    if (!ok) setMessage({ text: getBoard().error ?? 'Refused.', error: true });
  };

  return (
    <form
      className="topic-cleanup"
      data-testid={`topic-config-${topic}`}
      aria-label={`Cleanup settings of ${topic}`}
      onSubmit={(e) => void onSubmit(e)}
    >
      <NumberConfig name="retention.ms" defaultValue={retentionMs} size={12} />
      <NumberConfig name="retention.bytes" defaultValue={retentionBytes} size={10} />
      <label>
        <span className="mono">cleanup.policy</span>
        <select className="select" name="cleanup.policy" data-testid="topic-cleanup-policy" defaultValue={policy}>
          <Options values={POLICIES} />
        </select>
      </label>
      <button type="submit" className="btn" data-testid="topic-config-apply" disabled={busy}>
        Apply to {topic}
      </button>
      {message && (
        <span className={message.error ? 'error' : 'muted'} role={message.error ? 'alert' : undefined}>
          {message.text}
        </span>
      )}
      <p className="muted topic-cleanup-help">
        -1 means no limit. Retention deletes whole closed segments below the high watermark, oldest first; compaction
        keeps the latest record of each key. These brokers check retention every {retentionS} s
        (log.retention.check.interval.ms; Kafka's default is 300 s) and run the log cleaner every {cleanerS} s
        (log.cleaner.backoff.ms; default 15 s), so changes show within seconds.
      </p>
    </form>
  );
}

/** One numeric topic config, named as Kafka names it (its test id: topic-<name with dashes>). */
function NumberConfig({ name, defaultValue, size }: { name: string; defaultValue: string; size: number }) {
  return (
    <label>
      <span className="mono">{name}</span>
      <input
        name={name}
        data-testid={`topic-${name.replace('.', '-')}`}
        className="input mono"
        inputMode="numeric"
        defaultValue={defaultValue}
        size={size}
      />
    </label>
  );
}
