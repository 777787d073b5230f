/**
 * The page's one keyboard handler (Space, →, K, I, R, P, C, ?) and the `?` dialog listing every
 * key with what it does. `ShortcutSaid`, the top bar's status line, says what the last shortcut did.
 */
import { useEffect, useRef } from 'react';
import { CloseDialog } from '../chrome/CloseDialog';
import type { Session } from '../session';
import { useUi } from '../store';
import { runShortcut } from './runShortcut';
import { SHORTCUTS, shortcutFor } from './shortcuts';

export function ShortcutsHelp({ session }: { session: Session }) {
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const s = shortcutFor(e);
      // While the help is open its own keys (Escape, Tab) are the dialog's.
      if (!s || dialog.current?.open) return;
      e.preventDefault();
      if (s.key === '?') dialog.current?.showModal();
      else runShortcut(session, s.key);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [session]);

  return (
    <>
      <button
        type="button"
        className="btn btn-icon"
        data-testid="shortcuts-open"
        aria-label="Keyboard shortcuts (?)"
        title="Keyboard shortcuts (?)"
        onClick={() => dialog.current?.showModal()}
      >
        ?
      </button>
      {/* A native modal dialog: focus moves into it, Escape closes it. */}
      <dialog ref={dialog} className="dialog" aria-labelledby="shortcuts-title" data-testid="shortcuts-help">
        <h2 id="shortcuts-title">Keyboard shortcuts</h2>
        <p className="muted small">Keys typed into a field, and keys with Ctrl, Alt or ⌘, are left alone.</p>
        <dl className="shortcut-list">
          {SHORTCUTS.map((s) => (
            <div key={s.key} data-testid={`shortcut-${s.label}`}>
              <dt>
                <kbd>{s.label}</kbd>
              </dt>
              <dd>{s.does}</dd>
            </div>
          ))}
        </dl>
        <CloseDialog dialog={dialog} testid="shortcuts-close" />
      </dialog>
    </>
  );
}

/** What the last shortcut did, in words (a live region: a screen reader hears it too). */
export function ShortcutSaid() {
  const said = useUi((s) => s.shortcutSaid);
  return (
    <output className="muted small shortcut-said" data-testid="shortcut-said" aria-live="polite">
      {said ?? ''}
    </output>
  );
}
