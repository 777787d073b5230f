/**
 * What one served API is to the Node host: the API's name (its schemas are `WIRE_APIS`') and a
 * handler that answers the decoded request, typed from the schemas: `ApiHandler<'Produce'>` gets
 * a `WireRequest<'Produce'>` and replies a `WireResponse<'Produce'>`, with no casts.
 *
 * Kept apart from the served table (`apiHandlers.ts`) and from the gateway (`WireGateway.ts`) so
 * that the handler files depend on neither: the gateway imports the table, the table imports the
 * handlers, and the handlers import only this.
 */
import type {
  Engine,
  KafkaRequest,
  OnlyKnownFields,
  RequestHeader,
  ResponseFor,
  WireApi,
  WireRequest,
  WireResponse,
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
  /**
   * Sends the engine request to this connection's broker (its KafkaApis hands a group request to
   * its GroupCoordinator); `done` gets the broker's answer.
   */
  call<R extends KafkaRequest>(body: R, done?: (r: ResponseFor<R>) => void): void;
}

export interface HandlerContext<A extends WireApi> {
  connection: ClientConnection;
  /**
   * The decoded request. An ApiVersions request of a version this broker does not know is not
   * read (KIP-511): it is answered in v0, `header.apiVersion` says what was asked.
   */
  body: WireRequest<A>;
  version: number;
  header: RequestHeader;
}

/** What a handler returns: 'no-response' when Kafka sends nothing back (a Produce with acks=0). */
export type Outcome = undefined | 'no-response';

export interface ApiHandler<A extends WireApi = WireApi> {
  readonly api: A;
  /** Answers through `reply`, now or later. */
  handle(ctx: HandlerContext<A>, reply: (answer: WireResponse<A>) => void): Outcome;
}

/** An answer of API `A`: a field its response schema does not name, at any depth, is a compile error. */
export type Reply<A extends WireApi> = <T extends WireResponse<A>>(
  answer: T & OnlyKnownFields<T, WireResponse<A>>,
) => void;

/** The handler of API `A`, whose `reply` takes only the fields the response has. */
export function handler<const A extends WireApi>(
  api: A,
  handle: (ctx: HandlerContext<A>, reply: Reply<A>) => Outcome,
): ApiHandler<A> {
  return { api, handle };
}
