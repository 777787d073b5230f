import { describe, expect, it } from 'vitest';
import { decodeFrame, encodeFrame, LinkFormatError } from './hostFrames';

describe('hostFrames: the host protocol over WebSocket frames', () => {
  it('a message without byte arrays is a text frame of JSON', () => {
    const msg = { requestId: 3, ok: true, data: { nowMs: 12, names: ['a', 'b'] } };
    const frame = encodeFrame(msg);
    expect(typeof frame).toBe('string');
    expect(decodeFrame(frame)).toEqual(msg);
  });

  it('byte arrays and typed arrays travel as raw bytes in a binary frame, with their types', () => {
    const zip = Buffer.from([1, 2, 3, 250]);
    const lag = { start: new Uint32Array([0, 2]), data: new Float64Array([1.5, Number.NaN]) };
    const msg = { host: { requestId: 1, ok: true, data: { zip, lag, bytes: new Uint8Array([9]) } } };
    const frame = encodeFrame(msg);
    expect(frame).toBeInstanceOf(Uint8Array);
    // The bytes are not spelled out as JSON numbers.
    expect(new TextDecoder().decode(frame as Uint8Array)).not.toContain('250');
    const back = decodeFrame(frame) as typeof msg;
    expect(back.host.data.zip).toBeInstanceOf(Uint8Array);
    expect([...back.host.data.zip]).toEqual([1, 2, 3, 250]);
    expect(back.host.data.lag.start).toBeInstanceOf(Uint32Array);
    expect([...back.host.data.lag.start]).toEqual([0, 2]);
    expect(back.host.data.lag.data).toBeInstanceOf(Float64Array);
    expect(back.host.data.lag.data[0]).toBe(1.5);
    expect(Number.isNaN(back.host.data.lag.data[1])).toBe(true);
    expect([...back.host.data.bytes]).toEqual([9]);
  });

  it('NaN and infinities survive; a sub-array sends only its own bytes', () => {
    const whole = new Uint8Array([7, 8, 9, 10]);
    const back = decodeFrame(encodeFrame({ a: Number.POSITIVE_INFINITY, b: whole.subarray(1, 3) })) as {
      a: number;
      b: Uint8Array;
    };
    expect(back.a).toBe(Number.POSITIVE_INFINITY);
    expect([...back.b]).toEqual([8, 9]);
  });

  it('a truncated or malformed frame is a LinkFormatError', () => {
    const frame = encodeFrame({ b: new Uint8Array([1, 2, 3]) }) as Uint8Array;
    expect(() => decodeFrame(frame.subarray(0, frame.length - 1))).toThrow(LinkFormatError);
    expect(() => decodeFrame(new Uint8Array([0, 0, 0, 9, 1]))).toThrow(LinkFormatError);
    expect(() => decodeFrame('{nope')).toThrow(LinkFormatError);
    expect(() => decodeFrame('{"x":{"$bytes":0,"type":"Uint8Array"}}')).toThrow(LinkFormatError);
  });
});
