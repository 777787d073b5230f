/**
 * A group of the legacy ZooKeeper consumer (Kafka 0.8's ZookeeperConsumerConnector, seed 002) as
 * it is: no coordinator, no JoinGroup or SyncGroup, no generation. Its members register under
 * /consumers/<group>/ids, each claims the partitions it takes under owners and writes its offsets
 * under offsets; a watch firing on ids (or /brokers/ids) makes every member rebalance itself.
 * The card draws those znodes, read from the coordination store's tree in the board view.
 */
import type { BoardConsumerView, ZnodeView } from '../../engine/apps/types';
import { useBoard } from '../store';

/** The group's znodes, as one string (the card redraws only when one of them changes). */
function useGroupZnodes(groupId: string): ZnodeView[] {
  const key = useBoard((s) => {
    const prefix = `/consumers/${groupId}/`;
    const nodes = (s.view?.znodes ?? []).filter((z) => z.path.startsWith(prefix) || z.path === `/consumers/${groupId}`);
    return JSON.stringify(nodes.map((z) => [z.path, z.data, z.ephemeral, z.childWatches]));
  });
  return (JSON.parse(key) as [string, string, boolean, number][]).map(([path, data, ephemeral, childWatches]) => ({
    path,
    data,
    ephemeral,
    childWatches,
    owner: null,
    version: 0,
    dataWatches: 0,
    mtimeMs: 0,
  }));
}

/** The leaves under /consumers/<group>/<kind>/, each as its path below that and its data. */
function leaves(nodes: ZnodeView[], groupId: string, kind: 'ids' | 'owners' | 'offsets') {
  const prefix = `/consumers/${groupId}/${kind}/`;
  const depth = kind === 'ids' ? 1 : 2;
  return nodes
    .filter((z) => z.path.startsWith(prefix) && z.path.slice(prefix.length).split('/').length === depth)
    .map((z) => ({ name: z.path.slice(prefix.length), data: z.data.replace(/^"|"$/g, '') }));
}

export function ZookeeperGroupBody({ groupId, consumers }: { groupId: string; consumers: BoardConsumerView[] }) {
  const nodes = useGroupZnodes(groupId);
  const ids = leaves(nodes, groupId, 'ids');
  const owners = leaves(nodes, groupId, 'owners');
  const offsets = leaves(nodes, groupId, 'offsets');
  const idsWatches = nodes.find((z) => z.path === `/consumers/${groupId}/ids`)?.childWatches ?? 0;
  const rebalances = consumers
    .filter((c) => c.lifecycle === 'running')
    .map((c) => `${c.name} ×${Math.max(0, c.generation)}${c.memberState === 'running' ? '' : ` (${c.memberState})`}`);
  return (
    <div className="zk-group" data-testid={`zk-group-${groupId}`}>
      <p className="muted small">
        No coordinator: every member rebalances itself through ZooKeeper. A change under{' '}
        <code>/consumers/{groupId}/ids</code> or <code>/brokers/ids</code> fires their watches ({idsWatches} on ids),
        and each one releases its owners, range-assigns over the sorted ids, and claims its partitions again.
      </p>
      <dl className="zk-znodes">
        <div data-testid={`zk-ids-${groupId}`}>
          <dt>
            <code>ids/</code> <span className="muted">ephemeral, one per member</span>
          </dt>
          <dd>{ids.length > 0 ? ids.map((i) => i.name).join(', ') : 'none'}</dd>
        </div>
        <div data-testid={`zk-owners-${groupId}`}>
          <dt>
            <code>owners/</code> <span className="muted">ephemeral, topic/partition → its consumer thread</span>
          </dt>
          <dd>{owners.length > 0 ? owners.map((o) => `${o.name} → ${o.data}`).join(', ') : 'none claimed'}</dd>
        </div>
        <div data-testid={`zk-offsets-${groupId}`}>
          <dt>
            <code>offsets/</code> <span className="muted">persistent, the committed offsets</span>
          </dt>
          <dd>{offsets.length > 0 ? offsets.map((o) => `${o.name} = ${o.data}`).join(', ') : 'none yet'}</dd>
        </div>
      </dl>
      <p className="small" data-testid={`zk-rebalances-${groupId}`}>
        Rebalances each member ran: {rebalances.length > 0 ? rebalances.join(', ') : 'none running'}
      </p>
    </div>
  );
}
