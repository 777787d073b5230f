/**
 * Time travel over the run: a scrubber from the scenario's start to the live run's now. Dragging
 * it back shows the cluster exactly as it was then (the worker replays the scenario in memory; the
 * live run waits, paused); "Next" steps to the next election, ISR change, rebalance or segment
 * roll; "Back to live" returns. An action taken in the past forks the run there (ForkNotice).
 */
import { useMemo, useState } from 'react';
import { MOMENT_KINDS, MOMENT_LABELS } from '../../worker/client';
import type { MomentKind } from '../../worker/protocol';
import type { Session } from '../session';
import { uiStore, useUi } from '../store';
import { DismissButton } from '../chrome/DismissButton';
import { Options } from '../forms/Options';
import { formatClock } from './formatClock';
import { latestOnly } from './latestOnly';
import './travel.css';

/** The scrubber moves in tenths of a second (arrow keys too); the engine replays to the exact ms. */
const SCRUB_STEP_MS = 100;

export function TimeTravel({ session }: { session: Session }) {
  const travel = useUi((s) => s.travel);
  const [kind, setKind] = useState<MomentKind>('election');
  const [said, setSaid] = useState<string | null>(null);
  // The value being dragged to, until the worker has shown the last one asked for: the input is
  // never reset to an older moment mid-drag (which would fire another change).
  const [dragged, setDragged] = useState<number | null>(null);
  const seek = useMemo(
    () =>
      latestOnly(
        (atMs: number) => session.seek(atMs),
        () => setDragged(null),
      ),
    [session],
  );
  if (!travel) return null;
  const past = !travel.live;
  // A run restored from IndexedDB has no replayable past (TravelView.restoredAtMs).
  const restored = travel.restoredAtMs !== null;
  return (
    <section
      className={`travel${past ? ' travel-past' : ''}`}
      aria-label="Time travel"
      data-testid="time-travel"
      data-live={String(travel.live)}
    >
      <label className="travel-scrub">
        <span className="travel-label">{past ? 'Viewing the past' : 'Run history'}</span>
        <input
          type="range"
          data-testid="time-scrubber"
          data-now={travel.viewMs}
          data-live={String(travel.live)}
          data-max={travel.liveMs}
          data-checkpoints={travel.checkpoints}
          data-checkpoints-complete={String(travel.checkpointsComplete)}
          disabled={restored}
          data-horizon={travel.horizonMs ?? undefined}
          min={0}
          max={travel.liveMs}
          step={SCRUB_STEP_MS}
          value={dragged ?? travel.viewMs}
          aria-valuetext={`${formatClock(travel.viewMs)}${past ? ' (past)' : ' (live)'}`}
          onChange={(e) => {
            const atMs = Number(e.target.value);
            if (atMs === dragged) return;
            setSaid(null);
            setDragged(atMs);
            seek(atMs);
          }}
        />
      </label>
      <span className="travel-when mono small" data-testid="time-travel-when">
        {restored ? (
          <span className="muted" data-testid="time-travel-restored" data-at={travel.restoredAtMs}>
            no past: restored from IndexedDB at {formatClock(travel.restoredAtMs ?? 0)}, a replay would not be the
            stored records (starts again with a new run)
          </span>
        ) : past ? (
          <>
            {formatClock(travel.viewMs)} <span className="muted">of {formatClock(travel.liveMs)}, live run paused</span>
          </>
        ) : (
          <span className="muted">live</span>
        )}
      </span>
      <button
        type="button"
        className="btn btn-xs"
        data-testid="time-live"
        disabled={!past}
        title="Show the live run again, where it was paused"
        onClick={() => {
          setSaid(null);
          void session.seek(travel.liveMs);
        }}
      >
        Back to live
      </button>
      <span className="travel-next" id="travel-next">
        <label>
          <span className="visually-hidden">Kind of event to step to</span>
          <select
            className="select"
            data-testid="time-next-kind"
            value={kind}
            onChange={(e) => setKind(e.target.value as MomentKind)}
          >
            <Options values={MOMENT_KINDS} label={(k) => MOMENT_LABELS[k]} />
          </select>
        </label>
        <button
          type="button"
          className="btn btn-xs"
          data-testid="time-next-event"
          disabled={restored}
          title="Jump to the next event of this kind after the moment shown"
          onClick={() =>
            void session.nextMoment(kind).then((at) => {
              const shown = uiStore.getState().travel?.viewMs ?? 0;
              setSaid(at === null ? `No ${MOMENT_LABELS[kind]} after ${formatClock(shown)}.` : null);
            })
          }
        >
          Next {MOMENT_LABELS[kind]} ▸
        </button>
      </span>
      {travel.horizonMs !== null && !restored && (
        <span className="muted small" data-testid="time-travel-horizon">
          The past reaches to {formatClock(travel.horizonMs)}: replays of this busy run past it would not fit in memory.
        </span>
      )}
      {said && (
        <span className="muted small" role="status" data-testid="time-next-said">
          {said}
        </span>
      )}
      <ForkNotice />
    </section>
  );
}

/** The run forked: an action taken in the past discarded what came after it. Shown once per fork. */
function ForkNotice() {
  const fork = useUi((s) => s.travel?.fork ?? null);
  const seen = useUi((s) => s.forkSeen);
  if (!fork || fork.n === seen) return null;
  const discarded =
    fork.discardedActions > 0
      ? ` (${fork.discardedActions} later action${fork.discardedActions === 1 ? '' : 's'} and ${formatClock(fork.discardedMs)} of engine time)`
      : ` (${formatClock(fork.discardedMs)} of engine time)`;
  return (
    <p className="travel-fork banner banner-warn" role="status" data-testid="time-fork-notice" data-at={fork.atMs}>
      You changed the past at {formatClock(fork.atMs)}: the run forks here; what happened after is discarded
      {discarded}. The link now names the forked run.{' '}
      <DismissButton size="xs" onDismiss={() => uiStore.setState({ forkSeen: fork.n })} />
    </p>
  );
}
