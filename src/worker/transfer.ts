import type { Commands } from './protocol';

/**
 * A result whose byte arrays should move to the page instead of being copied. Handlers wrap only
 * fresh copies in it: a transferred buffer is detached in the worker, so engine-owned bytes
 * must never be.
 */
export class Transfer<T> {
  constructor(
    readonly data: T,
    readonly buffers: ArrayBuffer[],
  ) {}
}

/** A worker command's handler: its answer, maybe with buffers to move rather than copy. */
export type Handlers = {
  [K in keyof Commands]: (
    data: Commands[K][0],
  ) => Commands[K][1] | Transfer<Commands[K][1]> | Promise<Commands[K][1] | Transfer<Commands[K][1]>>;
};
