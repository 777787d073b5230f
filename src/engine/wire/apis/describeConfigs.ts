/**
 * DescribeConfigs (key 32), versions 0-4: each resource's (topic 2, broker 4) configs with their
 * values. v1 adds the source of each value and its synonyms (the same setting at each level that
 * could set it, highest priority first), v3 each config's type and documentation, v4 is flexible.
 */
import { array, errorCode, field, fields, message, nullableString, orMinusOne, throttleTimeMs } from '../schema';

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
  array('resources', '0+', [
    ...fields('0+', { resourceType: 'int8', resourceName: 'string' }),
    array('configurationKeys', '0+', 'string', { nullable: '0+' }),
  ]),
  field('includeSynonyms', 'bool', '1+'),
  field('includeDocumentation', 'bool', '3+'),
]);

/** A config's name and value (null where Kafka allows it: a sensitive or unset value). */
export const configNameAndValue = (v: string) => [
  field('name', 'string', v),
  field('value', 'string', v, { nullable: v }),
];

const describedConfig = [
  ...configNameAndValue('0+'),
  field('readOnly', 'bool', '0+'),
  // v0 says only whether the value is the default; v1+ where it comes from, and its synonyms.
  field('isDefault', 'bool', '0'),
  orMinusOne('configSource', 'int8', '1+'),
  field('isSensitive', 'bool', '0+'),
  array('synonyms', '1+', [...configNameAndValue('1+'), field('source', 'int8', '1+')]),
  field('configType', 'int8', '3+'),
  nullableString('documentation', '3+', '0+'),
];

export const DescribeConfigsResponseData = message(32, 'DescribeConfigsResponse', '0-4', '4+', [
  throttleTimeMs('0+'),
  array('results', '0+', [
    ...errorCode('0+', '0+'),
    ...fields('0+', { resourceType: 'int8', resourceName: 'string' }),
    array('configs', '0+', describedConfig),
  ]),
]);
