/**
 * DescribeConfigs (key 32), versions 0-4: each resource's (topic 2, broker 4) configs with their
 * values. v1 adds the source of each value and its synonyms (the same setting at each level that
 * could set it, highest priority first), v3 each config's type and documentation, v4 is flexible.
 */
import { field, message } from '../schema';

/** ConfigResource.Type. */
export const CONFIG_RESOURCE_TOPIC = 2;
export const CONFIG_RESOURCE_BROKER = 4;

/** DescribeConfigsResponse.ConfigSource: where a value comes from. */
export const CONFIG_SOURCE = {
  UNKNOWN: 0,
  TOPIC_CONFIG: 1,
  DYNAMIC_BROKER_CONFIG: 2,
  DYNAMIC_DEFAULT_BROKER_CONFIG: 3,
  STATIC_BROKER_CONFIG: 4,
  DEFAULT_CONFIG: 5,
} as const;

/** DescribeConfigsResponse.ConfigType (ConfigDef.Type's order). */
export const CONFIG_TYPE = {
  UNKNOWN: 0,
  BOOLEAN: 1,
  STRING: 2,
  INT: 3,
  SHORT: 4,
  LONG: 5,
  DOUBLE: 6,
  LIST: 7,
} as const;

export const DescribeConfigsRequestData = message(32, 'DescribeConfigsRequest', '0-4', '4+', [
  field(
    'resources',
    {
      arrayOf: [
        field('resourceType', 'int8', '0+'),
        field('resourceName', 'string', '0+'),
        field('configurationKeys', { arrayOf: 'string' }, '0+', { nullable: '0+' }),
      ],
    },
    '0+',
  ),
  field('includeSynonyms', 'bool', '1+'),
  field('includeDocumentation', 'bool', '3+'),
]);

const describedConfig = [
  field('name', 'string', '0+'),
  field('value', 'string', '0+', { nullable: '0+' }),
  field('readOnly', 'bool', '0+'),
  field('isDefault', 'bool', '0'),
  field('configSource', 'int8', '1+', { default: -1 }),
  field('isSensitive', 'bool', '0+'),
  field(
    'synonyms',
    {
      arrayOf: [
        field('name', 'string', '1+'),
        field('value', 'string', '1+', { nullable: '0+' }),
        field('source', 'int8', '1+'),
      ],
    },
    '1+',
  ),
  field('configType', 'int8', '3+'),
  field('documentation', 'string', '3+', { nullable: '0+', default: null }),
];

export const DescribeConfigsResponseData = message(32, 'DescribeConfigsResponse', '0-4', '4+', [
  field('throttleTimeMs', 'int32', '0+'),
  field(
    'results',
    {
      arrayOf: [
        field('errorCode', 'int16', '0+'),
        field('errorMessage', 'string', '0+', { nullable: '0+', default: null }),
        field('resourceType', 'int8', '0+'),
        field('resourceName', 'string', '0+'),
        field('configs', { arrayOf: describedConfig }, '0+'),
      ],
    },
    '0+',
  ),
]);
