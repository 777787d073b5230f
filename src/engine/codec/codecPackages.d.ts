// Types for the codec packages that ship none (snappyjs 0.7.0, lz4js 0.2.0): only what glassbox calls.
declare module 'snappyjs' {
  export function compress(input: Uint8Array): Uint8Array;
}

declare module 'lz4js' {
  /** Compresses src[sIndex, sIndex + sLength) as one LZ4 block into dst; returns its length (0: nothing matched). */
  export function compressBlock(
    src: Uint8Array,
    dst: Uint8Array,
    sIndex: number,
    sLength: number,
    hashTable: Uint32Array,
  ): number;
}

declare module 'lz4js/xxh32.js' {
  export function hash(seed: number, src: Uint8Array, sIndex: number, sLength: number): number;
}
