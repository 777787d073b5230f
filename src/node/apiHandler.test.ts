/**
 * Handlers are typed end to end from the schema tables: the request a handler reads and the answer
 * it replies. The `@ts-expect-error` lines are checked by `npm run typecheck`; each would fail it
 * if the mistake it marks stopped being a compile error.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { WireRequest, WireResponse } from '../engine/index';
import { type ApiHandler, type ClientConnection, type HandlerContext, handler } from './apiHandler';

/** A context for calling a handler directly; the connection is never used by the handlers below. */
function contextOf<A extends 'Heartbeat' | 'DeleteGroups'>(body: WireRequest<A>): HandlerContext<A> {
  const connection = {} as ClientConnection;
  return { connection, body, version: 0, header: { apiKey: 0, apiVersion: 0, correlationId: 1, clientId: null } };
}

describe('handler', () => {
  it('hands the handler its typed request and passes on its answer', () => {
    const deleteGroups = handler('DeleteGroups', ({ body }, reply) => {
      expectTypeOf(body).toEqualTypeOf<WireRequest<'DeleteGroups'>>();
      reply({ throttleTimeMs: 0, results: body.groupsNames.map((groupId) => ({ groupId, errorCode: 69 })) });
      return undefined;
    });
    const answers: WireResponse<'DeleteGroups'>[] = [];
    deleteGroups.handle(contextOf<'DeleteGroups'>({ groupsNames: ['a', 'b'] }), (a) => answers.push(a));
    expect(answers).toEqual([
      {
        throttleTimeMs: 0,
        results: [
          { groupId: 'a', errorCode: 69 },
          { groupId: 'b', errorCode: 69 },
        ],
      },
    ]);
    expectTypeOf(deleteGroups).toExtend<ApiHandler>();
  });

  it('refuses an API with no schemas', () => {
    // @ts-expect-error 'Heartbeet' is no API
    handler('Heartbeet', () => undefined);
    expect(handler('Heartbeat', () => undefined).api).toBe('Heartbeat');
  });

  it('refuses a misspelled field in an answer, even one built in a map', () => {
    handler('DeleteGroups', ({ body }, reply) => {
      // @ts-expect-error misspelled: `throttleTimeMs`
      reply({ throttleTimMs: 0, results: [] });
      // @ts-expect-error misspelled: `errorCode`, in objects a map builds
      reply({ results: body.groupsNames.map((groupId) => ({ groupId, errorCod: 0 })) });
      // @ts-expect-error misspelled: the request has `groupsNames`
      expect(body.groupNames).toBeUndefined();
      return undefined;
    });
    const heartbeat = handler('Heartbeat', (_, reply) => {
      // @ts-expect-error a field of another API's answer (DeleteGroups' results)
      reply({ errorCode: 0, results: [] });
      return undefined;
    });
    const answers: unknown[] = [];
    heartbeat.handle(
      contextOf<'Heartbeat'>({ groupId: 'g', generationId: 1, memberId: 'm', groupInstanceId: null }),
      (a) => answers.push(a),
    );
    expect(answers).toHaveLength(1);
  });
});
