import { slowSlice, SLOW_SPEED, useSlowingFor } from './autoSlow';
import { useUi } from '../store';
import { clockStatement } from './pacing';

/**
 * The auto slow-down's switch, and what it does right now: while an election or a rebalance
 * plays, the clock runs at 1x and the pace shown is the one the learner sees.
 */
export function AutoSlow() {
  const on = useUi((s) => s.slow.on);
  return (
    <label
      className="auto-slow small"
      title="Auto slow-down: while an election or a rebalance plays, the clock runs at 1x at most"
    >
      <input
        type="checkbox"
        data-testid="auto-slow"
        checked={on}
        onChange={(e) => slowSlice.setState({ on: e.target.checked })}
      />{' '}
      auto slow-down
    </label>
  );
}

/** While the auto slow-down holds the clock at 1x, why: the top bar's status line (chrome/TopBar). */
export function AutoSlowNote() {
  const slowing = useSlowingFor();
  const speed = useUi((s) => s.speed);
  if (!slowing || speed <= SLOW_SPEED) return null;
  return (
    <span className="auto-slow-note small" data-testid="auto-slow-note" data-for={slowing} role="status">
      {slowing === 'election' ? 'An election' : 'A rebalance'} plays, slowed from {speed}x: {clockStatement(SLOW_SPEED)}
    </span>
  );
}
