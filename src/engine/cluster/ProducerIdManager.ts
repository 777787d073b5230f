import type { BrokerServices } from './BrokerServices';
import type { ErrorCode } from './requests';

/** Kafka's ProducerIdManager.PRODUCER_ID_BLOCK_SIZE. */
export const PRODUCER_ID_BLOCK_SIZE = 1000;

/**
 * Producer ids for InitProducerId (Kafka's ZkProducerIdManager): claimed in blocks of
 * PRODUCER_ID_BLOCK_SIZE from `/latest_producer_id_block` with a conditional write, so no two
 * brokers ever hand out the same id; a broker hands out its block in order and claims the next
 * when it runs out. The block in hand is lost with the process (its unused ids are skipped).
 */
export class ProducerIdManager {
  private producerIdBlock: { next: number; end: number } | null = null;

  constructor(
    private readonly brokerId: number,
    private readonly services: BrokerServices,
    private readonly zkReachable: () => boolean,
  ) {}

  /** The process died: the block in hand is gone. */
  reset(): void {
    this.producerIdBlock = null;
  }

  /** The next producer id, or the error InitProducerId answers when no block can be claimed. */
  generateProducerId(): { errorCode: ErrorCode; producerId: number } {
    if (!this.producerIdBlock || this.producerIdBlock.next > this.producerIdBlock.end) {
      if (!this.zkReachable()) return { errorCode: 'COORDINATOR_NOT_AVAILABLE', producerId: -1 };
      const zk = this.services.zk;
      const path = '/latest_producer_id_block';
      const current = zk.exists(path);
      let start = 0;
      if (current) {
        const data = zk.getData(path).data as { block_end: number };
        start = data.block_end + 1;
      }
      const end = start + PRODUCER_ID_BLOCK_SIZE - 1;
      const block = { version: 1, broker: this.brokerId, block_start: start, block_end: end };
      try {
        if (current) zk.setData(path, block, current.version);
        else zk.create(path, block);
      } catch {
        return { errorCode: 'COORDINATOR_LOAD_IN_PROGRESS', producerId: -1 };
      }
      this.producerIdBlock = { next: start, end };
    }
    const producerId = this.producerIdBlock.next++;
    this.services.emit({
      type: 'producerIdAllocated',
      broker: this.brokerId,
      producerId,
      producerEpoch: 0,
      atMs: this.services.scheduler.now(),
    });
    return { errorCode: 'NONE', producerId };
  }
}
