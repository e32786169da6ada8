/**
 * The compact form: lossless for every value canonicalJson accepts (the hash chain is over that canonical JSON, so a
 * round trip that changed one byte of it would break every chain), and strict about bytes that are not a value.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { canonicalJson } from '../src/canonical-json.ts';
import {
  CompactFormatError,
  decodeCompact,
  encodeCompact,
  expandToHashForm,
  type DecodeDictionary,
  type EncodeDictionary,
  type ExpandDictionary,
} from '../src/compact.ts';
import { FormWriter } from '../src/hash-form.ts';

/** An in-memory dictionary: every shape kept, strings kept from their second sighting. */
function dictionary(): EncodeDictionary & DecodeDictionary & ExpandDictionary & { size(): number } {
  const ids = new Map<string, number>();
  const texts: string[] = [];
  const seen = new Set<string>();
  const idOf = (key: string) => {
    let id = ids.get(key);
    if (id === undefined) {
      id = texts.push(key) - 1;
      ids.set(key, id);
    }
    return id;
  };
  return {
    shape: (keys) => idOf(`s${keys}`),
    string: (value) => {
      if (ids.has(`t${value}`)) return ids.get(`t${value}`);
      if (!seen.has(value)) {
        seen.add(value);
        return undefined;
      }
      return idOf(`t${value}`);
    },
    shapeKeys: (id) => JSON.parse(texts[id]!.slice(1)) as string[],
    stringAt: (id) => texts[id]!.slice(1),
    stringForm: (id) => formOf((w) => w.string(texts[id]!.slice(1))),
    stringBytes: (id) => Buffer.from(texts[id]!.slice(1), 'utf8'),
    shapeForm: (id) => {
      const keys = JSON.parse(texts[id]!.slice(1)) as string[];
      return {
        keys: keys.length,
        bytes: formOf((w) => (w.varint(keys.length), keys.forEach((k) => w.string(k)))),
      };
    },
    size: () => texts.length,
  };
}

function formOf(write: (w: FormWriter) => void): Buffer {
  const w = new FormWriter();
  write(w);
  return Buffer.from(w.buf.subarray(0, w.at));
}

/** The hash form of the value kept in compact `bytes`, made from the bytes (as a reader checking links does). */
function expanded(bytes: Uint8Array, dict: ExpandDictionary, eventId: string): Buffer {
  return formOf((w) => expandToHashForm(bytes, dict, eventId, w));
}

const json: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.maxSafeInteger(),
    fc.string({ unit: 'grapheme' }),
    fc.constantFrom('TC-1', 'ANTE', 'Casino Lisboa', ''),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(fc.string(), tie('value'), { maxKeys: 5 }),
  ),
})).value;

describe('compact form', () => {
  it('gives back exactly the canonical JSON of any value, with the dictionary shared across values', () => {
    const dict = dictionary();
    fc.assert(
      fc.property(json, fc.string(), (value, eventId) => {
        const bytes = encodeCompact(value, dict, eventId);
        assert.equal(canonicalJson(decodeCompact(bytes, dict, eventId)), canonicalJson(value));
      }),
      { numRuns: 500, seed: 8 },
    );
  });

  it('keeps a "__proto__" key as the own property JSON.parse makes, not as a prototype', () => {
    const dict = dictionary();
    const value = JSON.parse('{"__proto__":{"x":1},"a":2}') as unknown;
    const back = decodeCompact(encodeCompact(value, dict), dict);
    assert.equal(canonicalJson(back), '{"__proto__":{"x":1},"a":2}');
  });

  it("keeps shapes and repeated strings once, and the event's own id as one byte", () => {
    const dict = dictionary();
    const event = (n: number) => ({
      header: { casino: 'Casino Lisboa', eventId: `TC-1-${n}`, sequence: n, tableId: 'LIS-F3CP-001' },
      card: '6d',
    });
    const first = encodeCompact(event(1), dict, 'TC-1-1');
    encodeCompact(event(2), dict, 'TC-1-2');
    const third = encodeCompact(event(3), dict, 'TC-1-3');
    assert.ok(third.length < first.length / 2, `${third.length} bytes, then ${first.length}`);
    assert.ok(third.length <= 16, `the third copy takes ${third.length} bytes`);
    assert.deepEqual(decodeCompact(third, dict, 'TC-1-3'), event(3));
    assert.equal(dict.size(), 2 + 3, 'two shapes, three repeated strings');
  });

  it('refuses bytes that are not exactly one value, saying where', () => {
    const dict = dictionary();
    const good = encodeCompact({ amount: 5, seat: [1, 2] }, dict);
    const fails = (bytes: Uint8Array, message: RegExp) =>
      assert.throws(
        () => decodeCompact(bytes, dict),
        (err: Error) => err instanceof CompactFormatError && message.test(err.message),
      );
    fails(good.subarray(0, good.length - 1), /ends early at byte \d+/);
    fails(Buffer.concat([good, Buffer.from([0])]), /bytes left after the value/);
    fails(Buffer.from([0xff]), /unknown tag 255 at byte 1/);
    fails(Buffer.from([7, 0xff, 0xff, 0xff, 0x7f]), /an array of \d+ items runs past the end/);
    fails(Buffer.from([5, 10, 65]), /a string of 10 bytes runs past the end/);
    fails(Buffer.from([4, 0]), /negative zero/);
    fails(Buffer.from([9]), /the event's id, where no id was given/);
    assert.throws(() => encodeCompact({ amount: 1.5 }, dict), CompactFormatError);
  });

  it('expands to the hash form of the decoded value, whatever the spelling of its varints', () => {
    const dict = dictionary();
    fc.assert(
      fc.property(json, fc.string(), (value, eventId) => {
        const bytes = encodeCompact(value, dict, eventId);
        const decoded = decodeCompact(bytes, dict, eventId);
        assert.deepEqual(
          expanded(bytes, dict, eventId),
          formOf((w) => w.value(decoded)),
        );
      }),
      { numRuns: 500, seed: 9 },
    );
    // 5 spelled in two bytes (0x85 0x00), an array of 2 spelled in three: the form is still the shortest spelling
    const longest = Buffer.from([7, 0x82, 0x80, 0x00, 3, 0x85, 0x00, 5, 0x81, 0x00, 65]);
    assert.deepEqual(
      expanded(longest, dict, 'e'),
      formOf((w) => w.value([5, 'A'])),
    );
    assert.throws(() => expanded(Buffer.from([4, 0x80, 0x00]), dict, 'e'), /negative zero/);
  });
});
