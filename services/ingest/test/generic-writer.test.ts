// Events files written and read by a client this project did not write: the Apache Avro Python library
// (Debian's python3-avro, run with Debian's /usr/bin/python3), under every codec, and under each kind of schema
// evolution a producer may make. What is stored and what is rejected is checked event by event.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import {
  eventFullName,
  eventUnionSchema,
  writeEventsFile,
  type EventsFileCodec,
  type TableEvent,
  type Json,
  type JsonObject,
} from '@table-audit/schemas';
import { simulateSession } from '@table-audit/simulator';
import { IngestPipeline, ingestFiles, type IngestResult } from '../src/index.ts';
import { assertExactlyOnce, rejectsIn } from './helpers.ts';

const isJsonObject = (v: Json | undefined): v is JsonObject =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const PYTHON = '/usr/bin/python3';
const DRIVER = fileURLToPath(new URL('./generic_writer.py', import.meta.url));
const hasAvro = spawnSync(PYTHON, ['-c', 'import avro.datafile'], { stdio: 'ignore' }).status === 0;
const skip =
  !hasAvro && !process.env['CI']
    ? `${PYTHON} cannot import avro: install Debian's python3-avro (apt-get install python3-avro python3-snappy ` +
      `python3-zstandard; .ci/run does). In CI (CI set) these tests run and fail instead`
    : false;

const dir = mkdtempSync(join(tmpdir(), 'ta-generic-writer-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const session = simulateSession({ seed: 5, tables: 3, roundsPerTable: 8, faultRate: 0.1, handledRate: 0.05 });

function python(...args: string[]): void {
  const r = spawnSync(PYTHON, [DRIVER, ...args], { encoding: 'utf8', timeout: 120_000 });
  if (r.status !== 0) throw new Error(`python3 ${args[0]} failed (${r.status}): ${r.stderr}`);
}

/** Writes `events` with the Python library, under `schema` (default: this package's union) and `codec`. */
function pythonWrites(
  name: string,
  codec: string,
  events: readonly TableEvent[],
  schema: Json = eventUnionSchema(),
) {
  const schemaPath = join(dir, `${name}.avsc`);
  const eventsPath = join(dir, `${name}.jsonl`);
  const out = join(dir, `${name}.avro`);
  writeFileSync(schemaPath, JSON.stringify(schema));
  writeFileSync(
    eventsPath,
    events.map((e) => JSON.stringify({ type: eventFullName(e.type), data: e.data })).join('\n') + '\n',
  );
  python('write', schemaPath, eventsPath, out, codec);
  return out;
}

async function ingest(path: string) {
  const store = new SqliteEventStore(join(dir, `${path.split('/').at(-1)}.sqlite`));
  const warnings: string[] = [];
  const result = await ingestFiles([path], new IngestPipeline(store), { onWarning: (w) => warnings.push(w) });
  return { store, result, warnings };
}

/** The named type `fullName` in a self-contained schema (where it is defined), to change it in place. */
function named(schema: Json, fullName: string): JsonObject {
  let found: JsonObject | undefined;
  const walk = (node: Json, namespace: string): void => {
    if (found || node === null || typeof node !== 'object') return;
    if (Array.isArray(node)) return node.forEach((n) => walk(n, namespace));
    const name = node['name'];
    const ns = typeof node['namespace'] === 'string' ? node['namespace'] : namespace;
    if (typeof name === 'string' && ['record', 'enum', 'fixed'].includes(String(node['type']))) {
      const full = name.includes('.') ? name : `${ns}.${name}`;
      if (full === fullName) {
        found = node;
        return;
      }
    }
    const own = typeof name === 'string' && name.includes('.') ? name.slice(0, name.lastIndexOf('.')) : ns;
    for (const key of ['type', 'items', 'values']) if (node[key] !== undefined) walk(node[key]!, own);
    if (Array.isArray(node['fields']))
      for (const f of node['fields']) if (isJsonObject(f)) walk(f['type']!, own);
  };
  walk(schema, '');
  if (!found) throw new Error(`${fullName} is not in the schema`);
  return found;
}

const fieldsOf = (record: JsonObject): JsonObject[] => record['fields'] as JsonObject[];
const total = (r: IngestResult) => r.accepted + r.alreadyStored + r.rejected;

describe('events files written by the Apache Avro Python library', { skip }, () => {
  for (const codec of ['null', 'deflate', 'bzip2', 'snappy', 'zstandard', 'xz']) {
    it(`stores every event of a session it wrote with the ${codec} codec, each as its own type`, async () => {
      const { store, result, warnings } = await ingest(pythonWrites(`codec-${codec}`, codec, session.events));
      try {
        assert.deepEqual(result, { accepted: session.events.length, alreadyStored: 0, rejected: 0 });
        await assertExactlyOnce(store, session.events); // types included: TableClosed is never DealingSwitchedToShoe
        const checked = ['snappy', 'bzip2', 'xz'].includes(codec);
        assert.equal(warnings.length, checked ? 0 : 1, warnings.join('\n'));
        if (!checked) assert.match(warnings[0]!, new RegExp(`codec ${codec} carries no checksum`));
      } finally {
        await store.close();
      }
    });
  }

  for (const codec of ['snappy', 'deflate', 'null'] satisfies EventsFileCodec[])
    it(`reads the files this project writes (${codec}), record for record`, async () => {
      const path = join(dir, `ours-${codec}.avro`);
      await writeEventsFile(path, session.events, { codec, blockSize: 8 * 1024 });
      const out = join(dir, `ours-${codec}.jsonl`);
      python('read', path, out);
      const read = readFileSync(out, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as unknown);
      assert.deepStrictEqual(
        read,
        session.events.map((e) => JSON.parse(JSON.stringify(e.data)) as unknown),
      );
    });

  describe('schema evolution: what the producer changed, what is stored, what is rejected', () => {
    it('a field added with a default: every event stored, the field ignored', async () => {
      const schema = eventUnionSchema();
      fieldsOf(named(schema, 'ta.common.RoundStarted')).push({
        name: 'pitId',
        type: ['null', 'string'],
        default: null,
        doc: 'the pit',
      });
      const events = session.events.map((e) =>
        e.type === 'RoundStarted'
          ? ({ ...e, data: { ...e.data, pitId: 'PIT-3' } } as unknown as TableEvent)
          : e,
      );
      const { store, result } = await ingest(pythonWrites('added-field', 'snappy', events, schema));
      try {
        assert.deepEqual(result, { accepted: session.events.length, alreadyStored: 0, rejected: 0 });
        await assertExactlyOnce(store, session.events);
      } finally {
        await store.close();
      }
    });

    it('a field with a default removed: every event stored, the field at its default', async () => {
      const schema = eventUnionSchema();
      const opened = named(schema, 'ta.common.TableOpened');
      opened['fields'] = fieldsOf(opened).filter((f) => f['name'] !== 'currency');
      assert.ok(session.events.some((e) => e.type === 'TableOpened' && e.data.currency === 'MOP'));
      const { store, result } = await ingest(pythonWrites('removed-field', 'snappy', session.events, schema));
      try {
        assert.deepEqual(result, { accepted: session.events.length, alreadyStored: 0, rejected: 0 });
        await assertExactlyOnce(store, session.events); // currency read as its default, MOP, as written
      } finally {
        await store.close();
      }
    });

    const withBetType = (symbol: string): Json => {
      const schema = eventUnionSchema();
      const betType = named(schema, 'ta.f3cp.BetType');
      betType['symbols'] = [...(betType['symbols'] as string[]), symbol];
      return schema;
    };

    it('an enum symbol added and not used: every event stored', async () => {
      const { store, result } = await ingest(
        pythonWrites('symbol-unused', 'snappy', session.events, withBetType('LUCKY_SEVEN')),
      );
      try {
        assert.deepEqual(result, { accepted: session.events.length, alreadyStored: 0, rejected: 0 });
        await assertExactlyOnce(store, session.events);
      } finally {
        await store.close();
      }
    });

    it('an enum symbol added and used by one event: that event alone rejected, naming the field', async () => {
      const victim = session.events.findIndex(
        (e) => e.type === 'BetPlaced' && e.data.betType === 'PAIR_PLUS',
      );
      assert.ok(victim > 0);
      const events = session.events.map((e, i) =>
        i === victim ? ({ ...e, data: { ...e.data, betType: 'LUCKY_SEVEN' } } as unknown as TableEvent) : e,
      );
      const { store, result } = await ingest(
        pythonWrites('symbol-used', 'snappy', events, withBetType('LUCKY_SEVEN')),
      );
      try {
        assert.equal(total(result), session.events.length);
        assert.equal(result.rejected, 1);
        const [reject] = await rejectsIn(store);
        assert.equal(reject!.data.code, 'INVALID_EVENT');
        assert.match(
          reject!.data.reason,
          /^invalid BetPlaced: betType is UNKNOWN: the producer wrote a ta\.f3cp\.BetType symbol this reader's schema does not have/,
        );
        assert.equal(reject!.data.decoded?.data.header.eventId, session.events[victim]!.data.header.eventId);
        await assertExactlyOnce(
          store,
          session.events.filter((_, i) => i !== victim),
        );
      } finally {
        await store.close();
      }
    });

    it('a field renamed with an alias in the writer: that record type rejected with its bytes, the rest stored', async () => {
      // Avro resolves aliases of the reader's schema only: a rename must reach the pipeline's schema first
      const schema = eventUnionSchema();
      const dealer = fieldsOf(named(schema, 'ta.common.RoundStarted')).find((f) => f['name'] === 'dealerId')!;
      dealer['name'] = 'dealer';
      dealer['aliases'] = ['dealerId'];
      const events = session.events.map((e) => {
        if (e.type !== 'RoundStarted') return e;
        const { dealerId, ...rest } = e.data;
        return { ...e, data: { ...rest, dealer: dealerId } } as unknown as TableEvent;
      });
      const started = session.events.filter((e) => e.type === 'RoundStarted');
      const { store, result } = await ingest(pythonWrites('renamed', 'snappy', events, schema));
      try {
        assert.equal(result.rejected, started.length);
        assert.equal(total(result), session.events.length);
        const rejects = await rejectsIn(store);
        assert.ok(rejects.every((r) => r.data.code === 'SCHEMA_NOT_RESOLVABLE'));
        // dealerId has a default (null): Avro alone would store every RoundStarted with its dealer lost
        assert.match(
          rejects[0]!.data.reason,
          /the writer renamed dealerId → dealer .*Add the alias to the pipeline's schema first/,
        );
        assert.ok(rejects.every((r) => Buffer.from(r.data.rawBase64!, 'base64').length > 20));
        await assertExactlyOnce(
          store,
          session.events.filter((e) => e.type !== 'RoundStarted'),
        );
      } finally {
        await store.close();
      }
    });
  });
});
