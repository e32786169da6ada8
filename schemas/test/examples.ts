/**
 * One realistic example of every event type (and of every record the pipeline writes): a Fortune 3 Card Poker table at a Macau casino on the evening of
 * 2025-11-20 (Macau time), round 42, seat 3 playing. Shared test fixture: other packages import it too.
 */
import {
  F3CP_EVENT_TYPES,
  type AuditRecords,
  type AuditRecordType,
  type CrapsRecords,
  type ThirteenRecords,
  type MahjongRecords,
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
    staffId: null,
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
/** the dealer (croupier) of round 42 and the pit supervisor on duty */
export const EXAMPLE_DEALER = 'D-2231';
export const EXAMPLE_SUPERVISOR = 'PS-0457';
const dealer = { staffId: EXAMPLE_DEALER };
export const EXAMPLE_SHUFFLE_ID = 'LP-F3CP-07/2025-11-20/S-19';
export const EXAMPLE_BET_ID = 'LP-F3CP-07/2025-11-20/42/3-ANTE';

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
    craps: null,
    thirteenCards: null,
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
    currency: 'MOP',
  },
  TableClosed: { header: at(7200, 19_950, outsideRound), reason: 'end of shift' },
  ShuffleStarted: {
    header: at(-60, 18_190, { ...outsideRound, sourceKind: 'SHUFFLER', sourceDevice: 'shuffler-SN-40912' }),
    mode: 'AUTOMATIC',
    shufflerId: 'SN-40912',
    shuffleId: EXAMPLE_SHUFFLE_ID,
  },
  ShuffleCompleted: {
    header: at(-20, 18_191, { ...outsideRound, sourceKind: 'SHUFFLER', sourceDevice: 'shuffler-SN-40912' }),
    mode: 'AUTOMATIC',
    shufflerId: 'SN-40912',
    cutCardUsed: false,
    cutBy: 'NONE',
    cutBySeat: null,
    shuffleId: EXAMPLE_SHUFFLE_ID,
    shuffledBy: null,
    cutById: null,
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
  RoundStarted: {
    header: at(0, 18_204, dealer),
    roundNumber: 42,
    dealerId: EXAMPLE_DEALER,
    shuffleId: EXAMPLE_SHUFFLE_ID,
  },
  BetPlaced: {
    header: at(5, 18_205, { sourceKind: 'TABLE_CONTROLLER' }),
    seat: 3,
    betType: 'ANTE',
    amount: 50_000,
    playerId: 'P-88231',
    carriedOver: false,
    betId: EXAMPLE_BET_ID,
  },
  BetWithdrawn: {
    header: at(7, 18_206),
    seat: 5,
    betType: 'PAIR_PLUS',
    amount: 20_000,
    playerId: null,
    reason: 'placed after the call, withdrawn before the first card',
    betId: 'LP-F3CP-07/2025-11-20/42/5-PAIR_PLUS',
  },
  CardDealt: {
    header: at(12, 18_210, dealer),
    card: 'Th',
    target: 'SEAT',
    seat: 3,
    faceUp: false,
    dealOrder: 1,
  },
  CardExposed: { header: at(13, 18_211), card: 'Qs', target: 'BANKER', seat: null, duringDeal: true },
  PlayDecision: { header: at(25, 18_214), seat: 3, decision: 'PLAY' },
  CommunityCardsRevealed: { header: at(31, 18_216), cards: ['As', '9d'] },
  OutcomeDeclared: {
    header: at(33, 18_217),
    bankerHand: 'PAIR',
    bankerQualifies: true,
    seats: [
      { seat: 1, hand: 'HIGH_CARD', result: 'NONE', sixCardHand: null, progressiveHand: null },
      { seat: 3, hand: 'STRAIGHT', result: 'WIN', sixCardHand: 'STRAIGHT', progressiveHand: 'FLUSH' },
      { seat: 6, hand: 'PAIR', result: 'LOSE', sixCardHand: 'TWO_PAIR', progressiveHand: null },
    ],
  },
  PayoutMade: {
    header: at(40, 18_220, dealer),
    seat: 3,
    betType: 'ANTE_BONUS',
    amount: 50_000,
    betId: EXAMPLE_BET_ID,
  },
  BetCollected: {
    header: at(41, 18_221, dealer),
    seat: 6,
    betType: 'PLAY',
    amount: 30_000,
    betId: 'LP-F3CP-07/2025-11-20/42/6-PLAY',
  },
  BetReturned: {
    header: at(42, 18_222, dealer),
    seat: 4,
    betType: 'ANTE',
    amount: 30_000,
    reason: null,
    betId: null,
  },
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
    betId: 'LP-F3CP-07/2025-11-20/42/3-PROGRESSIVE',
  },
  RoundVoided: {
    header: at(14, 18_212),
    reason: 'BANKER_CARD_EXPOSED',
    note: 'banker card Qs flipped by the dealer',
    authorisedBy: EXAMPLE_SUPERVISOR,
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
    inspectorId: null,
    evidence: [
      {
        camera: 'CAM-LP-F3CP-07-B',
        clipId: 'CLIP-2025-11-20-07B-1733',
        clipStart: EXAMPLE_TIME + 15_000,
        clipEnd: EXAMPLE_TIME + 27_000,
      },
    ],
  },
  EventCorrected: {
    header: at(47, 18_224, { staffId: EXAMPLE_SUPERVISOR }),
    correctedEventId: '01JDB6W3C6S2J7Q5T0EX018205',
    correctedEventType: 'BetPlaced',
    corrections: '{"amount":60000}',
    reason: 'Ante keyed as 500 patacas; the chips on the layout were 600',
    correctedBy: EXAMPLE_DEALER,
    authorisedBy: EXAMPLE_SUPERVISOR,
  },
};

/** One example of every CRAPS event (ta.craps), on a CRAPS table of the same casino, throw 7 of the evening. */
const crapsHeader = (seconds: number, sequence: number, overrides: Partial<EventHeader> = {}): EventHeader =>
  at(seconds, sequence, {
    tableId: 'LP-CRAPS-02',
    sourceDevice: 'tc-lp-craps-02',
    roundId: 'LP-CRAPS-02/2025-11-20/T-7',
    ...overrides,
  });
export const CRAPS_EXAMPLES: { readonly [K in keyof CrapsRecords]: CrapsRecords[K] } = {
  ShooterChanged: {
    header: crapsHeader(-30, 501, { roundId: null }),
    shooterId: 'P-88120',
    previousShooterId: 'P-11873',
    reason: 'SEVEN_OUT',
  },
  DiceThrown: {
    header: crapsHeader(0, 502, dealer),
    shooterId: 'P-88120',
    dieIds: ['D1', 'D3'],
    faces: [3, 4],
    voidReason: null,
    declaredVoid: false,
  },
  DieLeftTable: { header: crapsHeader(20, 503, { roundId: null }), dieId: 'D3' },
  DieChecked: { header: crapsHeader(40, 504, { roundId: null, ...dealer }), dieId: 'D3', passed: true },
  CrapsBetPlaced: {
    header: crapsHeader(-10, 505, { roundId: null }),
    betId: 'LP-CRAPS-02/2025-11-20/B-31',
    playerId: 'P-88120',
    betType: 'PASS_LINE',
    number: null,
    amount: 10_000,
    behindBetId: null,
    extraBetName: null,
  },
  CrapsBetResolved: {
    header: crapsHeader(5, 506, dealer),
    betId: 'LP-CRAPS-02/2025-11-20/B-31',
    outcome: 'WIN',
    payout: 10_000,
  },
};

/** One example of every 13 Cards event (ta.thirteen), on a 13 Cards table of the same casino, round 12. */
const thirteenHeader = (
  seconds: number,
  sequence: number,
  overrides: Partial<EventHeader> = {},
): EventHeader =>
  at(seconds, sequence, {
    tableId: 'LP-13C-01',
    sourceDevice: 'tc-lp-13c-01',
    roundId: 'LP-13C-01/2025-11-20/12',
    ...overrides,
  });
const tiers = {
  front: ['2c', '2d', '9h'],
  middle: ['3c', '3d', '5h', '5s', 'Kd'],
  back: ['Ac', 'Ad', 'As', '7h', '8h'],
};
export const THIRTEEN_EXAMPLES: { readonly [K in keyof ThirteenRecords]: ThirteenRecords[K] } = {
  ThirteenBetPlaced: {
    header: thirteenHeader(-60, 601),
    betId: 'LP-13C-01/2025-11-20/12-b0',
    place: 2,
    playerId: 'P-88120',
    amount: 50_000,
    units: 2,
    seated: true,
  },
  ThirteenBetChanged: {
    header: thirteenHeader(-50, 602),
    betId: 'LP-13C-01/2025-11-20/12-b0',
    change: 'MOVED',
    toPlace: 3,
  },
  DeckCut: { header: thirteenHeader(-40, 603, dealer), cardCount: 17 },
  DiceShaken: { header: thirteenHeader(-30, 604), faces: [2, 5, 6, 1], shakerPlayerId: 'P-88120' },
  ThirteenCardDealt: {
    header: thirteenHeader(-20, 605, dealer),
    card: 'Th',
    place: 1,
    faceUp: false,
    misdeal: false,
    correctedTo: null,
  },
  DealCancelled: {
    header: thirteenHeader(-19, 606, dealer),
    reshuffledByBanker: true,
    reshuffledByMachine: true,
  },
  BankerArranged: { header: thirteenHeader(0, 607, dealer), ...tiers },
  PlaceCardsTaken: { header: thirteenHeader(3, 608), place: 2, holderPlayerId: 'P-88120' },
  PlaceArranged: { header: thirteenHeader(90, 609), place: 2, ...tiers },
  ArrangeSignalGiven: { header: thirteenHeader(300, 610, dealer) },
  ThirteenConductObserved: {
    header: thirteenHeader(120, 611, { sourceKind: 'SURVEILLANCE' }),
    conduct: 'CARDS_OFF_TABLE',
    playerId: 'P-88120',
    place: 2,
  },
  ThirteenBetSettled: {
    header: thirteenHeader(310, 612, dealer),
    betId: 'LP-13C-01/2025-11-20/12-b0',
    outcome: 'WIN',
    net: 24_500,
  },
};

/** One example of every Mah-Jong deal event (ta.mahjong), on a Mah-Jong table of the same casino, game 3. */
const mahjongHeader = (seconds: number, sequence: number): EventHeader =>
  at(seconds, sequence, {
    tableId: 'LP-MJ-01',
    sourceDevice: 'tc-lp-mj-01',
    roundId: 'LP-MJ-01/2025-11-20/3',
    ...dealer,
  });
export const MAHJONG_EXAMPLES: { readonly [K in keyof MahjongRecords]: MahjongRecords[K] } = {
  MahjongTilesCounted: {
    header: mahjongHeader(-10, 701),
    tiles: ['DR', 'DG', 'DW', 'WE', 'WS', 'WW', 'WN', 'B1', 'N5', 'C9'],
  },
  MahjongDiceThrown: { header: mahjongHeader(0, 702), faces: [3, 5, 2] },
  MahjongTilesDrawn: {
    header: mahjongHeader(2, 703),
    seat: 'E',
    tiles: ['B1', 'B2', 'C3', 'WN'],
    fromStack: 44,
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

/** One example of every record the pipeline writes (ta.audit), about round 42 of the example table. */
export const AUDIT_EXAMPLES: { readonly [K in AuditRecordType]: AuditRecords[K] } = {
  FindingRaised: {
    findingId: '5d41402abc4b2a76b9719d911017c592',
    checkId: 'PAYOUT.AMOUNT',
    title: 'Payout differs from the rules',
    severity: 'high',
    ruleSet: 'f3cp-2025a',
    casino: 'LOTUS-PALACE',
    concessionaire: 'CONCESSIONAIRE-03',
    tableId: EXAMPLE_TABLE_ID,
    roundId: EXAMPLE_ROUND_ID,
    seats: [3],
    players: ['P-88231'],
    summary: 'seat 3 ANTE_BONUS paid 500.00 MOP, the rules give 0 for a straight under f3cp-2025a',
    expected: '{"amount":0}',
    declared: '{"amount":50000}',
    citations: [
      { key: '89/2025 art.13 n.1 al.2', reference: 'Despacho n.º 89/2025, artigo 13.º, n.º 1, alínea 2)' },
    ],
    interpretations: ['J3'],
    evidenceEventIds: ['01JDB6W3C6S2J7Q5T0EX018220', '01JDB6W3C6S2J7Q5T0EX018217'],
    eventTime: EXAMPLE_TIME + 40_000,
    details: null,
  },
  InputRejected: {
    rejectId: '9e107d9d372bb6826bd81d3542a419d6',
    receivedTime: EXAMPLE_TIME + 41_000,
    source: {
      kind: 'KAFKA',
      topic: 'ta.tables',
      partition: 3,
      offset: '1844674407',
      path: null,
      block: null,
      producer: null,
      index: null,
    },
    sourceText: 'kafka ta.tables[3]@1844674407',
    code: 'TRUNCATED_PAYLOAD',
    reason: 'ta.f3cp.BetPlaced (schema id 34) needs at least 61 bytes, the payload has 40',
    raw: Buffer.from('000000002206c0ffee', 'hex'),
    decoded: null,
  },
  RoundDerived: {
    roundId: EXAMPLE_ROUND_ID,
    tableId: EXAMPLE_TABLE_ID,
    casino: 'LOTUS-PALACE',
    concessionaire: 'CONCESSIONAIRE-03',
    game: 'F3CP',
    ruleSetId: 'f3cp-2025a',
    macauDate: '2025-11-20',
    roundStartTime: EXAMPLE_TIME,
    dealerId: EXAMPLE_DEALER,
    status: 'SETTLED',
    statusReason: null,
    totalStakedAvos: 130_000,
    expectedPaidAvos: 50_000,
    declaredPaidAvos: 100_000,
    houseResultAvos: -70_000,
    lines: [
      {
        seat: 3,
        betType: 'ANTE',
        betId: EXAMPLE_BET_ID,
        stakeAvos: 50_000,
        expectedOutcome: 'WIN',
        expectedPayoutAvos: 50_000,
        expectedNetAvos: 50_000,
        declaredPayoutAvos: 50_000,
        declaredNetAvos: 50_000,
        differenceAvos: 0,
      },
      {
        seat: 3,
        betType: 'ANTE_BONUS',
        betId: EXAMPLE_BET_ID,
        stakeAvos: 50_000,
        expectedOutcome: 'LOSE',
        expectedPayoutAvos: 0,
        expectedNetAvos: 0,
        declaredPayoutAvos: 50_000,
        declaredNetAvos: 50_000,
        differenceAvos: 50_000,
      },
      {
        seat: 6,
        betType: 'PLAY',
        betId: null,
        stakeAvos: 30_000,
        expectedOutcome: 'LOSE',
        expectedPayoutAvos: 0,
        expectedNetAvos: -30_000,
        declaredPayoutAvos: null,
        declaredNetAvos: null,
        differenceAvos: null,
      },
    ],
    findingIds: ['5d41402abc4b2a76b9719d911017c592'],
    interpretationIds: ['J3'],
    startState: `{"form":"f3cp-table","v":1,"game":"F3CP","tableId":"${EXAMPLE_TABLE_ID}","roundId":"${EXAMPLE_ROUND_ID}","before":"e-1","body":{}}`,
    reportedFindingIds: null,
  },
  AlertAcknowledged: {
    alertId: '5d41402abc4b2a76b9719d911017c592',
    requestId: 'req-7f3a',
    actorSubject: 'officer-17',
    actorRole: 'compliance_officer',
    actorConcessionaire: 'CONCESSIONAIRE-03',
    time: EXAMPLE_TIME + 3_600_000,
    note: 'looking at the surveillance clip',
  },
  AlertAssigned: {
    alertId: '5d41402abc4b2a76b9719d911017c592',
    requestId: 'req-7f3a',
    actorSubject: 'officer-17',
    actorRole: 'compliance_officer',
    actorConcessionaire: 'CONCESSIONAIRE-03',
    time: EXAMPLE_TIME + 3_700_000,
    assignee: 'officer-22',
  },
  AlertCommented: {
    alertId: '5d41402abc4b2a76b9719d911017c592',
    requestId: 'req-7f3a',
    actorSubject: 'officer-17',
    actorRole: 'compliance_officer',
    actorConcessionaire: 'CONCESSIONAIRE-03',
    time: EXAMPLE_TIME + 3_800_000,
    comment: 'the dealer paid the Ante Bonus on a straight; pit supervisor informed',
  },
  AlertResolved: {
    alertId: '5d41402abc4b2a76b9719d911017c592',
    requestId: 'req-7f3a',
    actorSubject: 'officer-17',
    actorRole: 'compliance_officer',
    actorConcessionaire: 'CONCESSIONAIRE-03',
    time: EXAMPLE_TIME + 3_900_000,
    disposition: 'confirmed',
    comment: 'overpayment of MOP 500.00 recovered from the player',
  },
  AlertReopened: {
    alertId: '5d41402abc4b2a76b9719d911017c592',
    requestId: 'req-8b21',
    actorSubject: 'inspector-3',
    actorRole: 'inspector',
    actorConcessionaire: null,
    time: EXAMPLE_TIME + 86_400_000,
    reason: 'DICJ asks for the surveillance clip to be attached',
  },
  AccessRecorded: {
    accessId: 'req-8b22:round.export',
    requestId: 'req-8b22',
    actorSubject: 'inspector-3',
    actorRole: 'inspector',
    actorConcessionaire: null,
    time: EXAMPLE_TIME + 86_500_000,
    action: 'round.export',
    objectType: 'round',
    objectId: EXAMPLE_ROUND_ID,
    outcome: 'ok',
  },
};
