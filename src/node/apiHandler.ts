/**
 * What one served API is to the Node host: its request and response schemas and a handler that
 * answers a decoded request. Kept apart from the served table (`apiHandlers.ts`) and from the
 * gateway (`WireGateway.ts`) so that the handler files depend on neither: the gateway imports the
 * table, the table imports the handlers, and the handlers import only this.
 */
import type {
  Engine,
  GroupRequest,
  GroupResponse,
  KafkaRequest,
  KafkaResponse,
  MessageSchema,
  RequestHeader,
  WireValue,
} from '../engine/index';

/** Where a broker listens for clients on this machine. */
export interface Listener {
  readonly host: string;
  readonly port: number;
}

/** One client's connection to one broker, as a handler uses it (WireGateway's GatewayConnection). */
export interface ClientConnection {
  readonly brokerId: number;
  /** The engine behind the connection, for what a broker answers from its own state. */
  readonly engine: Engine;
  /** Where each broker listens (what Metadata tells clients to connect to). */
  readonly listenerOf: (brokerId: number) => Listener;
  /** False once the client or the broker hung up: nothing more is sent. */
  readonly isOpen: boolean;
  /** Sends the engine request to this connection's broker; `done` gets the broker's answer. */
  call(body: KafkaRequest, done?: (r: KafkaResponse) => void): void;
  /** Sends a group request to this connection's broker's GroupCoordinator. */
  askGroup(request: GroupRequest, done: (r: GroupResponse) => void, timeoutMs?: number): void;
}

export interface HandlerContext {
  connection: ClientConnection;
  /** The decoded request; null for an ApiVersions request of a version this broker does not know. */
  body: WireValue | null;
  version: number;
  header: RequestHeader;
}

export interface ApiHandler {
  request: MessageSchema;
  response: MessageSchema;
  /** Answers through `reply`, now or later; 'no-response' when Kafka sends nothing back. */
  handle(ctx: HandlerContext, reply: (answer: WireValue) => void): undefined | 'no-response';
}
