/**
 * The coordination store as a live tree: every znode with its data (as text), ephemeral nodes
 * marked with their owning session, the watches registered on each node, and a flash on every
 * node whose change arrived in the latest events. The internal offsets topic's many partition
 * nodes are folded away unless asked for.
 */
import { useState } from 'react';
import type { ZnodeView } from '../../engine/apps/types';
import { useBoard } from '../store';

const FLASH_MS = 2000;
const LARGE_TREE = 200;

export function ZnodeTree({ znodes, nowMs }: { znodes: ZnodeView[]; nowMs: number }) {
  const changed = useBoard((s) => s.changedZnodes);
  const [internal, setInternal] = useState(false);
  const [partitions, setPartitions] = useState(false);
  // Large clusters: the per-partition state nodes are folded until asked for.
  const large = znodes.length > LARGE_TREE;
  const shown = znodes.filter(
    (z) =>
      z.path !== '/' &&
      (internal || !z.path.startsWith('/brokers/topics/__consumer_offsets/')) &&
      (!large || partitions || !z.path.includes('/partitions/')),
  );
  const folded = znodes.length - 1 - shown.length;
  return (
    <section className="znodes" aria-label="Coordination store (ZooKeeper) znodes" data-testid="znode-tree">
      <header className="panel-head">
        <h3>ZooKeeper znodes</h3>
        <label className="check">
          <input type="checkbox" checked={internal} onChange={(e) => setInternal(e.target.checked)} /> internal topic
        </label>
        {large && (
          <label className="check">
            <input type="checkbox" checked={partitions} onChange={(e) => setPartitions(e.target.checked)} /> partition
            state nodes
          </label>
        )}
      </header>
      <ul className="znode-list" aria-label="znodes">
        {shown.map((z) => {
          const depth = z.path.split('/').length - 2;
          const name = z.path.slice(z.path.lastIndexOf('/') + 1);
          const at = changed[z.path];
          const flash = at !== undefined && nowMs - at < FLASH_MS;
          return (
            <li
              key={flash ? `${z.path}@${at}` : z.path}
              className={`znode${z.ephemeral ? ' ephemeral' : ''}${flash ? ' flash' : ''}`}
              style={{ paddingLeft: `${depth * 12}px` }}
              data-testid={`znode-${z.path}`}
              data-ephemeral={String(z.ephemeral)}
              title={`${z.path} · version ${z.version}${z.owner ? ` · owned by ${z.owner}'s session` : ''}`}
            >
              <span className="znode-name">/{name}</span>
              {z.ephemeral && <span className="tag tag-ephemeral">ephemeral · {z.owner}</span>}
              {z.dataWatches + z.childWatches > 0 && (
                <span className="tag tag-watch" title="watches registered (they fire once)">
                  watch ×{z.dataWatches + z.childWatches}
                </span>
              )}
              {z.data && <code className="znode-data">{z.data}</code>}
            </li>
          );
        })}
      </ul>
      {!internal && folded > 0 && <p className="muted small">{folded} znodes folded.</p>}
    </section>
  );
}
