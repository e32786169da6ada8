import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseCard } from '../../src/cards.ts';
import { jackpotShare } from '../../src/f3cp/events.ts';
import { jackpotConfigOf } from '../../src/f3cp/facts.ts';
import { F3CP_2025A } from '../../src/f3cp/rule-set.ts';
import { settleF3cpRound } from '../../src/f3cp/settle/index.ts';
import {
  change,
  cleanRound,
  DEFAULT_JACKPOT,
  eventLike,
  first,
  insertAfter,
  is,
  moveBefore,
  removeWhere,
  TableBuilder,
  type RoundSpec,
} from './clean-round.ts';
import { dealt, threeHands, withProgressive } from './fixtures.ts';
import { citationKeys, given, onlyFinding, replayTable } from './spec.ts';

/** Flushes with the community 2h 5h at seats 1 and 3 (fixed amounts: the pool does not move). */
const TWO_FLUSHES: RoundSpec = {
  seats: [
    { seat: 1, ante: 10_000, progressive: 5_000, cards: '7h 9h Jh' },
    { seat: 3, ante: 10_000, progressive: 5_000, cards: '3h 8h Kh' },
    { seat: 4, ante: 10_000, progressive: 5_000, cards: 'Ac Td 6s' },
  ],
  banker: 'Qs Jd 3c',
  community: '2h 5h',
};

/** A Royal Flush at seat 1 and a Straight Flush at seat 3 on the community Js Ts: the Straight Flush is paid first. */
const ROYAL_AND_STRAIGHT: RoundSpec = {
  seats: [
    { seat: 1, ante: 10_000, progressive: 5_000, cards: 'As Ks Qs' },
    { seat: 3, ante: 10_000, progressive: 5_000, cards: '9s 8s 7s' },
  ],
  banker: 'Qh Jd 3c',
  community: 'Js Ts',
};

/** A Straight Flush at seat 1 (5-9 of spades); on BIG_POOL (MOP 200,000) 10% exceeds the fixed MOP 5,000. */
const STRAIGHT_FLUSH: RoundSpec = {
  seats: [{ seat: 1, ante: 10_000, progressive: 5_000, cards: '7s 8s 9s' }],
  banker: 'Qh Jd 3c',
  community: '5s 6s',
};
const BIG_POOL = { jackpot: { ...DEFAULT_JACKPOT, initialPool: 20_000_000 } };

const renumber = (events: ReturnType<typeof cleanRound>) => {
  let n = 0;
  return change(
    events,
    'JackpotPaid',
    () => true,
    (p) => (p.paymentOrder = ++n),
  );
};

describe('arts. 13.º 7), 15.º and 16.º n.º 3: the Progressive Jackpot', () => {
  it('art. 15.º n.º 3: two Flushes paid right to left (seat 3 before seat 1) → JACKPOT.ORDER', () => {
    const events = renumber(
      moveBefore(
        cleanRound(TWO_FLUSHES),
        is('JackpotPaid', (p) => p.seat === 3),
        is('JackpotPaid'),
      ),
    );
    const t = given(events).when(replayTable).then(['F3CP.JACKPOT.ORDER']).positive('F3CP.JACKPOT.ORDER');
    assert.ok(onlyFinding(t, 'F3CP.JACKPOT.ORDER').interpretations.includes('J14'));
  });

  it('art. 15.º n.º 5 (J10): the Royal Flush at seat 1 paid before the Straight Flush at seat 3 → JACKPOT.ORDER (+ POOL: the pools no longer chain)', () => {
    const events = renumber(
      moveBefore(
        cleanRound(ROYAL_AND_STRAIGHT),
        is('JackpotPaid', (p) => p.hand === 'ROYAL_FLUSH'),
        is('JackpotPaid'),
      ),
    );
    const t = given(events)
      .when(replayTable)
      .then(['F3CP.JACKPOT.ORDER', 'F3CP.JACKPOT.POOL'])
      .positive('F3CP.JACKPOT.ORDER');
    const f = onlyFinding(t, 'F3CP.JACKPOT.ORDER');
    assert.ok(citationKeys(f).includes('89/2025 art.15 n.5'));
    assert.ok(f.interpretations.includes('J10'));
  });

  it('art. 15.º n.º 3 and 5: the Straight Flush at seat 3 paid before the Royal Flush at seat 1, the pool reset after → nothing', () => {
    const events = cleanRound(ROYAL_AND_STRAIGHT);
    assert.deepEqual(
      events.filter(is('JackpotPaid')).map((e) => (e.data as { seat: number }).seat),
      [3, 1],
    );
    assert.ok(events.some(is('JackpotPoolChanged', (p) => p.reason === 'RESET')));
    given(events).when(replayTable).then([]).negative('F3CP.JACKPOT.ORDER').negative('F3CP.JACKPOT.POOL');
  });

  it('art. 16.º n.º 3: a Straight Flush paid its fixed MOP 5,000 when 10% of the pool is more → JACKPOT.AMOUNT (J4, J6)', () => {
    const events = change(
      cleanRound(STRAIGHT_FLUSH, BIG_POOL),
      'JackpotPaid',
      () => true,
      (p) => (p.amount = 500_000),
    );
    const t = given(events).when(replayTable).then(['F3CP.JACKPOT.AMOUNT']).positive('F3CP.JACKPOT.AMOUNT');
    const f = onlyFinding(t, 'F3CP.JACKPOT.AMOUNT');
    assert.deepEqual(f.expected, { hand: 'straight-flush', amount: 2_000_200 });
    assert.ok(f.interpretations.includes('J4') && f.interpretations.includes('J6'));
  });

  it('art. 16.º n.º 3 (J4): on a small pool the Straight Flush takes its fixed amount, the pool still falls by 10% → nothing', () => {
    const events = cleanRound(STRAIGHT_FLUSH);
    const paid = first(events, 'JackpotPaid');
    assert.equal(paid.amount, 500_000);
    assert.equal(paid.poolBefore - paid.poolAfter, 200_200);
    given(events).when(replayTable).then([]).negative('F3CP.JACKPOT.AMOUNT');
  });

  it('art. 15.º n.º 6 (J4): a Straight Flush paid and the pool left where it was → JACKPOT.POOL', () => {
    let events = change(
      cleanRound(STRAIGHT_FLUSH, BIG_POOL),
      'JackpotPaid',
      () => true,
      (p) => (p.poolAfter = p.poolBefore),
    );
    events = removeWhere(
      events,
      is('JackpotPoolChanged', (p) => p.reason === 'PAYMENT'),
    );
    given(events).when(replayTable).then(['F3CP.JACKPOT.POOL']).positive('F3CP.JACKPOT.POOL');
  });

  it('art. 15.º n.º 6: the pool moves by MOP 10,000 through a second TableOpened, with no JackpotPoolChanged → JACKPOT.POOL', () => {
    const t = new TableBuilder();
    t.round(TWO_FLUSHES);
    const { header: _h, ...settings } = t.config;
    t.emit('TableOpened', null, {
      ...settings,
      jackpot: { ...DEFAULT_JACKPOT, initialPool: t.pool! + 1_000_000 },
    });
    t.round(TWO_FLUSHES);
    given(t.close()).when(replayTable).then(['F3CP.JACKPOT.POOL']).positive('F3CP.JACKPOT.POOL');
  });

  it('art. 15.º n.º 6: Flushes take fixed amounts and leave the pool; a table closed and opened on a new pool → nothing', () => {
    const t = new TableBuilder();
    const r = t.round(TWO_FLUSHES);
    assert.ok(!r.events.some(is('JackpotPoolChanged', (p) => p.reason === 'PAYMENT')));
    t.emit('TableClosed', null, { reason: 'shift change' });
    const { header: _h, ...settings } = t.config;
    t.emit('TableOpened', null, {
      ...settings,
      jackpot: { ...DEFAULT_JACKPOT, initialPool: t.pool! + 1_000_000 },
    });
    t.pool! += 1_000_000;
    t.round(TWO_FLUSHES);
    given(t.close()).when(replayTable).then([]).negative('F3CP.JACKPOT.POOL');
  });

  it('art. 15.º n.º 2 (J17): no Progressive bet, yet community cards dealt and revealed → JACKPOT.COMMUNITY_REVEALED_WITHOUT_BETS', () => {
    const base = threeHands();
    const last = first(base, 'CardDealt', (d) => d.dealOrder === 12);
    const events = insertAfter(
      insertAfter(
        base,
        dealt(12),
        eventLike(last, 'CardDealt', {
          card: '9h',
          target: 'COMMUNITY',
          seat: null,
          faceUp: false,
          dealOrder: 13,
        }),
        eventLike(last, 'CardDealt', {
          card: '8d',
          target: 'COMMUNITY',
          seat: null,
          faceUp: false,
          dealOrder: 14,
        }),
      ),
      is('PlayDecision', (d) => d.seat === 5),
      eventLike(last, 'CommunityCardsRevealed', { cards: ['9h', '8d'] }),
    );
    const t = given(events)
      .when(replayTable)
      .then(['F3CP.JACKPOT.COMMUNITY_REVEALED_WITHOUT_BETS'])
      .positive('F3CP.JACKPOT.COMMUNITY_REVEALED_WITHOUT_BETS');
    assert.ok(onlyFinding(t, 'F3CP.JACKPOT.COMMUNITY_REVEALED_WITHOUT_BETS').interpretations.includes('J17'));
  });

  it('art. 15.º n.º 2: with Progressive bets the community cards are revealed → nothing', () => {
    const events = withProgressive();
    assert.ok(events.some(is('CommunityCardsRevealed')));
    given(events).when(replayTable).then([]).negative('F3CP.JACKPOT.COMMUNITY_REVEALED_WITHOUT_BETS');
  });

  it('art. 13.º 7): the community cards revealed before the players decide → JACKPOT.COMMUNITY_REVEALED_EARLY', () => {
    const events = moveBefore(withProgressive(), is('CommunityCardsRevealed'), is('PlayDecision'));
    const t = given(events)
      .when(replayTable)
      .then(['F3CP.JACKPOT.COMMUNITY_REVEALED_EARLY'])
      .positive('F3CP.JACKPOT.COMMUNITY_REVEALED_EARLY');
    assert.deepEqual(onlyFinding(t, 'F3CP.JACKPOT.COMMUNITY_REVEALED_EARLY').seats, [1, 3, 5]);
  });

  it('art. 13.º 7): the community cards revealed after the last decision → nothing', () => {
    given(withProgressive()).when(replayTable).then([]).negative('F3CP.JACKPOT.COMMUNITY_REVEALED_EARLY');
  });
});

describe('the share of the pool a Straight Flush takes never exceeds the pool', () => {
  // issue: with 100 avos rounded up and a pool of 50 avos, a Straight Flush payment left the pool at −50
  const config = jackpotConfigOf({ jackpot: DEFAULT_JACKPOT, rounding: { unitAvos: 100, mode: 'UP' } })!;

  it('jackpotShare: 10% of 50 avos rounded up to 100 avos is capped at the 50 avos there are', () => {
    assert.equal(jackpotShare('straight-flush', 50, config), 50);
    assert.equal(jackpotShare('straight-flush', 1_050, config), 200); // not capped: 105 rounded up to 200
    assert.equal(jackpotShare('royal-flush', 50, config), 50);
    assert.equal(jackpotShare('flush', 50, config), null);
  });

  it('settleF3cpRound: a Straight Flush on a pool of 50 avos pays the fixed amount and leaves no negative pool', () => {
    const c = (t: string) => t.split(' ').map(parseCard);
    const s = settleF3cpRound(
      {
        seats: [
          { seat: 1, cards: c('7s 8s 9s'), bets: { ante: 10_000, progressive: 5_000 }, decision: 'fold' },
        ],
        banker: c('Qh Jd 3c'),
        community: c('5s 6s'),
        jackpot: { config, poolBefore: 50 },
      },
      F3CP_2025A,
    );
    const p = s.jackpot!.payments[0]!;
    assert.equal(p.share, 50);
    assert.equal(p.amount, 500_000);
    assert.ok(p.poolAfter >= 0);
    // emptied by its share, the pool restarts at the reset amount (art. 15.º n.º 6, J4)
    assert.equal(p.poolAfter, DEFAULT_JACKPOT.resetAmount);
    assert.equal(p.poolReset, true);
  });

  it('replayed: the same round on a table whose pool is 50 avos, declared by the engine → nothing', () => {
    const events = cleanRound(STRAIGHT_FLUSH, {
      jackpot: { ...DEFAULT_JACKPOT, initialPool: 50 },
      rounding: { unitAvos: 100, mode: 'UP' },
      contributionPercent: 0, // so the pool is still 50 avos when the round is settled
    });
    const paid = first(events, 'JackpotPaid');
    assert.deepEqual([paid.poolBefore, paid.poolAfter], [50, DEFAULT_JACKPOT.resetAmount]);
    given(events).when(replayTable).then([]).negative('F3CP.JACKPOT.POOL').negative('F3CP.JACKPOT.AMOUNT');
  });
});
