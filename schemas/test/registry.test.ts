import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { check, resolveConfig } from 'prettier';
import {
  AUDIT_RECORD_TYPES,
  COMMITTED_REGISTRY_PATH,
  eventFullName,
  IncompatibleSchemaError,
  eventSchema,
  F3CP_EVENT_TYPES,
  TABLE_EVENT_TYPE_LIST,
  FileSchemaRegistry,
  InvalidSchemaError,
  ReadOnlyRegistryError,
  RegistryFileError,
  registerEventSchemas,
  UnknownSchemaIdError,
  UnknownSubjectError,
  type JsonObject,
} from '../src/index.ts';

/** A schema whose keys are in another order, written with other whitespace: the same schema. */
function reformatted(schema: JsonObject): string {
  const reverseKeys = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(reverseKeys)
      : typeof value === 'object' && value !== null
        ? Object.fromEntries(
            Object.entries(value)
              .reverse()
              .map(([k, v]) => [k, reverseKeys(v)]),
          )
        : value;
  return JSON.stringify(reverseKeys(schema), null, 4);
}

const withDoc = (schema: JsonObject, doc: string): JsonObject => ({ ...structuredClone(schema), doc });

describe('the committed registry.json', () => {
  let registry: FileSchemaRegistry;
  before(async () => {
    registry = await FileSchemaRegistry.open(COMMITTED_REGISTRY_PATH, { readOnly: true });
  });

  it('keeps the ids it was first written with: 1-25 are version 1 of the events, all then in ta.f3cp', () => {
    const first = registry.entries().slice(0, 25);
    assert.deepEqual(
      first.map((e) => [e.id, e.fullName, e.version]),
      F3CP_EVENT_TYPES.slice(0, 25).map((type, i) => [i + 1, `ta.f3cp.${type}`, 1]),
    );
    // the schemas themselves, as first registered (the fingerprints of ids 1-25 of commit 95a901e)
    assert.equal(
      createHash('sha256')
        .update(first.map((e) => e.fingerprint).join(','))
        .digest('hex'),
      'e046a092367b683a1d4c5fe18eee15ba7958f950afd89867eecbe1a8a5654410',
    );
  });

  it('registers the records that moved to ta.common as new subjects, leaving the old ones in place', async () => {
    for (const type of F3CP_EVENT_TYPES) {
      const current = eventFullName(type);
      const latest = await registry.latestIdFor(current);
      assert.ok(latest > 25, `${current} has a version after the namespace change`);
      if (current.startsWith('ta.common.') && type !== 'EventCorrected') {
        assert.deepEqual(
          registry.versionsOf(`ta.f3cp.${type}`).map((e) => e.version),
          [1],
        );
        assert.equal(
          (await registry.schemaById(await registry.latestIdFor(`ta.f3cp.${type}`))).name,
          `ta.f3cp.${type}`,
        );
      }
    }
    for (const type of AUDIT_RECORD_TYPES) assert.ok(await registry.latestIdFor(`ta.audit.${type}`));
  });

  it('gives an already registered schema its id, whatever its key order and whitespace', async () => {
    for (const type of F3CP_EVENT_TYPES) {
      const id = await registry.latestIdFor(eventFullName(type));
      assert.equal(await registry.register(eventSchema(type)), id);
      assert.equal(await registry.register(reformatted(eventSchema(type))), id);
    }
  });

  it('refuses, read-only, to register anything new, and says how to', async () => {
    await assert.rejects(
      registry.register(withDoc(eventSchema('RoundSettled'), 'changed')),
      (error: unknown) => {
        assert.ok(error instanceof ReadOnlyRegistryError);
        assert.equal(error.code, 'READ_ONLY_REGISTRY');
        assert.match(
          error.message,
          /ta\.common\.RoundSettled .* is open read-only; register it with .*register-schemas/,
        );
        return true;
      },
    );
  });

  it('names an unknown id or record', async () => {
    await assert.rejects(registry.schemaById(999), UnknownSchemaIdError);
    await assert.rejects(registry.latestIdFor('ta.f3cp.CoffeeServed'), (error: unknown) => {
      assert.ok(error instanceof UnknownSubjectError);
      assert.match(error.message, /no schema is registered for ta\.f3cp\.CoffeeServed/);
      return true;
    });
  });

  it('is formatted as prettier formats it, so that `prettier --check` passes after a registration', async () => {
    const text = await readFile(COMMITTED_REGISTRY_PATH, 'utf8');
    const config = await resolveConfig(COMMITTED_REGISTRY_PATH);
    assert.ok(await check(text, { ...config, filepath: COMMITTED_REGISTRY_PATH }));
  });
});

describe('a file registry', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'schemas-registry-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('hands out stable ids: the same schema twice, a new version, a reload from disk', async () => {
    const path = join(dir, 'stable', 'registry.json');
    const registry = await FileSchemaRegistry.open(path); // no file yet: starts empty
    const ids = await registerEventSchemas(registry);
    const count = TABLE_EVENT_TYPE_LIST.length + AUDIT_RECORD_TYPES.length;
    assert.deepEqual(
      Object.values(ids),
      Array.from({ length: count }, (_, i) => i + 1),
    );
    assert.deepEqual(await registerEventSchemas(registry), ids);
    const firstText = await readFile(path, 'utf8');

    const v2 = await registry.register(
      withDoc(eventSchema('CardDealt'), 'A card is dealt (v2: doc changed).'),
    );
    assert.equal(v2, count + 1);
    assert.equal(await registry.latestIdFor('ta.f3cp.CardDealt'), count + 1);
    assert.equal(await registry.register(eventSchema('CardDealt')), ids.CardDealt, 'v1 keeps its id');

    const reloaded = await FileSchemaRegistry.open(path, { readOnly: true });
    assert.deepEqual(reloaded.entries(), registry.entries());
    assert.equal(await reloaded.latestIdFor('ta.f3cp.CardDealt'), count + 1);
    assert.deepEqual(
      reloaded.versionsOf('ta.f3cp.CardDealt').map((e) => [e.id, e.version]),
      [
        [ids.CardDealt, 1],
        [count + 1, 2],
      ],
    );
    assert.equal((await reloaded.schemaById(ids.BetPlaced)).name, 'ta.f3cp.BetPlaced');
    // Appending never rewrites what was there: the old entries are the same text, in the same place.
    assert.ok(firstText.endsWith('  }\n}\n'));
    assert.ok((await readFile(path, 'utf8')).startsWith(firstText.slice(0, -'\n}\n'.length)));
  });

  it('checks a record that moved namespace against the versions of its former name (its alias)', async () => {
    const registry = await FileSchemaRegistry.open(join(dir, 'moved.json'));
    const old = structuredClone(eventSchema('RoundStarted'));
    old['namespace'] = 'ta.f3cp';
    delete old['aliases'];
    await registry.register(old);
    assert.ok(await registry.register(eventSchema('RoundStarted'))); // reads the old data: accepted
    const breaking = structuredClone(eventSchema('SeatVacated'));
    const former = { ...structuredClone(breaking), namespace: 'ta.f3cp' } as JsonObject;
    delete former['aliases'];
    await registry.register(former);
    (breaking['fields'] as JsonObject[]).push({ name: 'reasonCode', type: 'string', doc: 'no default' });
    await assert.rejects(registry.register(breaking), (error: unknown) => {
      assert.ok(error instanceof IncompatibleSchemaError, String(error));
      assert.match(
        error.message,
        /ta\.common\.SeatVacated \(alias of ta\.f3cp\.SeatVacated\) cannot read data written with version 1 .*reasonCode/,
      );
      return true;
    });
  });

  it('gives one id to one schema however many registrations run at once', async () => {
    const registry = await FileSchemaRegistry.open(join(dir, 'concurrent.json'));
    const schemas = [eventSchema('RoundStarted'), eventSchema('RoundSettled'), eventSchema('RoundStarted')];
    const ids = await Promise.all([...schemas, ...schemas].map((s) => registry.register(s)));
    assert.deepEqual(ids, [1, 2, 1, 1, 2, 1]);
    assert.equal(registry.entries().length, 2);
  });

  it('refuses what is not a registrable schema, saying why', async () => {
    const registry = await FileSchemaRegistry.open(join(dir, 'invalid.json'));
    const cases: [string | JsonObject, RegExp][] = [
      ['{"type": "record"', /not JSON/],
      [{ type: 'array', items: 'string' }, /only a named type/],
      [
        {
          type: 'record',
          name: 'X',
          namespace: 'ta.f3cp',
          fields: [{ name: 'h', type: 'ta.common.EventHeader' }],
        },
        /undefined type name: ta\.common\.EventHeader/,
      ],
    ];
    for (const [schema, reason] of cases)
      await assert.rejects(registry.register(schema), (error: unknown) => {
        assert.ok(error instanceof InvalidSchemaError, String(error));
        assert.match(error.message, reason);
        return true;
      });
  });

  it('refuses to load a file that was edited by hand', async () => {
    const original = JSON.parse(await readFile(COMMITTED_REGISTRY_PATH, 'utf8')) as Record<
      string,
      JsonObject
    >;
    const tampered = async (
      edit: (file: Record<string, JsonObject>) => void,
      reason: RegExp,
    ): Promise<void> => {
      const file = structuredClone(original);
      edit(file);
      const path = join(dir, 'tampered.json');
      await writeFile(path, JSON.stringify(file));
      await assert.rejects(FileSchemaRegistry.open(path, { readOnly: true }), (error: unknown) => {
        assert.ok(error instanceof RegistryFileError, String(error));
        assert.equal(error.code, 'REGISTRY_FILE');
        assert.match(error.message, reason);
        assert.match(error.message, /append-only and ids never change/);
        return true;
      });
    };
    await tampered(
      (f) =>
        void (f['3']!['schema'] = String(f['3']!['schema']).replace(
          'A shuffle starts.',
          'A shuffle begins.',
        )),
      /entry 3: the fingerprint does not match the schema/,
    );
    await tampered(
      (f) => void (f['4']!['version'] = 2),
      /entry 4: it is version 2 of ta\.f3cp\.ShuffleCompleted, but .* make it 1/,
    );
    await tampered((f) => void (f['x1'] = f['1']!), /"x1" is not a schema id/);
    await tampered(
      (f) => void (f['5']!['fullName'] = 'ta.f3cp.Other'),
      /entry 5: its schema is ta\.f3cp\.ShufflerMalfunction, not ta\.f3cp\.Other/,
    );
    await assert.rejects(
      FileSchemaRegistry.open(join(dir, 'missing.json'), { readOnly: true }),
      /cannot be read/,
    );
  });
});
