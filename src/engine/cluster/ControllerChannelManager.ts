import type { BrokerServices } from './BrokerServices';
import type { KafkaRequest, KafkaResponse } from './requests';

/**
 * The active controller's channels to the brokers (Kafka's ControllerChannelManager): one queue
 * per registered broker, drained by its RequestSendThread one request at a time, in order. A
 * request that gets no response within controller.socket.timeout.ms — the broker or the
 * controller was cut off, or the broker crashed — is sent again after a 100 ms backoff, and
 * again, until it is answered or the broker is removed (its registration went away, or came
 * back as a new incarnation). So a LeaderAndIsr lost to a network partition still arrives
 * once the partition heals, and a broker never keeps following a leader epoch the controller
 * has moved on from.
 *
 * Requests travel through `send`, the controller broker's own sender; a response for a request
 * the channel has given up on (timed out, or the broker removed) is ignored.
 */
interface QueueItem {
  request: KafkaRequest;
  callback: ((r: KafkaResponse) => void) | null;
}

/** RequestSendThread's pause between attempts. */
export const CONTROLLER_REQUEST_BACKOFF_MS = 100;

class RequestSendThread {
  readonly queue: QueueItem[] = [];
  /** The attempt in flight: the correlation id its response will carry. */
  inFlight: number | null = null;
  attempt = 0;
  stopped = false;

  constructor(
    readonly brokerId: number,
    readonly brokerEpoch: number,
  ) {}
}

export class ControllerChannelManager {
  private readonly threads = new Map<number, RequestSendThread>();

  constructor(
    private readonly services: BrokerServices,
    /** Sends from the controller's broker; returns the correlation id. */
    private readonly send: (to: number, request: KafkaRequest, onResponse: (r: KafkaResponse) => void) => number,
    /** Tells the sender to stop waiting for the response to a request given up on. */
    private readonly forget: (correlationId: number) => void,
  ) {}

  /** The broker epoch the channel to `brokerId` was opened for, or undefined when there is none. */
  brokerEpoch(brokerId: number): number | undefined {
    return this.threads.get(brokerId)?.brokerEpoch;
  }

  /** Opens the channel to a registered broker (a new incarnation replaces the old channel). */
  addBroker(brokerId: number, brokerEpoch: number): void {
    const existing = this.threads.get(brokerId);
    if (existing?.brokerEpoch === brokerEpoch) return;
    if (existing) this.removeBroker(brokerId);
    this.threads.set(brokerId, new RequestSendThread(brokerId, brokerEpoch));
  }

  /** The broker is gone: whatever was queued for it is dropped, retries stop. */
  removeBroker(brokerId: number): void {
    const t = this.threads.get(brokerId);
    if (!t) return;
    t.stopped = true;
    if (t.inFlight !== null) this.forget(t.inFlight);
    this.threads.delete(brokerId);
  }

  /** The controller resigned or its process died: every channel closes. */
  shutdown(): void {
    for (const id of [...this.threads.keys()]) this.removeBroker(id);
  }

  /** Queues a request for a broker; false (nothing queued) when there is no channel to it. */
  sendRequest(brokerId: number, request: KafkaRequest, callback?: (r: KafkaResponse) => void): boolean {
    const t = this.threads.get(brokerId);
    if (!t) return false;
    t.queue.push({ request, callback: callback ?? null });
    if (t.inFlight === null && t.queue.length === 1) this.sendHead(t);
    return true;
  }

  private sendHead(t: RequestSendThread): void {
    const item = t.queue[0];
    if (t.stopped || !item) return;
    const attempt = ++t.attempt;
    const cid = this.send(t.brokerId, item.request, (r) => this.onResponse(t, attempt, r));
    t.inFlight = cid;
    const s = this.services.scheduler;
    s.scheduleAt(s.now() + this.services.config['controller.socket.timeout.ms'], () => {
      if (t.stopped || t.attempt !== attempt || t.inFlight === null) return;
      // No answer: the connection is no longer usable. Reconnect and send the same request again.
      this.forget(cid);
      t.inFlight = null;
      s.schedule(CONTROLLER_REQUEST_BACKOFF_MS, () => {
        if (!t.stopped && t.attempt === attempt && t.inFlight === null) this.sendHead(t);
      });
    });
  }

  private onResponse(t: RequestSendThread, attempt: number, response: KafkaResponse): void {
    if (t.stopped || t.attempt !== attempt) return;
    t.inFlight = null;
    const item = t.queue.shift();
    item?.callback?.(response);
    if (t.queue.length > 0) this.sendHead(t);
  }
}
