import type { RefObject } from 'react';

/** The footer of an information dialog: one Close button (Escape closes it too). */
export function CloseDialog({ dialog, testid }: { dialog: RefObject<HTMLDialogElement | null>; testid: string }) {
  return (
    <div className="dialog-actions">
      <button type="button" className="btn" data-testid={testid} onClick={() => dialog.current?.close()}>
        Close
      </button>
    </div>
  );
}
