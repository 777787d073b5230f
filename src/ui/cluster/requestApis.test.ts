import { describe, expect, it } from 'vitest';
import { apiColour, legendApis, REQUEST_APIS } from './requestApis';

describe('request APIs', () => {
  it('gives every API its own colour', () => {
    const colours = REQUEST_APIS.map(apiColour);
    expect(new Set(colours).size).toBe(REQUEST_APIS.length);
  });

  it('lists the APIs seen once each, in the protocol list order', () => {
    expect(legendApis(['Produce', 'Fetch', 'Fetch', 'LeaderAndIsr', 'Produce'])).toEqual([
      'Produce',
      'Fetch',
      'LeaderAndIsr',
    ]);
    expect(legendApis(['Fetch', 'Produce'])).toEqual(['Produce', 'Fetch']);
    expect(legendApis([])).toEqual([]);
  });
});
