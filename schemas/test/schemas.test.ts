import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import avro from 'avsc';
import {
  createType,
  eventFullName,
  eventSchema,
  recordFullName,
  recordSchema,
  eventUnionSchema,
  HEADER_FULL_NAME,
  isJsonObject,
  schemaDefinitions,
  schemaFingerprint,
  type Json,
  type JsonObject,
} from '../src/avro.ts';
import {
  AUDIT_RECORD_TYPES,
  CRAPS_OWN_EVENT_TYPES,
  TABLE_EVENT_TYPE_LIST,
  THIRTEEN_OWN_EVENT_TYPES,
  MAHJONG_OWN_EVENT_TYPES,
} from '../src/events.ts';
import { COMMITTED_REGISTRY_PATH, FileSchemaRegistry } from '../src/registry.ts';

interface FieldVisit {
  path: string;
  field: JsonObject;
}

/** Every field of a self-contained schema, nested records included, with its dotted path. */
function fieldsOf(schema: Json, path = ''): FieldVisit[] {
  if (Array.isArray(schema)) return schema.flatMap((branch) => fieldsOf(branch, path));
  if (!isJsonObject(schema)) return [];
  if (schema['type'] === 'array') return fieldsOf(schema['items'] ?? null, `${path}[]`);
  if (schema['type'] !== 'record') return [];
  return (schema['fields'] as JsonObject[]).flatMap((field) => {
    const fieldPath = path ? `${path}.${String(field['name'])}` : String(field['name']);
    return [{ path: fieldPath, field }, ...fieldsOf(field['type'] ?? null, fieldPath)];
  });
}

/** Every named type defined in a self-contained schema. */
function namedTypesOf(schema: Json): JsonObject[] {
  if (Array.isArray(schema)) return schema.flatMap(namedTypesOf);
  if (!isJsonObject(schema)) return [];
  const own = ['record', 'enum', 'fixed'].includes(String(schema['type'])) ? [schema] : [];
  const nested = [
    ...(Array.isArray(schema['fields'])
      ? (schema['fields'] as JsonObject[]).map((f) => f['type'] ?? null)
      : []),
    schema['items'] ?? null,
    typeof schema['type'] === 'object' ? schema['type'] : null,
  ];
  return [...own, ...nested.flatMap(namedTypesOf)];
}

const ALL_TYPES = [...TABLE_EVENT_TYPE_LIST, ...AUDIT_RECORD_TYPES];
const TIME = { type: 'long', logicalType: 'timestamp-millis' };
const isTime = (type: Json | undefined): boolean => JSON.stringify(type) === JSON.stringify(TIME);
const nonNull = (type: Json | undefined): Json | undefined =>
  Array.isArray(type) ? type.find((branch) => branch !== 'null') : type;

describe('the .avsc files', () => {
  const definitions = schemaDefinitions();

  it('define the EventHeader and exactly one record per event and audit record type, events with the header first', () => {
    const records = [...definitions.values()]
      .filter((d) => d.type === 'record')
      .map((d) => `${d['namespace']}.${d.name}`);
    assert.deepEqual(records.sort(), [HEADER_FULL_NAME, ...ALL_TYPES.map(recordFullName)].sort());
    for (const type of TABLE_EVENT_TYPE_LIST) {
      const first = (definitions.get(eventFullName(type))!['fields'] as JsonObject[])[0]!;
      assert.equal(first['name'], 'header', type);
      assert.equal(first['type'], HEADER_FULL_NAME, type);
    }
  });

  it('group the records by namespace: the envelope and shared table events, F3CP, what the pipeline writes', () => {
    const namespaceOf = (type: string): string => recordFullName(type as never).replace(/\.\w+$/, '');
    const common = [
      'TableOpened',
      'TableClosed',
      'SeatOccupied',
      'SeatVacated',
      'ShuffleStarted',
      'ShuffleCompleted',
      'ShufflerMalfunction',
      'ShufflerReplaced',
      'DealingSwitchedToShoe',
      'RoundStarted',
      'RoundSettled',
      'RoundVoided',
      'SurveillanceObservation',
      'EventCorrected',
    ];
    for (const type of ALL_TYPES)
      assert.equal(
        namespaceOf(type),
        AUDIT_RECORD_TYPES.includes(type as never)
          ? 'ta.audit'
          : common.includes(type)
            ? 'ta.common'
            : (CRAPS_OWN_EVENT_TYPES as readonly string[]).includes(type)
              ? 'ta.craps'
              : (THIRTEEN_OWN_EVENT_TYPES as readonly string[]).includes(type)
                ? 'ta.thirteen'
                : (MAHJONG_OWN_EVENT_TYPES as readonly string[]).includes(type)
                  ? 'ta.mahjong'
                  : 'ta.f3cp',
        type,
      );
    // the table events every game shares do not depend on a game's own types, except TableOpened's F3CP settings
    for (const type of common.filter((t) => t !== 'TableOpened'))
      assert.doesNotMatch(JSON.stringify(eventSchema(type as never)), /"namespace":"ta\.f3cp"/, type);
    assert.match(
      JSON.stringify(eventSchema('TableOpened')),
      /"namespace":"ta\.f3cp"/,
      'the check sees F3CP types',
    );
  });

  it('give every field and named type a doc, and every named type a ta.* namespace', () => {
    for (const type of ALL_TYPES) {
      const schema = recordSchema(type);
      for (const { path, field } of fieldsOf(schema))
        assert.ok(typeof field['doc'] === 'string' && field['doc'].length > 8, `${type}.${path} has no doc`);
      for (const named of namedTypesOf(schema))
        assert.ok(typeof named['doc'] === 'string', `${String(named['name'])} in ${type} has no doc`);
      const registry: { [name: string]: avro.Type } = {};
      avro.Type.forSchema(schema as avro.Schema, { registry });
      const primitives = ['null', 'boolean', 'int', 'long', 'float', 'double', 'bytes', 'string'];
      for (const fullName of Object.keys(registry).filter((name) => !primitives.includes(name)))
        assert.match(
          fullName,
          /^ta\.(common|f3cp|craps|thirteen|mahjong|audit)\.[A-Z]\w+$/,
          `${fullName} in ${type}`,
        );
    }
  });

  it('make every nullable field ["null", X] with default null, and nothing else nullable', () => {
    for (const type of ALL_TYPES)
      for (const { path, field } of fieldsOf(recordSchema(type))) {
        if (!Array.isArray(field['type'])) continue;
        assert.equal(field['type'].length, 2, `${type}.${path}`);
        assert.equal(
          field['type'][0],
          'null',
          `${type}.${path}: null comes first, so that null is the default`,
        );
        assert.ok('default' in field && field['default'] === null, `${type}.${path} needs "default": null`);
      }
  });

  it('write times as timestamp-millis longs, amounts as longs documented in avos, cards with their form', () => {
    const header = fieldsOf(eventSchema('RoundStarted'));
    assert.ok(isTime(header.find((f) => f.path === 'header.eventTime')!.field['type']));
    assert.ok(isTime(nonNull(header.find((f) => f.path === 'header.receivedTime')!.field['type'])));
    for (const type of ALL_TYPES)
      for (const { path, field } of fieldsOf(recordSchema(type))) {
        const doc = String(field['doc']);
        const name = String(field['name']);
        if (nonNull(field['type']) === 'long' && !['sequence', 'roundNumber'].includes(name))
          assert.match(doc, /avos \(1\/100 MOP/, `${type}.${path} is a long amount: say it is in avos`);
        if (/^cards?$/.test(name))
          assert.match(doc, /rank 2-9, T, J, Q, K or A, then suit c, d, h or s/, `${type}.${path}`);
        if (/seat/i.test(name) && name !== 'seats' && nonNull(field['type']) === 'int')
          assert.match(doc, /from 1 \(the seat immediately left of the banker\)/, `${type}.${path}`);
      }
  });

  it('parse on their own and as the union of every event record', () => {
    for (const type of TABLE_EVENT_TYPE_LIST)
      assert.equal(createType(eventSchema(type)).name, eventFullName(type));
    const union = createType(eventUnionSchema()) as unknown as { types: { name: string }[] };
    assert.deepEqual(
      union.types.map((t) => t.name),
      TABLE_EVENT_TYPE_LIST.map(eventFullName),
    );
  });

  it('are all registered in the committed registry.json, each as the latest version of its record', async () => {
    const registry = await FileSchemaRegistry.open(COMMITTED_REGISTRY_PATH, { readOnly: true });
    for (const type of ALL_TYPES) {
      const versions = registry.versionsOf(recordFullName(type));
      assert.equal(
        versions.at(-1)?.fingerprint,
        schemaFingerprint(recordSchema(type)),
        `${recordFullName(type)} changed: run \`pnpm --filter @table-audit/schemas register-schemas\` and commit registry.json`,
      );
    }
  });
});
