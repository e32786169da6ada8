import type { CardDealt, F3cpEvent, TableOpened } from '@table-audit/schemas/events';
import { makeFinding, type Finding, type FindingContext, type FindingInput } from '../findings.ts';
import type { NotDerived } from '../game.ts';
import { ruleSetFor } from '../registry.ts';
import { PROCEDURE_CHECKS, SETTLEMENT_CHECKS } from './checks/index.ts';
import {
  carryOverRequired,
  resumedAfterMalfunction,
  roundMayResume,
} from './checks/art-17-irregularities.ts';
import { checkRoundClosed } from './checks/record.ts';
import { as2008, PROCEDURE_CHECKS_2008, SETTLEMENT_CHECKS_2008 } from './checks/f3cp08-index.ts';
import { readingsApplying } from './readings.ts';
import { jackpotConfigOf, type F3cpRoundFacts, type F3cpSeatFacts, type JackpotConfig } from './facts.ts';
import type { RoundView } from './fold.ts';
import { cardsWhere, judgeRound, type JudgedRound, type SettledRound } from './round.ts';
import { settleF3cpRound, type F3cpSettlement } from './settle/index.ts';

/** What the replay derived for one round: the rule set, the facts, the engine's settlement, the findings. */
export interface RoundDerivation {
  readonly roundId: string;
  readonly ruleSet: string | null;
  /** why the round's settlement could not be re-derived; null when it was */
  readonly notDerived: NotDerived | null;
  /** the judged round (null when no rule set in force is implemented) */
  readonly judged: JudgedRound | null;
  /** the judged round with its settlement, when the cards make a complete round */
  readonly settled: SettledRound | null;
  readonly facts: F3cpRoundFacts | null;
  readonly settlement: F3cpSettlement | null;
  readonly findings: Finding[];
  /** Progressive bets that must reappear, carried over, in the table's next round (art. 17.º n.º 3) */
  readonly carryOverDue: { seat: number; amount: number }[];
  /** the round ended normally (settled, no malfunction): resets the shuffler-failure count */
  readonly completedNormally: boolean;
}

/** The events that begin a round's settlement: a round that has any was settled, if not closed. */
const SETTLEMENT_EVENTS = new Set(['OutcomeDeclared', 'PayoutMade', 'BetCollected', 'JackpotPaid']);

/**
 * Derives and checks one round: picks the rule set by the round's Macau date, runs every procedure check, and,
 * when the cards make a complete round, settles it with the engine and compares what was declared. Pure.
 */
export function deriveRound(
  v: RoundView,
  pending: readonly FindingInput[] = [],
  refused: NotDerived | null = null,
  alternatives: readonly string[] = [],
): RoundDerivation & { context: FindingContext } {
  const header = (v.events.find((e) => e.type === 'RoundStarted') ?? v.events[0]!).data.header;
  const lookup = ruleSetFor('f3cp', v.time);
  const ctx: FindingContext = {
    ruleSet: lookup.status === 'no-rules' ? 'none' : lookup.entry.id,
    casino: header.casino,
    concessionaire: header.concessionaire,
    tableId: header.tableId,
    roundId: v.roundId,
  };
  const base = { roundId: v.roundId, ruleSet: ctx.ruleSet, context: ctx };
  if (lookup.status !== 'implemented' || lookup.rules.game !== 'f3cp') {
    return {
      ...base,
      notDerived: {
        code: lookup.status === 'no-rules' ? 'no-rules' : 'rule-set-not-implemented',
        message:
          lookup.status === 'implemented' ? `${lookup.entry.id} is not a f3cp rule set` : lookup.reason,
      },
      judged: null,
      settled: null,
      facts: null,
      settlement: null,
      findings: [],
      carryOverDue: [],
      completedNormally: v.settled,
    };
  }
  const rules = readingsApplying(lookup.rules, alternatives);
  const era2008 = rules.era === '2008';
  // a 2008 round: every finding is re-stated under its F3CP08 counterpart, or not raised (no such provision)
  const own = (f: FindingInput): FindingInput | null => (era2008 ? as2008(f) : f);
  const findings: Finding[] = [];
  for (const p of pending) {
    const f = own(p);
    if (f) findings.push(makeFinding(ctx, f));
  }
  // refused (its events out of the order their source gave them): only what was decided before it is reported
  if (refused)
    return {
      ...base,
      notDerived: refused,
      judged: null,
      settled: null,
      facts: null,
      settlement: null,
      findings,
      carryOverDue: [],
      completedNormally: false,
    };
  const add = (list: FindingInput[]) => {
    for (const f of list) {
      const g = own(f);
      if (g) findings.push(makeFinding(ctx, g));
    }
  };
  const r = judgeRound(v, rules);
  for (const check of era2008 ? PROCEDURE_CHECKS_2008 : PROCEDURE_CHECKS) add(check(r));
  const carryOverDue = carryOverRequired(r)
    ? r.betSeats.filter((b) => b.progressive > 0).map((b) => ({ seat: b.seat, amount: b.progressive }))
    : [];
  // under J15's alternative a round resumed after a malfunction and settled completed normally
  const normal = v.settled && (!r.malfunctionDuringDeal || roundMayResume(r));
  // the same fields, in the same order, as { ...base, notDerived, … } (one object, no spread)
  const result = (
    notDerived: NotDerived | null,
    facts: F3cpRoundFacts | null,
    settled: SettledRound | null,
    completedNormally: boolean,
  ) => ({
    roundId: base.roundId,
    ruleSet: base.ruleSet,
    context: base.context,
    notDerived,
    judged: r,
    settled,
    facts,
    settlement: settled?.settlement ?? null,
    findings,
    carryOverDue,
    completedNormally,
  });

  if (r.voided) return result({ code: 'voided', message: 'the round was voided' }, null, null, false);
  const incomplete =
    r.cards.badCards.length ||
    r.cards.duplicates.length ||
    r.deal.countProblems.length ||
    (r.anyProgressive && r.deal.community !== 2);
  if (incomplete) {
    add(checkRoundClosed(r, null));
    return result(
      { code: 'cards-incomplete', message: 'the cards dealt do not make a complete round' },
      null,
      null,
      normal,
    );
  }
  const facts = factsOf(r);
  let settlement: F3cpSettlement;
  try {
    settlement = settleF3cpRound(facts, r.ruleSet);
  } catch (e) {
    add(checkRoundClosed(r, null));
    return result({ code: 'settlement-failed', message: (e as Error).message }, facts, null, v.settled);
  }
  // the fields of { ...r, facts, settlement, jackpotConfig }, in that order, without the copy of a spread
  const settled: SettledRound = {
    view: r.view,
    ruleSet: r.ruleSet,
    betSeats: r.betSeats,
    anyProgressive: r.anyProgressive,
    hasBets: r.hasBets,
    cards: r.cards,
    deal: r.deal,
    voided: r.voided,
    malfunctionDuringDeal: r.malfunctionDuringDeal,
    facts,
    settlement,
    jackpotConfig: tableJackpotConfig(v.context.config),
  };
  const closed = v.settled || v.voided !== null;
  add(checkRoundClosed(r, closed ? null : owed(settlement)));
  // an unclosed round with no settlement events was not settled at all: what it owes is in NOT_CLOSED
  if (closed || v.events.some((e: F3cpEvent) => SETTLEMENT_EVENTS.has(e.type)))
    for (const check of era2008 ? SETTLEMENT_CHECKS_2008 : SETTLEMENT_CHECKS) add(check(settled));
  return result(null, facts, settled, normal);
}

function factsOf(r: JudgedRound): F3cpRoundFacts {
  const v = r.view;
  // J15's alternative: a resumed round's Progressive bets move to the next round (art. 17.º n.º 3), unsettled
  const carried = r.malfunctionDuringDeal !== undefined && resumedAfterMalfunction(r);
  const seats: F3cpSeatFacts[] = r.betSeats.map((s) => {
    const decision = v.decisions.get(s.seat)?.decision;
    const seat: { -readonly [K in keyof F3cpSeatFacts]: F3cpSeatFacts[K] } = {
      seat: s.seat,
      cards: cardsWhere(r, (d) => d.target === 'SEAT' && d.seat === s.seat),
      bets: {
        ante: s.ante,
        play: decision === 'PLAY' ? s.play : 0,
        pairPlus: s.pairPlus,
        sixCardBonus: s.sixCardBonus,
        progressive: carried ? 0 : s.progressive,
      },
    };
    if (s.ante > 0 && decision) seat.decision = decision === 'PLAY' ? 'play' : 'fold';
    return seat;
  });
  const jackpotConfig = tableJackpotConfig(v.context.config);
  // optional fields added in the order they were spread before (seats, banker, community, jackpot)
  const facts: { -readonly [K in keyof F3cpRoundFacts]: F3cpRoundFacts[K] } = {
    seats,
    banker: cardsWhere(r, isBankerCard),
  };
  if (r.deal.community) facts.community = cardsWhere(r, isCommunityCard);
  if (jackpotConfig && v.poolAtSettlement !== null)
    facts.jackpot = { config: jackpotConfig, poolBefore: v.poolAtSettlement };
  return facts;
}

const isBankerCard = (d: CardDealt): boolean => d.target === 'BANKER';
const isCommunityCard = (d: CardDealt): boolean => d.target === 'COMMUNITY';

/** jackpotConfigOf, once per table configuration (a TableOpened): the same object for every round under it. */
const JACKPOT_CONFIGS = new WeakMap<TableOpened, JackpotConfig | null>();
function tableJackpotConfig(config: TableOpened): JackpotConfig | null {
  let c = JACKPOT_CONFIGS.get(config);
  if (c === undefined) JACKPOT_CONFIGS.set(config, (c = jackpotConfigOf(config)));
  return c;
}

/** What an unclosed round owes each bet, for the finding that says it was never settled. */
const owed = (s: F3cpSettlement) =>
  s.lines.map((l) => ({ seat: l.seat, bet: l.bet, stake: l.amount, outcome: l.outcome, payout: l.payout }));
