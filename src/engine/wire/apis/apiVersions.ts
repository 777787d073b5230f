/**
 * ApiVersions (key 18): the first request of every connection, answering which versions of each
 * API this broker serves. glassbox serves versions 0-3 (Kafka 3.9 knows 0-4; v4 only tells the
 * client that the broker accepts UNSUPPORTED_VERSION answers, KIP-896's groundwork).
 * KIP-511: a request of an unknown version is answered UNSUPPORTED_VERSION in a v0 body that still
 * lists the supported versions, so the client can retry with one.
 */
import { field, message } from '../schema';

export const ApiVersionsRequestData = message(18, 'ApiVersionsRequest', '0-3', '3+', [
  field('clientSoftwareName', 'string', '3+'),
  field('clientSoftwareVersion', 'string', '3+'),
]);

export const ApiVersionsResponseData = message(18, 'ApiVersionsResponse', '0-3', '3+', [
  field('errorCode', 'int16', '0+'),
  field(
    'apiKeys',
    {
      arrayOf: [field('apiKey', 'int16', '0+'), field('minVersion', 'int16', '0+'), field('maxVersion', 'int16', '0+')],
    },
    '0+',
  ),
  field('throttleTimeMs', 'int32', '1+'),
  field(
    'supportedFeatures',
    {
      arrayOf: [field('name', 'string', '3+'), field('minVersion', 'int16', '3+'), field('maxVersion', 'int16', '3+')],
    },
    '3+',
    { tag: 0 },
  ),
  field('finalizedFeaturesEpoch', 'int64', '3+', { tag: 1, default: -1 }),
  field(
    'finalizedFeatures',
    {
      arrayOf: [
        field('name', 'string', '3+'),
        field('maxVersionLevel', 'int16', '3+'),
        field('minVersionLevel', 'int16', '3+'),
      ],
    },
    '3+',
    { tag: 2 },
  ),
  field('zkMigrationReady', 'bool', '3+', { tag: 3, default: false }),
]);

export interface ApiVersionRange {
  readonly apiKey: number;
  readonly minVersion: number;
  readonly maxVersion: number;
}
