import { type ReactNode, useState } from 'react';
import { errorText } from '../errorText';
import type { Session } from '../session';
import { uiStore, useUi } from '../store';
import { DismissButton } from './DismissButton';
import { HostNotice } from '../host/HostNotice';

/** The strip under the top bar: ownership, storage trouble, and what recovery did on load. */
export function Banners({ session }: { session: Session }) {
  const phase = useUi((s) => s.phase);
  const failure = useUi((s) => s.failure);
  const storage = useUi((s) => s.storage);
  const exclusive = useUi((s) => s.exclusive);
  const storageLost = useUi((s) => s.storageLost);
  const host = useUi((s) => s.host);
  return (
    <div className="banners">
      {host && <HostNotice role={host} />}
      {phase === 'locked' && (
        <OwnershipNotice session={session} action="Take over here">
          <strong>This cluster is open in another tab.</strong> One tab at a time runs it, so two engines never write
          the same segment files.
        </OwnershipNotice>
      )}
      {phase === 'taken-over' && (
        <OwnershipNotice session={session} action="Take it back">
          <strong>Another tab took this cluster over.</strong> This tab stopped its engine.
        </OwnershipNotice>
      )}
      {phase === 'failed' && (
        <div className="banner banner-error" role="alert" data-testid="engine-failed">
          <strong>The engine stopped:</strong> {failure}
        </div>
      )}
      {phase === 'ready' && storageLost && <StorageLost session={session} />}
      {phase === 'ready' && storage?.error && !storageLost && (
        <div className="banner banner-warn" role="alert" data-testid="storage-error">
          <strong>Nothing is being saved.</strong> IndexedDB failed ({errorText(storage.error)}). The cluster keeps
          running in memory; a reload starts a new one.
        </div>
      )}
      {phase === 'ready' && !exclusive && (
        <div className="banner banner-warn" role="status">
          This browser has no Web Locks: do not open glassbox in a second tab, or both will write the same files.
        </div>
      )}
      {phase === 'ready' && storage?.lostWithStore && storage.lostWithStore.length > 0 && (
        <div className="banner banner-warn" role="status" data-testid="storage-lost-records">
          <strong>Saved again from memory, except what only IndexedDB held:</strong>
          <ul className="recovery-list">
            {storage.lostWithStore.map((l) => (
              <li
                key={`${l.topic}-${l.partition}`}
                data-testid={`storage-lost-${l.topic}-${l.partition}`}
                data-log-start={l.logStartOffset}
              >
                {(l.logStartOffset - l.fromOffset).toLocaleString('en-US')} records below offset{' '}
                {l.logStartOffset.toLocaleString('en-US')} of {l.topic}-{l.partition} were only in IndexedDB (paged out
                of memory) and are gone; the log now starts there.
              </li>
            ))}
          </ul>
        </div>
      )}
      {phase === 'ready' && <RecoveryReport />}
      {phase === 'ready' && <ImportMessage />}
    </div>
  );
}

/** Another tab runs (or took) the cluster: say so, and offer to take it here. */
function OwnershipNotice({ session, action, children }: { session: Session; action: string; children: ReactNode }) {
  return (
    <div className="banner banner-info" role="alert" data-testid="ownership-notice">
      {children}{' '}
      <button type="button" className="btn" data-testid="take-over" onClick={() => void session.start(true)}>
        {action}
      </button>
    </div>
  );
}

/** IndexedDB was deleted under the page: the cluster lives on in memory and can be saved again. */
function StorageLost({ session }: { session: Session }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      await session.repersist();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="banner banner-warn" role="alert" data-testid="storage-lost-notice">
      <strong>The saved data was deleted elsewhere</strong> (another tab, or the browser's "Clear site data"). The
      cluster keeps running in this tab's memory, but nothing is being saved and a reload would start a new one.{' '}
      <button type="button" className="btn" data-testid="storage-repersist" disabled={busy} onClick={() => void save()}>
        Save again from memory
      </button>
      {error && (
        <span className="banner-text" data-testid="storage-repersist-error">
          {' '}
          Saving failed: {error}
        </span>
      )}
    </div>
  );
}

function RecoveryReport() {
  const recovery = useUi((s) => s.recovery);
  const created = useUi((s) => s.created);
  const [dismissed, setDismissed] = useState(false);
  if (created || recovery.length === 0 || dismissed) return null;
  const truncated = recovery.filter((r) => r.truncatedBytes > 0);
  const batches = recovery.reduce((n, r) => n + r.batchesValidated, 0);
  return (
    <div
      className={`banner ${truncated.length > 0 ? 'banner-warn' : 'banner-info'}`}
      role="status"
      data-testid="recovery-report"
    >
      <details>
        <summary>
          <strong>Recovered from IndexedDB:</strong> {recovery.length} partition logs, {batches} batches checked (CRC
          and length)
          {truncated.length > 0
            ? `, torn tail truncated in ${truncated.map((r) => r.dir).join(', ')}`
            : ', no damage found'}
          .
        </summary>
        <ul className="recovery-list">
          {recovery.map((r) => (
            <li key={r.dir} data-testid={`recovery-${r.dir}`} data-truncated={r.truncatedBytes}>
              <code>{r.dir}</code>: {r.summary}
            </li>
          ))}
        </ul>
      </details>
      <DismissButton onDismiss={() => setDismissed(true)} />
    </div>
  );
}

function ImportMessage() {
  const msg = useUi((s) => s.importMessage);
  if (!msg) return null;
  return (
    <div
      className={`banner ${msg.ok ? 'banner-info' : 'banner-error'}`}
      role={msg.ok ? 'status' : 'alert'}
      data-testid="import-message"
      data-ok={msg.ok}
    >
      <span className="banner-text">{msg.text}</span>
      <DismissButton onDismiss={() => uiStore.setState({ importMessage: null })} />
    </div>
  );
}
