/**
 * InitProducerId (key 22), versions 0-5: an idempotent or transactional producer's id and epoch.
 * v2 is the first flexible version; v3 lets a producer name its current id and epoch to bump the
 * epoch (KIP-360).
 */
import { errorCode, field, message, orMinusOne, throttleTimeMs } from '../schema';

export const InitProducerIdRequestData = message(22, 'InitProducerIdRequest', '0-5', '2+', [
  field('transactionalId', 'string', '0+', { nullable: '0+' }),
  field('transactionTimeoutMs', 'int32', '0+'),
  orMinusOne('producerId', 'int64', '3+'),
  orMinusOne('producerEpoch', 'int16', '3+'),
]);

export const InitProducerIdResponseData = message(22, 'InitProducerIdResponse', '0-5', '2+', [
  throttleTimeMs('0+'),
  ...errorCode('0+'),
  orMinusOne('producerId', 'int64', '0+'),
  field('producerEpoch', 'int16', '0+'),
]);
