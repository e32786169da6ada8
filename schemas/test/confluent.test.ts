/**
 * The Confluent adapter against a small HTTP server on 127.0.0.1 that implements the part of the Confluent Schema
 * Registry REST API that @kafkajs/confluent-schema-registry calls (see its dist/api/index.js and
 * dist/SchemaRegistry.js): the real client code runs, only the registry is a stand-in.
 */
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import {
  ConfluentSchemaRegistry,
  decodeEvent,
  encodeEvent,
  recordFullName,
  eventSchema,
  AUDIT_RECORD_TYPES,
  TABLE_EVENT_TYPE_LIST,
  registerEventSchemas,
  RegistryRequestError,
  UnknownSchemaIdError,
  UnknownSubjectError,
  UnreadableByPipelineError,
  type JsonObject,
} from '../src/index.ts';
import { EXAMPLES, exampleEvents } from './examples.ts';

/** The registry's state and the requests it saw, for the assertions. */
class FakeConfluentRegistry {
  readonly schemas: string[] = []; // id - 1 → schema text; ids are global, one per distinct schema
  readonly subjects = new Map<string, number[]>(); // subject → ids by version
  readonly config = new Map<string, string>();
  readonly requests: string[] = [];
  failNextWith: number | undefined;
  server!: Server;

  async start(): Promise<string> {
    this.server = createServer((request, response) => void this.handle(request, response));
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let body = '';
    for await (const chunk of request) body += chunk;
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
    this.requests.push(`${request.method} ${path}`);
    const reply = (status: number, value: unknown): void => {
      response.writeHead(status, { 'content-type': 'application/vnd.schemaregistry.v1+json' });
      response.end(JSON.stringify(value));
    };
    const notFound = (code: number, message: string): void => reply(404, { error_code: code, message });
    if (this.failNextWith) {
      const status = this.failNextWith;
      this.failNextWith = undefined;
      return reply(status, { error_code: status * 100, message: 'Internal Server Error' });
    }
    let match: RegExpMatchArray | null;
    if (request.method === 'GET' && (match = path.match(/^\/config\/(.+)$/))) {
      const level = this.config.get(match[1]!);
      if (!level)
        return notFound(40408, `Subject '${match[1]}' does not have subject-level compatibility configured`);
      return reply(200, { compatibilityLevel: level });
    }
    if (request.method === 'PUT' && (match = path.match(/^\/config\/(.+)$/))) {
      const { compatibility } = JSON.parse(body) as { compatibility: string };
      this.config.set(match[1]!, compatibility);
      return reply(200, { compatibility });
    }
    if (request.method === 'POST' && (match = path.match(/^\/subjects\/(.+)\/versions$/))) {
      const { schema } = JSON.parse(body) as { schema: string };
      let id = this.schemas.indexOf(schema) + 1;
      if (id === 0) id = this.schemas.push(schema);
      const versions = this.subjects.get(match[1]!) ?? [];
      if (!versions.includes(id)) versions.push(id);
      this.subjects.set(match[1]!, versions);
      return reply(200, { id });
    }
    if (request.method === 'GET' && (match = path.match(/^\/subjects\/(.+)\/versions\/(latest|\d+)$/))) {
      const versions = this.subjects.get(match[1]!);
      if (!versions) return notFound(40401, `Subject '${match[1]}' not found.`);
      const version = match[2] === 'latest' ? versions.length : Number(match[2]);
      const id = versions[version - 1];
      if (id === undefined) return notFound(40402, `Version ${match[2]} not found.`);
      return reply(200, { subject: match[1], version, id, schema: this.schemas[id - 1] });
    }
    if (request.method === 'GET' && (match = path.match(/^\/schemas\/ids\/(\d+)$/))) {
      const schema = this.schemas[Number(match[1]) - 1];
      if (!schema) return notFound(40403, `Schema ${match[1]} not found`);
      return reply(200, { schema });
    }
    return notFound(404, `no route for ${request.method} ${path}`);
  }
}

describe('ConfluentSchemaRegistry against a Confluent-compatible HTTP registry', () => {
  const fake = new FakeConfluentRegistry();
  let registry: ConfluentSchemaRegistry;
  let ids: Record<string, number>;

  before(async () => {
    const host = await fake.start();
    registry = new ConfluentSchemaRegistry({ host, retry: { retries: 0 } });
    ids = await registerEventSchemas(registry);
  });
  after(() => fake.server.close());

  it('registers every event schema under its full name, once, with BACKWARD_TRANSITIVE compatibility', async () => {
    const all = [...TABLE_EVENT_TYPE_LIST, ...AUDIT_RECORD_TYPES];
    assert.deepEqual([...fake.subjects.keys()], all.map(recordFullName));
    assert.equal(fake.schemas.length, all.length);
    assert.deepEqual(new Set(fake.config.values()), new Set(['BACKWARD_TRANSITIVE']));
    assert.ok(fake.requests.includes('PUT /config/ta.common.TableOpened'));
    assert.deepEqual(await registerEventSchemas(registry), ids, 'registering again gives the same ids');
    assert.equal(fake.schemas.length, all.length);
    assert.deepEqual(JSON.parse(fake.schemas[ids['BetPlaced']! - 1]!), eventSchema('BetPlaced'));
  });

  it('round-trips every event type through the wire format with the registry ids', async () => {
    for (const event of exampleEvents()) {
      const bytes = await encodeEvent(registry, event.type, event.data);
      assert.equal(bytes.readUInt32BE(1), ids[event.type]);
      assert.deepStrictEqual(await decodeEvent(registry, bytes), {
        ...event,
        writerSchemaId: ids[event.type],
        defaultedFields: [],
      });
    }
  });

  it('writes what the client itself decodes, and decodes what the client itself encodes', async () => {
    const ours = await encodeEvent(registry, 'TableOpened', EXAMPLES.TableOpened);
    assert.deepEqual(JSON.parse(JSON.stringify(await registry.client.decode(ours))), EXAMPLES.TableOpened);
    const theirs = await registry.client.encode(ids['JackpotPaid']!, EXAMPLES.JackpotPaid);
    assert.deepStrictEqual((await decodeEvent(registry, theirs)).data, EXAMPLES.JackpotPaid);
  });

  it('reads data of an older version as a pinned later one, and as the pipeline reads it by default', async () => {
    const v1 = ids['RoundStarted']!;
    const v2Schema = structuredClone(eventSchema('RoundStarted'));
    (v2Schema['fields'] as JsonObject[]).push({
      name: 'tableLimitNote',
      type: ['null', 'string'],
      default: null,
      doc: 'who deals',
    });
    const v2 = await registry.register(v2Schema);
    assert.notEqual(v2, v1);
    assert.equal(await registry.latestIdFor('ta.common.RoundStarted'), v2);
    const old = await encodeEvent(registry, 'RoundStarted', EXAMPLES.RoundStarted, { schemaId: v1 });
    const decoded = await decodeEvent(registry, old, { readerIdFor: () => v2 });
    assert.deepStrictEqual(decoded.data, { ...EXAMPLES.RoundStarted, tableLimitNote: null });
    assert.equal(decoded.writerSchemaId, v1);
    assert.deepEqual(decoded.defaultedFields, ['tableLimitNote']);
    // without a pinned reader: the reader this build was made with, whatever the registry's latest
    assert.deepStrictEqual((await decodeEvent(registry, old)).data, EXAMPLES.RoundStarted);
  });

  it('refuses, before asking the registry, a version the pipeline cannot read (a field renamed with an alias)', async () => {
    const schema = structuredClone(eventSchema('BetPlaced'));
    const amount = (schema['fields'] as JsonObject[]).find((f) => f['name'] === 'amount')!;
    amount['name'] = 'stake';
    amount['aliases'] = ['amount'];
    const requests = fake.requests.length;
    await assert.rejects(registry.register(schema), UnreadableByPipelineError);
    assert.equal(fake.requests.length, requests, 'nothing was sent to the registry');
  });

  it('turns "not found" into the same errors as the file registry, and other failures into a request error', async () => {
    const bytes = await encodeEvent(registry, 'SeatVacated', EXAMPLES.SeatVacated);
    bytes.writeUInt32BE(4321, 1);
    await assert.rejects(decodeEvent(registry, bytes), (error: unknown) => {
      assert.ok(error instanceof UnknownSchemaIdError);
      assert.match(
        error.message,
        /schema id 4321 is not in the schema registry at http:\/\/127\.0\.0\.1:\d+/,
      );
      return true;
    });
    await assert.rejects(registry.latestIdFor('ta.f3cp.CoffeeServed'), UnknownSubjectError);
    fake.failNextWith = 500;
    await assert.rejects(registry.latestIdFor('ta.f3cp.BetPlaced'), (error: unknown) => {
      assert.ok(error instanceof RegistryRequestError);
      assert.equal(error.code, 'REGISTRY_REQUEST');
      assert.equal(error.status, 500);
      assert.match(error.message, /latest version of ta\.f3cp\.BetPlaced at http:.*HTTP 500/);
      return true;
    });
  });

  it('refuses to register into a subject whose compatibility level is not the one expected', async () => {
    fake.config.set('ta.common.RoundSettled', 'NONE');
    await assert.rejects(registry.register(eventSchema('RoundSettled')), (error: unknown) => {
      assert.ok(error instanceof RegistryRequestError);
      assert.match(
        error.message,
        /Compatibility does not match the configuration \(BACKWARD_TRANSITIVE != NONE\)/,
      );
      return true;
    });
  });
});
