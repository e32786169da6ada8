import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { eventUuid } from '../src/eventstoredb-event-store.ts';
import { canonicalJson, NotCanonicalJson } from '../src/index.ts';
import { hashedText, metadataJson } from '../src/hash-chain.ts';

/** JSON the store accepts: no floats, only safe integers. */
const storableJson = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.string({ unit: 'binary' }),
    fc.maxSafeInteger(),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.string(), tie('value'), { maxKeys: 4 }),
  ),
})).value;

describe('canonical JSON', () => {
  it('sorts keys at every depth, keeps array order, writes no whitespace', () => {
    assert.equal(
      canonicalJson({ b: 1, a: [3, { d: true, c: null }], é: 'x', Z: -0 }),
      '{"Z":0,"a":[3,{"c":null,"d":true}],"b":1,"é":"x"}',
    );
    assert.equal(canonicalJson({ kept: 1, dropped: undefined }), '{"kept":1}');
    assert.equal(canonicalJson('富貴三條'), '"富貴三條"');
  });

  it('refuses what a JSON round trip would change, saying where', () => {
    const cases: Array<[unknown, string]> = [
      [{ a: { b: 0.5 } }, '$.a.b'],
      [[Number.POSITIVE_INFINITY], '$[0]'],
      [{ 'odd key': 2 ** 53 }, '$["odd key"]'],
      [[1, undefined], '$[1]'],
      [{ d: new Date(0) }, '$.d'],
      [{ m: new Map() }, '$.m'],
      [{ n: 1n }, '$.n'],
      [{ f: () => 1 }, '$.f'],
    ];
    for (const [value, path] of cases)
      assert.throws(
        () => canonicalJson(value),
        (err: unknown) => err instanceof NotCanonicalJson && err.path === path,
        path,
      );
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    assert.throws(() => canonicalJson(circular), /circular/);
  });

  it('is stable under a JSON round trip', () => {
    fc.assert(
      fc.property(storableJson, (value) => {
        const text = canonicalJson(value);
        assert.equal(canonicalJson(JSON.parse(text)), text);
      }),
    );
  });

  it('the append path hashes exactly canonicalJson({stream, revision, eventId, type, data, metadata, recordedAt})', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }),
        fc.nat(),
        fc.string({ minLength: 1 }),
        fc.string({ minLength: 1 }),
        storableJson,
        fc.option(fc.dictionary(fc.string(), storableJson, { minKeys: 1, maxKeys: 3 }), { nil: undefined }),
        fc.nat({ max: 2 ** 48 }),
        (stream, revision, eventId, type, data, metadata, recordedAt) => {
          const text = hashedText({
            stream,
            revision,
            eventId,
            type,
            recordedAt,
            dataJson: canonicalJson(data),
            metadataJson: metadataJson(metadata),
          });
          assert.equal(text, canonicalJson({ stream, revision, eventId, type, data, metadata, recordedAt }));
        },
      ),
    );
  });
});

describe('EventStoreDB event ids', () => {
  it('keeps a UUID, and maps any other id to a stable, distinct UUID', () => {
    assert.equal(eventUuid('9F1B2C3D-0000-4000-8000-00000000000A'), '9f1b2c3d-0000-4000-8000-00000000000a');
    const a = eventUuid('finding:round-17:payout-check');
    assert.match(a, /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    assert.equal(eventUuid('finding:round-17:payout-check'), a);
    assert.notEqual(eventUuid('finding:round-18:payout-check'), a);
  });
});

describe('canonical JSON, fast path', () => {
  // the reference: the simplest recursive spelling, keys sorted by code unit at every level
  const reference = (v: unknown): string =>
    Array.isArray(v)
      ? `[${v.map(reference).join(',')}]`
      : v !== null && typeof v === 'object'
        ? `{${Object.keys(v)
            .sort()
            .map((k) => `${JSON.stringify(k)}:${reference((v as Record<string, unknown>)[k])}`)
            .join(',')}}`
        : JSON.stringify(v);
  it('property: spells every JSON value with integers exactly as a plain sorted-key serializer', () => {
    const value = fc.letrec((tie) => ({
      v: fc.oneof(
        { depthSize: 'small' },
        fc.string(),
        fc.boolean(),
        fc.constant(null),
        fc.maxSafeInteger(),
        fc.array(tie('v')),
        fc.dictionary(fc.string(), tie('v')),
      ),
    })).v;
    fc.assert(
      fc.property(value, (v) => assert.equal(canonicalJson(v), reference(v))),
      { numRuns: 2_000 },
    );
  });
});
