/**
 * The configuration of every command: one JSON file, `table-audit.config.json` in the working directory (or the
 * file named by TABLE_AUDIT_CONFIG), and environment variables, which win over the file. A command-line flag wins
 * over both. Without either, the defaults run everything on one machine (SQLite, chDB, files).
 *
 * JSON rather than .ts/.mjs: the file is data a compliance officer may be handed and asked to check, so reading it
 * runs no code, and every error names the key, the file, the line and the column (json-positions.ts).
 *
 * API (small on purpose; other commands read it): loadConfig() → Config; CONFIG_VARIABLES (the documented table).
 * The adapters the configuration chooses are opened by adapters.ts.
 */
import { existsSync, openSync, readSync, closeSync, fstatSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { JsonSyntaxError, parseJsonWithPlaces, type Located, type Place } from './json-positions.ts';

export const CONFIG_FILE = 'table-audit.config.json';
/** A configuration file is a few hundred bytes; anything over this is not one. */
export const MAX_CONFIG_BYTES = 64 * 1024;

export type StoreConfig =
  | { readonly kind: 'sqlite'; readonly path: string }
  | { readonly kind: 'eventstoredb'; readonly url: string };
export type AnalyticsConfig =
  { readonly kind: 'chdb'; readonly path: string } | { readonly kind: 'clickhouse'; readonly url: string };
export type InputConfig =
  | { readonly kind: 'files' }
  | {
      readonly kind: 'kafka';
      readonly brokers: readonly string[];
      readonly topic: string;
      readonly group: string;
    };

export interface Config {
  /** the file read, or null when there was none */
  readonly file: string | null;
  readonly input: InputConfig;
  readonly store: StoreConfig;
  readonly analytics: AnalyticsConfig;
  /** the signed anchors' directory; undefined: none (run uses DIR/anchors) */
  readonly anchors: string | undefined;
  readonly keys: { readonly signing: string | undefined; readonly token: string | undefined };
  readonly api: { readonly port: number; readonly host: string };
  readonly run: {
    readonly dir: string;
    readonly tables: number;
    readonly rounds: number;
    readonly seed: number;
  };
}

export const DEFAULTS = {
  store: 'data/events.sqlite',
  analytics: 'data/analytics',
  topic: 'table-events',
  group: 'table-audit-ingest',
  port: 8080,
  host: '127.0.0.1',
  runDir: 'data/run',
  tables: 40,
  rounds: 50,
  seed: 2025,
} as const;

/** One row of the documented table: the file's key, its variable, its default and what it chooses. */
export interface ConfigVariableDoc {
  readonly key: string;
  readonly variable: string;
  readonly default: string;
  readonly meaning: string;
}

export const CONFIG_VARIABLES: readonly ConfigVariableDoc[] = [
  {
    key: '—',
    variable: 'TABLE_AUDIT_CONFIG',
    default: CONFIG_FILE,
    meaning: 'the configuration file (when set, it must exist)',
  },
  {
    key: 'input.kind',
    variable: 'TABLE_AUDIT_INPUT',
    default: 'files',
    meaning: '"files" (Avro files given to ingest) or "kafka"',
  },
  {
    key: 'input.brokers',
    variable: 'TABLE_AUDIT_KAFKA_BROKERS',
    default: '—',
    meaning: 'Kafka brokers, host:port, a list (comma-separated in the variable); setting it chooses kafka',
  },
  {
    key: 'input.topic',
    variable: 'TABLE_AUDIT_KAFKA_TOPIC',
    default: DEFAULTS.topic,
    meaning: 'the topic ingest reads',
  },
  {
    key: 'input.group',
    variable: 'TABLE_AUDIT_KAFKA_GROUP',
    default: DEFAULTS.group,
    meaning: "ingest's consumer group",
  },
  {
    key: 'store.kind',
    variable: '—',
    default: 'sqlite',
    meaning: '"sqlite" or "eventstoredb" (EventStoreDB or KurrentDB)',
  },
  {
    key: 'store.path',
    variable: 'TABLE_AUDIT_STORE',
    default: DEFAULTS.store,
    meaning: 'the SQLite store file; setting the variable chooses sqlite',
  },
  {
    key: 'store.url',
    variable: 'TABLE_AUDIT_EVENTSTORE_URL',
    default: '—',
    meaning: 'esdb://host:2113?tls=false or kurrentdb://…; setting the variable chooses eventstoredb',
  },
  {
    key: 'analytics.kind',
    variable: '—',
    default: 'chdb',
    meaning: '"chdb" (ClickHouse in-process) or "clickhouse" (a server)',
  },
  {
    key: 'analytics.path',
    variable: 'TABLE_AUDIT_ANALYTICS',
    default: `${DEFAULTS.analytics} (run: analytics/ beside the store)`,
    meaning: "chDB's data directory",
  },
  {
    key: 'analytics.url',
    variable: 'CLICKHOUSE_URL',
    default: '—',
    meaning: 'http://user:password@host:8123/database; setting the variable chooses clickhouse',
  },
  {
    key: 'anchors',
    variable: 'TABLE_AUDIT_ANCHORS',
    default: '— (run: DIR/anchors)',
    meaning: 'directory of the signed anchors',
  },
  {
    key: 'keys.signing',
    variable: 'TABLE_AUDIT_SIGNING_KEY',
    default: '— (run: DIR/signing-key.pem, made once)',
    meaning: 'Ed25519 PEM that signs the anchors',
  },
  {
    key: 'keys.token',
    variable: 'TABLE_AUDIT_TOKEN_KEY',
    default: 'data/api-token-key.pem (made once)',
    meaning: "Ed25519 PEM of the API's tokens",
  },
  {
    key: 'api.port',
    variable: 'TABLE_AUDIT_PORT',
    default: String(DEFAULTS.port),
    meaning: 'the port serve and run listen on (0: any free port)',
  },
  {
    key: 'api.host',
    variable: 'TABLE_AUDIT_HOST',
    default: DEFAULTS.host,
    meaning: 'the address they listen on',
  },
  {
    key: 'run.dir',
    variable: 'TABLE_AUDIT_RUN_DIR',
    default: DEFAULTS.runDir,
    meaning: "run's session directory",
  },
  {
    key: 'run.tables',
    variable: 'TABLE_AUDIT_RUN_TABLES',
    default: String(DEFAULTS.tables),
    meaning: "run's F3CP tables (1 to 999)",
  },
  {
    key: 'run.rounds',
    variable: 'TABLE_AUDIT_RUN_ROUNDS',
    default: String(DEFAULTS.rounds),
    meaning: "run's rounds per table (1 to 10000)",
  },
  {
    key: 'run.seed',
    variable: 'TABLE_AUDIT_RUN_SEED',
    default: String(DEFAULTS.seed),
    meaning: "run's seed (0 to 4294967295)",
  },
];

/** A configuration error: names the key and where it was given (file:line:column, or the variable). */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

const KNOWN: Record<string, readonly string[]> = {
  '': ['$comment', 'input', 'store', 'analytics', 'anchors', 'keys', 'api', 'run'],
  input: ['kind', 'brokers', 'topic', 'group'],
  store: ['kind', 'path', 'url'],
  analytics: ['kind', 'path', 'url'],
  keys: ['signing', 'token'],
  api: ['port', 'host'],
  run: ['dir', 'tables', 'rounds', 'seed'],
};

/** Reads at most MAX_CONFIG_BYTES + 1 bytes: a larger file is refused without being read whole. */
function readBounded(path: string): string {
  const fd = openSync(path, 'r');
  try {
    if (fstatSync(fd).isDirectory())
      throw new ConfigError(`${path} is a directory, not a configuration file`);
    const buf = Buffer.alloc(MAX_CONFIG_BYTES + 1);
    let n = 0;
    for (let r; n < buf.length && (r = readSync(fd, buf, n, buf.length - n, null)) > 0;) n += r;
    if (n > MAX_CONFIG_BYTES)
      throw new ConfigError(
        `${path} is larger than ${MAX_CONFIG_BYTES} bytes; a configuration file is far smaller`,
      );
    return buf.subarray(0, n).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/** The file's values, checked key by key; paths resolved against the file's directory. */
function fileValues(path: string, cwd: string): Record<string, unknown> {
  const source = readBounded(resolve(cwd, path));
  let located: Located;
  try {
    located = parseJsonWithPlaces(source);
  } catch (e) {
    if (e instanceof JsonSyntaxError)
      throw new ConfigError(`${path}:${at(e.place)}: not valid JSON: ${e.message}`);
    throw e;
  }
  const where = (key: string, keyPlace = false): string => {
    const p = (keyPlace ? located.keyPlaces.get(key) : undefined) ?? located.places.get(key);
    return `${path}:${p ? at(p) : '1:1'}: "${key}"`;
  };
  const root = located.value;
  if (typeof root !== 'object' || root === null || Array.isArray(root))
    throw new ConfigError(`${path}:1:1: the configuration must be one JSON object ({ "store": { … }, … })`);
  const flat: Record<string, unknown> = {};
  const walk = (o: Record<string, unknown>, prefix: string) => {
    for (const [k, v] of Object.entries(o)) {
      const key = prefix ? `${prefix}.${k}` : k;
      const known = KNOWN[prefix] ?? [];
      if (!known.includes(k))
        throw new ConfigError(
          `${where(key, true)} is not a configuration key; ${prefix ? `"${prefix}" takes` : 'the file takes'} ${known
            .filter((x) => x !== '$comment')
            .map((x) => `"${x}"`)
            .join(', ')}`,
        );
      if (key in KNOWN) {
        if (typeof v !== 'object' || v === null || Array.isArray(v))
          throw new ConfigError(
            `${where(key)} must be an object ({ ${KNOWN[key]!.map((x) => `"${x}": …`).join(', ')} })`,
          );
        walk(v as Record<string, unknown>, key);
      } else flat[key] = v;
    }
  };
  walk(root as Record<string, unknown>, '');
  const dir = dirname(resolve(cwd, path));
  const checked: Record<string, unknown> = { where };
  for (const [key, v] of Object.entries(flat)) {
    if (key === '$comment') continue;
    const spec = SPECS[key]!;
    checked[key] = spec.fromFile(v, where(key), dir, cwd);
  }
  return checked;
}

const at = (p: Place): string => `${p.line}:${p.column}`;

interface Spec {
  fromFile(v: unknown, where: string, dir: string, cwd: string): unknown;
  fromEnv(v: string, where: string): unknown;
}

const choice = (options: readonly string[]): Spec => {
  const check = (v: unknown, where: string) => {
    if (typeof v !== 'string' || !options.includes(v))
      throw new ConfigError(
        `${where} must be ${options.map((o) => `"${o}"`).join(' or ')}, got ${JSON.stringify(v)}`,
      );
    return v;
  };
  return { fromFile: check, fromEnv: check };
};
const text = (example: string): Spec => {
  const check = (v: unknown, where: string) => {
    if (typeof v !== 'string' || v.trim() === '')
      throw new ConfigError(
        `${where} must be a non-empty string, e.g. "${example}", got ${JSON.stringify(v)}`,
      );
    return v;
  };
  return { fromFile: check, fromEnv: check };
};
/** A path in the file is relative to the file's directory (shown relative to the working directory). */
const path = (example: string): Spec => ({
  fromFile(v, where, dir, cwd) {
    const s = text(example).fromFile(v, where, dir, cwd) as string;
    if (isAbsolute(s)) return s;
    return relative(cwd, resolve(dir, s)) || '.';
  },
  fromEnv: (v, where) => text(example).fromEnv(v, where),
});
const url = (schemes: readonly string[], example: string): Spec => {
  const check = (v: unknown, where: string) => {
    const s = text(example).fromEnv(v as string, where) as string;
    let u: URL;
    try {
      u = new URL(s);
    } catch {
      throw new ConfigError(`${where} is not a URL; give e.g. ${example}`);
    }
    if (!schemes.includes(u.protocol.replace(/:$/, '')))
      throw new ConfigError(
        `${where} must be a ${schemes.join(' or ')} URL, e.g. ${example}; got ${u.protocol}//…`,
      );
    return s;
  };
  return { fromFile: check, fromEnv: check };
};
const whole = (min: number, max: number): Spec => ({
  fromFile(v, where) {
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < min || v > max)
      throw new ConfigError(
        `${where} must be a whole number from ${min} to ${max}, got ${JSON.stringify(v)}`,
      );
    return v;
  },
  fromEnv(v, where) {
    if (!/^\d+$/.test(v.trim()))
      throw new ConfigError(`${where} must be a whole number from ${min} to ${max}`);
    return this.fromFile(Number(v.trim()), where, '', '');
  },
});
const brokers: Spec = {
  fromFile(v, where) {
    const list = typeof v === 'string' ? v.split(',') : v;
    if (!Array.isArray(list) || list.length === 0 || list.length > 100)
      throw new ConfigError(`${where} must be a list of host:port, e.g. ["kafka-1:9092", "kafka-2:9092"]`);
    return list.map((b, k) => {
      if (typeof b !== 'string' || !/^[A-Za-z0-9.[\]:_-]+:\d{1,5}$/.test(b.trim()))
        throw new ConfigError(
          `${where} item ${k + 1} must be host:port, e.g. "kafka-1:9092", got ${JSON.stringify(b)}`,
        );
      return b.trim();
    });
  },
  fromEnv(v, where) {
    return this.fromFile(v, where, '', '');
  },
};

const SPECS: Record<string, Spec> = {
  'input.kind': choice(['files', 'kafka']),
  'input.brokers': brokers,
  'input.topic': text(DEFAULTS.topic),
  'input.group': text(DEFAULTS.group),
  'store.kind': choice(['sqlite', 'eventstoredb']),
  'store.path': path(DEFAULTS.store),
  'store.url': url(
    ['esdb', 'esdb+discover', 'kurrentdb', 'kurrentdb+discover', 'kdb', 'kdb+discover'],
    'esdb://localhost:2113?tls=false',
  ),
  'analytics.kind': choice(['chdb', 'clickhouse']),
  'analytics.path': path(DEFAULTS.analytics),
  'analytics.url': url(['http', 'https'], 'http://default:password@localhost:8123/default'),
  anchors: path('data/anchors'),
  'keys.signing': path('secrets/signing-key.pem'),
  'keys.token': path('secrets/api-token-key.pem'),
  'api.port': whole(0, 65535),
  'api.host': text(DEFAULTS.host),
  'run.dir': path(DEFAULTS.runDir),
  'run.tables': whole(1, 999),
  'run.rounds': whole(1, 10_000),
  'run.seed': whole(0, 2 ** 32 - 1),
};

/** The environment's values (an empty variable counts as unset), checked, by configuration key. */
function envValues(env: NodeJS.ProcessEnv): Record<string, unknown> {
  // each variable read by name, so that infra/test finds every one the code reads
  const given: [string, string, string | undefined][] = [
    ['input.kind', 'TABLE_AUDIT_INPUT', env.TABLE_AUDIT_INPUT],
    ['input.brokers', 'TABLE_AUDIT_KAFKA_BROKERS', env.TABLE_AUDIT_KAFKA_BROKERS],
    ['input.topic', 'TABLE_AUDIT_KAFKA_TOPIC', env.TABLE_AUDIT_KAFKA_TOPIC],
    ['input.group', 'TABLE_AUDIT_KAFKA_GROUP', env.TABLE_AUDIT_KAFKA_GROUP],
    ['store.path', 'TABLE_AUDIT_STORE', env.TABLE_AUDIT_STORE],
    ['store.url', 'TABLE_AUDIT_EVENTSTORE_URL', env.TABLE_AUDIT_EVENTSTORE_URL],
    ['analytics.path', 'TABLE_AUDIT_ANALYTICS', env.TABLE_AUDIT_ANALYTICS],
    ['analytics.url', 'CLICKHOUSE_URL', env.CLICKHOUSE_URL],
    ['anchors', 'TABLE_AUDIT_ANCHORS', env.TABLE_AUDIT_ANCHORS],
    ['keys.signing', 'TABLE_AUDIT_SIGNING_KEY', env.TABLE_AUDIT_SIGNING_KEY],
    ['keys.token', 'TABLE_AUDIT_TOKEN_KEY', env.TABLE_AUDIT_TOKEN_KEY],
    ['api.port', 'TABLE_AUDIT_PORT', env.TABLE_AUDIT_PORT],
    ['api.host', 'TABLE_AUDIT_HOST', env.TABLE_AUDIT_HOST],
    ['run.dir', 'TABLE_AUDIT_RUN_DIR', env.TABLE_AUDIT_RUN_DIR],
    ['run.tables', 'TABLE_AUDIT_RUN_TABLES', env.TABLE_AUDIT_RUN_TABLES],
    ['run.rounds', 'TABLE_AUDIT_RUN_ROUNDS', env.TABLE_AUDIT_RUN_ROUNDS],
    ['run.seed', 'TABLE_AUDIT_RUN_SEED', env.TABLE_AUDIT_RUN_SEED],
  ];
  const values: Record<string, unknown> = {};
  for (const [key, name, v] of given)
    if (v !== undefined && v !== '')
      values[key] = SPECS[key]!.fromEnv(v, `the environment variable ${name}="${v}"`);
  return values;
}

export interface LoadOptions {
  readonly env?: NodeJS.ProcessEnv;
  readonly cwd?: string;
}

/**
 * The configuration: the file (TABLE_AUDIT_CONFIG, else table-audit.config.json in the working directory when it
 * exists), then the environment over it. Throws ConfigError naming the key and where it was given.
 */
export function loadConfig(options: LoadOptions = {}): Config {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const named = env.TABLE_AUDIT_CONFIG || undefined;
  let file: string | null = null;
  if (named !== undefined) {
    if (!existsSync(resolve(cwd, named)))
      throw new ConfigError(`TABLE_AUDIT_CONFIG="${named}": no such file (from ${cwd})`);
    file = named;
  } else if (existsSync(resolve(cwd, CONFIG_FILE))) file = CONFIG_FILE;
  const fromFile = file === null ? {} : fileValues(file, cwd);
  const fromEnv = envValues(env);
  const where = (key: string): string =>
    (fromFile.where as ((k: string) => string) | undefined)?.(key) ?? `"${key}"`;
  const get = <T>(key: string): T | undefined => (fromEnv[key] ?? fromFile[key]) as T | undefined;

  // the store: a variable naming one backend chooses it, whatever the file says; then the file's kind
  let store: StoreConfig;
  const storeKind =
    fromEnv['store.url'] !== undefined
      ? 'eventstoredb'
      : fromEnv['store.path'] !== undefined
        ? 'sqlite'
        : ((fromFile['store.kind'] as string | undefined) ??
          (fromFile['store.url'] !== undefined ? 'eventstoredb' : 'sqlite'));
  if (storeKind === 'eventstoredb') {
    const u = get<string>('store.url');
    if (u === undefined)
      throw new ConfigError(
        `${where('store.kind')} is "eventstoredb" but no "store.url" (or TABLE_AUDIT_EVENTSTORE_URL) says where, e.g. "esdb://localhost:2113?tls=false"`,
      );
    store = { kind: 'eventstoredb', url: u };
  } else {
    if (fromEnv['store.path'] === undefined && fromFile['store.url'] !== undefined)
      throw new ConfigError(
        `${where('store.url')} is given but "store.kind" is "sqlite": remove one of them`,
      );
    store = { kind: 'sqlite', path: get<string>('store.path') ?? DEFAULTS.store };
  }

  let analytics: AnalyticsConfig;
  const analyticsKind =
    fromEnv['analytics.url'] !== undefined
      ? 'clickhouse'
      : fromEnv['analytics.path'] !== undefined
        ? 'chdb'
        : ((fromFile['analytics.kind'] as string | undefined) ??
          (fromFile['analytics.url'] !== undefined ? 'clickhouse' : 'chdb'));
  if (analyticsKind === 'clickhouse') {
    const u = get<string>('analytics.url');
    if (u === undefined)
      throw new ConfigError(
        `${where('analytics.kind')} is "clickhouse" but no "analytics.url" (or CLICKHOUSE_URL) says where, e.g. "http://default:password@localhost:8123/default"`,
      );
    analytics = { kind: 'clickhouse', url: u };
  } else {
    if (fromEnv['analytics.path'] === undefined && fromFile['analytics.url'] !== undefined)
      throw new ConfigError(
        `${where('analytics.url')} is given but "analytics.kind" is "chdb": remove one of them`,
      );
    analytics = { kind: 'chdb', path: get<string>('analytics.path') ?? DEFAULTS.analytics };
  }

  let input: InputConfig;
  const inputKind =
    (fromEnv['input.kind'] as string | undefined) ??
    (fromEnv['input.brokers'] !== undefined ? 'kafka' : undefined) ??
    (fromFile['input.kind'] as string | undefined) ??
    (fromFile['input.brokers'] !== undefined ? 'kafka' : 'files');
  if (inputKind === 'kafka') {
    const b = get<string[]>('input.brokers');
    if (b === undefined)
      throw new ConfigError(
        `${fromEnv['input.kind'] !== undefined ? 'TABLE_AUDIT_INPUT' : where('input.kind')} is "kafka" but no "input.brokers" (or TABLE_AUDIT_KAFKA_BROKERS) says where, e.g. ["kafka-1:9092"]`,
      );
    input = {
      kind: 'kafka',
      brokers: b,
      topic: get<string>('input.topic') ?? DEFAULTS.topic,
      group: get<string>('input.group') ?? DEFAULTS.group,
    };
  } else input = { kind: 'files' };

  return {
    file,
    input,
    store,
    analytics,
    anchors: get<string>('anchors'),
    keys: { signing: get<string>('keys.signing'), token: get<string>('keys.token') },
    api: { port: get<number>('api.port') ?? DEFAULTS.port, host: get<string>('api.host') ?? DEFAULTS.host },
    run: {
      dir: get<string>('run.dir') ?? DEFAULTS.runDir,
      tables: get<number>('run.tables') ?? DEFAULTS.tables,
      rounds: get<number>('run.rounds') ?? DEFAULTS.rounds,
      seed: get<number>('run.seed') ?? DEFAULTS.seed,
    },
  };
}

/**
 * Gives the file's choices to the code that reads the environment (the store path, the analytics target, the
 * anchors and keys of every command): each variable the file fills is set only where the environment leaves it
 * unset, so the environment still wins. Returns the names it set.
 */
export function exportToEnvironment(config: Config, env: NodeJS.ProcessEnv = process.env): string[] {
  const set: string[] = [];
  const fill = (name: string, value: string | undefined) => {
    if (value === undefined || (env[name] !== undefined && env[name] !== '')) return;
    env[name] = value;
    set.push(name);
  };
  if (config.store.kind === 'sqlite') fill('TABLE_AUDIT_STORE', config.store.path);
  if (config.analytics.kind === 'clickhouse') fill('CLICKHOUSE_URL', config.analytics.url);
  else if (config.analytics.path !== DEFAULTS.analytics) fill('TABLE_AUDIT_ANALYTICS', config.analytics.path);
  fill('TABLE_AUDIT_ANCHORS', config.anchors);
  fill('TABLE_AUDIT_SIGNING_KEY', config.keys.signing);
  fill('TABLE_AUDIT_TOKEN_KEY', config.keys.token);
  return set;
}
