import { describe, expect, it } from 'vitest';
import { checkLayers, type SourceFile } from './check-layers';

const facade: SourceFile = { path: 'src/engine/index.ts', source: "export { Engine } from './engine';\n" };
const engine: SourceFile = { path: 'src/engine/engine.ts', source: 'export class Engine {}\n' };
const internal: SourceFile = { path: 'src/engine/log/UnifiedLog.ts', source: 'export class UnifiedLog {}\n' };
const client: SourceFile = { path: 'src/worker/client.ts', source: 'export const LIMIT = 1;\n' };
const protocol: SourceFile = { path: 'src/worker/protocol.ts', source: 'export const MAX = 1;\n' };
const appsEntry: SourceFile = {
  path: 'src/engine/apps/index.ts',
  source: "export { ClusterApps } from './ClusterApps';\n",
};
const apps: SourceFile = {
  path: 'src/engine/apps/ClusterApps.ts',
  source: "import { Engine } from '../index';\nexport class ClusterApps {}\n",
};
const base = [facade, engine, internal, client, protocol, appsEntry, apps];

function problems(...files: SourceFile[]): string[] {
  return checkLayers([...base, ...files]);
}

describe('check-layers', () => {
  it('accepts a tree that keeps every rule', () => {
    expect(
      problems(
        {
          path: 'src/ui/App.tsx',
          source: "import { LIMIT } from '../worker/client';\nimport type { MAX } from '../worker/protocol';\n",
        },
        { path: 'src/cli/tool.ts', source: "import { Engine } from '../engine';\n" },
        {
          path: 'src/worker/host.ts',
          source: "import { Engine } from '../engine';\nimport { LIMIT } from './client';\n",
        },
        {
          path: 'src/worker/x.test.ts',
          source: "import { UnifiedLog } from '../engine/log/UnifiedLog';\nconst a = 1 as unknown as string;\n",
        },
      ),
    ).toEqual([]);
  });

  it('lets engine test support that needs client packages (*.testing.ts) import them, not engine code', () => {
    const support = "import { Reader } from '@platformatic/kafka';\nimport { createRequire } from 'node:module';\n";
    expect(problems({ path: 'src/engine/wire/codecs.testing.ts', source: support })).toEqual([]);
    expect(problems({ path: 'src/engine/wire/codecs.ts', source: support })).toEqual([
      expect.stringMatching(/codecs\.ts:1 engine imports package @platformatic\/kafka/),
      expect.stringMatching(/codecs\.ts:2 engine imports package node:module/),
    ]);
  });

  it('rejects a ui run-time import from the worker other than worker/client', () => {
    const found = problems({ path: 'src/ui/Panel.tsx', source: "import { MAX } from '../worker/protocol';\n" });
    expect(found).toEqual([
      expect.stringMatching(/^src\/ui\/Panel\.tsx:1 ui imports \.\.\/worker\/protocol at run time/),
    ]);
  });

  it('rejects a ui run-time import of engine code', () => {
    const found = problems({ path: 'src/ui/Panel.tsx', source: "import { Engine } from '../engine';\n" });
    expect(found).toEqual([expect.stringMatching(/ui imports engine code/)]);
  });

  it('rejects a cli import of engine internals', () => {
    const found = problems({
      path: 'src/cli/tool.ts',
      source: "import { UnifiedLog } from '../engine/log/UnifiedLog';\n",
    });
    expect(found).toEqual([expect.stringMatching(/^src\/cli\/tool\.ts:1 cli imports engine internals/)]);
  });

  it('rejects a Node host import of engine internals, and any ui import of the Node host', () => {
    const found = problems(
      { path: 'src/node/gateway.ts', source: "import { ByteReader } from '../engine/codec/bytes';\n" },
      {
        path: 'src/node/ok.ts',
        source: "import { Engine } from '../engine';\nimport { ClusterApps } from '../engine/apps';\n",
      },
      { path: 'src/ui/Attach.tsx', source: "import type { WireGateway } from '../node/gateway';\n" },
    );
    expect(found).toEqual([
      expect.stringMatching(/^src\/node\/gateway\.ts:1 node imports engine internals/),
      expect.stringMatching(/^src\/ui\/Attach\.tsx:1 ui imports \.\.\/node\/gateway: the Node host/),
    ]);
  });

  it('keeps src/link free of run-time imports from outside it, and of packages', () => {
    const found = problems(
      { path: 'src/link/frames.ts', source: "import { ws } from 'ws';\nimport { serve } from '../worker/serve';\n" },
      {
        path: 'src/link/ok.ts',
        source: "import type { WorkerMessage } from '../worker/protocol';\nimport { x } from './frames';\n",
      },
      { path: 'src/ui/host.ts', source: "import { decodeFrame } from '../link/frames';\n" },
    );
    expect(found).toEqual([
      expect.stringMatching(/^src\/link\/frames\.ts:1 link imports package ws/),
      expect.stringMatching(/^src\/link\/frames\.ts:2 link imports \.\.\/worker\/serve at run time/),
    ]);
  });

  it('rejects a worker import of engine internals, even type-only', () => {
    const found = problems({
      path: 'src/worker/host.ts',
      source: "import type { Engine } from '../engine/engine';\n",
    });
    expect(found).toEqual([expect.stringMatching(/^src\/worker\/host\.ts:1 worker imports engine internals/)]);
  });

  it('lets the worker import the app layer only through its entry, engine/apps/index.ts', () => {
    const entry = problems({ path: 'src/worker/host.ts', source: "import { ClusterApps } from '../engine/apps';\n" });
    expect(entry).toEqual([]);
    const inside = problems({
      path: 'src/worker/host.ts',
      source: "import { ClusterApps } from '../engine/apps/ClusterApps';\n",
    });
    expect(inside).toEqual([expect.stringMatching(/^src\/worker\/host\.ts:1 worker imports engine internals/)]);
  });

  it('rejects an app-layer import of engine internals; the facade and the app layer itself are fine', () => {
    const found = problems({
      path: 'src/engine/apps/Producer.ts',
      source:
        "import { Engine } from '../index';\nimport { X } from './ClusterApps';\nimport { UnifiedLog } from '../log/UnifiedLog';\n",
    });
    expect(found).toEqual([
      expect.stringMatching(/^src\/engine\/apps\/Producer\.ts:3 app layer imports engine internals/),
    ]);
  });

  it("rejects 'as unknown as' outside tests", () => {
    const found = problems({
      path: 'src/storage/S.ts',
      source: 'export const s = 1;\nconst t = s as unknown as string;\n',
    });
    expect(found).toEqual([expect.stringMatching(/^src\/storage\/S\.ts:2 'as unknown as' outside tests/)]);
  });

  it('rejects an import cycle in src/worker (run-time or closed by import type), and in src/storage', () => {
    const a: SourceFile = { path: 'src/worker/a.ts', source: "import { b } from './b';\nexport const a = 1;\n" };
    const b: SourceFile = { path: 'src/worker/b.ts', source: "import { a } from './a';\nexport const b = 2;\n" };
    expect(problems(a, b)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/runtime import cycle in src\/worker among: src\/worker\/a\.ts, src\/worker\/b\.ts/),
      ]),
    );
    const typeOnly: SourceFile = {
      path: 'src/worker/b.ts',
      source: "import type { a } from './a';\nexport const b = 2;\n",
    };
    expect(problems(a, typeOnly)).toEqual([
      expect.stringMatching(/import cycle \(import type counts\) among: src\/worker\/a\.ts, src\/worker\/b\.ts/),
    ]);
    const s1: SourceFile = { path: 'src/storage/x.ts', source: "import type { y } from './y';\nexport const x = 1;\n" };
    const s2: SourceFile = { path: 'src/storage/y.ts', source: "import type { x } from './x';\nexport const y = 2;\n" };
    expect(problems(s1, s2)).toEqual([expect.stringMatching(/import cycle \(import type counts\)/)]);
  });

  it('rejects an import cycle in src/node or src/engine/wire even when import type closes it', () => {
    const gateway: SourceFile = {
      path: 'src/node/Gateway.ts',
      source: "import { SERVED } from './handlers';\nexport class Connection {}\n",
    };
    const handlers: SourceFile = {
      path: 'src/node/handlers.ts',
      source: "import type { Connection } from './Gateway';\nexport const SERVED = 1;\n",
    };
    expect(problems(gateway, handlers)).toEqual([
      expect.stringMatching(
        /import cycle \(import type counts\) among: src\/node\/Gateway\.ts, src\/node\/handlers\.ts/,
      ),
    ]);
    const oneWay: SourceFile = { path: 'src/node/handlers.ts', source: 'export const SERVED = 1;\n' };
    expect(problems(gateway, oneWay)).toEqual([]);
    const schema: SourceFile = { path: 'src/engine/wire/schema.ts', source: "import type { C } from './codec';\n" };
    const codec: SourceFile = { path: 'src/engine/wire/codec.ts', source: "import type { S } from './schema';\n" };
    expect(problems(schema, codec)).toEqual([expect.stringMatching(/import cycle \(import type counts\)/)]);
  });

  it('rejects an import cycle in src/ui or src/engine/views even when import type closes it', () => {
    const store: SourceFile = {
      path: 'src/ui/store.ts',
      source: "import type { DiscardQuestion } from './scenarios/discard';\nexport const uiStore = 1;\n",
    };
    const discard: SourceFile = {
      path: 'src/ui/scenarios/discard.ts',
      source: "import { uiStore } from '../store';\nexport interface DiscardQuestion {}\n",
    };
    expect(problems(store, discard)).toEqual([
      expect.stringMatching(
        /import cycle \(import type counts\) among: src\/ui\/scenarios\/discard\.ts, src\/ui\/store\.ts/,
      ),
    ]);
    // The slice's type in a file of its own, which imports nothing of the store: no cycle.
    const slice: SourceFile = {
      path: 'src/ui/scenarios/discardSlice.ts',
      source: 'export interface DiscardQuestion {}\n',
    };
    const storeOnSlice: SourceFile = {
      path: 'src/ui/store.ts',
      source: "import type { DiscardQuestion } from './scenarios/discardSlice';\nexport const uiStore = 1;\n",
    };
    expect(problems(storeOnSlice, discard, slice)).toEqual([]);
  });

  it('rejects a views import of the facade, the queries or the app layer, even type-only', () => {
    const queries: SourceFile = { path: 'src/engine/queries.ts', source: "import type { V } from './views/types';\n" };
    const types: SourceFile = { path: 'src/engine/views/types.ts', source: 'export interface V {}\n' };
    const dataPath = (source: string): SourceFile => ({ path: 'src/engine/views/DataPath.ts', source });
    expect(problems(queries, types, dataPath("import type { Engine } from '../engine';\n"))).toEqual([
      expect.stringMatching(/^src\/engine\/views\/DataPath\.ts:1 views import \.\.\/engine, which imports the views/),
    ]);
    expect(problems(queries, types, dataPath("import type { LeaderReplica } from '../queries';\n"))).toEqual([
      expect.stringMatching(/views import \.\.\/queries/),
    ]);
    expect(problems(queries, types, dataPath("import { ClusterApps } from '../apps/ClusterApps';\n"))).toEqual([
      expect.stringMatching(/views import \.\.\/apps\/ClusterApps/),
    ]);
    // Below the views (the cluster, the log) is fine.
    expect(problems(queries, types, dataPath("import type { UnifiedLog } from '../log/UnifiedLog';\n"))).toEqual([]);
  });

  it('still rejects an engine import from outside src/engine and Math.random in the engine', () => {
    const found = problems({
      path: 'src/engine/bad.ts',
      source: "import { LIMIT } from '../worker/client';\nexport const r = Math.random();\n",
    });
    expect(found).toEqual([
      expect.stringMatching(/engine imports \.\.\/worker\/client \(outside src\/engine\)/),
      expect.stringMatching(/Math\.random in the engine/),
    ]);
  });

  it('rejects the client library importing broker internals, import type included; tests and the Network are fine', () => {
    const coordinator: SourceFile = {
      path: 'src/engine/coordinator/group/GroupCoordinator.ts',
      source:
        "import type { JoinGroupRequest } from '../../clients/consumer/groupProtocol';\nexport class GroupCoordinator {}\n",
    };
    const protocol: SourceFile = {
      path: 'src/engine/clients/consumer/groupProtocol.ts',
      source: 'export type J = 1;\n',
    };
    const network: SourceFile = { path: 'src/engine/cluster/Network.ts', source: 'export class Network {}\n' };
    const replicaManager: SourceFile = { path: 'src/engine/cluster/ReplicaManager.ts', source: 'export class R {}\n' };
    const fine: SourceFile = {
      path: 'src/engine/clients/consumer/Fetcher.ts',
      source: "import type { Network } from '../../cluster/Network';\nimport type { J } from './groupProtocol';\n",
    };
    const test: SourceFile = {
      path: 'src/engine/clients/consumer/Fetcher.test.ts',
      source: "import { GroupCoordinator } from '../../coordinator/group/GroupCoordinator';\n",
    };
    expect(problems(coordinator, protocol, network, replicaManager, fine, test)).toEqual([]);
    const bad: SourceFile = {
      path: 'src/engine/clients/consumer/KafkaConsumer.ts',
      source:
        "import type { GroupCoordinator } from '../../coordinator/group/GroupCoordinator';\nimport { R } from '../../cluster/ReplicaManager';\n",
    };
    expect(problems(coordinator, protocol, network, replicaManager, bad)).toEqual([
      expect.stringMatching(/KafkaConsumer\.ts:1 the client library imports broker internals .*GroupCoordinator/),
      expect.stringMatching(/KafkaConsumer\.ts:2 the client library imports broker internals .*ReplicaManager/),
    ]);
  });

  it('rejects an import cycle anywhere in src/engine, import type included, with no exception', () => {
    const broker: SourceFile = {
      path: 'src/engine/cluster/Broker.ts',
      source: "import { Controller } from './Controller';\nexport class Broker {}\n",
    };
    const controller: SourceFile = {
      path: 'src/engine/cluster/Controller.ts',
      source: "import type { Broker } from './Broker';\nexport class Controller {}\n",
    };
    expect(problems(broker, controller)).toEqual([
      expect.stringMatching(
        /import cycle \(import type counts\) among: .*src\/engine\/cluster\/(Broker|Controller)\.ts.*src\/engine\/cluster\/(Broker|Controller)\.ts/,
      ),
    ]);
    const narrowed: SourceFile = {
      path: 'src/engine/cluster/Controller.ts',
      source: "import type { ControllerBroker } from './ControllerBroker';\nexport class Controller {}\n",
    };
    expect(problems(broker, narrowed)).toEqual([]);
    const segment: SourceFile = {
      path: 'src/engine/log/LogSegment.ts',
      source: "import { SegmentNotLoadedError } from './SegmentCache';\n",
    };
    const cache: SourceFile = {
      path: 'src/engine/log/SegmentCache.ts',
      source: "import type { LogSegment } from './LogSegment';\n",
    };
    // The LogSegment <-> SegmentCache cycle once excepted is refused like any other.
    expect(problems(segment, cache)).toEqual([expect.stringMatching(/import cycle \(import type counts\)/)]);
  });
});
