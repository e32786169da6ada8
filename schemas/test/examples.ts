/**
 * One realistic example of every event type: a Fortune 3 Card Poker table at a Macau casino on the evening of
 * 2025-11-20 (Macau time), round 42, seat 3 playing. Shared test fixture: other packages import it too.
 */
import {
  F3CP_EVENT_TYPES,
  type EventHeader,
  type F3cpEvent,
  type F3cpEvents,
  type F3cpEventType,
} from '../src/events.ts';

/** 2025-11-20 21:30:00 in Macau (UTC+8), as UTC milliseconds. */
export const EXAMPLE_TIME = Date.UTC(2025, 10, 20, 13, 30, 0);
export const EXAMPLE_TABLE_ID = 'LP-F3CP-07';
export const EXAMPLE_ROUND_ID = 'LP-F3CP-07/2025-11-20/42';

/** A header of the example table; `overrides` set what differs. */
export function exampleHeader(overrides: Partial<EventHeader> = {}): EventHeader {
  return {
    eventId: '01JDB6W3C6S2J7Q5T0EXAMPLE00',
    eventTime: EXAMPLE_TIME,
    receivedTime: EXAMPLE_TIME + 38,
    sourceKind: 'TABLE_CONTROLLER',
    sourceDevice: 'tc-lp-f3cp-07',
    sequence: 18_204,
    casino: 'LOTUS-PALACE',
    concessionaire: 'CONCESSIONAIRE-03',
    tableId: EXAMPLE_TABLE_ID,
    roundId: EXAMPLE_ROUND_ID,
    ...overrides,
  };
}

const at = (seconds: number, sequence: number, overrides: Partial<EventHeader> = {}): EventHeader =>
  exampleHeader({
    eventId: `01JDB6W3C6S2J7Q5T0EX${String(sequence).padStart(6, '0')}`,
    eventTime: EXAMPLE_TIME + seconds * 1000,
    receivedTime: EXAMPLE_TIME + seconds * 1000 + 41,
    sequence,
    ...overrides,
  });

const outsideRound = { roundId: null };

export const EXAMPLES: { readonly [K in F3cpEventType]: F3cpEvents[K] } = {
  TableOpened: {
    header: at(-3600, 17_901, { ...outsideRound, receivedTime: null }),
    game: 'F3CP',
    seats: 7,
    betLimits: [
      { betType: 'ANTE', minimum: 30_000, maximum: 3_000_000 },
      { betType: 'PLAY', minimum: 30_000, maximum: 3_000_000 },
      { betType: 'PAIR_PLUS', minimum: 10_000, maximum: 500_000 },
      { betType: 'SIX_CARD_BONUS', minimum: 10_000, maximum: 200_000 },
      { betType: 'PROGRESSIVE', minimum: 2_500, maximum: 2_500 },
    ],
    shuffleMode: 'AUTOMATIC',
    jackpot: {
      fixedAmounts: {
        royalFlush: 100_000_000,
        straightFlush: 10_000_000,
        fourOfAKind: 5_000_000,
        fullHouse: 1_000_000,
        flush: 500_000,
      },
      resetAmount: 50_000_000,
      initialPool: 87_654_321,
    },
    rounding: { unitAvos: 100, mode: 'DOWN' },
  },
  TableClosed: { header: at(7200, 19_950, outsideRound), reason: 'end of shift' },
  ShuffleStarted: {
    header: at(-60, 18_190, { ...outsideRound, sourceKind: 'SHUFFLER', sourceDevice: 'shuffler-SN-40912' }),
    mode: 'AUTOMATIC',
    shufflerId: 'SN-40912',
  },
  ShuffleCompleted: {
    header: at(-20, 18_191, { ...outsideRound, sourceKind: 'SHUFFLER', sourceDevice: 'shuffler-SN-40912' }),
    mode: 'AUTOMATIC',
    shufflerId: 'SN-40912',
    cutCardUsed: false,
    cutBy: 'NONE',
    cutBySeat: null,
  },
  ShufflerMalfunction: {
    header: at(40, 18_230, { sourceKind: 'SHUFFLER', sourceDevice: 'shuffler-SN-40912' }),
    shufflerId: 'SN-40912',
    duringDeal: true,
    description: 'E17 card jam in the delivery shoe after 11 cards',
  },
  ShufflerReplaced: {
    header: at(400, 18_260, outsideRound),
    oldShufflerId: 'SN-40912',
    newShufflerId: 'SN-41377',
  },
  DealingSwitchedToShoe: { header: at(90, 18_240, outsideRound), reason: 'shuffler out of service (E17)' },
  RoundStarted: { header: at(0, 18_204), roundNumber: 42 },
  BetPlaced: {
    header: at(5, 18_205, { sourceKind: 'TABLE_CONTROLLER' }),
    seat: 3,
    betType: 'ANTE',
    amount: 50_000,
    playerId: 'P-88231',
    carriedOver: false,
  },
  BetWithdrawn: {
    header: at(7, 18_206),
    seat: 5,
    betType: 'PAIR_PLUS',
    amount: 20_000,
    playerId: null,
    reason: 'placed after the call, withdrawn before the first card',
  },
  CardDealt: { header: at(12, 18_210), card: 'Th', target: 'SEAT', seat: 3, faceUp: false, dealOrder: 1 },
  CardExposed: { header: at(13, 18_211), card: 'Qs', target: 'BANKER', seat: null, duringDeal: true },
  PlayDecision: { header: at(25, 18_214), seat: 3, decision: 'PLAY' },
  CommunityCardsRevealed: { header: at(31, 18_216), cards: ['As', '9d'] },
  OutcomeDeclared: {
    header: at(33, 18_217),
    bankerHand: 'PAIR',
    bankerQualifies: true,
    seats: [
      { seat: 1, hand: 'HIGH_CARD', result: 'NONE' },
      { seat: 3, hand: 'STRAIGHT', result: 'WIN' },
      { seat: 6, hand: 'PAIR', result: 'LOSE' },
    ],
  },
  PayoutMade: { header: at(40, 18_220), seat: 3, betType: 'ANTE_BONUS', amount: 50_000 },
  BetCollected: { header: at(41, 18_221), seat: 6, betType: 'PLAY', amount: 30_000 },
  BetReturned: { header: at(42, 18_222), seat: 4, betType: 'ANTE', amount: 30_000, reason: null },
  JackpotPoolChanged: {
    header: at(6, 18_207, { sourceDevice: 'jackpot-controller-lp-2' }),
    poolBefore: 87_654_321,
    poolAfter: 87_655_821,
    reason: 'CONTRIBUTION',
  },
  JackpotPaid: {
    header: at(44, 18_223),
    seat: 3,
    hand: 'FLUSH',
    amount: 500_000,
    poolBefore: 87_655_821,
    poolAfter: 87_155_821,
    paymentOrder: 1,
  },
  RoundVoided: {
    header: at(14, 18_212),
    reason: 'BANKER_CARD_EXPOSED',
    note: 'banker card Qs flipped by the dealer',
  },
  RoundSettled: { header: at(50, 18_225) },
  SeatOccupied: {
    header: at(-120, 5_113, {
      ...outsideRound,
      sourceKind: 'SEAT_SENSOR',
      sourceDevice: 'seat-sensor-lp-07',
    }),
    seat: 3,
    playerId: 'P-88231',
  },
  SeatVacated: {
    header: at(900, 5_114, { ...outsideRound, sourceKind: 'SEAT_SENSOR', sourceDevice: 'seat-sensor-lp-07' }),
    seat: 3,
    playerId: 'P-88231',
  },
  SurveillanceObservation: {
    header: at(20, 730, {
      sourceKind: 'SURVEILLANCE',
      sourceDevice: 'surveillance-station-2',
      receivedTime: null,
    }),
    kind: 'CARD_SHOWN_TO_THIRD_PARTY',
    seat: 6,
    playerId: null,
    camera: 'CAM-LP-F3CP-07-B',
    analyst: 'analyst-1187',
    confidence: 80,
    description: 'player at seat 6 tilts his cards towards a standing spectator before deciding',
  },
};

/** An event of a given type; the cast is what TypeScript cannot see: `type` and `data` go together. */
export const eventOf = <K extends F3cpEventType>(type: K, data: F3cpEvents[K]): F3cpEvent =>
  ({ type, data }) as F3cpEvent;

/** One example of every event type, in F3CP_EVENT_TYPES order. */
export const exampleEvents = (): F3cpEvent[] => F3CP_EVENT_TYPES.map((type) => eventOf(type, EXAMPLES[type]));

/** `count` events cycling through the examples, each with its own event id, sequence and time. */
export function manyEvents(count: number): F3cpEvent[] {
  const examples = exampleEvents();
  return Array.from({ length: count }, (_, i) => {
    const example = examples[i % examples.length]!;
    const header = {
      ...example.data.header,
      eventId: `many-${String(i).padStart(8, '0')}`,
      sequence: i + 1,
      eventTime: EXAMPLE_TIME + i * 250,
    };
    return eventOf(example.type, { ...example.data, header } as F3cpEvents[typeof example.type]);
  });
}
