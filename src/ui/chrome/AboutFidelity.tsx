import { useRef } from 'react';
import { CloseDialog } from './CloseDialog';
// FIDELITY.md is bundled as text and shown as text (never as HTML): one source for the repo and the page.
import fidelity from '../../../FIDELITY.md?raw';

/** Which Kafka the engine follows, and every place it deliberately differs (FIDELITY.md). */
export function AboutFidelity() {
  const dialog = useRef<HTMLDialogElement>(null);
  return (
    <>
      <button
        type="button"
        className="btn btn-quiet"
        data-testid="about-open"
        title="Which Kafka this is, and where it deliberately differs"
        onClick={() => dialog.current?.showModal()}
      >
        Kafka 3.9 · ZooKeeper mode
      </button>
      <dialog ref={dialog} className="dialog about-dialog" aria-labelledby="about-title" data-testid="about-dialog">
        <h2 id="about-title">About this Kafka</h2>
        <p>
          The engine in this page follows <strong>Apache Kafka 3.9 in ZooKeeper mode</strong> (the last release with
          ZooKeeper, the Kafka the seed articles describe). Where it deliberately differs, the table below says so and
          why.
        </p>
        <pre className="about-text" data-testid="about-fidelity">
          {fidelity}
        </pre>
        <CloseDialog dialog={dialog} testid="about-close" />
      </dialog>
    </>
  );
}
