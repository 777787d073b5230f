import { describe, expect, it } from 'vitest';
import { ContentVersion } from './ContentVersion';

describe('ContentVersion', () => {
  it('starts at 0, moves to 1 on the first content and again only when the content changes', () => {
    const v = new ContentVersion();
    expect(v.version).toBe(0);
    expect(v.observe('a')).toBe(1);
    expect(v.observe('a')).toBe(1);
    expect(v.observe('b')).toBe(2);
    expect(v.observe('a')).toBe(3);
    expect(v.version).toBe(3);
  });

  it('counts an empty first content as a change: the page holds no version yet', () => {
    expect(new ContentVersion().observe('')).toBe(1);
  });
});
