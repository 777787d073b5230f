/**
 * InitProducerId (key 22), versions 0-5: an idempotent or transactional producer's id and epoch.
 * v2 is the first flexible version; v3 lets a producer name its current id and epoch to bump the
 * epoch (KIP-360).
 */
import { field, message } from '../schema';

export const InitProducerIdRequestData = message(22, 'InitProducerIdRequest', '0-5', '2+', [
  field('transactionalId', 'string', '0+', { nullable: '0+' }),
  field('transactionTimeoutMs', 'int32', '0+'),
  field('producerId', 'int64', '3+', { default: -1 }),
  field('producerEpoch', 'int16', '3+', { default: -1 }),
]);

export const InitProducerIdResponseData = message(22, 'InitProducerIdResponse', '0-5', '2+', [
  field('throttleTimeMs', 'int32', '0+'),
  field('errorCode', 'int16', '0+'),
  field('producerId', 'int64', '0+', { default: -1 }),
  field('producerEpoch', 'int16', '0+'),
]);
