/** The discard question's slice of the page's one store (store.ts; asked by discard.ts). */
import type { DiscardView } from '../../worker/protocol';

export interface DiscardQuestion {
  /** What would replace the cluster, as the start of a sentence ("Opening this link"). */
  what: string;
  lost: DiscardView;
  /** An action in the past would fork the run: only `lost.topics` are deleted, the rest is replayed. */
  fork?: boolean;
  answer(replace: boolean): void;
}
