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
});

/** A file of the test tree. */
const file = (path: string, source: string): SourceFile => ({ path, source });

/**
 * Two files importing each other: both at run time, the second with `import type` (the cycle
 * closed by a type import), or both with `import type`.
 */
function importCycle(
  a: string,
  b: string,
  kind: 'runtime' | 'closedByType' | 'typeOnly' = 'closedByType',
): SourceFile[] {
  const name = (path: string) => `./${path.split('/').pop()?.replace(/\.ts$/, '')}`;
  const first = kind === 'typeOnly' ? 'import type' : 'import';
  const second = kind === 'runtime' ? 'import' : 'import type';
  return [
    file(a, `${first} { B } from '${name(b)}';\nexport const A = 1;\n`),
    file(b, `${second} { A } from '${name(a)}';\nexport const B = 2;\n`),
  ];
}

const viewsQueries = file('src/engine/queries.ts', "import type { V } from './views/types';\n");
const viewsTypes = file('src/engine/views/types.ts', 'export interface V {}\n');
const dataPath = (source: string) => [viewsQueries, viewsTypes, file('src/engine/views/DataPath.ts', source)];

const groupCoordinator = file(
  'src/engine/coordinator/group/GroupCoordinator.ts',
  "import type { JoinGroupRequest } from '../../clients/consumer/groupProtocol';\nexport class GroupCoordinator {}\n",
);
const clientLibraryBase = [
  groupCoordinator,
  file('src/engine/clients/consumer/groupProtocol.ts', 'export type J = 1;\n'),
  file('src/engine/cluster/Network.ts', 'export class Network {}\n'),
  file('src/engine/cluster/ReplicaManager.ts', 'export class R {}\n'),
];

const uiDiscard = file(
  'src/ui/scenarios/discard.ts',
  "import { uiStore } from '../store';\nexport interface DiscardQuestion {}\n",
);

/** Each row: a tree added to the base, and the problems check-layers finds in it, in order. */
const CASES: [name: string, files: SourceFile[], problems: RegExp[]][] = [
  [
    'rejects a ui run-time import from the worker other than worker/client',
    [file('src/ui/Panel.tsx', "import { MAX } from '../worker/protocol';\n")],
    [/^src\/ui\/Panel\.tsx:1 ui imports \.\.\/worker\/protocol at run time/],
  ],
  [
    'rejects a ui run-time import of engine code',
    [file('src/ui/Panel.tsx', "import { Engine } from '../engine';\n")],
    [/ui imports engine code/],
  ],
  [
    'rejects a cli import of engine internals',
    [file('src/cli/tool.ts', "import { UnifiedLog } from '../engine/log/UnifiedLog';\n")],
    [/^src\/cli\/tool\.ts:1 cli imports engine internals/],
  ],
  [
    'rejects a Node host import of engine internals, and any ui import of the Node host',
    [
      file('src/node/gateway.ts', "import { ByteReader } from '../engine/codec/bytes';\n"),
      file('src/node/ok.ts', "import { Engine } from '../engine';\nimport { ClusterApps } from '../engine/apps';\n"),
      file('src/ui/Attach.tsx', "import type { WireGateway } from '../node/gateway';\n"),
    ],
    [
      /^src\/node\/gateway\.ts:1 node imports engine internals/,
      /^src\/ui\/Attach\.tsx:1 ui imports \.\.\/node\/gateway: the Node host/,
    ],
  ],
  [
    'keeps src/link free of run-time imports from outside it, and of packages',
    [
      file('src/link/frames.ts', "import { ws } from 'ws';\nimport { serve } from '../worker/serve';\n"),
      file(
        'src/link/ok.ts',
        "import type { WorkerMessage } from '../worker/protocol';\nimport { x } from './frames';\n",
      ),
      file('src/ui/host.ts', "import { decodeFrame } from '../link/frames';\n"),
    ],
    [
      /^src\/link\/frames\.ts:1 link imports package ws/,
      /^src\/link\/frames\.ts:2 link imports \.\.\/worker\/serve at run time/,
    ],
  ],
  [
    'rejects a worker import of engine internals, even type-only',
    [file('src/worker/host.ts', "import type { Engine } from '../engine/engine';\n")],
    [/^src\/worker\/host\.ts:1 worker imports engine internals/],
  ],
  [
    'lets the worker import the app layer through its entry, engine/apps/index.ts',
    [file('src/worker/host.ts', "import { ClusterApps } from '../engine/apps';\n")],
    [],
  ],
  [
    'rejects a worker import of the app layer other than through its entry',
    [file('src/worker/host.ts', "import { ClusterApps } from '../engine/apps/ClusterApps';\n")],
    [/^src\/worker\/host\.ts:1 worker imports engine internals/],
  ],
  [
    'rejects an app-layer import of engine internals; the facade and the app layer itself are fine',
    [
      file(
        'src/engine/apps/Producer.ts',
        "import { Engine } from '../index';\nimport { X } from './ClusterApps';\nimport { UnifiedLog } from '../log/UnifiedLog';\n",
      ),
    ],
    [/^src\/engine\/apps\/Producer\.ts:3 app layer imports engine internals/],
  ],
  [
    "rejects 'as unknown as' outside tests",
    [file('src/storage/S.ts', 'export const s = 1;\nconst t = s as unknown as string;\n')],
    [/^src\/storage\/S\.ts:2 'as unknown as' outside tests/],
  ],
  [
    'rejects an import cycle in src/worker closed by import type',
    importCycle('src/worker/a.ts', 'src/worker/b.ts'),
    [/import cycle \(import type counts\) among: src\/worker\/a\.ts, src\/worker\/b\.ts/],
  ],
  [
    'rejects an import cycle in src/storage closed by import type',
    importCycle('src/storage/x.ts', 'src/storage/y.ts', 'typeOnly'),
    [/import cycle \(import type counts\)/],
  ],
  [
    'rejects an import cycle in src/node even when import type closes it',
    importCycle('src/node/Gateway.ts', 'src/node/handlers.ts'),
    [/import cycle \(import type counts\) among: src\/node\/Gateway\.ts, src\/node\/handlers\.ts/],
  ],
  [
    'accepts src/node importing one way',
    [
      file('src/node/Gateway.ts', "import { SERVED } from './handlers';\nexport class Connection {}\n"),
      file('src/node/handlers.ts', 'export const SERVED = 1;\n'),
    ],
    [],
  ],
  [
    'rejects an import cycle in src/engine/wire even when import type closes it',
    importCycle('src/engine/wire/schema.ts', 'src/engine/wire/codec.ts', 'typeOnly'),
    [/import cycle \(import type counts\)/],
  ],
  [
    'rejects an import cycle in src/ui even when import type closes it',
    [
      file(
        'src/ui/store.ts',
        "import type { DiscardQuestion } from './scenarios/discard';\nexport const uiStore = 1;\n",
      ),
      uiDiscard,
    ],
    [/import cycle \(import type counts\) among: src\/ui\/scenarios\/discard\.ts, src\/ui\/store\.ts/],
  ],
  [
    // The slice's type in a file of its own, which imports nothing of the store: no cycle.
    'accepts a ui slice type in a file of its own',
    [
      file(
        'src/ui/store.ts',
        "import type { DiscardQuestion } from './scenarios/discardSlice';\nexport const uiStore = 1;\n",
      ),
      uiDiscard,
      file('src/ui/scenarios/discardSlice.ts', 'export interface DiscardQuestion {}\n'),
    ],
    [],
  ],
  [
    'rejects a views import of the facade, even type-only',
    dataPath("import type { Engine } from '../engine';\n"),
    [/^src\/engine\/views\/DataPath\.ts:1 views import \.\.\/engine, which imports the views/],
  ],
  [
    'rejects a views import of the queries, even type-only',
    dataPath("import type { LeaderReplica } from '../queries';\n"),
    [/views import \.\.\/queries/],
  ],
  [
    'rejects a views import of the app layer',
    dataPath("import { ClusterApps } from '../apps/ClusterApps';\n"),
    [/views import \.\.\/apps\/ClusterApps/],
  ],
  // Below the views (the cluster, the log) is fine.
  ['accepts a views import of the log', dataPath("import type { UnifiedLog } from '../log/UnifiedLog';\n"), []],
  [
    'still rejects an engine import from outside src/engine and Math.random in the engine',
    [file('src/engine/bad.ts', "import { LIMIT } from '../worker/client';\nexport const r = Math.random();\n")],
    [/engine imports \.\.\/worker\/client \(outside src\/engine\)/, /Math\.random in the engine/],
  ],
  [
    'lets the client library import the Network and its own protocol, and its tests import broker internals',
    [
      ...clientLibraryBase,
      file(
        'src/engine/clients/consumer/Fetcher.ts',
        "import type { Network } from '../../cluster/Network';\nimport type { J } from './groupProtocol';\n",
      ),
      file(
        'src/engine/clients/consumer/Fetcher.test.ts',
        "import { GroupCoordinator } from '../../coordinator/group/GroupCoordinator';\n",
      ),
    ],
    [],
  ],
  [
    'rejects the client library importing broker internals, import type included',
    [
      ...clientLibraryBase,
      file(
        'src/engine/clients/consumer/KafkaConsumer.ts',
        "import type { GroupCoordinator } from '../../coordinator/group/GroupCoordinator';\nimport { R } from '../../cluster/ReplicaManager';\n",
      ),
    ],
    [
      /KafkaConsumer\.ts:1 the client library imports broker internals .*GroupCoordinator/,
      /KafkaConsumer\.ts:2 the client library imports broker internals .*ReplicaManager/,
    ],
  ],
  [
    'rejects an import cycle anywhere in src/engine, import type included, with no exception',
    importCycle('src/engine/cluster/Broker.ts', 'src/engine/cluster/Controller.ts'),
    [
      /import cycle \(import type counts\) among: .*src\/engine\/cluster\/(Broker|Controller)\.ts.*src\/engine\/cluster\/(Broker|Controller)\.ts/,
    ],
  ],
  [
    'accepts the Controller narrowed to a ControllerBroker',
    [
      file('src/engine/cluster/Broker.ts', "import { Controller } from './Controller';\nexport class Broker {}\n"),
      file(
        'src/engine/cluster/Controller.ts',
        "import type { ControllerBroker } from './ControllerBroker';\nexport class Controller {}\n",
      ),
    ],
    [],
  ],
  [
    // The LogSegment <-> SegmentCache cycle once excepted is refused like any other.
    'refuses the LogSegment <-> SegmentCache cycle once excepted',
    importCycle('src/engine/log/LogSegment.ts', 'src/engine/log/SegmentCache.ts'),
    [/import cycle \(import type counts\)/],
  ],
];

describe('check-layers: each rule', () => {
  it.each(CASES)('%s', (_name, files, want) => {
    expect(problems(...files)).toEqual(want.map((re) => expect.stringMatching(re)));
  });

  it('rejects a run-time import cycle in src/worker', () => {
    expect(problems(...importCycle('src/worker/a.ts', 'src/worker/b.ts', 'runtime'))).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/runtime import cycle in src\/worker among: src\/worker\/a\.ts, src\/worker\/b\.ts/),
      ]),
    );
  });
});
