/**
 * The shape most handlers share: one wire request becomes one engine request to the broker
 * (`connection.call`: its KafkaApis answers, a group request by its GroupCoordinator), and the
 * engine's answer becomes the wire answer. Only the two translations differ per API; the
 * answer may name only fields of the API's response (`OnlyKnownFields`).
 */
import type { KafkaRequest, OnlyKnownFields, ResponseFor, WireApi, WireResponse } from '../engine/index';
import type { ApiHandler, HandlerContext } from './apiHandler';

export function brokerRelay<const A extends WireApi, R extends KafkaRequest, W extends WireResponse<A>>(
  api: A,
  toEngine: (ctx: HandlerContext<A>) => R,
  toWire: (answer: ResponseFor<R>, ctx: HandlerContext<A>) => W & OnlyKnownFields<W, WireResponse<A>>,
): ApiHandler<A> {
  return {
    api,
    handle(ctx, reply) {
      ctx.connection.call(toEngine(ctx), (r) => reply(toWire(r, ctx)));
      return undefined;
    },
  };
}
