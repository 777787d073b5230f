import { describe, expect, it } from 'vitest';
import { parseArgs } from './brokerMain';

describe('npm run broker arguments', () => {
  it('--override sets broker configs as kafka-server-start.sh does', () => {
    const args = parseArgs(['--override', 'num.partitions=3', '--override', 'default.replication.factor=2']);
    expect(args.brokerConfig).toEqual({ 'num.partitions': '3', 'default.replication.factor': '2' });
    expect(() => parseArgs(['--override', 'num.partitions'])).toThrow('--override needs name=value');
  });
});
