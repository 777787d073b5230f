import { useEffect, useRef } from 'react';
import { formatClock } from '../time/formatClock';
import { describeDuration, describeTopic, useDiscardQuestion } from './discard';

/**
 * The question asked before a link, preset, lesson or seed example replaces the stored cluster:
 * what would be lost, by name. Cancel (or Escape) keeps everything.
 */
export function DiscardDialog() {
  const question = useDiscardQuestion();
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = dialog.current;
    if (!d) return;
    if (question && !d.open) d.showModal();
    if (!question && d.open) d.close();
  }, [question]);
  const lost = question?.lost;
  const discards = lost?.replaces === true && !lost.onlyPreset;
  return (
    <dialog
      ref={dialog}
      className="dialog"
      aria-labelledby="discard-title"
      data-testid="discard-dialog"
      // Escape closes the dialog: that is a "no".
      onCancel={() => question?.answer(false)}
    >
      {question && lost && (
        <>
          <h2 id="discard-title">
            {question.fork ? 'Fork the run here?' : discards ? 'Replace the stored cluster?' : 'Run this long replay?'}
          </h2>
          {discards && (
            <>
              {question.fork ? (
                <p>
                  {question.what} forks the run: the cluster saved in this browser becomes the replay of its scenario up
                  to that moment. The scenario does not hold imported topics, so these are deleted:
                </p>
              ) : (
                <p>
                  {question.what} replaces the cluster saved in this browser (IndexedDB). Its topics and records are
                  deleted:
                </p>
              )}
              <ul data-testid="discard-lost">
                {lost.topics.map((t) => (
                  <li key={t.name} data-testid={`discard-topic-${t.name}`} data-records={t.records}>
                    {describeTopic(t)}
                  </li>
                ))}
                {lost.topics.length === 0 && <li>no topics, only the brokers and groups</li>}
              </ul>
              {lost.actions > 0 && (
                <p>
                  and the {lost.actions.toLocaleString('en-US')} action{lost.actions === 1 ? '' : 's'} recorded in this
                  run{question.fork ? ' after that moment' : ''}.
                </p>
              )}
            </>
          )}
          {lost.replay?.ask && (
            <p data-testid="discard-replay" data-estimated-ms={lost.replay.estimatedMs}>
              {question.what} replays {formatClock(lost.replay.engineMs)} of engine time, about{' '}
              {describeDuration(lost.replay.estimatedMs)} here. It runs in steps while the page keeps answering, with
              its progress shown and a Cancel button.
            </p>
          )}
          <div className="dialog-actions">
            <button type="button" className="btn" data-testid="discard-cancel" onClick={() => question.answer(false)}>
              {question.fork ? 'Keep them (do nothing)' : discards ? 'Keep the stored cluster' : 'Cancel'}
            </button>
            <button
              type="button"
              className={discards || question.fork ? 'btn btn-danger-solid' : 'btn btn-primary'}
              data-testid="discard-confirm"
              onClick={() => question.answer(true)}
            >
              {question.fork ? 'Delete them and fork' : discards ? 'Delete it and replace' : 'Replay it'}
            </button>
          </div>
        </>
      )}
    </dialog>
  );
}
