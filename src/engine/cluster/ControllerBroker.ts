import type { BrokerState } from './BrokerState';
import type { KafkaRequest, KafkaResponse } from './requests';

/**
 * What the controller uses of the broker it runs in: its id, ZooKeeper session, process state and
 * sends (so Controller need not import Broker, which makes it).
 */
export interface ControllerBroker {
  readonly id: number;
  readonly sessionId: number;
  readonly state: BrokerState;
  zkReachable(): boolean;
  /** Sends a request from this broker; returns its correlation id. */
  send(to: number, request: KafkaRequest, onResponse?: (r: KafkaResponse) => void): number;
  /** Stops waiting for a request sent with `send`. */
  forgetRequest(correlationId: number): void;
}
