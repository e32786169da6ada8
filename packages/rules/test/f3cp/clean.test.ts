import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cleanRound, first, TableBuilder } from './clean-round.ts';
import { given, replayTable } from './spec.ts';

// A correct table raises nothing: every fault test below starts from these rounds.
describe('clean rounds raise no finding', () => {
  it('shuffler dealing, no Progressive bet, a fold and a play (f3cp-2025a)', () => {
    const events = cleanRound({
      seats: [
        { seat: 1, ante: 10_000, pairPlus: 10_000, cards: '7c 5d 2h' }, // folds: below Q-6-4
        { seat: 3, ante: 20_000, sixCardBonus: 5_000, cards: 'Kh Kd 4s' },
      ],
      banker: 'Qs Jd 3c',
    });
    const t = given(events).when(replayTable).then([]);
    const r = t.replay.rounds[0]!;
    assert.equal(r.ruleSet, 'f3cp-2025a');
    assert.equal(r.notDerived, null);
    assert.equal(first(events, 'PlayDecision', (d) => d.seat === 1).decision, 'FOLD');
  });

  it('shoe dealing (manual shuffle, cut card), with Progressive bets and a Flush jackpot win (fixed amount)', () => {
    const t = new TableBuilder({ shuffleMode: 'MANUAL' });
    const r = t.round({
      seats: [
        { seat: 2, ante: 10_000, progressive: 5_000, cards: '7h 9h Jh' },
        { seat: 5, ante: 10_000, progressive: 5_000, pairPlus: 10_000 },
      ],
      community: '2h 5h',
    });
    assert.equal(r.settlement.jackpot?.payments[0]?.hand, 'flush');
    assert.equal(r.settlement.jackpot?.payments[0]?.poolAfter, r.settlement.jackpot?.poolBefore);
    given(t.close()).when(replayTable).then([]);
  });

  it('a Straight Flush takes the greater of its fixed amount and 10% of the pool, and the pool falls by the share', () => {
    const t = new TableBuilder({ jackpot: { ...tableJackpot(), initialPool: 20_000_000 } });
    const r = t.round({
      seats: [{ seat: 1, ante: 10_000, progressive: 5_000, cards: '7s 8s 9s' }],
      community: '5s 6s',
    });
    const p = r.settlement.jackpot!.payments[0]!;
    assert.equal(p.hand, 'straight-flush');
    assert.equal(p.amount, 2_000_200); // 10% of 20,002,500 rounded down to 100 avos
    assert.equal(p.poolAfter, p.poolBefore - p.amount);
    given(t.close()).when(replayTable).then([]);
  });

  it('the banker does not qualify: Antes win, Play bets are returned', () => {
    const events = cleanRound({
      seats: [
        { seat: 1, ante: 10_000, cards: 'Ah 9d 3c' },
        { seat: 2, ante: 50_000, pairPlus: 20_000, cards: '8s 8d 2c' },
      ],
      banker: 'Jd 9c 4h',
    });
    assert.equal(first(events, 'OutcomeDeclared').bankerQualifies, false);
    assert.ok(events.some((e) => e.type === 'BetReturned' && e.data.betType === 'PLAY'));
    given(events).when(replayTable).then([]);
  });

  it('several rounds of one table, shuffler then shoe, with seat changes', () => {
    const t = new TableBuilder({ seats: 6 });
    t.round({
      seats: [
        { seat: 1, ante: 10_000 },
        { seat: 2, ante: 10_000, progressive: 5_000 },
      ],
    });
    t.round({
      seats: [
        { seat: 1, ante: 20_000 },
        { seat: 4, ante: 10_000, pairPlus: 10_000 },
      ],
      deck: undefined,
    });
    t.vacate(1).seat(1, 'P9');
    t.shuffle('MANUAL');
    t.round({
      seats: [
        { seat: 1, player: 'P9', ante: 10_000 },
        { seat: 6, ante: 100_000, sixCardBonus: 10_000 },
      ],
    });
    given(t.close()).when(replayTable).then([]);
  });
});

const tableJackpot = () => ({
  fixedAmounts: {
    royalFlush: 5_000_000,
    straightFlush: 500_000,
    fourOfAKind: 100_000,
    fullHouse: 30_000,
    flush: 20_000,
  },
  resetAmount: 1_000_000,
  initialPool: 2_000_000,
});
