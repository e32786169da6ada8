/**
 * The one translation between ta.thirteen.* events and the facts the 13 Cards checks judge (round.ts), both ways:
 * `roundFromEvents` folds one round's events into its facts, `eventsOfRound` writes a round's facts as the events a
 * correct table controller (and the surveillance) would emit for them, in time order. Nothing else in the code
 * knows the events' field names.
 */
import type {
  BankerArranged,
  PlaceArranged,
  TableOpened,
  ThirteenConduct,
  ThirteenEvent,
  ThirteenEvents,
  ThirteenTableSettings,
} from '@table-audit/schemas/events';
import { formatCard, parseCard } from '../cards.ts';
import type { Arrangement } from './arrangement.ts';
import type { ThirteenPayout } from './rule-set.ts';
import type {
  ArrangementShown,
  BetChange,
  BetFact,
  BetSettled,
  CancelledDeal,
  ConductObservation,
  CutFact,
  DealtCard,
  DiceFact,
  Fact,
  PlaceFacts,
  ThirteenRound,
} from './round.ts';
import type { Outcome } from './score.ts';

/** The table's payout settings (T2) as the engine reads them; null when the settings are not usable. */
export function payoutOf(s: ThirteenTableSettings | null): ThirteenPayout | null {
  if (!s || s.unitsMeaning === 'UNKNOWN' || s.commissionBase === 'UNKNOWN') return null;
  return {
    units: s.unitsMeaning === 'STAKE_PER_POINT' ? 'stake-per-point' : 'units-recorded',
    commissionBase: s.commissionBase === 'WIN' ? 'win' : 'stake',
    commissionPercent: s.commissionPercent,
  };
}

/** The settings a TableOpened carries for a payout configuration. */
export const settingsOf = (p: ThirteenPayout): ThirteenTableSettings => ({
  unitsMeaning: p.units === 'stake-per-point' ? 'STAKE_PER_POINT' : 'UNITS_RECORDED',
  commissionBase: p.commissionBase === 'win' ? 'WIN' : 'STAKE',
  commissionPercent: p.commissionPercent,
});

const CONDUCT: Record<Exclude<ThirteenConduct, 'UNKNOWN'>, ConductObservation['kind']> = {
  PLACE_CHANGED: 'place-changed',
  CARDS_OFF_TABLE: 'cards-off-table',
  OTHER_PLACE_CARDS: 'other-place-cards',
};
const CONDUCT_SYMBOL = Object.fromEntries(Object.entries(CONDUCT).map(([k, v]) => [v, k])) as Record<
  ConductObservation['kind'],
  Exclude<ThirteenConduct, 'UNKNOWN'>
>;
const OUTCOME = { WIN: 'win', LOSE: 'lose', TIE: 'tie' } as const;

const arrangementOf = (e: BankerArranged | PlaceArranged): Arrangement => ({
  front: e.front.map(parseCard),
  middle: e.middle.map(parseCard),
  back: e.back.map(parseCard),
});

/** Why a round's events do not make a round the checks can judge. */
export class RoundFactsError extends Error {
  override readonly name = 'RoundFactsError';
}

/**
 * One round's events (its own ta.thirteen.* events and common ones, in the order the table emitted them) into its
 * facts. A card that does not parse throws RoundFactsError naming the event; a round without its dice shake
 * returns null (nothing says where the deal starts). Cards dealt before a DealCancelled are the cancelled deal's:
 * the round's deal is the one after the last cancellation.
 */
export function roundFromEvents(
  roundId: string,
  tableId: string,
  events: readonly ThirteenEvent[],
): ThirteenRound | null {
  let cut: CutFact | null = null;
  let dice: DiceFact | null = null;
  let deal: DealtCard[] = [];
  const cancelledDeals: { fact: Omit<CancelledDeal, 'cut'>; cut: CutFact | null }[] = [];
  const bets: BetFact[] = [];
  const betChanges: BetChange[] = [];
  const bankerShown: ArrangementShown[] = [];
  const places = new Map<
    number,
    { holder: string | null; taken: Fact | null; arranged: ArrangementShown | null }
  >();
  let signal: Fact | null = null;
  const observations: ConductObservation[] = [];
  const settlements: BetSettled[] = [];
  const placeOf = (p: number) => {
    let x = places.get(p);
    if (!x) places.set(p, (x = { holder: null, taken: null, arranged: null }));
    return x;
  };
  for (const e of events) {
    const h = e.data.header;
    const fact: Fact = { eventId: h.eventId, time: h.eventTime };
    try {
      switch (e.type) {
        case 'DeckCut': {
          const c: CutFact = { ...fact, cards: e.data.cardCount };
          const pending = cancelledDeals.at(-1);
          if (pending && pending.cut === null) pending.cut = c;
          else if (cut === null) cut = c;
          break;
        }
        case 'DiceShaken':
          dice ??= {
            ...fact,
            sum: e.data.faces.reduce((a, b) => a + b, 0),
            shakerPlayerId: e.data.shakerPlayerId,
          };
          break;
        case 'ThirteenCardDealt':
          deal.push({
            ...fact,
            card: parseCard(e.data.card),
            place: e.data.place,
            faceUp: e.data.faceUp,
            ...(e.data.misdeal ? { misdealCorrectedTo: e.data.correctedTo } : {}),
          });
          break;
        case 'DealCancelled':
          cancelledDeals.push({
            fact: {
              ...fact,
              reshuffledByBanker: e.data.reshuffledByBanker,
              reshuffledByMachine: e.data.reshuffledByMachine,
            },
            cut: null,
          });
          deal = [];
          break;
        case 'ThirteenBetPlaced':
          bets.push({
            ...fact,
            betId: e.data.betId,
            place: e.data.place,
            playerId: e.data.playerId,
            amount: e.data.amount,
            units: e.data.units,
            seated: e.data.seated,
          });
          break;
        case 'ThirteenBetChanged':
          if (e.data.change === 'UNKNOWN') break;
          betChanges.push({
            ...fact,
            betId: e.data.betId,
            kind: e.data.change === 'WITHDRAWN' ? 'withdrawn' : 'moved',
            toPlace: e.data.toPlace,
          });
          break;
        case 'BankerArranged':
          bankerShown.push({ ...fact, arrangement: arrangementOf(e.data) });
          break;
        case 'PlaceCardsTaken': {
          const p = placeOf(e.data.place);
          p.holder ??= e.data.holderPlayerId;
          p.taken ??= fact;
          break;
        }
        case 'PlaceArranged':
          placeOf(e.data.place).arranged = { ...fact, arrangement: arrangementOf(e.data) };
          break;
        case 'ArrangeSignalGiven':
          signal ??= fact;
          break;
        case 'ThirteenConductObserved':
          if (e.data.conduct === 'UNKNOWN') break;
          observations.push({
            ...fact,
            kind: CONDUCT[e.data.conduct],
            playerId: e.data.playerId,
            place: e.data.place,
          });
          break;
        case 'ThirteenBetSettled':
          if (e.data.outcome === 'UNKNOWN') break;
          settlements.push({
            ...fact,
            betId: e.data.betId,
            outcome: OUTCOME[e.data.outcome],
            net: e.data.net,
          });
          break;
        default:
          break;
      }
    } catch (err) {
      throw new RoundFactsError(`${e.type} ${h.eventId}: ${(err as Error).message}`);
    }
  }
  if (!dice) return null;
  const last = bankerShown.at(-1) ?? null;
  return {
    roundId,
    tableId,
    cut,
    dice,
    deal,
    cancelledDeals: cancelledDeals.map((c) => ({ ...c.fact, cut: c.cut })),
    bets,
    betChanges,
    bankerShown,
    places: [0, 1, 2, 3].map((place): PlaceFacts =>
      place === 0
        ? { place, holderPlayerId: null, cardsTakenAt: null, arranged: last }
        : {
            place,
            holderPlayerId: places.get(place)?.holder ?? null,
            cardsTakenAt: places.get(place)?.taken ?? null,
            arranged: places.get(place)?.arranged ?? null,
          },
    ),
    signal,
    observations,
    settlements,
  };
}

/** One event to emit: its type, data without header, the time the fact gives it and the device kind. */
export interface TimedEvent<K extends keyof ThirteenEvents = keyof ThirteenEvents> {
  readonly type: K;
  readonly data: Omit<ThirteenEvents[K], 'header'>;
  readonly time: number;
  readonly source: 'TABLE_CONTROLLER' | 'SURVEILLANCE';
}

const timed = <K extends keyof ThirteenEvents>(
  type: K,
  time: number,
  data: Omit<ThirteenEvents[K], 'header'>,
  source: TimedEvent['source'] = 'TABLE_CONTROLLER',
): TimedEvent => ({ type, data, time, source }) as unknown as TimedEvent;

const tiersOf = (a: Arrangement) => ({
  front: a.front.map(formatCard),
  middle: a.middle.map(formatCard),
  back: a.back.map(formatCard),
});

/** Four dice faces (1..6) that add up to `sum` (4..24). */
export function facesOf(sum: number): number[] {
  const faces = [1, 1, 1, 1];
  let rest = Math.min(24, Math.max(4, sum)) - 4;
  for (let i = 0; i < 4 && rest > 0; i++) {
    const add = Math.min(5, rest);
    faces[i]! += add;
    rest -= add;
  }
  return faces;
}

/**
 * A round's facts as the events a table emits for them, sorted by time (stable). The cards of a cancelled deal
 * are not emitted (only the cancellation and the cut after it), so the round's deal is dealt after the last
 * cancellation's cut; the caller moves the deal's times there (`dealAfterCancellations`).
 */
export function eventsOfRound(r: ThirteenRound): TimedEvent[] {
  const out: TimedEvent[] = [];
  if (r.cut) out.push(timed('DeckCut', r.cut.time, { cardCount: r.cut.cards }));
  for (const b of r.bets)
    out.push(
      timed('ThirteenBetPlaced', b.time, {
        betId: b.betId,
        place: b.place,
        playerId: b.playerId,
        amount: b.amount,
        units: b.units,
        seated: b.seated,
      }),
    );
  for (const c of r.betChanges)
    out.push(
      timed('ThirteenBetChanged', c.time, {
        betId: c.betId,
        change: c.kind === 'withdrawn' ? 'WITHDRAWN' : 'MOVED',
        toPlace: c.toPlace,
      }),
    );
  out.push(
    timed('DiceShaken', r.dice.time, { faces: facesOf(r.dice.sum), shakerPlayerId: r.dice.shakerPlayerId }),
  );
  for (const c of r.cancelledDeals) {
    out.push(
      timed('DealCancelled', c.time, {
        reshuffledByBanker: c.reshuffledByBanker,
        reshuffledByMachine: c.reshuffledByMachine,
      }),
    );
    if (c.cut) out.push(timed('DeckCut', c.cut.time, { cardCount: c.cut.cards }));
  }
  for (const d of r.deal)
    out.push(
      timed('ThirteenCardDealt', d.time, {
        card: formatCard(d.card),
        place: d.place,
        faceUp: d.faceUp,
        misdeal: d.misdealCorrectedTo !== undefined,
        correctedTo: d.misdealCorrectedTo ?? null,
      }),
    );
  for (const s of r.bankerShown) out.push(timed('BankerArranged', s.time, tiersOf(s.arrangement)));
  for (const p of r.places) {
    if (p.place === 0) continue;
    if (p.cardsTakenAt)
      out.push(
        timed('PlaceCardsTaken', p.cardsTakenAt.time, { place: p.place, holderPlayerId: p.holderPlayerId }),
      );
    if (p.arranged)
      out.push(
        timed('PlaceArranged', p.arranged.time, { place: p.place, ...tiersOf(p.arranged.arrangement) }),
      );
  }
  if (r.signal) out.push(timed('ArrangeSignalGiven', r.signal.time, {}));
  for (const o of r.observations)
    out.push(
      timed(
        'ThirteenConductObserved',
        o.time,
        { conduct: CONDUCT_SYMBOL[o.kind], playerId: o.playerId, place: o.place },
        'SURVEILLANCE',
      ),
    );
  for (const s of r.settlements)
    out.push(
      timed('ThirteenBetSettled', s.time, {
        betId: s.betId,
        outcome: s.outcome === 'win' ? 'WIN' : s.outcome === 'lose' ? 'LOSE' : 'TIE',
        net: s.net,
      }),
    );
  return out
    .map((e, i) => ({ e, i }))
    .sort((a, b) => a.e.time - b.e.time || a.i - b.i)
    .map((x) => x.e);
}

/** The round with its deal dealt after the last cancelled deal's cut (700 ms a card), as a table would redeal. */
export function dealAfterCancellations(r: ThirteenRound): ThirteenRound {
  const c = r.cancelledDeals.at(-1);
  if (!c) return r;
  const from = Math.max(c.time, c.cut?.time ?? c.time);
  return { ...r, deal: r.deal.map((d, i) => ({ ...d, time: from + 700 * (i + 1) })) };
}

/** The outcome symbol of an engine outcome. */
export const outcomeSymbol = (o: Outcome): 'WIN' | 'LOSE' | 'TIE' =>
  o === 'win' ? 'WIN' : o === 'lose' ? 'LOSE' : 'TIE';

export type { TableOpened };
