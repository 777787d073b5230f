import { useRef } from 'react';
import { keepIdentity } from './keepIdentity';

/**
 * `value` as derived this render, with every part equal to last render's kept as last render's
 * object (keepIdentity.ts): the memoized children given those parts skip the render.
 */
export function useKept<T>(value: T): T {
  const last = useRef<T | null>(null);
  const kept = keepIdentity(last.current, value);
  last.current = kept;
  return kept;
}
