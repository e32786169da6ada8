// The ingest pipeline on its own: Given inputs, Then what the store holds and what was rejected, and why.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { EventStore } from '@table-audit/eventstore';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import type { EventHeader, F3cpEvent, F3cpEvents, F3cpEventType } from '@table-audit/schemas/events';
import { EXAMPLE_TABLE_ID, EXAMPLES, eventOf } from '../../../schemas/test/examples.ts';
import { IngestPipeline, meaningProblems, REJECT_CODES, type IngestInput } from '../src/index.ts';
import { assertExactlyOnce, readAllEvents, rejectsIn } from './helpers.ts';

let nextId = 0;
/** The example event of a type, with a fresh id (or the given one) and what `change` sets. */
function ev<K extends F3cpEventType>(
  type: K,
  change: Partial<Omit<F3cpEvents[K], 'header'>> & { header?: Partial<EventHeader> } = {},
): F3cpEvent {
  const example = EXAMPLES[type];
  const { header, ...rest } = change;
  return eventOf(type, {
    ...example,
    ...rest,
    header: { ...example.header, eventId: `ev-${++nextId}`, ...header },
  } as F3cpEvents[K]);
}

const opened = (tableId = EXAMPLE_TABLE_ID) => ev('TableOpened', { header: { tableId } });
let offset = 0;
const input = (event: F3cpEvent): IngestInput => ({
  source: { kind: 'in-process', producer: 'test', index: offset++ },
  event,
});

function fresh() {
  const store = new SqliteEventStore(':memory:');
  return { store, pipeline: new IngestPipeline(store, () => 1_700_000_000_000) };
}

/** Submits events to a fresh pipeline after the table was opened; returns the reasons of the rejects, in order. */
async function reasonsFor(...events: F3cpEvent[]): Promise<string[]> {
  const { store, pipeline } = fresh();
  await pipeline.submit([input(opened())]);
  await pipeline.submit(events.map(input));
  const reasons = (await rejectsIn(store)).map((r) => r.data.reason);
  await store.close();
  return reasons;
}

describe('meaning checks: each problem is refused with a reason naming the field and what is wrong', () => {
  const cases: [string, F3cpEvent, RegExp][] = [
    [
      'a card that does not exist',
      ev('CardDealt', { card: 'Zz' }),
      /^invalid CardDealt: card "Zz" is not a card: expected a rank \(2-9, T, J, Q, K, A\) then a suit \(c, d, h, s\)/,
    ],
    [
      'a card not spelled as the contract says ("as" for "As")',
      ev('CardExposed', { card: 'as' }),
      /^invalid CardExposed: card "as" is not a card/,
    ],
    [
      'a community card that does not exist',
      ev('CommunityCardsRevealed', { cards: ['As', '1d'] }),
      /^invalid CommunityCardsRevealed: cards\[1\] "1d" is not a card/,
    ],
    [
      'a bet of 0',
      ev('BetPlaced', { amount: 0 }),
      /^invalid BetPlaced: amount 0 must be a positive whole number of avos$/,
    ],
    [
      'a negative payout',
      ev('PayoutMade', { amount: -500 }),
      /^invalid PayoutMade: amount -500 must be a positive whole number of avos$/,
    ],
    [
      'a fractional amount',
      ev('BetCollected', { amount: 10.5 }),
      /^invalid BetCollected: amount 10.5 must be a positive whole number of avos$/,
    ],
    [
      'a jackpot of 0',
      ev('JackpotPaid', { amount: 0 }),
      /^invalid JackpotPaid: amount 0 must be a positive whole number of avos$/,
    ],
    [
      'a bet type the game does not have',
      ev('BetPlaced', { betType: 'TIE' as never }),
      /^invalid BetPlaced: betType TIE is not a bet of Fortune 3 Card Poker$/,
    ],
    [
      'the Ante bonus placed as a bet (it can only be paid)',
      ev('BetReturned', { betType: 'ANTE_BONUS' as never }),
      /^invalid BetReturned: betType ANTE_BONUS is not a bet of Fortune 3 Card Poker$/,
    ],
    [
      'a seat that does not exist',
      ev('PlayDecision', { seat: 8 }),
      /^invalid PlayDecision: seat 8 is not a seat \(1 to 7\)$/,
    ],
    [
      'a card dealt to a seat without the seat',
      ev('CardDealt', { target: 'SEAT', seat: null }),
      /^invalid CardDealt: seat is required$/,
    ],
    [
      'a card dealt to the banker with a seat',
      ev('CardDealt', { target: 'BANKER', seat: 2 }),
      /^invalid CardDealt: seat must be null for a card dealt to BANKER$/,
    ],
    [
      'a round event outside any round',
      ev('BetPlaced', { header: { roundId: null } }),
      /^invalid BetPlaced: header.roundId is required for BetPlaced$/,
    ],
    [
      'a time that is not UTC milliseconds',
      ev('RoundStarted', { header: { eventTime: 0 } }),
      /^invalid RoundStarted: header.eventTime 0 is not a time in UTC milliseconds$/,
    ],
    [
      'an event time of 8.7e15 (the year 277,000): every later replay would fail on it',
      ev('RoundStarted', { header: { eventTime: 8.7e15 } }),
      /^invalid RoundStarted: header.eventTime 8700000000000000 is outside 2000-01-01T00:00:00.000Z to 2100-01-01T00:00:00.000Z: not a plausible time for a table event$/,
    ],
    [
      'an event time in 1990',
      ev('RoundStarted', { header: { eventTime: Date.UTC(1990, 0, 1) } }),
      /^invalid RoundStarted: header.eventTime 631152000000 is outside 2000-01-01T00:00:00.000Z to 2100-/,
    ],
    [
      'a received time out of the window',
      ev('CardDealt', { header: { receivedTime: 9e15 } }),
      /^invalid CardDealt: header.receivedTime 9000000000000000 is outside 2000-/,
    ],
    [
      'a negative sequence number',
      ev('CardDealt', { header: { sequence: -1 } }),
      /^invalid CardDealt: header.sequence -1 is not a sequence number \(a whole number from 0\)$/,
    ],
    [
      'a stake over a thousand times the table’s largest maximum',
      ev('BetPlaced', { amount: 3_000_000_001 }),
      /^invalid BetPlaced: amount 3000000001 avos is more than 1,000 times the table's largest bet maximum \(3000000 avos, its TableOpened\): not a stake this table could see$/,
    ],
    [
      'a payout over a hundred thousand times the table’s largest maximum',
      ev('PayoutMade', { amount: 300_000_000_001 }),
      /^invalid PayoutMade: amount 300000000001 avos is more than 100,000 times the table's largest bet maximum .*not a payout this table could see$/,
    ],
    [
      'a jackpot pool beyond any table',
      ev('JackpotPoolChanged', { poolAfter: 2e15 }),
      /^invalid JackpotPoolChanged: poolAfter 2000000000000000 avos is more than 1e\+15 avos: not a plausible amount$/,
    ],
    [
      'a table id of 1 MB (the reason names its length, never the value)',
      ev('CardDealt', { header: { tableId: 'T'.repeat(1024 * 1024) } }),
      /^invalid CardDealt: header.tableId is 1,048,576 characters long: an id is at most 256$/,
    ],
    [
      'a description of 20,000 characters',
      ev('ShufflerMalfunction', { description: 'x'.repeat(20_000) }),
      /^invalid ShufflerMalfunction: description is 20,000 characters long: a text is at most 16,384$/,
    ],
    [
      'an empty event id',
      ev('RoundSettled', { header: { eventId: '' } }),
      /^invalid RoundSettled: header.eventId is empty$/,
    ],
    [
      'a confidence over 100',
      ev('SurveillanceObservation', { confidence: 101 }),
      /^invalid SurveillanceObservation: confidence 101 must be 0 to 100$/,
    ],
    [
      'a correction whose corrections are not a JSON object',
      ev('EventCorrected', { corrections: '[60000]' }),
      /^invalid EventCorrected: corrections must be a JSON object of field name to corrected value$/,
    ],
    [
      'a correction of an event type that does not exist, by nobody',
      ev('EventCorrected', { correctedEventType: 'CoffeeServed', correctedBy: '' }),
      /^invalid EventCorrected: correctedEventType "CoffeeServed" is not an event type; correctedBy is empty: a correction names who made it$/,
    ],
    [
      'a table of a game added after this reader (read as UNKNOWN)',
      ev('TableOpened', { game: 'UNKNOWN' }),
      /^invalid TableOpened: game UNKNOWN is not a game this pipeline knows/,
    ],
    [
      'a bet type added after this reader (read as the enum default UNKNOWN)',
      ev('BetPlaced', { betType: 'UNKNOWN' }),
      /^invalid BetPlaced: betType is UNKNOWN: the producer wrote a ta\.f3cp\.BetType symbol this reader's schema does not have/,
    ],
    [
      'a source kind added after this reader, in the header',
      ev('RoundSettled', { header: { sourceKind: 'UNKNOWN' } }),
      /^invalid RoundSettled: header\.sourceKind is UNKNOWN: the producer wrote a ta\.common\.SourceKind symbol/,
    ],
    [
      'a seat result added after this reader, deep in an array',
      ev('OutcomeDeclared', {
        seats: EXAMPLES.OutcomeDeclared.seats.map((s, i) =>
          i === 1 ? { ...s, result: 'UNKNOWN' as const } : s,
        ),
      }),
      /^invalid OutcomeDeclared: seats\[1\]\.result is UNKNOWN: the producer wrote a ta\.f3cp\.SeatResult symbol/,
    ],
    [
      'a table with 4 seats',
      ev('TableOpened', { seats: 4 }),
      /^invalid TableOpened: seats 4: a table has 5 to 7 player seats \(art. 5.º n.º 2\)$/,
    ],
    [
      'a bet limit whose maximum is under its minimum',
      ev('TableOpened', { betLimits: [{ betType: 'ANTE', minimum: 30_000, maximum: 100 }] }),
      /^invalid TableOpened: betLimits ANTE: minimum 30000, maximum 100$/,
    ],
    [
      'a game this pipeline does not know',
      ev('TableOpened', { game: 'BACCARAT' as never }),
      /^invalid TableOpened: game BACCARAT is not a game this pipeline knows$/,
    ],
    [
      'several problems at once, all named',
      ev('BetPlaced', { amount: 0, seat: 9 }),
      /^invalid BetPlaced: amount 0 must be a positive whole number of avos; seat 9 is not a seat \(1 to 7\)$/,
    ],
  ];
  for (const [what, event, reason] of cases)
    test(what, async () => {
      const reasons = await reasonsFor(event);
      assert.equal(reasons.length, 1, `one reject, got ${JSON.stringify(reasons)}`);
      assert.match(reasons[0]!, reason);
    });

  test('an event for a table that was never opened', async () => {
    const { store, pipeline } = fresh();
    const r = await pipeline.submit([input(ev('SeatOccupied', { header: { tableId: 'NO-SUCH-TABLE' } }))]);
    assert.deepEqual(r, { accepted: 0, alreadyStored: 0, rejected: 1 });
    const [reject] = await rejectsIn(store);
    assert.equal(
      reject!.data.reason,
      'invalid SeatOccupied: table "NO-SUCH-TABLE" is not known: no TableOpened has been received for it',
    );
    assert.equal(reject!.data.code, REJECT_CODES.invalidEvent);
    assert.equal(reject!.data.decoded?.data.header.tableId, 'NO-SUCH-TABLE');
    assert.deepEqual(pipeline.totals.byReason, new Map([[REJECT_CODES.invalidEvent, 1]]));
    await store.close();
  });

  test('every example event is acceptable, and what the simulator calls faults is not refused here', () => {
    for (const type of Object.keys(EXAMPLES) as F3cpEventType[])
      assert.deepEqual(meaningProblems(eventOf(type, EXAMPLES[type]), 'F3CP'), [], type);
    // a bet over the table limit and a wrong payout are findings for replay, not rejects
    assert.deepEqual(meaningProblems(ev('BetPlaced', { amount: 999_999_999 }), 'F3CP'), []);
    assert.deepEqual(meaningProblems(ev('PayoutMade', { amount: 1 }), 'F3CP'), []);
  });
});

describe('storing', () => {
  test('Given a table opened and its events, Then each is stored once in its table stream with its source', async () => {
    const { store, pipeline } = fresh();
    const events = [opened(), ev('RoundStarted'), ev('BetPlaced'), ev('CardDealt')];
    const r = await pipeline.submit(events.map(input));
    assert.deepEqual(r, { accepted: 4, alreadyStored: 0, rejected: 0 });
    await assertExactlyOnce(store, events);
    const [first] = await readAllEvents(store);
    // when it arrived is its recorded time: not kept again in its metadata (a reject keeps receivedAt)
    assert.deepEqual(first!.metadata, { source: 'test', index: offset - 4 });
    await store.close();
  });

  test('Given the same batch submitted twice, Then it is stored once (and its rejects kept once)', async () => {
    const { store, pipeline } = fresh();
    const batch = [
      input(opened()),
      input(ev('BetPlaced')),
      input(ev('CardDealt', { card: 'Zz' })),
      {
        source: { kind: 'in-process' as const, producer: 'test', index: 999 },
        error: 'bad',
        raw: Buffer.from([1, 2]),
      },
    ];
    assert.deepEqual(await pipeline.submit(batch), { accepted: 2, alreadyStored: 0, rejected: 2 });
    assert.deepEqual(await pipeline.submit(batch), { accepted: 0, alreadyStored: 2, rejected: 2 });
    const all = await readAllEvents(store);
    assert.equal(all.filter((e) => e.stream.startsWith('table-')).length, 2);
    assert.equal(all.filter((e) => e.stream === 'ingest-rejects').length, 2);
    const { sequence, ...totals } = pipeline.totals;
    assert.deepEqual(totals, {
      accepted: 2,
      alreadyStored: 2,
      rejected: 4,
      byReason: new Map([
        [REJECT_CODES.invalidEvent, 2],
        [REJECT_CODES.undecodable, 2],
      ]),
    });
    // the examples' two sequence numbers leave a gap; the batch submitted again is not a repeat
    assert.deepEqual(
      { gaps: sequence.gaps, repeats: sequence.repeats, backwards: sequence.backwards },
      { gaps: 1, repeats: 0, backwards: 0 },
    );
    await store.close();
  });

  test('Given a batch of several tables and rejects, Then it is one appendMany (one transaction), and a refused event falls back to table by table', async () => {
    const { store } = fresh();
    const calls: string[] = [];
    const counted: EventStore = {
      atomicAcrossStreams: store.atomicAcrossStreams,
      append: (stream, events, options) => (
        calls.push(`append ${stream}`),
        store.append(stream, events, options)
      ),
      appendMany: (appends, options) => (
        calls.push(`appendMany ${appends.map((p) => p.stream).join(' ')}`),
        store.appendMany(appends, options)
      ),
      readStream: (stream, options) => store.readStream(stream, options),
      readAll: (options) => store.readAll(options),
      subscribeToAll: (options) => store.subscribeToAll(options),
      saveCheckpoint: (name, position) => store.saveCheckpoint(name, position),
      loadCheckpoint: (name) => store.loadCheckpoint(name),
      close: () => store.close(),
    };
    const pipeline = new IngestPipeline(counted, () => 1_700_000_000_000);
    const bet = ev('BetPlaced', { amount: 50_000 });
    const batch = [opened('T-B'), opened(), bet, ev('CardDealt', { card: 'Zz' })];
    assert.deepEqual(await pipeline.submit(batch.map(input)), { accepted: 3, alreadyStored: 0, rejected: 1 });
    assert.deepEqual(calls, [`appendMany table-T-B table-${EXAMPLE_TABLE_ID} ingest-rejects`]);
    assert.equal(store.atomicAcrossStreams, true);

    calls.length = 0;
    const reused = { ...bet, data: { ...bet.data, amount: 70_000 } } as F3cpEvent;
    const next = ev('CardDealt', { header: { tableId: 'T-B' } });
    const r = await pipeline.submit([input(reused), input(next)]);
    assert.deepEqual(r, { accepted: 1, alreadyStored: 0, rejected: 1 });
    assert.deepEqual(calls, [
      `appendMany table-${EXAMPLE_TABLE_ID} table-T-B`,
      `append table-${EXAMPLE_TABLE_ID}`,
      `append table-${EXAMPLE_TABLE_ID}`,
      'append table-T-B',
      'append ingest-rejects',
    ]);
    await assertExactlyOnce(store, [...batch.slice(0, 3), next]);
    await store.close();
  });

  test('Given an id re-used with other content in a later batch, Then only that event is rejected', async () => {
    const { store, pipeline } = fresh();
    const bet = ev('BetPlaced', { amount: 50_000 });
    const good = [opened(), bet, ev('CardDealt')];
    await pipeline.submit(good.map(input));
    const reused = { ...bet, data: { ...bet.data, amount: 70_000 } } as F3cpEvent;
    const more = [ev('CardDealt', { card: 'Ks' }), ev('PlayDecision')];
    const r = await pipeline.submit([input(more[0]!), input(reused), input(more[1]!)]);
    assert.deepEqual(r, { accepted: 2, alreadyStored: 0, rejected: 1 });
    await assertExactlyOnce(store, [...good, ...more]);
    const [reject] = await rejectsIn(store);
    assert.equal(reject!.data.code, REJECT_CODES.eventIdConflict);
    assert.equal(
      reject!.data.reason,
      `event id ${bet.data.header.eventId} is already stored with different data (in table-${EXAMPLE_TABLE_ID}): a source must not re-use event ids`,
    );
    assert.equal((reject!.data.decoded?.data as { amount: number }).amount, 70_000);
    await store.close();
  });

  test('Given an id re-used within one batch, Then the first is stored and only the second rejected', async () => {
    const { store, pipeline } = fresh();
    const a = ev('BetPlaced', { amount: 50_000 });
    const b = { ...a, data: { ...a.data, amount: 60_000 } } as F3cpEvent;
    const rest = [opened(), ev('CardDealt'), ev('RoundSettled')];
    const r = await pipeline.submit([input(rest[0]!), input(a), input(rest[1]!), input(b), input(rest[2]!)]);
    assert.deepEqual(r, { accepted: 4, alreadyStored: 0, rejected: 1 });
    await assertExactlyOnce(store, [...rest, a]);
    const [reject] = await rejectsIn(store);
    assert.equal((reject!.data.decoded?.data as { amount: number }).amount, 60_000);
    assert.match(reject!.data.reason, /already stored with different data/);
    await store.close();
  });

  test('Given an id re-used by another table, Then it is rejected as being in the other stream', async () => {
    const { store, pipeline } = fresh();
    const a = ev('BetPlaced');
    const b = ev('BetPlaced', { header: { eventId: a.data.header.eventId, tableId: 'OTHER' } });
    await pipeline.submit([input(opened()), input(a), input(opened('OTHER')), input(b)]);
    const [reject] = await rejectsIn(store);
    assert.equal(
      reject!.data.reason,
      `event id ${a.data.header.eventId} is already stored with different stream (in table-${EXAMPLE_TABLE_ID}): a source must not re-use event ids`,
    );
    assert.equal((await readAllEvents(store)).filter((e) => e.stream === 'table-OTHER').length, 1);
    await store.close();
  });

  test('Given a TableOpened refused, Then the events after it are refused too: the table is not known', async () => {
    const { store, pipeline } = fresh();
    const r = await pipeline.submit([input(ev('TableOpened', { seats: 3 })), input(ev('RoundStarted'))]);
    assert.deepEqual(r, { accepted: 0, alreadyStored: 0, rejected: 2 });
    const reasons = (await rejectsIn(store)).map((x) => x.data.reason);
    assert.match(reasons[0]!, /seats 3: a table has 5 to 7 player seats/);
    assert.match(reasons[1]!, /table "LP-F3CP-07" is not known/);
    await store.close();
  });

  test('Given a TableOpened whose id is taken, Then the table events after it in the batch are refused', async () => {
    const { store, pipeline } = fresh();
    const taken = ev('RoundSettled', { header: { tableId: 'OTHER' } });
    await pipeline.submit([input(opened('OTHER')), input(taken)]);
    const open = ev('TableOpened', { header: { eventId: taken.data.header.eventId } });
    const r = await pipeline.submit([input(open), input(ev('RoundStarted'))]);
    assert.deepEqual(r, { accepted: 0, alreadyStored: 0, rejected: 2 });
    const reasons = (await rejectsIn(store)).map((x) => x.data.reason);
    assert.match(reasons[0]!, /already stored with different stream/);
    assert.match(reasons[1]!, /its TableOpened in the same batch was refused/);
    await store.close();
  });

  test('Given tables opened by an earlier process, Then a new pipeline on the same store knows them', async () => {
    const { store, pipeline } = fresh();
    await pipeline.submit([input(opened()), input(ev('RoundStarted'))]);
    const again = new IngestPipeline(store);
    await again.loadKnownTables();
    const later = ev('BetPlaced');
    assert.deepEqual(await again.submit([input(later)]), { accepted: 1, alreadyStored: 0, rejected: 0 });
    await store.close();
  });

  test('Given a table unknown in one batch and opened by another writer since, Then the next batch is accepted', async () => {
    const { store, pipeline } = fresh();
    const early = ev('SeatOccupied', { header: { tableId: 'LATE' } });
    assert.equal((await pipeline.submit([input(early)])).rejected, 1);
    await new IngestPipeline(store).submit([input(opened('LATE'))]);
    const later = ev('SeatOccupied', { header: { tableId: 'LATE' } });
    assert.deepEqual(await pipeline.submit([input(later)]), { accepted: 1, alreadyStored: 0, rejected: 0 });
    await store.close();
  });

  test('Given an event the store cannot keep as JSON, Then it alone is rejected, its content kept as text', async () => {
    const { store, pipeline } = fresh();
    const odd = ev('CardDealt', { dealOrder: 1.5 });
    const good = [opened(), ev('CardDealt'), ev('RoundSettled')];
    const r = await pipeline.submit([input(good[0]!), input(odd), input(good[1]!), input(good[2]!)]);
    assert.deepEqual(r, { accepted: 3, alreadyStored: 0, rejected: 1 });
    await assertExactlyOnce(store, good);
    const [reject] = await rejectsIn(store);
    assert.equal(reject!.data.code, REJECT_CODES.invalidEventData);
    assert.match(reject!.data.reason, /the event store cannot keep CardDealt ev-\d+: .*dealOrder/);
    assert.equal(reject!.data.decoded, null);
    assert.match(reject!.data.decodedText!, /"dealOrder":1.5/);
    await store.close();
  });

  test('Given undecodable inputs, Then each is kept with its raw bytes, source, code and reason', async () => {
    const { store, pipeline } = fresh();
    const raw = Buffer.from([0, 0, 0, 0, 42, 7]);
    await pipeline.submit([
      {
        source: { kind: 'kafka', topic: 't', partition: 2, offset: '17' },
        error: 'TRUNCATED_PAYLOAD: …',
        code: 'TRUNCATED_PAYLOAD',
        raw,
      },
      { source: { kind: 'kafka', topic: 't', partition: 0, offset: '3' }, error: 'empty', raw: null },
    ]);
    const rejects = await rejectsIn(store);
    assert.deepEqual(
      rejects.map((r) => r.data),
      [
        {
          source: { kind: 'kafka', topic: 't', partition: 2, offset: '17' },
          sourceText: 'kafka t[2]@17',
          code: 'TRUNCATED_PAYLOAD',
          reason: 'TRUNCATED_PAYLOAD: …',
          rawBase64: raw.toString('base64'),
          decoded: null,
        },
        {
          source: { kind: 'kafka', topic: 't', partition: 0, offset: '3' },
          sourceText: 'kafka t[0]@3',
          code: REJECT_CODES.undecodable,
          reason: 'empty',
          rawBase64: null,
          decoded: null,
        },
      ],
    );
    await store.close();
  });
});

describe('per-source sequence numbers: gaps, repeats and steps backwards are counted and kept with their place', () => {
  const seq = (n: number, id = `seq-${n}`, source = 'tc-seq') =>
    ev('CardDealt', { header: { eventId: id, sequence: n, sourceDevice: source } });

  test('Given a source numbering 1, 2, 4, 3, 3 again under another id, Then one gap, one step backwards, one repeat', async () => {
    const { store, pipeline } = fresh();
    await pipeline.submit([input(opened())]);
    const events = [seq(1), seq(2), seq(4), seq(3), seq(3, 'seq-3-again'), seq(5)];
    const r = await pipeline.submit(events.map(input));
    assert.equal(
      r.accepted,
      events.length,
      'every event is stored as it came: nothing lost, nothing reordered',
    );
    const s = pipeline.totals.sequence;
    assert.deepEqual(
      { gaps: s.gaps, missing: s.missing, repeats: s.repeats, backwards: s.backwards },
      { gaps: 2, missing: 2, repeats: 1, backwards: 1 },
    );
    const mine = s.first.filter((x) => x.source === 'tc-seq');
    assert.deepEqual(
      mine.map((x) => [x.kind, x.previous, x.sequence, x.eventId]),
      [
        ['gap', 2, 4, 'seq-4'],
        ['backwards', 4, 3, 'seq-3'],
        ['repeat', 3, 3, 'seq-3-again'],
        ['gap', 3, 5, 'seq-5'],
      ],
    );
    assert.match(mine[1]!.where, /^test #\d+$/);
    await store.close();
  });

  test('Given the same events delivered again, and another source interleaved, Then nothing more is counted', async () => {
    const { store, pipeline } = fresh();
    await pipeline.submit([input(opened())]);
    const first = [seq(1), seq(1, 'other-1', 'sh-seq'), seq(2), seq(2, 'other-2', 'sh-seq'), seq(3)];
    await pipeline.submit(first.map(input));
    const before = { ...pipeline.totals.sequence, first: [...pipeline.totals.sequence.first] };
    await pipeline.submit(first.map(input)); // a redelivery
    await pipeline.submit([seq(2), seq(3), seq(4)].map(input)); // part again, then the next one
    const s = pipeline.totals.sequence;
    assert.deepEqual(
      { gaps: s.gaps, repeats: s.repeats, backwards: s.backwards },
      { gaps: before.gaps, repeats: before.repeats, backwards: before.backwards },
    );
    assert.equal(
      s.first.filter((x) => x.source === 'tc-seq' || x.source === 'sh-seq').length,
      0,
      'the two sources each run on by one',
    );
    await store.close();
  });

  test('Given a stake of exactly a thousand times the table’s largest maximum, Then it is stored (the replay judges the limit)', async () => {
    assert.deepEqual(await reasonsFor(ev('BetPlaced', { amount: 3_000_000_000 })), []);
  });
});
