/**
 * Asks the phone's side sheet to open or close from elsewhere on the page (a lesson closes it
 * when what it is about lies on the board, so the board has the screen). Choosing a side tab
 * still opens it, as before. A wide screen has no sheet: the panel is always open.
 */
type Listener = (open: boolean) => void;

const listeners = new Set<Listener>();

export function requestSideSheet(open: boolean): void {
  for (const l of listeners) l(open);
}

export function onSideSheetRequest(l: Listener): () => void {
  listeners.add(l);
  return () => listeners.delete(l);
}
