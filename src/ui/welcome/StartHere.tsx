/** The top bar's way back to the welcome once it was put away (or to it, when it is still open further up). */
import { openWelcome } from './welcomeState';
import './welcome.css';

export function StartHere() {
  return (
    <button
      type="button"
      className="btn start-here"
      data-testid="welcome-open"
      title="The welcome: what this page is, and where to start"
      onClick={() => {
        openWelcome();
        // The welcome sits at the top of the board's column: scroll back to it, and start there.
        document.querySelector('.center')?.scrollTo({ top: 0 });
        requestAnimationFrame(() => document.querySelector<HTMLElement>('[data-testid="welcome"]')?.focus());
      }}
    >
      Start here
    </button>
  );
}
