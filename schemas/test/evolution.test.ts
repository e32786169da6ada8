import assert from 'node:assert/strict';
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  COMMITTED_REGISTRY_PATH,
  decodeEvent,
  encodeEvent,
  eventSchema,
  FileSchemaRegistry,
  IncompatibleSchemaError,
  SchemaNotResolvableError,
  type F3cpEvents,
  type JsonObject,
} from '../src/index.ts';
import { EXAMPLES } from './examples.ts';

/** The current schema of RoundStarted with one more field: who deals the round, with a default. */
function roundStartedV2(): JsonObject {
  const schema = structuredClone(eventSchema('RoundStarted'));
  (schema['fields'] as JsonObject[]).push({
    name: 'dealerId',
    type: ['null', 'string'],
    default: null,
    doc: 'The croupier dealing the round; null when the table did not say.',
  });
  return schema;
}

type RoundStartedV2 = F3cpEvents['RoundStarted'] & { dealerId: string | null };

describe('schema evolution through the registry ids', () => {
  let dir: string;
  let registry: FileSchemaRegistry;
  let v1: number;
  let v2: number;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'schemas-evolution-'));
    await copyFile(COMMITTED_REGISTRY_PATH, join(dir, 'registry.json'));
    registry = await FileSchemaRegistry.open(join(dir, 'registry.json'));
    v1 = await registry.latestIdFor('ta.f3cp.RoundStarted');
    v2 = await registry.register(roundStartedV2());
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('makes a record with an added field a new version with a new id, and the latest', async () => {
    assert.notEqual(v2, v1);
    assert.equal(await registry.latestIdFor('ta.f3cp.RoundStarted'), v2);
    assert.deepEqual(
      registry.versionsOf('ta.f3cp.RoundStarted').map((e) => [e.id, e.version]),
      [
        [v1, 1],
        [v2, 2],
      ],
    );
  });

  it('reads data written with v1 as v2: the new field takes its default', async () => {
    const bytes = await encodeEvent(registry, 'RoundStarted', EXAMPLES.RoundStarted, { schemaId: v1 });
    assert.equal(bytes.readUInt32BE(1), v1);
    const decoded = await decodeEvent(registry, bytes);
    assert.equal(decoded.writerSchemaId, v1);
    assert.deepStrictEqual(decoded.data, { ...EXAMPLES.RoundStarted, dealerId: null });
  });

  it('reads data written with v2 as v1: the new field is skipped', async () => {
    const written: RoundStartedV2 = { ...EXAMPLES.RoundStarted, dealerId: 'croupier-2231' };
    const bytes = await encodeEvent(registry, 'RoundStarted', written); // the latest: v2
    assert.equal(bytes.readUInt32BE(1), v2);
    const asV1 = await decodeEvent(registry, bytes, { readerIdFor: () => v1 });
    assert.equal(asV1.writerSchemaId, v2);
    assert.deepStrictEqual(asV1.data, EXAMPLES.RoundStarted);
    const asV2 = await decodeEvent(registry, bytes);
    assert.deepStrictEqual(asV2.data, written);
  });

  it('reads an added enum symbol with the new version, and says why the old one cannot', async () => {
    const schema = structuredClone(eventSchema('SurveillanceObservation'));
    const kind = (schema['fields'] as JsonObject[]).find((f) => f['name'] === 'kind')!['type'] as JsonObject;
    kind['symbols'] = [...(kind['symbols'] as string[]), 'FACE_COVERED'];
    const old = await registry.latestIdFor('ta.f3cp.SurveillanceObservation');
    const added = await registry.register(schema);
    const observation = {
      ...EXAMPLES.SurveillanceObservation,
      kind: 'FACE_COVERED',
    } as unknown as F3cpEvents['SurveillanceObservation'];
    const bytes = await encodeEvent(registry, 'SurveillanceObservation', observation);
    const decoded = await decodeEvent(registry, bytes);
    assert.ok(decoded.type === 'SurveillanceObservation');
    assert.equal(decoded.data.kind, 'FACE_COVERED');
    const oldData = await encodeEvent(registry, 'SurveillanceObservation', EXAMPLES.SurveillanceObservation, {
      schemaId: old,
    });
    assert.deepStrictEqual((await decodeEvent(registry, oldData)).data, EXAMPLES.SurveillanceObservation);
    await assert.rejects(decodeEvent(registry, bytes, { readerIdFor: () => old }), (error: unknown) => {
      assert.ok(error instanceof SchemaNotResolvableError);
      assert.equal(error.code, 'SCHEMA_NOT_RESOLVABLE');
      assert.match(
        error.message,
        new RegExp(
          `written with ta\\.f3cp\\.SurveillanceObservation schema id ${added} as ta\\.f3cp\\.SurveillanceObservation schema id ${old}`,
        ),
      );
      return true;
    });
  });

  it('refuses a version that cannot read the earlier ones, and leaves the file as it was', async () => {
    const before = await readFile(join(dir, 'registry.json'), 'utf8');
    const schema = roundStartedV2();
    (schema['fields'] as JsonObject[]).push({
      name: 'tableLimitMop',
      type: 'long',
      doc: 'no default: breaks old data',
    });
    await assert.rejects(registry.register(schema), (error: unknown) => {
      assert.ok(error instanceof IncompatibleSchemaError);
      assert.equal(error.code, 'INCOMPATIBLE_SCHEMA');
      assert.match(error.message, /cannot read data written with version 1 .*tableLimitMop/);
      return true;
    });
    assert.equal(await readFile(join(dir, 'registry.json'), 'utf8'), before);
    assert.equal(await registry.latestIdFor('ta.f3cp.RoundStarted'), v2);
  });
});
