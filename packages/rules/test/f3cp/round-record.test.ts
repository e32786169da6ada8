import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createType, recordSchema, validationProblems } from '@table-audit/schemas';
import type { BetLine, F3cpEvent, RoundDerived } from '@table-audit/schemas/events';
import {
  change,
  eventLike,
  first,
  insertAfter,
  is,
  shiftTimes,
  TableBuilder,
  voidRound,
} from './clean-round.ts';
import { dealt, threeHands, WITH_PROGRESSIVE } from './fixtures.ts';
import { given, replayTable } from './spec.ts';

const ROUND_DERIVED = createType(recordSchema('RoundDerived'));

/** The record is what the schema ta.audit.RoundDerived describes (every field, types, enum symbols). */
function valid(record: RoundDerived | null | undefined): RoundDerived {
  assert.ok(record, 'the round has a record');
  assert.deepEqual(validationProblems(ROUND_DERIVED, record), []);
  return record;
}

/** Given a table's events, when replayed, then the record of its round `n` (from 0). */
function recordOf(events: F3cpEvent[], n = 0): RoundDerived {
  const { rounds } = given(events)
    .when(replayTable)
    .thenFindings(() => true).replay;
  return valid(rounds[n]?.record);
}

const line = (r: RoundDerived, seat: number, betType: string): BetLine => {
  const l = r.lines.find((x) => x.seat === seat && x.betType === betType);
  assert.ok(l, `a ${betType} line for seat ${seat}: ${JSON.stringify(r.lines)}`);
  return l;
};

/** seat 1 Kh Kd 4s (Ante 100, Pair Plus 100, plays), seat 3 7c 5d 2h (Ante 200, folds), seat 5 Ac Tc 6d (Ante 100, Six Card 50, plays); banker Qs Jd 3c qualifies. */
describe('the round record (ta.audit.RoundDerived) the replay appends for every round', () => {
  it('a clean round: SETTLED, one line per bet in seat then bet order, declared equal to expected, totals in avos', () => {
    const r = recordOf(threeHands());
    assert.equal(r.status, 'SETTLED');
    assert.equal(r.statusReason, null);
    assert.equal(r.ruleSetId, 'f3cp-2025a');
    assert.equal(r.macauDate, '2025-12-01');
    assert.equal(r.game, 'F3CP');
    assert.equal(r.tableId, 'T-01');
    assert.deepEqual(
      r.lines.map((l) => `${l.seat} ${l.betType} ${l.expectedOutcome} ${l.expectedNetAvos}`),
      [
        '1 ANTE WIN 10000',
        '1 PLAY WIN 10000',
        '1 PAIR_PLUS WIN 10000',
        '3 ANTE LOSE -20000',
        '5 ANTE WIN 10000',
        '5 PLAY WIN 10000',
        '5 SIX_CARD_BONUS LOSE -5000',
      ],
    );
    for (const l of r.lines) {
      assert.equal(l.declaredNetAvos, l.expectedNetAvos, `${l.seat} ${l.betType}`);
      assert.equal(l.differenceAvos, 0);
    }
    assert.equal(line(r, 1, 'ANTE').betId, 'T-01-R001/1-ANTE');
    // staked 100 + 100 + 100 (seat 1) + 200 (seat 3) + 100 + 100 + 50 (seat 5)
    assert.equal(r.totalStakedAvos, 75_000);
    assert.equal(r.expectedPaidAvos, 50_000);
    assert.equal(r.declaredPaidAvos, 50_000);
    // collected 200 + 50, paid 500
    assert.equal(r.houseResultAvos, -25_000);
    assert.deepEqual(r.findingIds, []);
    assert.deepEqual(r.interpretationIds, ['J9', 'J11']); // register order: J9 before J11
  });

  it('a payout discrepancy: seat 1’s Ante paid MOP 200 instead of 100 → difference +10000 avos on that line only, the finding cited', () => {
    const events = change(
      threeHands(),
      'PayoutMade',
      (p) => p.seat === 1 && p.betType === 'ANTE',
      (p) => (p.amount = 20_000),
    );
    const { rounds, findings } = given(events).when(replayTable).then(['F3CP.PAYOUT.MISMATCH']).replay;
    const r = valid(rounds[0]!.record);
    assert.equal(r.status, 'SETTLED');
    const ante = line(r, 1, 'ANTE');
    assert.deepEqual(
      [
        ante.expectedPayoutAvos,
        ante.declaredPayoutAvos,
        ante.expectedNetAvos,
        ante.declaredNetAvos,
        ante.differenceAvos,
      ],
      [10_000, 20_000, 10_000, 20_000, 10_000],
    );
    assert.deepEqual(
      r.lines.filter((l) => l.differenceAvos !== 0).map((l) => `${l.seat} ${l.betType}`),
      ['1 ANTE'],
    );
    assert.equal(r.expectedPaidAvos, 50_000);
    assert.equal(r.declaredPaidAvos, 60_000);
    assert.equal(r.houseResultAvos, -35_000);
    assert.deepEqual(r.findingIds, [findings[0]!.findingId]);
  });

  it('a lost stake not collected: seat 3’s folded Ante declared as nothing → declared null, difference null', () => {
    const events = threeHands().filter((e) => !is('BetCollected', (b) => b.seat === 3)(e));
    const r = recordOf(events);
    const ante = line(r, 3, 'ANTE');
    assert.deepEqual(
      [ante.declaredPayoutAvos, ante.declaredNetAvos, ante.differenceAvos],
      [null, null, null],
    );
    assert.equal(r.findingIds.length, 1);
  });

  it('a voided round (banker card exposed): VOIDED with its reason, every bet to be returned; a stake collected instead shows −stake', () => {
    const events = threeHands();
    const d = first(events, 'CardDealt', (x) => x.dealOrder === 11);
    const exposed = insertAfter(
      events,
      dealt(11),
      eventLike(d, 'CardExposed', { card: d.card, target: d.target, seat: d.seat, duringDeal: true }),
    );
    const voided = voidRound(exposed, { reason: 'BANKER_CARD_EXPOSED' });
    const r = recordOf(voided);
    assert.equal(r.status, 'VOIDED');
    assert.equal(r.statusReason?.startsWith('BANKER_CARD_EXPOSED'), true);
    assert.deepEqual(
      r.lines.map(
        (l) => `${l.seat} ${l.betType} ${l.expectedOutcome} ${l.expectedNetAvos} ${l.differenceAvos}`,
      ),
      [
        '1 ANTE VOID 0 0',
        '1 PAIR_PLUS VOID 0 0',
        '3 ANTE VOID 0 0',
        '5 ANTE VOID 0 0',
        '5 SIX_CARD_BONUS VOID 0 0',
      ],
    );
    assert.equal(r.totalStakedAvos, 55_000);
    assert.deepEqual([r.expectedPaidAvos, r.declaredPaidAvos, r.houseResultAvos], [0, 0, 0]);

    const collected = voided.map((e) =>
      is('BetReturned', (b) => b.seat === 3 && b.betType === 'ANTE')(e)
        ? ({
            type: 'BetCollected',
            data: { header: e.data.header, seat: 3, betType: 'ANTE', amount: 20_000 },
          } as F3cpEvent)
        : e,
    );
    const wrong = recordOf(collected);
    assert.equal(line(wrong, 3, 'ANTE').differenceAvos, -20_000);
    assert.equal(wrong.houseResultAvos, 20_000);
    assert.equal(wrong.findingIds.length, 1);
  });

  it('a round voided for a shuffler malfunction: its Progressive bets CARRIED_OVER (nothing declared for them), the others VOID', () => {
    const t = new TableBuilder();
    t.voidedRound(WITH_PROGRESSIVE, { reason: 'SHUFFLER_MALFUNCTION', cards: 4, malfunction: true });
    const r = recordOf(t.close());
    assert.equal(r.status, 'VOIDED');
    const progressive = r.lines.filter((l) => l.betType === 'PROGRESSIVE');
    assert.deepEqual(
      progressive.map((l) => [l.seat, l.expectedOutcome, l.declaredNetAvos]),
      [
        [1, 'CARRIED_OVER', null],
        [5, 'CARRIED_OVER', null],
      ],
    );
    assert.ok(r.lines.filter((l) => l.betType !== 'PROGRESSIVE').every((l) => l.expectedOutcome === 'VOID'));
  });

  it('a round dated 2024 is derived under the 2008 rules (f3cp-2008a): its lines cite 78/2008, never 89/2025', () => {
    const r = recordOf(shiftTimes(threeHands(), -400 * 86_400_000));
    assert.equal(r.ruleSetId, 'f3cp-2008a');
    assert.notEqual(r.status, 'NOT_DERIVED', r.statusReason ?? '');
    assert.equal(r.macauDate, '2024-10-27');
    assert.ok(r.lines.length > 0);
    // the Six Card Bonus bet does not exist under 78/2008 (art. 5.º): expected back, declared collected
    const six = r.lines.find((l) => l.betType === 'SIX_CARD_BONUS')!;
    assert.equal(six.expectedOutcome, 'VOID');
    assert.deepEqual(r.interpretationIds, ['H1', 'H5', 'H7']);
  });

  it('a round dated before the first rule set (2008-08-11) is not derived: no-rules, totals as declared', () => {
    const r = recordOf(shiftTimes(threeHands(), -6500 * 86_400_000));
    assert.equal(r.status, 'NOT_DERIVED');
    assert.match(r.statusReason ?? '', /^no-rules: /);
    assert.deepEqual(r.lines, []);
  });

  it('a round that never closed (no RoundSettled, no settlement): NOT_DERIVED, with the lines the rules give and nothing declared', () => {
    const events = threeHands().filter(
      (e) =>
        !['OutcomeDeclared', 'PayoutMade', 'BetCollected', 'BetReturned', 'RoundSettled'].includes(e.type),
    );
    const r = recordOf(events);
    assert.equal(r.status, 'NOT_DERIVED');
    assert.match(r.statusReason ?? '', /^not-closed: /);
    assert.equal(line(r, 1, 'ANTE').expectedNetAvos, 10_000);
    assert.ok(r.lines.every((l) => l.declaredNetAvos === null && l.differenceAvos === null));
    assert.ok(r.findingIds.length >= 1); // F3CP.ROUND.NOT_CLOSED
  });
});
