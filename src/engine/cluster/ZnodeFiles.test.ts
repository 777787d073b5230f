import { describe, expect, it } from 'vitest';
import { ManualClock } from '../Clock';
import { StoreWriter } from '../log/StoreWriter';
import { MapStore } from '../log/testSupport';
import { CoordinationStore } from './CoordinationStore';
import { Scheduler } from './Scheduler';
import { encodeZnode, readStoredZnodes, ZOOKEEPER_DIR, znodeFile } from './ZnodeFiles';

/** A coordination store whose persistent znodes go through a StoreWriter into `store`. */
function persisted(store: MapStore, clock = new ManualClock(1000)) {
  const writer = new StoreWriter(store);
  const zk = new CoordinationStore(
    new Scheduler(clock),
    () => {},
    (path, node) =>
      writer.submit(
        node
          ? { op: 'write', path: znodeFile(path), bytes: encodeZnode(node) }
          : { op: 'delete', path: znodeFile(path) },
      ),
  );
  return { zk, writer, clock };
}

describe('persistent znodes through the Store (ZooKeeper ZKDatabase.loadDataBase -> DataTree.deserialize)', () => {
  it('a restarted coordination store gets every persistent node back with its data and Stat; ephemerals are gone', async () => {
    const store = new MapStore();
    const { zk, writer, clock } = persisted(store);
    const session = zk.createSession('broker-1', 6000);
    zk.createRecursive('/brokers/topics/orders', { partitions: { 0: [1, 2] } });
    zk.createRecursive('/brokers/topics/orders/partitions/0/state', { leader: 1, leader_epoch: 0, isr: [1, 2] });
    clock.advance(50);
    zk.setData('/brokers/topics/orders/partitions/0/state', { leader: 2, leader_epoch: 1, isr: [2] }, 0);
    zk.createRecursive('/brokers/topics/a.b', { partitions: { 0: [1] } });
    zk.createRecursive('/config/topics/orders', { version: 1, config: { 'retention.ms': '60000' } });
    zk.createRecursive('/admin/reassign_partitions', { version: 1, partitions: [] });
    zk.delete('/admin/reassign_partitions');
    zk.createRecursive('/brokers/ids/1', { host: 'broker-1' }, { ephemeralSessionId: session });
    zk.create('/controller', { brokerid: 1 }, { ephemeralSessionId: session });
    zk.create('/controller_epoch', 3);
    await writer.settled();

    // ZooKeeper's snapshot format is not used: one file per znode under zookeeper/, no ephemerals.
    const files = await store.list(ZOOKEEPER_DIR);
    expect(files).toContain(znodeFile('/brokers/topics/orders/partitions/0/state'));
    expect(files).not.toContain(znodeFile('/brokers/ids/1'));
    expect(files).not.toContain(znodeFile('/controller'));
    expect(files).not.toContain(znodeFile('/admin/reassign_partitions'));

    // The root is not a file: it exists in every tree.
    const before = zk.snapshot().filter((n) => n.ephemeralOwner === 0 && n.path !== '/');
    const again = persisted(store).zk;
    again.restore(await readStoredZnodes(store));
    const after = again.snapshot().filter((n) => n.path !== '/');
    // Ephemeral /brokers/ids/1 and /controller died with their session; /brokers/ids itself is persistent.
    expect(after.map((n) => n.path)).toEqual(before.map((n) => n.path));
    expect(after).toEqual(before.map((n) => ({ ...n })));
    expect(again.getData('/brokers/topics/orders/partitions/0/state')).toMatchObject({
      data: { leader: 2, leader_epoch: 1, isr: [2] },
      stat: { version: 1, mtime: 1050, ctime: 1000 },
    });
    expect(again.getChildren('/brokers/topics')).toEqual(['a.b', 'orders']);
    expect(again.getChildren('/brokers/ids')).toEqual([]);
    expect(again.tryGetData('/controller_epoch')).toBe(3);
    // The zkVersion check still fences a stale writer after the restart (KafkaZkClient's conditional updates).
    expect(() => again.setData('/brokers/topics/orders/partitions/0/state', {}, 0)).toThrow(/BadVersion/);
    // zxids continue past the restored ones.
    const highest = Math.max(...after.map((n) => n.mzxid ?? 0));
    again.create('/isr_change_notification', null);
    expect(again.exists('/isr_change_notification')?.czxid).toBeGreaterThan(highest);
  });

  it('restoring writes nothing back, and a deleted znode leaves no file', async () => {
    const store = new MapStore();
    const { zk, writer } = persisted(store);
    zk.createRecursive('/config/topics/t', { version: 1, config: {} });
    zk.deleteRecursive('/config/topics/t');
    await writer.settled();
    expect(await store.list(znodeFile('/config/topics/t'))).toEqual([]);
    const again = persisted(store);
    again.zk.restore(await readStoredZnodes(store));
    expect(again.writer.operationsIssued).toBe(0);
    expect(again.zk.exists('/config/topics')?.numChildren).toBe(0);
  });
});
