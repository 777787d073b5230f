/**
 * An error as the page shows it: Kafka's error name once, then the reason. A KafkaError's message
 * already begins with its code (its constructor writes "<code>: <reason>"), so it is shown as it
 * is; the code is added only to a message that lacks it.
 */
export function errorText(e: unknown): string {
  if (!e || typeof e !== 'object') return String(e);
  const { code, name, message } = e as { code?: unknown; name?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message : String(e);
  if (typeof code === 'string' && code) return text.startsWith(`${code}:`) ? text : `${code}: ${text}`;
  return typeof name === 'string' && name && name !== 'Error' ? `${name}: ${text}` : text;
}
