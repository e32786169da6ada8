import assert from 'node:assert/strict';
import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import {
  AUDIT_RECORD_TYPES,
  COMMITTED_REGISTRY_PATH,
  CorruptPayloadError,
  decodeEvent,
  decodeRecord,
  encodeEvent,
  eventFullName,
  FileSchemaRegistry,
  frame,
  InvalidEventError,
  MessageTooShortError,
  readFrame,
  SchemasError,
  TruncatedPayloadError,
  UnknownEventTypeError,
  UnknownSchemaIdError,
  WrongMagicByteError,
  WrongSchemaError,
  type F3cpEvents,
} from '../src/index.ts';
import { AUDIT_EXAMPLES, EXAMPLES, exampleEvents } from './examples.ts';

describe('the Confluent wire format', () => {
  let registry: FileSchemaRegistry;
  before(async () => {
    registry = await FileSchemaRegistry.open(COMMITTED_REGISTRY_PATH, { readOnly: true });
  });

  it('round-trips every event type through the registered schemas', async () => {
    for (const event of exampleEvents()) {
      const bytes = await encodeEvent(registry, event.type, event.data);
      const schemaId = await registry.latestIdFor(eventFullName(event.type));
      assert.equal(bytes[0], 0, 'magic byte');
      assert.equal(bytes.readUInt32BE(1), schemaId, 'schema id, big-endian');
      const decoded = await decodeEvent(registry, bytes);
      assert.deepStrictEqual(
        decoded,
        { ...event, writerSchemaId: schemaId, defaultedFields: [] },
        event.type,
      );
    }
  });

  it('gives times as numbers of UTC milliseconds, not Dates, and plain objects', async () => {
    const bytes = await encodeEvent(registry, 'TableOpened', EXAMPLES.TableOpened);
    const { data } = await decodeEvent(registry, new Uint8Array(bytes)); // any Uint8Array will do
    assert.ok(data.header.eventTime > 1.7e12);
    assert.equal(typeof data.header.eventTime, 'number');
    assert.equal(Object.getPrototypeOf(data), Object.prototype);
    assert.deepStrictEqual(structuredClone(data), EXAMPLES.TableOpened);
  });

  it('says when a message is too short to hold the frame', async () => {
    for (const length of [0, 1, 4]) {
      await assert.rejects(decodeEvent(registry, Buffer.alloc(length)), (error: unknown) => {
        assert.ok(error instanceof MessageTooShortError);
        assert.equal(error.code, 'MESSAGE_TOO_SHORT');
        assert.match(error.message, new RegExp(`message of ${length} byte\\(s\\) is too short`));
        return true;
      });
    }
  });

  it('says which byte it found instead of the magic byte', async () => {
    const json = Buffer.from(JSON.stringify({ type: 'RoundStarted' }));
    await assert.rejects(decodeEvent(registry, json), (error: unknown) => {
      assert.ok(error instanceof WrongMagicByteError);
      assert.equal(error.code, 'WRONG_MAGIC_BYTE');
      assert.equal(error.found, 0x7b);
      assert.match(error.message, /found 0x7b \('\{'\).*looks like JSON/);
      return true;
    });
    const bytes = await encodeEvent(registry, 'RoundStarted', EXAMPLES.RoundStarted);
    bytes[0] = 1;
    await assert.rejects(decodeEvent(registry, bytes), /expected 0x00 .* but found 0x01/);
  });

  it('names an unknown schema id', async () => {
    const bytes = await encodeEvent(registry, 'RoundStarted', EXAMPLES.RoundStarted);
    bytes.writeUInt32BE(70_000, 1);
    await assert.rejects(decodeEvent(registry, bytes), (error: unknown) => {
      assert.ok(error instanceof UnknownSchemaIdError);
      assert.equal(error.code, 'UNKNOWN_SCHEMA_ID');
      assert.equal(error.schemaId, 70_000);
      assert.match(error.message, /schema id 70000 is not in the file schema registry/);
      return true;
    });
  });

  it('says how many bytes a truncated payload has and needs', async () => {
    const bytes = await encodeEvent(registry, 'TableOpened', EXAMPLES.TableOpened);
    const payloadLength = bytes.length - 5;
    for (const cut of [1, 7, payloadLength - 1]) {
      await assert.rejects(decodeEvent(registry, bytes.subarray(0, bytes.length - cut)), (error: unknown) => {
        assert.ok(error instanceof TruncatedPayloadError, String(error));
        assert.equal(error.code, 'TRUNCATED_PAYLOAD');
        assert.equal(error.available, payloadLength - cut);
        assert.ok(error.needed > error.available && error.needed <= payloadLength, `${error.needed}`);
        assert.match(error.message, new RegExp(`${payloadLength - cut} byte\\(s\\) after the 5-byte frame`));
        assert.match(error.message, /ta\.common\.TableOpened \(schema id \d+\) needs at least \d+/);
        return true;
      });
    }
  });

  it('says how many bytes are left over after the record', async () => {
    const bytes = await encodeEvent(registry, 'PlayDecision', EXAMPLES.PlayDecision);
    const longer = Buffer.concat([bytes, Buffer.from([1, 2, 3])]);
    await assert.rejects(decodeEvent(registry, longer), (error: unknown) => {
      assert.ok(error instanceof CorruptPayloadError);
      assert.equal(error.code, 'CORRUPT_PAYLOAD');
      assert.match(error.message, /leaving 3 byte\(s\) unread/);
      return true;
    });
  });

  it('reports an enum or union index out of range as a corrupt payload', async () => {
    const decision = await encodeEvent(registry, 'PlayDecision', EXAMPLES.PlayDecision);
    decision[decision.length - 1] = 0x0e; // the decision enum, index 7 of 2
    await assert.rejects(decodeEvent(registry, decision), (error: unknown) => {
      assert.ok(error instanceof CorruptPayloadError);
      assert.match(error.message, /invalid ta\.f3cp\.PlayChoice enum index: 7/);
      return true;
    });
    const returned = await encodeEvent(registry, 'BetReturned', EXAMPLES.BetReturned);
    returned[returned.length - 1] = 0x08; // reason: null branch (0) becomes branch 4 of 2
    await assert.rejects(decodeEvent(registry, returned), /corrupt payload .*invalid union index: 4/);
  });

  it('never fails with anything but its own errors, whatever the bytes', async () => {
    const messages = await Promise.all(exampleEvents().map((e) => encodeEvent(registry, e.type, e.data)));
    await fc.assert(
      fc.asyncProperty(
        fc.nat(messages.length - 1),
        fc.array(fc.tuple(fc.nat(400), fc.nat(255)), { minLength: 1, maxLength: 4 }),
        fc.nat(400),
        async (which, flips, cut) => {
          const bytes = Buffer.from(messages[which]!);
          for (const [position, value] of flips) bytes[5 + (position % (bytes.length - 5))] = value;
          try {
            await decodeEvent(registry, bytes.subarray(0, Math.max(bytes.length - cut, 5)));
          } catch (error) {
            if (!(error instanceof SchemasError)) throw error;
          }
        },
      ),
      { numRuns: 400, seed: 20251120 },
    );
  });

  it('refuses to encode an invalid event, naming every wrong value', async () => {
    const bad = {
      ...EXAMPLES.BetPlaced,
      amount: 12.5,
      betType: 'LUCKY_SEVEN',
      header: { ...EXAMPLES.BetPlaced.header, eventId: undefined },
    } as unknown as F3cpEvents['BetPlaced'];
    await assert.rejects(encodeEvent(registry, 'BetPlaced', bad), (error: unknown) => {
      assert.ok(error instanceof InvalidEventError);
      assert.equal(error.code, 'INVALID_EVENT');
      assert.deepEqual(error.problems, [
        'header.eventId is missing, expected string',
        'betType is "LUCKY_SEVEN", expected one of ANTE, PLAY, PAIR_PLUS, SIX_CARD_BONUS, PROGRESSIVE, UNKNOWN',
        'amount is 12.5, expected a whole number (Avro long, safe integer)',
      ]);
      return true;
    });
  });

  it('refuses an unknown event type, or a schema id of another record', async () => {
    await assert.rejects(
      encodeEvent(registry, 'CoffeeServed' as 'RoundSettled', EXAMPLES.RoundSettled),
      (error: unknown) =>
        error instanceof UnknownEventTypeError && /"CoffeeServed" is not an event type/.test(error.message),
    );
    const cardDealtId = await registry.latestIdFor('ta.f3cp.CardDealt');
    await assert.rejects(
      encodeEvent(registry, 'RoundSettled', EXAMPLES.RoundSettled, { schemaId: cardDealtId }),
      (error: unknown) =>
        error instanceof WrongSchemaError &&
        error.message === `schema id ${cardDealtId} is ta.f3cp.CardDealt, not ta.common.RoundSettled`,
    );
  });

  describe('with a registry that also holds a record that is not an event', () => {
    let dir: string;
    after(() => rm(dir, { recursive: true, force: true }));

    it('says that the schema of a message is not an event', async () => {
      dir = await mkdtemp(join(tmpdir(), 'schemas-wire-'));
      await copyFile(COMMITTED_REGISTRY_PATH, join(dir, 'registry.json'));
      const writable = await FileSchemaRegistry.open(join(dir, 'registry.json'));
      const id = await writable.register({
        type: 'record',
        name: 'Note',
        namespace: 'ta.common',
        doc: 'not an event',
        fields: [{ name: 'text', type: 'string' }],
      });
      const type = await writable.schemaById(id);
      await assert.rejects(
        decodeEvent(writable, frame(id, type.toBuffer({ text: 'hello' }))),
        (error: unknown) =>
          error instanceof UnknownEventTypeError &&
          error.message.includes(`schema id ${id} is ta.common.Note`),
      );
    });
  });

  it('round-trips what the pipeline writes (ta.audit), and keeps it apart from table events', async () => {
    for (const type of AUDIT_RECORD_TYPES) {
      const bytes = await encodeEvent(registry, type, AUDIT_EXAMPLES[type]);
      assert.equal(bytes.readUInt32BE(1), await registry.latestIdFor(`ta.audit.${type}`));
      const decoded = await decodeRecord(registry, bytes);
      assert.equal(decoded.type, type);
      assert.deepStrictEqual(decoded.data, AUDIT_EXAMPLES[type]);
      await assert.rejects(
        decodeEvent(registry, bytes),
        (error: unknown) =>
          error instanceof UnknownEventTypeError &&
          error.message.includes(`is ta.audit.${type}, a record the pipeline writes, not a table event`),
      );
    }
    const event = await decodeRecord(registry, await encodeEvent(registry, 'BetPlaced', EXAMPLES.BetPlaced));
    assert.deepStrictEqual(event.data, EXAMPLES.BetPlaced);
  });

  it('reads the frame alone', async () => {
    const bytes = await encodeEvent(registry, 'SeatOccupied', EXAMPLES.SeatOccupied);
    const { schemaId, payload } = readFrame(bytes);
    assert.equal(schemaId, await registry.latestIdFor('ta.common.SeatOccupied'));
    assert.equal(payload.length, bytes.length - 5);
  });
});
