/**
 * ApiVersions (key 18): the first request of every connection, answering which versions of each
 * API this broker serves. glassbox serves versions 0-3 (Kafka 3.9 knows 0-4; v4 only tells the
 * client that the broker accepts UNSUPPORTED_VERSION answers, KIP-896's groundwork).
 * KIP-511: a request of an unknown version is answered UNSUPPORTED_VERSION in a v0 body that still
 * lists the supported versions, so the client can retry with one.
 */
import { array, errorCode, field, fields, message, throttleTimeMs } from '../schema';

export const ApiVersionsRequestData = message(18, 'ApiVersionsRequest', '0-3', '3+', [
  ...fields('3+', { clientSoftwareName: 'string', clientSoftwareVersion: 'string' }),
]);

export const ApiVersionsResponseData = message(18, 'ApiVersionsResponse', '0-3', '3+', [
  ...errorCode('0+'),
  array('apiKeys', '0+', fields('0+', { apiKey: 'int16', minVersion: 'int16', maxVersion: 'int16' })),
  throttleTimeMs('1+'),
  array('supportedFeatures', '3+', fields('3+', { name: 'string', minVersion: 'int16', maxVersion: 'int16' }), {
    tag: 0,
  }),
  field('finalizedFeaturesEpoch', 'int64', '3+', { tag: 1, default: -1 }),
  array(
    'finalizedFeatures',
    '3+',
    fields('3+', { name: 'string', maxVersionLevel: 'int16', minVersionLevel: 'int16' }),
    {
      tag: 2,
    },
  ),
  field('zkMigrationReady', 'bool', '3+', { tag: 3, default: false }),
]);

export interface ApiVersionRange {
  readonly apiKey: number;
  readonly minVersion: number;
  readonly maxVersion: number;
}
