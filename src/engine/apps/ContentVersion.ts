/**
 * The version of a view built from state that carries no version of its own (the partition
 * views, the accumulator): it moves each time the view's content, given as a string, differs
 * from the last one seen. A host sends the view only when the page holds an older version.
 */
export class ContentVersion {
  private seen: string | null = null;
  private _version = 0;

  /** The version after seeing `content` (one more than before when it changed). */
  observe(content: string): number {
    if (content !== this.seen) {
      this.seen = content;
      this._version++;
    }
    return this._version;
  }

  get version(): number {
    return this._version;
  }
}
