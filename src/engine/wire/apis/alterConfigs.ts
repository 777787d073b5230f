/**
 * AlterConfigs (key 33, 0-2, flexible from 2: a resource's whole set of overrides, replaced) and
 * IncrementalAlterConfigs (key 44, 0-1, flexible from 1, KIP-339: each config SET, DELETE, APPEND
 * or SUBTRACT on the overrides there are), for topics (resource type 2) and brokers (4).
 */
import { array, errorCode, field, fields, message, throttleTimeMs } from '../schema';
import { configNameAndValue } from './describeConfigs';

/** AlterConfigOp.OpType: what IncrementalAlterConfigs does with one config. */
export const ALTER_CONFIG_OP = { SET: 0, DELETE: 1, APPEND: 2, SUBTRACT: 3 } as const;

const resource = fields('0+', { resourceType: 'int8', resourceName: 'string' });

export const AlterConfigsRequestData = message(33, 'AlterConfigsRequest', '0-2', '2+', [
  array('resources', '0+', [...resource, array('configs', '0+', configNameAndValue('0+'))]),
  field('validateOnly', 'bool', '0+'),
]);

/** Both APIs answer the same shape: an error per resource. */
const resourceResponses = [throttleTimeMs('0+'), array('responses', '0+', [...errorCode('0+', '0+'), ...resource])];

export const AlterConfigsResponseData = message(33, 'AlterConfigsResponse', '0-2', '2+', resourceResponses);

export const IncrementalAlterConfigsRequestData = message(44, 'IncrementalAlterConfigsRequest', '0-1', '1+', [
  array('resources', '0+', [
    ...resource,
    array('configs', '0+', [
      field('name', 'string', '0+'),
      field('configOperation', 'int8', '0+'),
      field('value', 'string', '0+', { nullable: '0+' }),
    ]),
  ]),
  field('validateOnly', 'bool', '0+'),
]);

export const IncrementalAlterConfigsResponseData = message(
  44,
  'IncrementalAlterConfigsResponse',
  '0-1',
  '1+',
  resourceResponses,
);
