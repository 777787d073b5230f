import type { ClientGroupView, BoardConsumerView } from '../../engine/apps/types';
import { GroupLeaderTag } from './GroupLeaderTag';

/**
 * A real Kafka client's group member (the Node host): named by the client.id it joined with, its
 * member id beside it, and the assignment its group's leader client computed, as the coordinator
 * handed it over in SyncGroup (ConsumerProtocolAssignment: version, partitions, user data). The
 * board cannot move or crash it: the client process owns it.
 */
export function ClientChip({ consumer: c, leader }: { consumer: BoardConsumerView; leader: boolean }) {
  const client = c.client;
  if (!client) return null;
  const a = client.assignment;
  return (
    <li
      className="consumer-chip client-chip lifecycle-running"
      data-testid={`consumer-${c.name}`}
      data-client-id={client.clientId}
      data-member-id={c.memberId}
      data-partitions={c.partitions.join(',')}
      data-generation={c.generation}
      data-assignment-version={a?.version ?? ''}
    >
      <span className="chip-handle" title={`member id ${c.memberId} (${client.clientHost})`}>
        {client.clientId}
      </span>
      {leader && <GroupLeaderTag />}
      <code className="chip-member-id small">{c.memberId}</code>
      <span className="chip-partitions">{c.partitions.length > 0 ? c.partitions.join(', ') : '(none)'}</span>
      <span className="muted small" data-testid={`consumer-assignment-${c.name}`}>
        {a === null
          ? 'no assignment yet'
          : `assignment v${a.version}, user data ${a.userDataBytes === null ? 'none' : `${a.userDataBytes} bytes`}`}
      </span>
    </li>
  );
}

/** In place of the board's settings: whose group this is and what its clients chose. */
export function ClientGroupNote({ groupId, clients }: { groupId: string; clients: ClientGroupView }) {
  return (
    <p className="muted small" data-testid={`group-clients-${groupId}`} data-protocol={clients.protocolName ?? ''}>
      Real clients' group: protocol type {clients.protocolType ?? '(none yet)'}, assignor{' '}
      <strong>{clients.protocolName ?? '(none yet)'}</strong>, run by the leader client, not the broker.
    </p>
  );
}
