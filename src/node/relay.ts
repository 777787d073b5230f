/**
 * The shape most handlers share: one wire request becomes one engine request, to the broker
 * (`connection.call`, its KafkaApis answers) or to its group coordinator (`connection.askGroup`),
 * and the engine's answer becomes the wire answer. Only the two translations differ per API.
 */
import type {
  GroupRequest,
  GroupResponse,
  KafkaRequest,
  KafkaResponse,
  MessageSchema,
  WireValue,
} from '../engine/index';
import type { ApiHandler, HandlerContext } from './apiHandler';

/** The decoded body as a typed record (the schema's fields; a missing one reads as undefined). */
export function bodyOf<T>(ctx: HandlerContext): Partial<T> {
  return (ctx.body ?? {}) as Partial<T>;
}

export function brokerRelay<R extends KafkaRequest, A extends KafkaResponse>(
  request: MessageSchema,
  response: MessageSchema,
  toEngine: (ctx: HandlerContext) => R,
  toWire: (answer: A, ctx: HandlerContext) => WireValue,
): ApiHandler {
  return {
    request,
    response,
    handle(ctx, reply) {
      ctx.connection.call(toEngine(ctx), (r) => reply(toWire(r as A, ctx)));
      return undefined;
    },
  };
}

export function groupRelay<R extends GroupRequest, A extends GroupResponse>(
  request: MessageSchema,
  response: MessageSchema,
  toGroup: (ctx: HandlerContext) => R,
  toWire: (answer: A, ctx: HandlerContext) => WireValue,
  timeoutMs?: (req: R) => number,
): ApiHandler {
  return {
    request,
    response,
    handle(ctx, reply) {
      const req = toGroup(ctx);
      ctx.connection.askGroup(req, (r) => reply(toWire(r as A, ctx)), timeoutMs?.(req));
      return undefined;
    },
  };
}
