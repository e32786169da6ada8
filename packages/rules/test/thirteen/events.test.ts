import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EventHeader, TableEvent, ThirteenEvent } from '@table-audit/schemas/events';
import { seededRng } from '../../src/rng.ts';
import {
  dealAfterCancellations,
  eventsOfRound,
  judgeThirteenRound,
  cleanThirteenRound,
  roundFromEvents,
  settingsOf,
  THIRTEEN_CARDS_1989,
  THIRTEEN_FAULTS,
  THIRTEEN_HANDLED,
  THIRTEEN_MODULE,
  ThirteenTable,
  thirteenEventProblems,
  type ThirteenRound,
} from '../../src/thirteen/index.ts';

/**
 * The one translation between ta.thirteen.* events and the round facts (events.ts), and the table fold
 * (table.ts): a round written as events and folded back is judged exactly as its facts are; the fold's records,
 * voided rounds, missing settings and missing dice; validation naming the field.
 */
const rules = THIRTEEN_CARDS_1989;
const rng = seededRng(5189);
const TABLE = 'LIS-THIRTEEN_CARDS-001';
let seq = 0;
const header = (roundId: string | null, time: number): EventHeader => ({
  eventId: `dev-${++seq}`,
  eventTime: time,
  receivedTime: null,
  sourceKind: 'TABLE_CONTROLLER',
  sourceDevice: 'dev',
  sequence: seq,
  casino: 'Casino Lisboa',
  concessionaire: 'SJM Resorts',
  tableId: TABLE,
  roundId,
  staffId: null,
});
const START = Date.parse('2025-12-01T04:00:00Z');
let n = 0;
const clean = (): ThirteenRound =>
  cleanThirteenRound(rng, rules, { roundId: `${TABLE}/${++n}`, tableId: TABLE, start: START + n * 600_000 });
const asEvents = (r: ThirteenRound): ThirteenEvent[] =>
  eventsOfRound(r).map(
    (e) => ({ type: e.type, data: { header: header(r.roundId, e.time), ...e.data } }) as ThirteenEvent,
  );
const opened = (withSettings = true): TableEvent => ({
  type: 'TableOpened',
  data: {
    header: header(null, START),
    game: 'THIRTEEN_CARDS',
    seats: 0,
    betLimits: [],
    shuffleMode: 'AUTOMATIC',
    jackpot: null,
    rounding: { unitAvos: 1, mode: 'DOWN' },
    currency: 'MOP',
    craps: null,
    thirteenCards: withSettings ? settingsOf(rules.payout) : null,
  },
});
const roundEvents = (
  r: ThirteenRound,
  end: 'RoundSettled' | 'RoundVoided' = 'RoundSettled',
): TableEvent[] => {
  const own = asEvents(r);
  const last = own.at(-1)!.data.header.eventTime;
  return [
    {
      type: 'RoundStarted',
      data: { header: header(r.roundId, START), roundNumber: n, dealerId: null, shuffleId: null },
    },
    ...own,
    end === 'RoundSettled'
      ? { type: 'RoundSettled', data: { header: header(r.roundId, last + 1) } }
      : { type: 'RoundVoided', data: { header: header(r.roundId, last + 1), reason: 'test' } as never },
  ];
};
const ids = (r: ThirteenRound): string[] =>
  judgeThirteenRound(r, rules)
    .findings.map((f) => f.check.id)
    .sort();

describe('13 Cards events ↔ round facts', () => {
  it('judges a round written as events and folded back exactly as its facts: clean, each fault, each handled case', () => {
    const cases: [string, ThirteenRound][] = [['clean', clean()]];
    for (const f of THIRTEEN_FAULTS) {
      let faulty: ThirteenRound | null = null;
      for (let i = 0; i < 30 && !faulty; i++) faulty = f.apply(clean(), rng, rules);
      cases.push([f.name, dealAfterCancellations(faulty!)]);
    }
    for (const h of THIRTEEN_HANDLED) cases.push([h.name, dealAfterCancellations(h.apply(clean(), rules))]);
    for (const [name, r] of cases) {
      const back = roundFromEvents(r.roundId, TABLE, asEvents(r))!;
      assert.deepEqual(ids(back), ids(r), name);
      const a = judgeThirteenRound(r, rules).settled.bets.map((b) => [b.bet.betId, b.settlement]);
      const b = judgeThirteenRound(back, rules).settled.bets.map((x) => [x.bet.betId, x.settlement]);
      assert.deepEqual(b, a, name);
      assert.equal(back.deal.length, r.deal.length, name);
      assert.deepEqual(
        back.settlements.map((s) => [s.betId, s.outcome, s.net]),
        r.settlements.map((s) => [s.betId, s.outcome, s.net]),
        name,
      );
    }
    assert.ok(ids(cases[0]![1]).length === 0, 'a clean round raises nothing');
  });

  it('keeps only the deal after a cancellation, and gives the cut after it to the cancelled deal', () => {
    const r = dealAfterCancellations(
      THIRTEEN_HANDLED.find((h) => h.name.startsWith('cancelled deal'))!.apply(clean(), rules),
    );
    const events = asEvents(r);
    const cancelled = events.findIndex((e) => e.type === 'DealCancelled');
    // a card of the cancelled deal, before the cancellation: not the round's
    const stray = { ...events.find((e) => e.type === 'ThirteenCardDealt')! };
    const back = roundFromEvents(r.roundId, TABLE, [
      ...events.slice(0, cancelled),
      stray,
      ...events.slice(cancelled),
    ])!;
    assert.equal(back.deal.length, 52);
    assert.equal(back.cancelledDeals.length, 1);
    assert.equal(back.cancelledDeals[0]!.cut?.cards, 18);
    assert.equal(back.cut?.cards, r.cut?.cards);
  });

  it('returns null for a round with no dice shake, and names the event of a card that is no card', () => {
    const r = clean();
    const events = asEvents(r);
    assert.equal(
      roundFromEvents(
        r.roundId,
        TABLE,
        events.filter((e) => e.type !== 'DiceShaken'),
      ),
      null,
    );
    const bad = events.map((e) =>
      e.type === 'ThirteenCardDealt' &&
      e.data.header.eventId === events.find((x) => x.type === 'ThirteenCardDealt')!.data.header.eventId
        ? ({ ...e, data: { ...e.data, card: 'Zz' } } as ThirteenEvent)
        : e,
    );
    assert.throws(() => roundFromEvents(r.roundId, TABLE, bad), /ThirteenCardDealt dev-\d+: .*Zz/);
  });
});

describe('the 13 Cards table fold', () => {
  it('judges a settled round and records each bet, expected beside declared', () => {
    const fault = THIRTEEN_FAULTS.find((f) => f.name === 'win paid without the commission')!;
    const r = fault.apply(clean(), rng, rules)!;
    const table = new ThirteenTable(TABLE);
    const units = [opened(), ...roundEvents(r)].flatMap((e) => table.apply(e as ThirteenEvent));
    assert.equal(units.length, 1);
    const u = units[0]!;
    assert.equal(u.notDerived, null);
    assert.equal(u.ruleSet, 'thirteen-cards-1989');
    assert.deepEqual(
      u.findings.map((f) => f.checkId),
      ['THIRTEEN.PAYOUT.MISMATCH'],
    );
    assert.equal(u.record!.status, 'SETTLED');
    assert.equal(u.record!.game, 'THIRTEEN_CARDS');
    assert.equal(u.record!.lines.length, r.bets.length);
    assert.equal(u.record!.lines.filter((l) => l.differenceAvos !== 0).length, 1);
    assert.deepEqual(u.record!.findingIds, [u.findings[0]!.findingId]);
    const x = table.explain(u, []);
    assert.match(x.text, /finding THIRTEEN\.PAYOUT\.MISMATCH/);
    assert.match(x.text, /Macau time \(UTC\+8\)/);
  });

  it('explains a round as the round page draws it: the timeline, the dice, the banker’s and each place’s tiers, the best beside', () => {
    const r = clean();
    const table = new ThirteenTable(TABLE);
    const events = [opened(), ...roundEvents(r)];
    const [u] = events.flatMap((e) => table.apply(e as ThirteenEvent));
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const j = table.explain(u!, []).json as Record<string, any>;
    assert.equal(j['game'], 'THIRTEEN_CARDS');
    assert.deepEqual(
      j['steps'].map((s: { eventId: string }) => s.eventId),
      events.slice(1).map((e) => e.data.header.eventId),
      'every event of the round, in order',
    );
    assert.ok(j['steps'].every((s: { time: string }) => !Number.isNaN(Date.parse(s.time))));
    assert.equal(j['dice'].sum, r.dice.sum);
    assert.equal(j['dice'].placeOrder[0], j['dice'].firstPlace);
    const sizes = (t: {
      front: { cards: string[] };
      middle: { cards: string[] };
      back: { cards: string[] };
    }) => [t.front.cards.length, t.middle.cards.length, t.back.cards.length].join('-');
    assert.equal(sizes(j['banker'].tiers), '3-5-5');
    assert.equal(j['places'].length, 3);
    for (const p of j['places']) {
      assert.equal(sizes(p.tiers), '3-5-5', `place ${p.place} as played`);
      assert.equal(sizes(p.best.tiers), '3-5-5', `place ${p.place} best`);
      assert.ok(p.best.playedMargin === null || p.best.margin >= p.best.playedMargin, 'the best is no worse');
      if (p.result.reason === 'points') assert.equal(p.result.tiers.length, 3);
    }
    assert.equal(j['bets'].length, r.bets.length);
    for (const b of j['bets']) assert.ok(b.place >= 1 && b.place <= 3 && Number.isSafeInteger(b.amount));
  });

  it('says why a round is not derived: voided, no payout settings, no dice shake', () => {
    const voided = new ThirteenTable(TABLE);
    const [v] = [opened(), ...roundEvents(clean(), 'RoundVoided')].flatMap((e) =>
      voided.apply(e as ThirteenEvent),
    );
    assert.equal(v!.notDerived?.code, 'voided');
    assert.equal(v!.record!.status, 'VOIDED');
    assert.deepEqual(v!.findings, []);
    const bare = new ThirteenTable(TABLE);
    const [b] = [opened(false), ...roundEvents(clean())].flatMap((e) => bare.apply(e as ThirteenEvent));
    assert.equal(b!.notDerived?.code, 'no-rules');
    assert.match(b!.notDerived!.message, /thirteenCards/);
    const nodice = new ThirteenTable(TABLE);
    const [d] = [opened(), ...roundEvents(clean()).filter((e) => e.type !== 'DiceShaken')].flatMap((e) =>
      nodice.apply(e as ThirteenEvent),
    );
    assert.equal(d!.notDerived?.code, 'cards-incomplete');
    assert.equal(d!.record!.status, 'NOT_DERIVED');
  });

  it('keeps events of no open round and closes an open round at the end', () => {
    const table = new ThirteenTable(TABLE);
    const r = clean();
    const events = roundEvents(r).slice(0, -1);
    const stray: TableEvent = { type: 'ArrangeSignalGiven', data: { header: header('other', START) } };
    for (const e of [opened(), stray, ...events]) assert.deepEqual(table.apply(e as ThirteenEvent), []);
    assert.equal(table.unassigned.length, 1);
    const { units } = table.finish();
    assert.equal(units.length, 1);
    assert.equal(units[0]!.notDerived, null);
  });
});

describe('13 Cards event validation', () => {
  const problems = (e: TableEvent) => THIRTEEN_MODULE.validate(e);
  it('names the field of what no table could produce', () => {
    const r = clean();
    const ev = asEvents(r);
    const of = <T extends ThirteenEvent['type']>(t: T) =>
      ev.find((e) => e.type === t)! as Extract<ThirteenEvent, { type: T }>;
    const card = of('ThirteenCardDealt');
    assert.deepEqual(problems({ ...card, data: { ...card.data, card: '1x', place: 4 } }), [
      'card "1x" is not a card (rank 2-9, T, J, Q, K or A, then suit c, d, h or s)',
      'place 4 is not a place (0 to 3)',
    ]);
    const dice = of('DiceShaken');
    assert.deepEqual(problems({ ...dice, data: { ...dice.data, faces: [1, 2, 7] } }), [
      'faces has 3 values: the shake is of four dice',
      'faces[2] 7 is not a face of a die (1 to 6)',
    ]);
    const bet = of('ThirteenBetPlaced');
    assert.deepEqual(problems({ ...bet, data: { ...bet.data, units: 4, amount: 0 } }), [
      'amount 0 must be a positive whole number of avos',
      'units 4: art. 11.º allows 1, 2 or 3 points',
    ]);
    const placed = of('PlaceArranged');
    assert.deepEqual(
      problems({ ...placed, data: { ...placed.data, front: placed.data.front.slice(0, 2) } }),
      ['front has 2 cards: the tier holds 3'],
    );
    assert.deepEqual(problems(opened(false)), [
      'thirteenCards is required for a THIRTEEN_CARDS table (its payout settings, art. 11.º, T2)',
    ]);
    const noRound = { ...bet, data: { ...bet.data, header: { ...bet.data.header, roundId: null } } };
    assert.deepEqual(thirteenEventProblems(noRound), [
      'header.roundId is required for ThirteenBetPlaced: the round it belongs to',
    ]);
    for (const e of ev) assert.deepEqual(problems(e), [], e.type);
    assert.deepEqual(problems(opened()), []);
  });
});
