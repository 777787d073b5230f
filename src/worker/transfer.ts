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
