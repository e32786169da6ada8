/**
 * The configuration (config.ts) and the adapters it chooses (adapters.ts). EventStoreDB: no server can be installed
 * on these machines, so its path runs against the in-memory stand-in client of the adapter's own tests
 * (packages/eventstore/test/fake-eventstoredb-client.ts), not against a server.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { collect } from '@table-audit/eventstore/conformance';
import { EventStoreDbEventStore } from '@table-audit/eventstore/eventstoredb';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { FakeEventStoreDb } from '../../../packages/eventstore/test/fake-eventstoredb-client.ts';
import { configuredAnalyticsTarget, openConfiguredStore } from '../src/adapters.ts';
import {
  CONFIG_FILE,
  CONFIG_VARIABLES,
  ConfigError,
  DEFAULTS,
  exportToEnvironment,
  loadConfig,
  MAX_CONFIG_BYTES,
} from '../src/config.ts';

const root = mkdtempSync(join(tmpdir(), 'ta-config-'));
after(() => rmSync(root, { recursive: true, force: true }));
let n = 0;
/** A new directory holding `text` as its table-audit.config.json (none when text is undefined). */
const dirWith = (text?: string): string => {
  const d = join(root, `c${n++}`);
  mkdirSync(d);
  if (text !== undefined) writeFileSync(join(d, CONFIG_FILE), text);
  return d;
};
const load = (text: string | undefined, env: NodeJS.ProcessEnv = {}) =>
  loadConfig({ cwd: dirWith(text), env });
const fails = (f: () => unknown, pattern: RegExp) =>
  assert.throws(f, (e: unknown) => {
    assert.ok(e instanceof ConfigError, String(e));
    assert.match(e.message, pattern);
    return true;
  });

describe('configuration: file, environment, defaults', () => {
  it('runs on one machine without a file or variables', () => {
    const c = load(undefined);
    assert.equal(c.file, null);
    assert.deepEqual(c.store, { kind: 'sqlite', path: DEFAULTS.store });
    assert.deepEqual(c.analytics, { kind: 'chdb', path: DEFAULTS.analytics });
    assert.deepEqual(c.input, { kind: 'files' });
    assert.deepEqual(c.api, { port: 8080, host: '127.0.0.1' });
    assert.deepEqual(c.run, { dir: 'data/run', tables: 40, rounds: 50, seed: 2025 });
  });

  it('takes each backend from the file, and the environment over the file', () => {
    const text = JSON.stringify({
      input: { kind: 'kafka', brokers: ['k1:9092', 'k2:9092'], topic: 't' },
      store: { kind: 'eventstoredb', url: 'esdb://es:2113?tls=false' },
      analytics: { kind: 'clickhouse', url: 'http://u:p@ch:8123/db' },
      api: { port: 9000 },
      run: { tables: 3, rounds: 7 },
    });
    const c = load(text);
    assert.equal(c.file, CONFIG_FILE);
    assert.deepEqual(c.input, {
      kind: 'kafka',
      brokers: ['k1:9092', 'k2:9092'],
      topic: 't',
      group: DEFAULTS.group,
    });
    assert.deepEqual(c.store, { kind: 'eventstoredb', url: 'esdb://es:2113?tls=false' });
    assert.deepEqual(c.analytics, { kind: 'clickhouse', url: 'http://u:p@ch:8123/db' });
    assert.equal(c.api.port, 9000);
    assert.deepEqual([c.run.tables, c.run.rounds, c.run.seed], [3, 7, 2025]);
    // a variable naming a backend chooses it, whatever the file says
    const e = load(text, {
      TABLE_AUDIT_STORE: 'x.sqlite',
      TABLE_AUDIT_ANALYTICS: 'an',
      TABLE_AUDIT_INPUT: 'files',
      TABLE_AUDIT_PORT: '0',
      TABLE_AUDIT_RUN_TABLES: '2',
    });
    assert.deepEqual(e.store, { kind: 'sqlite', path: 'x.sqlite' });
    assert.deepEqual(e.analytics, { kind: 'chdb', path: 'an' });
    assert.deepEqual(e.input, { kind: 'files' });
    assert.equal(e.api.port, 0);
    assert.equal(e.run.tables, 2);
    const f = load(undefined, {
      TABLE_AUDIT_EVENTSTORE_URL: 'kurrentdb://k:2113',
      CLICKHOUSE_URL: 'http://ch:8123',
    });
    assert.deepEqual(f.store, { kind: 'eventstoredb', url: 'kurrentdb://k:2113' });
    assert.deepEqual(f.analytics, { kind: 'clickhouse', url: 'http://ch:8123' });
    // an empty variable counts as unset
    assert.equal(load(text, { TABLE_AUDIT_PORT: '' }).api.port, 9000);
  });

  it('resolves the paths of a file named by TABLE_AUDIT_CONFIG against its own directory', () => {
    const d = dirWith();
    mkdirSync(join(d, 'etc'));
    writeFileSync(
      join(d, 'etc', 'ta.json'),
      JSON.stringify({ store: { path: '../var/s.sqlite' }, anchors: '/abs/a' }),
    );
    const c = loadConfig({ cwd: d, env: { TABLE_AUDIT_CONFIG: 'etc/ta.json' } });
    assert.equal(c.file, 'etc/ta.json');
    assert.deepEqual(c.store, { kind: 'sqlite', path: join('var', 's.sqlite') });
    assert.equal(c.anchors, '/abs/a');
    fails(
      () => loadConfig({ cwd: d, env: { TABLE_AUDIT_CONFIG: 'missing.json' } }),
      /TABLE_AUDIT_CONFIG="missing.json": no such file/,
    );
  });

  it('names the key, the file, the line and the column of what is wrong', () => {
    fails(
      () => load('{\n  "store": {\n    "kind": "postgres"\n  }\n}'),
      /^table-audit\.config\.json:3:13: "store\.kind" must be "sqlite" or "eventstoredb", got "postgres"$/,
    );
    fails(
      () => load('{\n  "store": { "paht": "x" }\n}'),
      /^table-audit\.config\.json:2:14: "store\.paht" is not a configuration key; "store" takes "kind", "path", "url"$/,
    );
    fails(
      () => load('{ "api": { "port": 70000 } }'),
      /:1:20: "api\.port" must be a whole number from 0 to 65535, got 70000/,
    );
    fails(() => load('{ "api": { "port": "80" } }'), /"api\.port" must be a whole number/);
    fails(() => load('{ "store": "x.sqlite" }'), /:1:12: "store" must be an object/);
    fails(
      () => load('{ "store": { "kind": "eventstoredb" } }'),
      /"store\.kind" is "eventstoredb" but no "store\.url"/,
    );
    fails(() => load('{ "store": { "url": "http://x" } }'), /"store\.url" must be a esdb or .* URL/);
    fails(
      () => load('{ "analytics": { "url": "ch:8123" } }'),
      /"analytics\.url" must be a http or https URL/,
    );
    fails(() => load('{ "input": { "brokers": ["k1"] } }'), /"input\.brokers" item 1 must be host:port/);
    fails(
      () => load('{ "store": { "kind": "sqlite", "url": "esdb://x:1" } }'),
      /"store\.url" is given but "store\.kind" is "sqlite"/,
    );
    fails(
      () => load('{\n  "run": { "tables": 3, }\n}'),
      /^table-audit\.config\.json:2:25: not valid JSON: expected a string in double quotes, found "}"$/,
    );
    fails(() => load('{ "api": {}, "api": {} }'), /:1:14: not valid JSON: the key "api" is given twice/);
    fails(() => load('[]'), /must be one JSON object/);
    fails(() => load(' '.repeat(MAX_CONFIG_BYTES + 1)), /larger than 65536 bytes/);
    fails(
      () => load(undefined, { TABLE_AUDIT_PORT: 'eighty' }),
      /the environment variable TABLE_AUDIT_PORT="eighty" must be a whole number from 0 to 65535/,
    );
    fails(
      () => load(undefined, { TABLE_AUDIT_INPUT: 'kafka' }),
      /TABLE_AUDIT_INPUT is "kafka" but no "input\.brokers"/,
    );
  });

  it('fills the variables the other commands read, leaving those the environment sets', () => {
    const c = load(JSON.stringify({ store: { path: 'f.sqlite' }, anchors: 'a', keys: { token: 't.pem' } }));
    const env: NodeJS.ProcessEnv = { TABLE_AUDIT_ANCHORS: 'mine' };
    assert.deepEqual(exportToEnvironment(c, env).sort(), ['TABLE_AUDIT_STORE', 'TABLE_AUDIT_TOKEN_KEY']);
    assert.deepEqual(env, {
      TABLE_AUDIT_ANCHORS: 'mine',
      TABLE_AUDIT_STORE: 'f.sqlite',
      TABLE_AUDIT_TOKEN_KEY: 't.pem',
    });
  });

  it('documents every key it takes, once, in docs/configuration.md', () => {
    const page = readFileSync(new URL('../../../docs/configuration.md', import.meta.url), 'utf8');
    for (const v of CONFIG_VARIABLES) {
      const row = `| ${v.key === '—' ? '—' : `\`${v.key}\``} | ${v.variable === '—' ? '—' : `\`${v.variable}\``} |`;
      assert.ok(page.replace(/ +\|/g, ' |').includes(row), `docs/configuration.md has no row ${row}`);
    }
    const keys = CONFIG_VARIABLES.map((v) => v.key).filter((k) => k !== '—');
    assert.equal(new Set(keys).size, keys.length);
    const vars = CONFIG_VARIABLES.map((v) => v.variable).filter((k) => k !== '—');
    assert.equal(new Set(vars).size, vars.length);
  });
});

describe('adapters: the store and analytics the configuration chooses', () => {
  const event = (id: string) => ({ eventId: id, type: 'T', data: { id } });

  it('opens a SQLite file from the configuration, and --store over it', async () => {
    const d = dirWith();
    const c = loadConfig({ cwd: d, env: { TABLE_AUDIT_STORE: join(d, 'c.sqlite') } });
    const a = await openConfiguredStore({ config: c });
    assert.ok(a.store instanceof SqliteEventStore);
    assert.deepEqual([a.kind, a.path, a.storeId], ['sqlite', join(d, 'c.sqlite'), 'sqlite:c.sqlite']);
    await a.store.append('s', [event('e1')]);
    await a.close(false);
    const esdb = loadConfig({ cwd: d, env: { TABLE_AUDIT_EVENTSTORE_URL: 'esdb://nowhere:2113?tls=false' } });
    const b = await openConfiguredStore({ config: esdb, flag: join(d, 'flag.sqlite') });
    assert.ok(
      b.store instanceof SqliteEventStore,
      '--store PATH is a SQLite file even when EventStoreDB is configured',
    );
    await b.close(false);
    await assert.rejects(
      openConfiguredStore({ config: c, flag: join(d, 'none.sqlite'), mustExist: true }),
      /no event store at .*none\.sqlite/,
    );
  });

  it('opens EventStoreDB from the configuration (on the stand-in client, not a server)', async () => {
    const server = new FakeEventStoreDb();
    const urls: string[] = [];
    const c = load(
      JSON.stringify({ store: { kind: 'eventstoredb', url: 'esdb://admin:changeit@es-1:2113?tls=false' } }),
    );
    const open = () =>
      openConfiguredStore({
        config: c,
        connect: (url) => {
          urls.push(url);
          return server.client();
        },
      });
    const a = await open();
    assert.ok(a.store instanceof EventStoreDbEventStore);
    assert.equal(a.kind, 'eventstoredb');
    assert.equal(a.path, undefined);
    assert.equal(a.description, 'EventStoreDB at esdb://es-1:2113', 'no credentials in what people see');
    assert.equal(a.storeId, 'eventstoredb:es-1:2113');
    await a.store.append('table-T1', [event('e1'), event('e2')]);
    await a.close(false);
    // a second process: the same events again are recognised, not appended twice
    const b = await open();
    const again = await b.store.append('table-T1', [event('e1'), event('e2'), event('e3')]);
    assert.deepEqual([again.appended, again.alreadyStored], [1, 2]);
    assert.deepEqual(
      (await collect(b.store.readStream('table-T1'))).map((e) => e.eventId),
      ['e1', 'e2', 'e3'],
    );
    await b.close(false);
    assert.deepEqual(urls, [
      'esdb://admin:changeit@es-1:2113?tls=false',
      'esdb://admin:changeit@es-1:2113?tls=false',
    ]);
  });

  it('chooses chDB or a ClickHouse server', () => {
    assert.deepEqual(configuredAnalyticsTarget(load(undefined)), { path: DEFAULTS.analytics });
    assert.deepEqual(configuredAnalyticsTarget(load(undefined), 'mine'), { path: 'mine' });
    assert.deepEqual(configuredAnalyticsTarget(load(undefined, { CLICKHOUSE_URL: 'http://ch:8123' })), {
      url: 'http://ch:8123',
    });
  });
});

describe('the command line reads the configuration', () => {
  const bin = fileURLToPath(new URL('../bin/table-audit.js', import.meta.url));
  const cli = (cwd: string, args: string[], env: Record<string, string> = {}) =>
    spawnSync(process.execPath, [bin, ...args], {
      cwd,
      encoding: 'utf8',
      env: { ...process.env, TABLE_AUDIT_STORE: '', TABLE_AUDIT_CONFIG: '', ...env },
    });

  it('exits 2 naming the key and its place, and refuses a SQLite-only command on EventStoreDB', () => {
    const bad = cli(dirWith('{\n "run": { "seed": -1 }\n}'), ['rules']);
    assert.equal(bad.status, 2, bad.stderr);
    assert.match(
      bad.stderr,
      /table-audit\.config\.json:2:19: "run\.seed" must be a whole number from 0 to 4294967295, got -1/,
    );
    const esdb = cli(dirWith(JSON.stringify({ store: { kind: 'eventstoredb', url: 'esdb://es:2113' } })), [
      'verify',
    ]);
    assert.equal(esdb.status, 2, esdb.stderr);
    assert.match(
      esdb.stderr,
      /the configured store is EventStoreDB .* verify works on a SQLite store file only: give it --store PATH/,
    );
  });

  it('a store named in the file is the one the commands use', () => {
    const d = dirWith(JSON.stringify({ store: { path: 'elsewhere/events.sqlite' } }));
    const r = cli(d, ['verify']);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /no event store at .*elsewhere\/events\.sqlite/);
  });
});
