/**
 * The Kafka request APIs a token can carry, each with its colour on the board. Names are the API
 * keys' names in Kafka's protocol (clients/src/main/java/org/apache/kafka/common/protocol/ApiKeys.java):
 * clients send Produce, Fetch, the group APIs and Metadata; in ZooKeeper mode the controller sends
 * LeaderAndIsr, UpdateMetadata and StopReplica to the brokers.
 */
export const REQUEST_APIS = [
  'Produce',
  'Fetch',
  'Metadata',
  'LeaderAndIsr',
  'UpdateMetadata',
  'StopReplica',
  'FindCoordinator',
  'JoinGroup',
  'SyncGroup',
  'Heartbeat',
  'LeaveGroup',
  'OffsetCommit',
  'OffsetFetch',
] as const;
export type RequestApi = (typeof REQUEST_APIS)[number];

/** One colour per API (the theme's tokens where one fits), readable on light and dark panels. */
const COLOURS: Record<RequestApi, string> = {
  Produce: 'var(--pending)',
  Fetch: 'var(--sync)',
  Metadata: 'light-dark(#5b6472, #a3adbd)',
  LeaderAndIsr: 'var(--leader)',
  UpdateMetadata: 'light-dark(#6a3fb5, #b495f0)',
  StopReplica: 'var(--lost)',
  FindCoordinator: 'light-dark(#2f6b8a, #7cc3e6)',
  JoinGroup: 'light-dark(#a1356d, #f08cc0)',
  SyncGroup: 'light-dark(#7a4a00, #e6b866)',
  Heartbeat: 'light-dark(#4a7a1a, #9ed46a)',
  LeaveGroup: 'light-dark(#8a2d2d, #f09a9a)',
  OffsetCommit: 'light-dark(#0f5f8f, #6ab8f0)',
  OffsetFetch: 'light-dark(#3d5a80, #98b4dc)',
};

export function isRequestApi(api: string): api is RequestApi {
  return (REQUEST_APIS as readonly string[]).includes(api);
}

/** The colour a token of `api` is drawn in (a neutral one for an API outside the list). */
export function apiColour(api: string): string {
  return isRequestApi(api) ? COLOURS[api] : 'var(--idle)';
}

/** The APIs in `seen`, in the list's order (unknown names last, as given), without repeats. */
export function legendApis(seen: Iterable<string>): string[] {
  const set = new Set(seen);
  const known = REQUEST_APIS.filter((a) => set.has(a));
  const other = [...set].filter((a) => !isRequestApi(a));
  return [...known, ...other];
}
