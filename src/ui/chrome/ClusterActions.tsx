import { useRef, useState } from 'react';
import { MAX_IMPORT_BYTES } from '../../worker/client';
import { errorText } from '../errorText';
import type { Session } from '../session';
import { uiStore } from '../store';

/** Reset (after a confirmation) and import of a partition's files. */
export function ClusterActions({ session }: { session: Session }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const file = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);

  async function reset() {
    dialog.current?.close();
    setBusy(true);
    try {
      await session.reset();
    } finally {
      setBusy(false);
    }
  }

  async function importFile(f: File) {
    setBusy(true);
    uiStore.setState({ importMessage: null });
    try {
      // Refused before the page reads it: the worker would refuse it anyway (same limit).
      if (f.size > MAX_IMPORT_BYTES) {
        throw new Error(
          `INVALID_REQUEST: ${f.name} is ${f.size.toLocaleString('en-US')} bytes, more than the ${MAX_IMPORT_BYTES.toLocaleString('en-US')} an import may hold`,
        );
      }
      const zip = new Uint8Array(await f.arrayBuffer());
      const r = await session.call('importPartition', { zip, fileName: f.name });
      uiStore.setState({
        selectedTopic: r.topic,
        importMessage: {
          ok: true,
          text: `Imported ${f.name} as ${r.topic}-${r.partition}: ${r.records.toLocaleString('en-US')} records, recovered like a broker restart.`,
        },
      });
    } catch (e) {
      uiStore.setState({
        importMessage: {
          ok: false,
          text: `Import rejected, nothing changed. ${errorText(e)}`,
        },
      });
    } finally {
      setBusy(false);
      if (file.current) file.current.value = '';
    }
  }

  return (
    <div className="cluster-actions">
      <label className="btn" title="Import a partition exported as a zip of Kafka segment files">
        Import…
        <input
          ref={file}
          type="file"
          accept=".zip,application/zip"
          className="visually-hidden"
          data-testid="import-file"
          disabled={busy}
          onChange={(e) => {
            const f = e.target.files?.[0];
            if (f) void importFile(f);
          }}
        />
      </label>
      <button
        type="button"
        className="btn btn-danger"
        data-testid="reset-cluster"
        disabled={busy}
        onClick={() => dialog.current?.showModal()}
      >
        Reset cluster
      </button>
      <dialog ref={dialog} className="dialog" aria-labelledby="reset-title" data-testid="reset-dialog">
        <h2 id="reset-title">Reset the cluster?</h2>
        <p>
          This deletes every topic, segment file and setting saved in this browser (IndexedDB) and starts again from the
          demo cluster. It cannot be undone.
        </p>
        <div className="dialog-actions">
          <button type="button" className="btn" data-testid="reset-cancel" onClick={() => dialog.current?.close()}>
            Cancel
          </button>
          <button
            type="button"
            className="btn btn-danger-solid"
            data-testid="reset-confirm"
            onClick={() => void reset()}
          >
            Delete everything and reset
          </button>
        </div>
      </dialog>
    </div>
  );
}
