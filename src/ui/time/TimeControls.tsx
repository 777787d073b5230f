import type { Session } from '../session';
import { SPEEDS, type Speed, useUi } from '../store';
import { formatClock } from './formatClock';
import { Options } from '../forms/Options';
import { clockStatement } from './pacing';
import { AutoSlow } from './AutoSlow';

/**
 * The engine clock in the top bar: play / pause, step and the clock itself, always on screen
 * (on a phone too). Space plays or pauses, right arrow steps (keys/ShortcutsHelp.tsx). The speed
 * and the rest are `SpeedControls`, which a phone folds into the top bar's menu.
 */
export function TimeControls({ session }: { session: Session }) {
  const nowMs = useUi((s) => s.nowMs);
  const frames = useUi((s) => s.frames);
  // The Node host's engine runs on the wall clock: this page can neither pause nor step it.
  const attached = useUi((s) => s.host !== null);

  return (
    <fieldset className="time-controls" aria-label="Engine clock">
      <legend className="visually-hidden">Engine clock</legend>
      {!attached && <PlayStep session={session} />}
      <output
        className="clock mono"
        data-testid="time-now"
        data-frames={frames}
        title="Engine time since the scenario started"
      >
        {formatClock(nowMs)}
      </output>
    </fieldset>
  );
}

/** Run until idle, the speed and what it means, the auto slow-down: the clock's pace. */
export function SpeedControls({ session }: { session: Session }) {
  const attached = useUi((s) => s.host !== null);
  return (
    <fieldset className="time-controls" aria-label="Engine speed">
      <legend className="visually-hidden">Engine speed</legend>
      {attached ? (
        <span className="speed-pace muted small" data-testid="time-pace" data-speed="wall">
          wall-clock time: the Node host's engine
        </span>
      ) : (
        <PaceControls session={session} />
      )}
      <AutoSlow />
    </fieldset>
  );
}

function PlayStep({ session }: { session: Session }) {
  const playing = useUi((s) => s.playing);
  return (
    <>
      <button
        type="button"
        className="btn btn-icon"
        data-testid="time-play"
        aria-pressed={playing}
        aria-label={playing ? 'Pause (space)' : 'Play (space)'}
        title={playing ? 'Pause (space)' : 'Play (space)'}
        onClick={() => session.togglePlay()}
      >
        {playing ? <PauseIcon /> : <PlayIcon />}
      </button>
      <button
        type="button"
        className="btn btn-icon"
        data-testid="time-step"
        aria-label="Step 10 ms (right arrow)"
        title="Step 10 ms (right arrow)"
        onClick={() => session.step()}
      >
        <StepIcon />
      </button>
    </>
  );
}

/** Run until idle and the speed: the page paces its own worker's engine. */
function PaceControls({ session }: { session: Session }) {
  const speed = useUi((s) => s.speed);
  return (
    <>
      <button
        type="button"
        className="btn"
        data-testid="time-idle"
        title="Run the clock until the producer has nothing left to send"
        onClick={() => void session.runUntilIdle()}
      >
        Run until idle
      </button>
      <label className="speed">
        <span className="visually-hidden">Speed</span>
        <select
          className="select"
          data-testid="time-speed"
          value={speed}
          onChange={(e) => session.setSpeed(Number(e.target.value) as Speed)}
        >
          <Options values={SPEEDS} label={(s) => `${s}x`} />
        </select>
      </label>
      <span className="speed-pace muted small" data-testid="time-pace" data-speed={speed}>
        {clockStatement(speed)}
      </span>
    </>
  );
}

function PlayIcon() {
  return (
    <svg width="14" height="14" viewBox="0 0 14 14" aria-hidden="true">
      <path d="M3 2 L12 7 L3 12 Z" fill="currentColor" />
    </svg>
  );
}

function PauseIcon() {
  return (
    <svg width="14" height="14" viewBox="0 0 14 14" aria-hidden="true">
      <rect x="3" y="2" width="3" height="10" fill="currentColor" />
      <rect x="8" y="2" width="3" height="10" fill="currentColor" />
    </svg>
  );
}

function StepIcon() {
  return (
    <svg width="14" height="14" viewBox="0 0 14 14" aria-hidden="true">
      <path d="M2 2 L9 7 L2 12 Z" fill="currentColor" />
      <rect x="10" y="2" width="2" height="10" fill="currentColor" />
    </svg>
  );
}
