/** The top bar's way back to the welcome once it was put away. */
import { openWelcome, useWelcomeOpen } from './welcomeState';
import './welcome.css';

export function StartHere() {
  const open = useWelcomeOpen();
  return (
    <button
      type="button"
      className="btn start-here"
      data-testid="welcome-open"
      aria-pressed={open}
      title="The welcome: what this page is, and where to start"
      onClick={() => {
        openWelcome();
        // The welcome sits at the top of the board's column: scroll back to it.
        document.querySelector('.center')?.scrollTo({ top: 0 });
      }}
    >
      Start here
    </button>
  );
}
