import { useEffect, useRef, useState } from 'react';
import { ShortcutSaid, ShortcutsHelp } from '../keys/ShortcutsHelp';
import type { Session } from '../session';
import { useUi } from '../store';
import { AutoSlowNote } from '../time/AutoSlow';
import { SpeedControls, TimeControls } from '../time/TimeControls';
import { TimeTravel } from '../time/TimeTravel';
import { StartHere } from '../welcome/StartHere';
import { AboutFidelity } from './AboutFidelity';
import { ClusterActions } from './ClusterActions';
import { ThemeToggle } from './ThemeToggle';

/** The ids the menu button folds away on a phone (aria-controls names them all). */
const FOLDED = ['topbar-pace', 'topbar-cluster', 'travel-next'];

/**
 * The top bar and the run history under it. On a wide screen everything is in one line: the
 * clock (play, step, now), its pace, a status line that says what just happened (a shortcut, the
 * auto slow-down), then the cluster's actions. On a phone (styles.css, max-width 760px) only the
 * clock, the status and a Menu button stay; the button (a disclosure: `aria-expanded`, Escape
 * closes it and gives focus back) unfolds the rest in place, so the cluster is on the first screen.
 */
export function TopBar({ session }: { session: Session }) {
  const phase = useUi((s) => s.phase);
  const attached = useUi((s) => s.host !== null);
  const [menuOpen, setMenuOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const top = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || !top.current?.contains(document.activeElement)) return;
      // A dialog opened from the menu (About, the shortcuts, reset) closes first, by itself.
      if (document.activeElement?.closest('dialog')) return;
      setMenuOpen(false);
      button.current?.focus();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [menuOpen]);
  const ready = phase === 'ready';
  return (
    <div className={`app-top${menuOpen ? ' menu-open' : ''}`} ref={top}>
      <header className="topbar">
        <h1 className="brand">
          glassbox <span className="brand-sub">Kafka, inside out</span>
        </h1>
        <TimeControls session={session} />
        <div className="topbar-status">
          <AutoSlowNote />
          <ShortcutSaid />
        </div>
        <button
          ref={button}
          type="button"
          className="btn topbar-menu"
          data-testid="topbar-menu"
          aria-expanded={menuOpen}
          aria-controls={FOLDED.join(' ')}
          onClick={() => setMenuOpen(!menuOpen)}
        >
          <MenuIcon /> {menuOpen ? 'Close' : 'Menu'}
        </button>
        <div className="topbar-fold" id="topbar-pace">
          <SpeedControls session={session} />
        </div>
        <div className="topbar-fold topbar-end" id="topbar-cluster">
          <ShortcutsHelp session={session} />
          {ready && <StartHere />}
          {/* The Node host's cluster is the one real clients use: no reset, import or replay here. */}
          {ready && !attached && <ClusterActions session={session} />}
          <AboutFidelity />
          <ThemeToggle />
        </div>
      </header>
      {ready && !attached && <TimeTravel session={session} />}
    </div>
  );
}

function MenuIcon() {
  return (
    <svg width="14" height="14" viewBox="0 0 14 14" aria-hidden="true">
      <path d="M2 3.5 H12 M2 7 H12 M2 10.5 H12" stroke="currentColor" strokeWidth="1.6" />
    </svg>
  );
}
