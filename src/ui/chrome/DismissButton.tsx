/** Puts a notice away (a banner, a finished job, a refused action): the page forgets it, nothing else changes. */
export function DismissButton({ onDismiss, size = 'small' }: { onDismiss: () => void; size?: 'small' | 'xs' }) {
  return (
    <button type="button" className={`btn btn-${size}`} onClick={onDismiss}>
      Dismiss
    </button>
  );
}
