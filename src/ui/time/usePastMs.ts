import { useUi } from '../store';

/** The moment shown while time travel shows the past (engine ms since the scenario started); null when live. */
export function usePastMs(): number | null {
  return useUi((s) => (s.travel && !s.travel.live ? s.travel.viewMs : null));
}
