// The layers ARCHITECTURE.md draws, as dependency-cruiser's rules: `make check` runs them over generated/core and
// tools/ (tools/architecture/check.ts) and fails on any cycle of imports or any import against the layers. A test
// (test/architecture.test.ts) holds ARCHITECTURE.md's lists of the layers to LAYERS and TOOLCHAIN_LAYERS.

/**
 * The core's layers, lowest first, by module of generated/core: a module imports from its own layer and those below,
 * never from one above.
 */
const LAYERS = [
  {
    name: 'foundations',
    modules: [
      'messages/*',
      'errors',
      'untrusted',
      'privacy',
      'log',
      'config',
      'settings',
      'skill',
      'schedule-spec',
      'signals',
      'wire',
      'proposal-text',
      'model-choice',
      'conversation',
    ],
  },
  {
    name: 'skill host',
    modules: [
      'host-protocol',
      'host-slot',
      'host-meter',
      'host-watchdog',
      'reading',
      'endowments',
      'registry',
      'host-errors',
      'host-versions',
      'host-budget',
      'host-api',
      'host-loading',
      'host-calls',
      'host-runtime',
      'host-process',
      'host-main',
    ],
  },
  {
    name: 'skills',
    modules: [
      'skill-host',
      'loader',
      'shipped',
      'catalog',
      'loads-in-flight',
      'mandatory-skills',
      'skill-ledger',
      'host-supervisor',
      'load-queue',
      'engine',
      'live',
    ],
  },
  {
    name: 'model, memory and tools',
    modules: [
      'cascade',
      'chat-wire',
      'offline-backend',
      'openai-backend',
      'backends',
      'database',
      'sessions',
      'schedules',
      'memory',
      'memory-crash-child',
      'skill-services',
      'tools',
      'skill-tools',
      'actions',
      'approvals',
      'mcp',
      'protocol',
    ],
  },
  {name: 'the turn', modules: ['step', 'turn', 'reason', 'act', 'loop', 'approval-flow', 'background']},
  {name: 'the wire', modules: ['turn-wire']},
  {
    name: 'the core',
    modules: [
      'core',
      'core-child',
      'passepartout',
      'testing',
      'testing-runtime',
      'fixtures',
      'mcp-test-server',
      'chat-server',
    ],
  },
  {
    name: 'processes and commands',
    modules: [
      'client',
      'daemon',
      'daemon-thread',
      'server',
      'approvals-page',
      'printing',
      'one-shot',
      'client-commands',
      'chat',
      'clients',
      'commands',
    ],
  },
]

/** The toolchain's layers, lowest first, by module or folder of tools/ (a folder: all it holds). */
const TOOLCHAIN_LAYERS = [
  {
    name: 'words',
    modules: [
      'messages/*',
      'diagnostics',
      'code-frame',
      'terminal',
      'project',
      'project-file',
      'dotenv',
      'settings',
      'installation',
      'folders',
      'shape',
      'debug',
      'core-process',
    ],
  },
  {name: 'reading Org', modules: ['org/*', 'graph/*']},
  {name: 'tangling', modules: ['tangle/*']},
  {name: 'detangling', modules: ['detangle/*']},
  {name: 'checking', modules: ['check/*']},
  {name: 'the project session', modules: ['session/*', 'watch/*']},
  {name: 'commands', modules: ['cli/*', 'fmt/*', 'init/*', 'docs/*', 'pack/*', 'weave/*', 'architecture/*', 'toolchain']},
]

/** The paths of the modules of LAYERS under FOLDER, as one pattern. */
function pathsOf(folder, layers) {
  const names = layers.flatMap((layer) => layer.modules).map((name) => name.replace('*', '[^/]+'))
  return `^${folder}/(${names.join('|')})[.]ts$`
}

/** A rule for each of LAYERS under FOLDER but the top: no import of a module of a layer above it. */
function upward(folder, layers) {
  return layers.slice(0, -1).map((layer, n) => ({
    name: 'upward-import',
    comment: `The layer '${layer.name}' of ${folder} imports from a layer above it (ARCHITECTURE.md).`,
    severity: 'error',
    from: {path: pathsOf(folder, [layer])},
    to: {path: pathsOf(folder, layers.slice(n + 1))},
  }))
}

module.exports = {
  LAYERS,
  TOOLCHAIN_LAYERS,
  forbidden: [
    {
      name: 'no-cycle',
      comment: 'A cycle of imports: its modules can be read, loaded and tested only together (ARCHITECTURE.md).',
      severity: 'error',
      from: {},
      to: {circular: true},
    },
    {
      name: 'unplaced-module',
      comment: 'A module in no layer: ARCHITECTURE.md and the layers here say where it belongs.',
      severity: 'error',
      from: {
        path: '^(generated/core|tools)/',
        pathNot: `${pathsOf('generated/core', LAYERS)}|${pathsOf('tools', TOOLCHAIN_LAYERS)}`,
      },
      to: {},
    },
    {
      name: 'unplaced-orphan',
      comment: 'A module in no layer that imports nothing and that nothing imports: a rule on imports alone misses it.',
      severity: 'error',
      from: {
        orphan: true,
        path: '^(generated/core|tools)/',
        pathNot: `${pathsOf('generated/core', LAYERS)}|${pathsOf('tools', TOOLCHAIN_LAYERS)}`,
      },
      to: {},
    },
    ...upward('generated/core', LAYERS),
    ...upward('tools', TOOLCHAIN_LAYERS),
    {
      name: 'providers-through-settings',
      comment:
        'A provider (offline-backend, openai-backend) is made by the settings alone (backends.ts): the rest of the core ' +
        "asks backends through the cascade, and names a conversation's messages and their wire by conversation.ts and " +
        'chat-wire.ts (ARCHITECTURE.md).',
      severity: 'error',
      from: {path: '^generated/core/', pathNot: '^generated/core/backends[.]ts$'},
      to: {path: '^generated/core/(offline|openai)-backend[.]ts$'},
    },
    {
      name: 'core-through-toolchain',
      comment: 'The core reaches the toolchain only through passepartout/toolchain (tools/toolchain.ts).',
      severity: 'error',
      from: {path: '^generated/'},
      to: {path: '^tools/', pathNot: '^tools/toolchain[.]ts$'},
    },
    {
      name: 'toolchain-below-core',
      comment:
        "The toolchain is built before the core and knows nothing of it; only the references of docs/ read the core's " +
        'table of settings.',
      severity: 'error',
      from: {path: '^tools/', pathNot: '^tools/docs/'},
      to: {path: '^generated/'},
    },
    {
      name: 'sdk-in-bench-only',
      comment:
        'The agent SDKs, and the openai client the backends once used, are measured beside the core by make bench ' +
        '(bench/sdk.bench.ts, bench/stream.bench.ts), and installed for it alone (dev dependencies): neither the ' +
        'core nor the toolchain may import them.',
      severity: 'error',
      from: {path: '^(generated|tools)/'},
      // Resolved, the path in node_modules; not resolved, the name imported.
      to: {path: '^(node_modules/)?(@openai/agents|@ai-sdk/|ai/|ai$|openai/|openai$)'},
    },
    {
      name: 'references-read-definitions',
      comment: "The references read the core's definitions (its tables of settings), nothing else of it.",
      severity: 'error',
      from: {path: '^tools/docs/'},
      to: {path: '^generated/', pathNot: '^generated/core/(config|settings)[.]ts$'},
    },
  ],
  options: {
    // Type-only imports count: a cycle of types ties the documents together as much as one of values.
    tsPreCompilationDeps: true,
    tsConfig: {fileName: 'tsconfig.json'},
    // make check runs it every time: a run that finds no file and no rule changed answers from the cache (0.1 s of
    // cruising, not 2 to 3 s); one that does cruises again.
    cache: {folder: 'node_modules/.cache/passepartout/dependency-cruiser', strategy: 'content', compress: false},
    doNotFollow: {path: 'node_modules'},
    // Tests import what they test and nothing imports them: they close no cycle and take no layer's place.
    exclude: {path: '(^|/)node_modules/|[.]test[.]ts$'},
  },
}
