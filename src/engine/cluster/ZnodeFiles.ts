import type { Store } from '../Store';
import type { ZnodeSnapshot } from './CoordinationStore';

/**
 * The coordination store's persistent znodes on the Store, one file per znode under `zookeeper/`
 * (ZooKeeper itself keeps `version-2/snapshot.<zxid>` plus `log.<zxid>` transaction logs; see
 * FIDELITY.md). One file per znode makes every change one small write or delete in the engine's
 * StoreWriter sequence, with nothing to compact, and a reload reads the tree back as it was.
 *
 * The file name is the znode path, URI-encoded into one flat directory: znode names may contain
 * dots and may have children, so a nested layout (`orders` beside `orders/`) could collide in a
 * real file system; the encoding cannot. Ephemeral znodes are never written: they die with their
 * sessions, as they do in ZooKeeper across a restart.
 */
export const ZOOKEEPER_DIR = 'zookeeper/';

/** The file holding znode `path` (`/brokers/topics/orders` -> `zookeeper/%2Fbrokers%2Ftopics%2Forders`). */
export function znodeFile(path: string): string {
  return `${ZOOKEEPER_DIR}${encodeURIComponent(path)}`;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function encodeZnode(node: ZnodeSnapshot): Uint8Array {
  return encoder.encode(JSON.stringify(node));
}

/**
 * Every persistent znode the Store holds, parents before children. A file that does not parse
 * (a write torn by a closed tab) is skipped, as is one whose name is not the path it holds.
 */
export async function readStoredZnodes(store: Store): Promise<ZnodeSnapshot[]> {
  const nodes: ZnodeSnapshot[] = [];
  const files = await store.list(ZOOKEEPER_DIR);
  // Read together: a reload reads a few hundred small files, one round trip each in IndexedDB.
  const contents = await Promise.all(files.map((file) => store.read(file)));
  for (const [i, file] of files.entries()) {
    const bytes = contents[i];
    if (!bytes) continue;
    let node: ZnodeSnapshot;
    try {
      node = JSON.parse(decoder.decode(bytes)) as ZnodeSnapshot;
    } catch {
      continue;
    }
    if (typeof node?.path !== 'string' || znodeFile(node.path) !== file || node.ephemeralOwner !== 0) continue;
    nodes.push(node);
  }
  return nodes.sort((a, b) => depth(a.path) - depth(b.path) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

function depth(path: string): number {
  return path.split('/').length;
}
