import {
  CardError,
  jackpotConfigOf,
  parseCard,
  proportion,
  ruleSetFor,
  settleF3cpRound,
  type Card,
  type F3cpRoundFacts,
  type F3cpSeatFacts,
  type F3cpSettlement,
  type JackpotConfig,
  type SettlementLine,
} from '@table-audit/rules';
import type { CardDealt, TableOpened } from '@table-audit/schemas/events';
import { F3CP_CHECKS as C } from './checks.ts';
import { makeFinding, type Finding, type FindingContext, type FindingInput } from './finding.ts';
import { declaredKey, type RoundView, type SeatBets } from './round-view.ts';

/** What the replay derived for one round: the rule set, the facts, the engine's settlement, the findings. */
export interface RoundDerivation {
  readonly roundId: string;
  readonly ruleSet: string | null;
  /** why the round could not be re-derived (rule set not implemented, cards incomplete, …) */
  readonly notDerived: string | null;
  readonly facts: F3cpRoundFacts | null;
  readonly settlement: F3cpSettlement | null;
  readonly findings: Finding[];
  /** Progressive bets that must reappear, carried over, in the table's next round (art. 17.º n.º 3) */
  readonly carryOverDue: { seat: number; amount: number }[];
  /** the round ended normally (settled, no malfunction): resets the shuffler-failure count */
  readonly completedNormally: boolean;
}

/** A settlement line's bet, as the events name it. */
export const LINE_TYPE: Record<SettlementLine['bet'], string> = {
  ante: 'ANTE',
  play: 'PLAY',
  anteBonus: 'ANTE_BONUS',
  pairPlus: 'PAIR_PLUS',
  sixCardBonus: 'SIX_CARD_BONUS',
  progressive: 'PROGRESSIVE',
};

export const upperClass = (c: string): string => c.toUpperCase().replaceAll('-', '_');

interface Evidence {
  eventId: string;
  eventTime: number;
}
const ev = (x: { header: { eventId: string; eventTime: number } }): Evidence => ({
  eventId: x.header.eventId,
  eventTime: x.header.eventTime,
});

/** Runs every per-round check of shared/spec/f3cp-2025.md on one round. Pure: the view in, findings out. */
export function checkRound(v: RoundView): RoundDerivation {
  const started = v.events.find((e) => e.type === 'RoundStarted') ?? v.events[0]!;
  const header = started.data.header;
  const lookup = ruleSetFor('f3cp', header.eventTime);
  const ruleSet = lookup.status === 'implemented' ? lookup.rules : null;
  const ctx: FindingContext = {
    ruleSet: lookup.status === 'no-rules' ? 'none' : lookup.entry.id,
    casino: header.casino,
    concessionaire: header.concessionaire,
    tableId: header.tableId,
    roundId: v.roundId,
  };
  if (!ruleSet) {
    const reason = lookup.status === 'implemented' ? '' : lookup.reason;
    return {
      roundId: v.roundId,
      ruleSet: ctx.ruleSet,
      notDerived: reason,
      facts: null,
      settlement: null,
      findings: [],
      carryOverDue: [],
      completedNormally: v.settled,
    };
  }
  const findings: Finding[] = [];
  const add = (f: FindingInput) => findings.push(makeFinding(ctx, f));
  const lastEvent = v.events[v.events.length - 1]!.data;

  // --- seats with bets at the first card; cards; integrity ----------------------------------------------------
  const betSeats: SeatBets[] = [];
  let anyProgressive = false;
  for (const b of v.bets.values()) {
    if (b.ante + b.pairPlus + b.sixCardBonus + b.progressive <= 0) continue;
    betSeats.push(b);
    if (b.progressive > 0) anyProgressive = true;
  }
  const hasBets = (seat: number | null) =>
    seat !== null &&
    (v.bets.get(seat)?.ante ?? 0) +
      (v.bets.get(seat)?.pairPlus ?? 0) +
      (v.bets.get(seat)?.sixCardBonus ?? 0) +
      (v.bets.get(seat)?.progressive ?? 0) >
      0;
  const n = v.dealt.length;
  const cardOf = new Int32Array(n); // -1: not a card
  const badCards: CardDealt[] = [];
  const duplicates: CardDealt[] = [];
  const reusedVoidCards: CardDealt[] = [];
  const isVoidCard = new Uint8Array(n); // dealt to a hand without bets (art. 17.º n.º 4 2)), or a re-use of such a card
  const firstAt = new Int32Array(52).fill(-1);
  for (let i = 0; i < n; i++) {
    const d = v.dealt[i]!;
    const c = cardValue(d.card);
    cardOf[i] = c;
    if (d.target === 'SEAT' && !hasBets(d.seat)) isVoidCard[i] = 1;
    if (c < 0) {
      badCards.push(d);
      continue;
    }
    const first = firstAt[c]!;
    if (first < 0) firstAt[c] = i;
    else if (isVoidCard[first] && !(d.target === 'SEAT' && !hasBets(d.seat))) {
      reusedVoidCards.push(d);
      isVoidCard[i] = 2;
    } else duplicates.push(d);
  }
  const voidSeatCards = v.dealt.filter((_, i) => isVoidCard[i] === 1);
  if (badCards.length || duplicates.length) {
    add({
      check: C.cardsIntegrity,
      summary: [
        badCards.length
          ? `not cards of a 52-card deck: ${badCards.map((d) => JSON.stringify(d.card)).join(', ')}`
          : '',
        duplicates.length ? `dealt twice from one deck: ${duplicates.map((d) => d.card).join(', ')}` : '',
      ]
        .filter(Boolean)
        .join('; '),
      declared: [...badCards, ...duplicates].map((d) => ({
        card: d.card,
        target: d.target,
        seat: d.seat,
        dealOrder: d.dealOrder,
      })),
      evidence: [...badCards, ...duplicates].map(ev),
    });
  }

  // --- bets ---------------------------------------------------------------------------------------------------
  for (const b of v.lateBets) {
    add({
      check: C.betLate,
      discriminator: `${b.seat}:${b.betType}:${b.header.eventId}`,
      seats: [b.seat],
      players: [b.playerId],
      summary: `${b.betType} bet of ${b.amount} avos on seat ${b.seat} after the first card was dealt`,
      declared: { betType: b.betType, amount: b.amount },
      evidence: [ev(b), ...(v.dealt[0] ? [ev(v.dealt[0])] : [])],
    });
  }
  const limits = limitsOf(v.context.config);
  let seatOfPlayer: Map<string, number> | null = null;
  for (const b of v.betEvents) {
    const l = limits.get(b.betType);
    if (l && (b.amount < l.minimum || b.amount > l.maximum)) {
      add({
        check: C.betLimits,
        discriminator: `${b.seat}:${b.betType}:${b.header.eventId}`,
        seats: [b.seat],
        players: [b.playerId],
        summary: `${b.betType} bet of ${b.amount} avos on seat ${b.seat} outside the limits ${l.minimum}–${l.maximum}`,
        expected: { minimum: l.minimum, maximum: l.maximum },
        declared: { amount: b.amount },
        evidence: [ev(b)],
      });
    }
    if (b.playerId) {
      const occupant = v.context.occupants.get(b.seat);
      seatOfPlayer ??= new Map([...v.context.occupants].map(([seat, player]) => [player, seat]));
      const seatOf = seatOfPlayer.get(b.playerId);
      if (
        (occupant !== undefined && occupant !== b.playerId) ||
        (seatOf !== undefined && seatOf !== b.seat)
      ) {
        add({
          check: C.betOtherHand,
          discriminator: `${b.seat}:${b.betType}:${b.playerId}`,
          seats: [b.seat, ...(seatOf !== undefined ? [seatOf] : [])],
          players: [b.playerId, occupant ?? null],
          summary: `player ${b.playerId}${seatOf !== undefined ? ` seated at seat ${seatOf}` : ''} bet on seat ${b.seat}${occupant ? `, occupied by ${occupant}` : ''}`,
          expected: { seat: seatOf ?? null },
          declared: { seat: b.seat },
          evidence: [ev(b)],
        });
      }
    }
  }
  for (const s of betSeats) {
    if ((s.sixCardBonus > 0 || s.progressive > 0) && s.ante === 0 && s.pairPlus === 0) {
      add({
        check: C.additionalWithoutBasic,
        discriminator: String(s.seat),
        seats: [s.seat],
        players: [...s.players],
        summary: `seat ${s.seat} has ${s.sixCardBonus ? 'a Six Card Bonus' : ''}${s.sixCardBonus && s.progressive ? ' and ' : ''}${s.progressive ? 'a Progressive' : ''} bet without an Ante or Pair Plus bet`,
        declared: { sixCardBonus: s.sixCardBonus, progressive: s.progressive },
        evidence: v.betEvents.filter((b) => b.seat === s.seat).map(ev),
      });
    }
  }
  for (const b of v.betEvents.filter((x) => x.betType === 'PLAY')) {
    const ante = v.bets.get(b.seat)?.ante ?? 0;
    if (b.amount !== ante)
      add({
        check: C.playNotEqualAnte,
        discriminator: String(b.seat),
        seats: [b.seat],
        players: [b.playerId],
        summary: `seat ${b.seat} Play bet ${b.amount} avos, Ante ${ante} avos`,
        expected: { play: ante },
        declared: { play: b.amount },
        evidence: [ev(b), ...v.betEvents.filter((x) => x.seat === b.seat && x.betType === 'ANTE').map(ev)],
      });
  }

  // --- dealing (art. 11.º) ------------------------------------------------------------------------------------
  // Targets as numbers: seat 1..7, banker 8, community 9, discard 10. Cards of hands without bets are left out.
  const voided = v.voided !== null;
  const malfunctionDuringDeal = v.malfunctions.find((m) => m.event.duringDeal);
  const seatsAsc = betSeats.map((b) => b.seat).sort((a, b) => a - b);
  const expected: number[] = [];
  if (v.context.dealingMode === 'SHOE')
    for (let k = 0; k < 3; k++) for (const s of seatsAsc) expected.push(s);
  else for (const s of seatsAsc) expected.push(s, s, s);
  expected.push(BANKER, BANKER, BANKER);
  const actual: number[] = [];
  const counts = new Int32Array(11);
  for (let i = 0; i < n; i++) {
    if (isVoidCard[i]) continue;
    const t = targetCode(v.dealt[i]!);
    actual.push(t);
    counts[t]!++;
  }
  const incompleteAllowed = voided || malfunctionDuringDeal !== undefined;
  const countProblems: [string, number][] = [];
  for (const s of seatsAsc)
    if (incompleteAllowed ? counts[s]! > 3 : counts[s] !== 3) countProblems.push([`seat ${s}`, counts[s]!]);
  if (incompleteAllowed ? counts[BANKER]! > 3 : counts[BANKER] !== 3)
    countProblems.push(['the banker', counts[BANKER]!]);
  const community = counts[COMMUNITY]!;
  const discards = counts[DISCARD]!;
  const discardAllowed = v.context.dealingMode === 'SHUFFLER' && anyProgressive ? 1 : 0;
  // with no Progressive bet, community cards on the table are allowed (J17): only their reveal is a finding
  const communityProblem =
    anyProgressive && ((incompleteAllowed ? community > 2 : community !== 2) || discards > discardAllowed);
  const dealEvidence = () => v.dealt.map(ev);
  if (countProblems.length)
    add({
      check: C.dealCount,
      summary: `wrong number of cards: ${countProblems.map(([w, k]) => `${w} ${k}`).join(', ')}`,
      expected: 3,
      declared: Object.fromEntries(countProblems),
      evidence: dealEvidence(),
    });
  if (communityProblem)
    add({
      check: C.dealCommunity,
      summary: `with Progressive bets: ${community} community and ${discards} discarded cards (expected 2 and at most ${discardAllowed})`,
      expected: { community: 2, discardAtMost: discardAllowed },
      declared: { community, discards },
      evidence: dealEvidence(),
    });
  // the hands and the banker first, in the prescribed order; then, if any, one discard and the community cards
  let orderBroken = false;
  if (!countProblems.length) {
    const hands = actual.length - community - discards;
    for (let i = 0; i < hands && !orderBroken; i++) if (actual[i] !== expected[i]) orderBroken = true;
    for (let i = hands; i < actual.length && !orderBroken; i++) {
      const t = actual[i]!;
      if ((t !== COMMUNITY && t !== DISCARD) || (t === DISCARD && i !== hands)) orderBroken = true;
    }
  }
  if (orderBroken)
    add({
      check: C.dealOrder,
      summary: `cards dealt ${actual.map(targetName).join(' ')}; ${v.context.dealingMode === 'SHOE' ? 'from the shoe, one at a time left to right, then the banker' : 'from the shuffler, three at a time left to right, then the banker'}: ${expected.map(targetName).join(' ')}`,
      expected: expected.map(targetName),
      declared: actual.map(targetName),
      evidence: dealEvidence(),
    });
  for (const d of v.dealt)
    if (d.faceUp)
      add({
        check: C.dealFaceUp,
        discriminator: String(d.dealOrder),
        seats: d.seat ? [d.seat] : [],
        summary: `card ${d.dealOrder} (${d.target}${d.seat ? ` ${d.seat}` : ''}) dealt face up`,
        declared: { card: d.card, target: d.target, seat: d.seat },
        evidence: [ev(d)],
      });

  // --- irregularities (art. 17.º) -----------------------------------------------------------------------------
  const dealRulesBroken = countProblems.length > 0 || communityProblem || orderBroken;
  const bankerExposed = v.exposures.filter((x) => x.duringDeal && x.target === 'BANKER');
  const playerExposed = v.exposures.filter((x) => x.duringDeal && x.target === 'SEAT');
  const conditions: { what: string; citation: string; evidence: Evidence[] }[] = [];
  if (dealRulesBroken)
    conditions.push({
      what: 'the dealing rules of art. 11.º n.º 1-3 were broken',
      citation: 'al.1',
      evidence: dealEvidence(),
    });
  if (bankerExposed.length)
    conditions.push({
      what: `${bankerExposed.length} banker card(s) exposed during the deal`,
      citation: 'al.2',
      evidence: bankerExposed.map(ev),
    });
  if (playerExposed.length > 1)
    conditions.push({
      what: `${playerExposed.length} player cards exposed during the deal`,
      citation: 'al.3',
      evidence: playerExposed.map(ev),
    });
  if (!voided && conditions.length) {
    add({
      check: C.irregNotVoided,
      summary: `${conditions.map((c) => c.what).join('; ')}, yet the round was settled`,
      expected: 'round voided, bets withdrawable',
      declared: 'round settled',
      extraCitations: conditions.map((c) => ({
        diploma: '89/2025',
        article: 17,
        numero: 1,
        alinea: Number(c.citation.slice(3)),
      })),
      evidence: [...conditions.flatMap((c) => c.evidence), ev(lastEvent)],
    });
  }
  if (voided && !conditions.length && !malfunctionDuringDeal) {
    const only = [
      playerExposed.length === 1 ? 'one player card exposed' : '',
      voidSeatCards.length ? 'cards dealt to a hand without bets' : '',
    ].filter(Boolean);
    add({
      check: C.irregWronglyVoided,
      summary: only.length
        ? `voided for ${only.join(' and ')}, which art. 17.º n.º 4 lets the round survive`
        : `voided (${v.voided!.reason}) with no irregularity of art. 17.º n.º 1 or 2 in the events`,
      expected: 'round continues',
      declared: { voided: v.voided!.reason },
      evidence: [ev(v.voided!), ...playerExposed.map(ev), ...voidSeatCards.map(ev)],
    });
  }
  if (malfunctionDuringDeal) {
    const after = v.dealt.slice(malfunctionDuringDeal.dealtBefore);
    if (after.length || !voided)
      add({
        check: C.irregShufflerNotSuspended,
        summary: `shuffler ${malfunctionDuringDeal.event.shufflerId} failed during the deal; ${after.length ? `${after.length} card(s) were dealt after it` : ''}${after.length && !voided ? ' and ' : ''}${!voided ? 'the round was settled instead of ended' : ''}`,
        expected: 'round suspended at once, cards reshuffled',
        declared: { cardsAfterMalfunction: after.length, settled: !voided },
        evidence: [ev(malfunctionDuringDeal.event), ...after.map(ev)],
      });
  }
  const usedVoid = voidSeatCards.filter(
    (d) => v.outcome?.seats.some((s) => s.seat === d.seat) || v.decisions.has(d.seat!),
  );
  if (reusedVoidCards.length || usedVoid.length) {
    add({
      check: C.irregVoidCardsUsed,
      seats: [
        ...new Set(
          [...usedVoid, ...reusedVoidCards].map((d) => d.seat).filter((s): s is number => s !== null),
        ),
      ],
      summary: reusedVoidCards.length
        ? `cards dealt to a hand without bets were dealt again: ${reusedVoidCards.map((d) => d.card).join(', ')}`
        : `the hand without bets at seat ${usedVoid[0]!.seat} was played or declared`,
      expected: 'cards of a hand without bets are void',
      declared: {
        reused: reusedVoidCards.map((d) => d.card),
        playedSeats: [...new Set(usedVoid.map((d) => d.seat))],
      },
      evidence: [...voidSeatCards, ...reusedVoidCards].map(ev),
    });
  }

  // --- conduct in the round -----------------------------------------------------------------------------------
  for (const s of v.vacatedDuringPlay.filter((x) => hasBets(x.seat))) {
    add({
      check: C.conductLeftSeat,
      discriminator: `${s.seat}:${s.header.eventId}`,
      seats: [s.seat],
      players: [s.playerId],
      summary: `player ${s.playerId} left seat ${s.seat} after the first card and before the seat was settled`,
      evidence: [ev(s), ...(v.dealt[0] ? [ev(v.dealt[0])] : [])],
    });
  }
  for (const o of v.observations) {
    const check =
      o.kind === 'RECORDING_DEVICE' || o.kind === 'NOTES' || o.kind === 'PREDICTION_OR_STRATEGY'
        ? C.conductRecording
        : o.kind === 'CARD_SHOWN_TO_THIRD_PARTY' || o.kind === 'SIGNALLING'
          ? C.conductCardReveal
          : o.kind === 'NON_SEATED_HANDLING'
            ? C.conductNonSeatedHandling
            : null;
    if (check && o.confidence >= 50)
      add({
        check,
        discriminator: o.header.eventId,
        seats: o.seat ? [o.seat] : [],
        players: [o.playerId],
        summary: `${o.kind.toLowerCase().replaceAll('_', ' ')} observed${o.seat ? ` at seat ${o.seat}` : ''} by ${o.analyst ?? o.camera ?? o.header.sourceDevice} (confidence ${o.confidence}%): ${o.description}`,
        declared: { kind: o.kind, confidence: o.confidence },
        evidence: [ev(o)],
      });
  }

  // --- voided rounds: bets returned, Progressive carried over -------------------------------------------------
  const carryRequired =
    voided &&
    (dealRulesBroken ||
      malfunctionDuringDeal !== undefined ||
      v.voided!.reason === 'DEALING_RULES_BROKEN' ||
      v.voided!.reason === 'SHUFFLER_MALFUNCTION');
  const carryOverDue = carryRequired
    ? betSeats.filter((b) => b.progressive > 0).map((b) => ({ seat: b.seat, amount: b.progressive }))
    : [];
  if (voided) {
    const wrong: string[] = [];
    const evidence: Evidence[] = [ev(v.voided!)];
    for (const s of betSeats) {
      for (const [type, amount] of betAmounts(s)) {
        const d = v.declared.get(declaredKey(s.seat, type));
        const carried = type === 'PROGRESSIVE' && carryRequired;
        if (carried) continue;
        if (!d || d.returned !== amount || d.collected > 0 || d.payout > 0) {
          wrong.push(
            `seat ${s.seat} ${type}: returned ${d?.returned ?? 0} of ${amount}${d?.collected ? `, collected ${d.collected}` : ''}${d?.payout ? `, paid ${d.payout}` : ''}`,
          );
          if (d) evidence.push(...d.eventIds.map((id) => ({ eventId: id, eventTime: 0 })));
        }
      }
    }
    if (wrong.length)
      add({
        check: C.irregBetsNotReturned,
        seats: betSeats.map((b) => b.seat),
        summary: `the round was voided but ${wrong.join('; ')}`,
        expected: 'every bet returned (withdrawable)',
        declared: wrong,
        evidence,
      });
    return {
      roundId: v.roundId,
      ruleSet: ruleSet.id,
      notDerived: 'the round was voided',
      facts: null,
      settlement: null,
      findings,
      carryOverDue,
      completedNormally: false,
    };
  }

  // --- re-derive the settlement and compare -------------------------------------------------------------------
  if (badCards.length || duplicates.length || countProblems.length || (anyProgressive && community !== 2)) {
    return {
      roundId: v.roundId,
      ruleSet: ruleSet.id,
      notDerived: 'the cards dealt do not make a complete round',
      facts: null,
      settlement: null,
      findings,
      carryOverDue,
      completedNormally: v.settled && !malfunctionDuringDeal,
    };
  }
  const cardsOf = (pred: (d: CardDealt) => boolean) => {
    const out: Card[] = [];
    for (let i = 0; i < n; i++) if (!isVoidCard[i] && pred(v.dealt[i]!)) out.push(cardOf[i]!);
    return out;
  };
  const seatFacts: F3cpSeatFacts[] = betSeats.map((s) => {
    const decision = v.decisions.get(s.seat)?.decision;
    return {
      seat: s.seat,
      cards: cardsOf((d) => d.target === 'SEAT' && d.seat === s.seat),
      bets: {
        ante: s.ante,
        play: decision === 'PLAY' ? s.play : 0,
        pairPlus: s.pairPlus,
        sixCardBonus: s.sixCardBonus,
        progressive: s.progressive,
      },
      ...(s.ante > 0 && decision
        ? { decision: decision === 'PLAY' ? ('play' as const) : ('fold' as const) }
        : {}),
    };
  });
  const jackpotConfig = jackpotConfigOf(v.context.config);
  const facts: F3cpRoundFacts = {
    seats: seatFacts,
    banker: cardsOf((d) => d.target === 'BANKER'),
    ...(community ? { community: cardsOf((d) => d.target === 'COMMUNITY') } : {}),
    ...(jackpotConfig && v.poolAtSettlement !== null
      ? { jackpot: { config: jackpotConfig, poolBefore: v.poolAtSettlement } }
      : {}),
  };
  let settlement: F3cpSettlement;
  try {
    settlement = settleF3cpRound(facts, ruleSet);
  } catch (e) {
    return {
      roundId: v.roundId,
      ruleSet: ruleSet.id,
      notDerived: (e as Error).message,
      facts,
      settlement: null,
      findings,
      carryOverDue,
      completedNormally: v.settled,
    };
  }
  comparePayouts(v, settlement, add);
  compareOutcome(v, settlement, add);
  compareJackpot(v, settlement, jackpotConfig, anyProgressive, add);
  return {
    roundId: v.roundId,
    ruleSet: ruleSet.id,
    notDerived: null,
    facts,
    settlement,
    findings,
    carryOverDue,
    completedNormally: v.settled && !malfunctionDuringDeal,
  };
}

const BANKER = 8;
const COMMUNITY = 9;
const DISCARD = 10;
const targetCode = (d: CardDealt): number =>
  d.target === 'SEAT'
    ? d.seat!
    : d.target === 'BANKER'
      ? BANKER
      : d.target === 'COMMUNITY'
        ? COMMUNITY
        : DISCARD;
const targetName = (t: number): string =>
  t <= 7 ? `S${t}` : t === BANKER ? 'B' : t === COMMUNITY ? 'C' : 'D';

// card text → card index; -1 for text that is no card (a replay sees only a few dozen distinct strings)
const CARD_VALUES = new Map<string, number>();
function cardValue(text: string): number {
  let c = CARD_VALUES.get(text);
  if (c === undefined) {
    try {
      c = parseCard(text);
    } catch (e) {
      if (!(e instanceof CardError)) throw e;
      c = -1;
    }
    if (CARD_VALUES.size < 10_000) CARD_VALUES.set(text, c);
  }
  return c;
}

const LIMITS = new WeakMap<TableOpened, Map<string, TableOpened['betLimits'][number]>>();
function limitsOf(config: TableOpened) {
  let l = LIMITS.get(config);
  if (!l) LIMITS.set(config, (l = new Map(config.betLimits.map((x) => [x.betType, x]))));
  return l;
}

function betAmounts(s: SeatBets): [string, number][] {
  const list: [string, number][] = [
    ['ANTE', s.ante],
    ['PLAY', s.play],
    ['PAIR_PLUS', s.pairPlus],
    ['SIX_CARD_BONUS', s.sixCardBonus],
    ['PROGRESSIVE', s.progressive],
  ];
  return list.filter(([, a]) => a > 0);
}

function comparePayouts(v: RoundView, s: F3cpSettlement, add: (f: FindingInput) => void): void {
  const expected = new Map<
    string,
    { payout: number; collected: number; returned: number; line: SettlementLine }
  >();
  for (const l of s.lines) {
    const type = LINE_TYPE[l.bet];
    const jackpotWin = l.bet === 'progressive' && l.outcome === 'win';
    expected.set(declaredKey(l.seat, type), {
      payout: jackpotWin ? 0 : l.payout, // a jackpot award is a JackpotPaid event, checked by the JACKPOT checks
      collected: l.stake === 'collected' ? l.amount : 0,
      returned: l.outcome === 'push' || l.outcome === 'void' ? l.amount : 0,
      line: l,
    });
  }
  const keys = new Set([...expected.keys(), ...v.declared.keys()]);
  for (const k of [...keys].sort()) {
    const e = expected.get(k);
    const d = v.declared.get(k) ?? { payout: 0, collected: 0, returned: 0, eventIds: [] };
    const exp = e ?? { payout: 0, collected: 0, returned: 0 };
    if (exp.payout === d.payout && exp.collected === d.collected && exp.returned === d.returned) continue;
    const [seat, type] = k.split(':') as [string, string];
    const line = e?.line;
    add({
      check: C.payoutMismatch,
      discriminator: k,
      seats: [Number(seat)],
      players: [...(v.bets.get(Number(seat))?.players ?? [])],
      summary: `seat ${seat} ${type}: expected ${describe(exp)}${line ? ` (${line.basis})` : ' (no such bet to settle)'}, declared ${describe(d)}`,
      expected: {
        outcome: line?.outcome ?? 'none',
        payout: exp.payout,
        collected: exp.collected,
        returned: exp.returned,
        ...(line?.hand ? { hand: line.hand } : {}),
      },
      declared: { payout: d.payout, collected: d.collected, returned: d.returned },
      extraCitations: line?.citations ?? [],
      extraInterpretations: line?.interpretations ?? [],
      evidence: [
        ...d.eventIds.map((id) => eventRef(v, id)),
        ...v.betEvents.filter((b) => b.seat === Number(seat)).map(ev),
      ],
    });
  }
}

const describe = (x: { payout: number; collected: number; returned: number }): string =>
  [
    x.payout ? `paid ${x.payout}` : '',
    x.collected ? `collected ${x.collected}` : '',
    x.returned ? `returned ${x.returned}` : '',
  ]
    .filter(Boolean)
    .join(', ') || 'nothing';

function eventRef(v: RoundView, eventId: string): Evidence {
  const e = v.events.find((x) => x.data.header.eventId === eventId);
  return { eventId, eventTime: e?.data.header.eventTime ?? 0 };
}

function compareOutcome(v: RoundView, s: F3cpSettlement, add: (f: FindingInput) => void): void {
  const o = v.outcome;
  const expectedSeats = s.seats
    .filter((x) => {
      const b = v.bets.get(x.seat)!;
      return b.ante > 0 || b.pairPlus > 0;
    })
    .map((x) => ({
      seat: x.seat,
      hand: upperClass(x.hand),
      result:
        x.decision !== 'play'
          ? 'NONE'
          : !s.banker.qualifies
            ? 'WIN'
            : x.versusBanker === 'higher'
              ? 'WIN'
              : x.versusBanker === 'lower'
                ? 'LOSE'
                : 'TIE',
    }));
  const expected = {
    bankerHand: upperClass(s.banker.hand),
    bankerQualifies: s.banker.qualifies,
    seats: expectedSeats,
  };
  if (!o) {
    add({
      check: C.outcomeMisdeclared,
      summary: 'no outcome was declared for a settled round',
      expected,
      declared: null,
      extraCitations: [s.banker.citations[1]!],
      evidence: [ev(v.events[v.events.length - 1]!.data)],
    });
    return;
  }
  const problems: string[] = [];
  if (o.bankerHand !== expected.bankerHand)
    problems.push(`banker hand ${o.bankerHand}, cards make ${expected.bankerHand}`);
  if (o.bankerQualifies !== expected.bankerQualifies)
    problems.push(`banker ${o.bankerQualifies ? 'declared qualifying' : 'declared not qualifying'}`);
  const declaredSeats = new Map(o.seats.map((x) => [x.seat, x]));
  for (const x of expectedSeats) {
    const d = declaredSeats.get(x.seat);
    if (!d) problems.push(`seat ${x.seat} not declared`);
    else {
      if (d.hand !== x.hand) problems.push(`seat ${x.seat} hand ${d.hand}, cards make ${x.hand}`);
      if (d.result !== x.result) problems.push(`seat ${x.seat} result ${d.result}, should be ${x.result}`);
    }
  }
  for (const d of o.seats)
    if (!expectedSeats.some((x) => x.seat === d.seat) && !(v.bets.has(d.seat) === false))
      problems.push(`seat ${d.seat} declared without a basic bet`);
  if (problems.length) {
    add({
      check: C.outcomeMisdeclared,
      seats: o.seats.map((x) => x.seat),
      summary: problems.join('; '),
      expected,
      declared: { bankerHand: o.bankerHand, bankerQualifies: o.bankerQualifies, seats: o.seats },
      extraCitations: [s.banker.citations[1]!],
      evidence: [ev(o), ...v.dealt.map(ev)],
    });
  }
}

function compareJackpot(
  v: RoundView,
  s: F3cpSettlement,
  config: JackpotConfig | null,
  anyProgressive: boolean,
  add: (f: FindingInput) => void,
): void {
  if (v.communityRevealed && !anyProgressive) {
    add({
      check: C.communityWithoutBets,
      extraInterpretations: ['J17'],
      summary: `community cards ${v.communityRevealed.cards.join(' ')} revealed although no hand bet the Progressive Jackpot`,
      declared: v.communityRevealed.cards,
      evidence: [ev(v.communityRevealed)],
    });
  }
  const expected = s.jackpot?.payments ?? [];
  const declared = v.jackpotPaid;
  if (!expected.length && !declared.length) return;
  const expectedSeats = expected.map((p) => p.seat);
  const declaredSeats = declared.map((p) => p.seat);
  const sameSet = [...expectedSeats].sort().join() === [...declaredSeats].sort().join();
  if (sameSet && expectedSeats.join() !== declaredSeats.join()) {
    add({
      check: C.jackpotOrder,
      seats: expectedSeats,
      summary: `paid seats ${declaredSeats.join(', ')}; art. 15.º requires ${expectedSeats.join(', ')}`,
      expected: expected.map((p) => ({ seat: p.seat, hand: p.hand })),
      declared: declared.map((p) => ({ seat: p.seat, hand: p.hand })),
      extraCitations: expected[0]?.citations ?? [],
      extraInterpretations: expected[0]?.interpretations ?? [],
      evidence: declared.map(ev),
    });
  }
  // Each declared payment is judged on the pool it declares it started from, so one wrong payment is one finding.
  for (const p of expected) {
    const d = declared.find((x) => x.seat === p.seat);
    const fixed = p.fixedAmount;
    const share = d && p.share !== null ? shareOf(p.hand, d.poolBefore, config!) : p.share;
    const amount = share === null ? fixed : Math.max(fixed, share);
    if (!d || d.amount !== amount) {
      add({
        check: C.jackpotAmount,
        discriminator: String(p.seat),
        seats: [p.seat],
        summary: `seat ${p.seat} ${p.hand}: ${d ? `paid ${d.amount}` : 'not paid'}, due ${amount}${share !== null ? ` (greater of the fixed ${fixed} and ${p.hand === 'royal-flush' ? '100%' : '10%'} of a pool of ${d?.poolBefore ?? p.poolBefore})` : ''}`,
        expected: { hand: p.hand, amount },
        declared: d ? { hand: d.hand, amount: d.amount } : null,
        extraCitations: p.citations,
        extraInterpretations: p.interpretations,
        evidence: d ? [ev(d)] : [],
      });
    }
  }
  for (const d of declared.filter((x) => !expectedSeats.includes(x.seat))) {
    add({
      check: C.jackpotAmount,
      discriminator: String(d.seat),
      seats: [d.seat],
      summary: `seat ${d.seat} paid ${d.amount} from the jackpot without a qualifying hand`,
      expected: null,
      declared: { hand: d.hand, amount: d.amount },
      evidence: [ev(d)],
    });
  }
  // The pool: each payment starts where the previous left it, and falls by its share (reset when emptied).
  const poolProblems: string[] = [];
  let pool = v.poolAtSettlement;
  for (const d of declared) {
    if (pool !== null && d.poolBefore !== pool)
      poolProblems.push(
        `payment ${d.paymentOrder} declares a pool of ${d.poolBefore} before it, the pool was ${pool}`,
      );
    const exp = expected.find((x) => x.seat === d.seat);
    const hand =
      exp?.hand ??
      (d.hand === 'ROYAL_FLUSH' ? 'royal-flush' : d.hand === 'STRAIGHT_FLUSH' ? 'straight-flush' : 'other');
    let after = d.poolBefore;
    if (config && (hand === 'royal-flush' || hand === 'straight-flush')) {
      after -= shareOf(hand, d.poolBefore, config);
      if (after === 0) after = config.resetAmount;
    }
    if (d.poolAfter !== after)
      poolProblems.push(`payment ${d.paymentOrder} (${d.hand}) leaves ${d.poolAfter}, should leave ${after}`);
    pool = d.poolAfter;
  }
  if (declared.length && v.poolAfterRound !== null && v.poolAfterRound !== pool)
    poolProblems.push(
      `the jackpot system shows ${v.poolAfterRound} after the round, the last payment left ${pool}`,
    );
  if (poolProblems.length) {
    add({
      check: C.jackpotPool,
      summary: poolProblems.join('; '),
      expected: expected.map((p) => ({ seat: p.seat, poolBefore: p.poolBefore, poolAfter: p.poolAfter })),
      declared: declared.map((p) => ({ seat: p.seat, poolBefore: p.poolBefore, poolAfter: p.poolAfter })),
      extraInterpretations: ['J4'],
      evidence: declared.map(ev),
    });
  }
}

/** The percentage share of the pool for a Royal (100%) or Straight Flush (10%), rounded as the engine rounds it. */
const shareOf = (hand: string, pool: number, config: JackpotConfig): number =>
  hand === 'royal-flush' ? pool : proportion(pool, 10, 100, config.rounding);
