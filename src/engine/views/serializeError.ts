import type { SerializedError } from './types';

/** Error details that can cross postMessage: flat, small, structured-clone safe. */
function cloneableDetails(details: unknown): Record<string, unknown> | undefined {
  if (!details || typeof details !== 'object') return undefined;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(details)) {
    if (v === null || ['string', 'number', 'boolean'].includes(typeof v)) out[k] = v;
  }
  return out;
}

/** An error as it crosses to the page: its name, Kafka's error name as `code`, the message. */
export function serializeError(e: unknown): SerializedError {
  if (e instanceof Error) {
    const code = (e as { code?: unknown }).code;
    const details = cloneableDetails((e as { details?: unknown }).details);
    return {
      name: e.name,
      code: typeof code === 'string' ? code : null,
      message: e.message,
      ...(details ? { details } : {}),
    };
  }
  return { name: 'Error', code: null, message: String(e) };
}
