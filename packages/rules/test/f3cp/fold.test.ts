/**
 * The round view of every round a table's fold closes (buildRoundView: one walk over the round's events) is the
 * view the earlier buildRoundView made (the reference below, which walked the events three times): with several
 * tables' events interleaved, every fault of the catalogue and every handled irregularity injected, and rounds
 * whose events carry times out of line with the rest (roundTime's slow path).
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { EventHeader, F3cpEvent, SourceKind } from '@table-audit/schemas/events';
import { BET_FIELD, declaredKey } from '../../src/f3cp/events.ts';
import {
  buildRoundView,
  ROUND_TIME_SPAN_MS,
  type RoundContext,
  type RoundView,
  type SeatBets,
} from '../../src/f3cp/fold.ts';
import { F3CP_MODULE } from '../../src/f3cp/module.ts';
import { F3CP_HANDLED_IRREGULARITIES, F3CP_ROUND_FAULTS } from '../../src/f3cp/simulation/index.ts';
import type { ReplayedRound } from '../../src/f3cp/table.ts';
import type { Finding } from '../../src/findings.ts';
import {
  DEFAULT_REPLAY_OPTIONS,
  type DerivedUnit,
  type SimulatedTable,
  type TableClock,
} from '../../src/game.ts';
import { seededRng } from '../../src/rng.ts';

function clock(tableId: string): TableClock {
  let time = Date.parse('2025-12-01T04:00:00Z');
  const sequences = new Map<string, number>();
  return {
    now: () => time,
    pause: (ms) => void (time += ms),
    stamp: (source: SourceKind, roundId, staffId): EventHeader => {
      time += 2_000;
      const device = `${source}-${tableId}`;
      const sequence = (sequences.get(device) ?? 0) + 1;
      sequences.set(device, sequence);
      return {
        eventId: `${device}-${sequence}`,
        eventTime: time,
        receivedTime: null,
        sourceKind: source,
        sourceDevice: device,
        sequence,
        casino: 'Casino Teste',
        concessionaire: 'Concessionária Teste',
        tableId,
        roundId,
        staffId,
      };
    },
  };
}

/** A table's session: every fault and handled irregularity it can show, in turn, between clean rounds. */
function tableSession(seed: number): F3cpEvent[][] {
  const tableId = `T-${seed}`;
  const table: SimulatedTable = F3CP_MODULE.simulation!.openTable({
    tableId,
    rng: seededRng(seed),
    clock: clock(tableId),
    conduct: null,
  });
  const rounds: F3cpEvent[][] = [table.open() as F3cpEvent[]];
  const faults = F3CP_ROUND_FAULTS.map((f) => f.name);
  const handled = F3CP_HANDLED_IRREGULARITIES.map((h) => h.name);
  for (let i = 0; i < 60; i++) {
    const fault = faults.find((f) => table.canInject(f, false)) ?? null;
    const handle = fault === null ? (handled.find((h) => table.canHandle(h)) ?? null) : null;
    if (fault) faults.splice(faults.indexOf(fault), 1);
    if (handle) handled.splice(handled.indexOf(handle), 1);
    rounds.push(table.playRound(fault, handle).events as F3cpEvent[]);
  }
  rounds.push(table.close() as F3cpEvent[]);
  // a round with one event a day late, and one whose events straddle more than the span: the slow path of the time
  const late = rounds[3]![2]!;
  late.data.header.eventTime += 24 * 3600 * 1000;
  const last = rounds[5]!.at(-1)!;
  last.data.header.eventTime += ROUND_TIME_SPAN_MS + 1;
  return rounds;
}

/** The sessions' events interleaved, as a replay sees them: each table's round in turn, event by event. */
function interleaved(sessions: F3cpEvent[][][]): F3cpEvent[] {
  const events: F3cpEvent[] = [];
  for (let r = 0; sessions.some((s) => r < s.length); r++) {
    const rounds = sessions.map((s) => s[r] ?? []);
    for (let i = 0; rounds.some((x) => i < x.length); i++)
      for (const x of rounds) if (x[i]) events.push(x[i]!);
  }
  return events;
}

it("the fold's round views are the reference's (three tables interleaved, faults and irregularities)", () => {
  const sessions = [1, 2, 3].map(tableSession);
  const events = interleaved(sessions);
  const folds = new Map(
    sessions.map((s) => [s[0]![0]!.data.header.tableId, F3CP_MODULE.newTable(s[0]![0]!.data.header.tableId)]),
  );
  // the jackpot pool after each event, as the table follows it (TableOpened, JackpotPoolChanged)
  const poolAfter = new Map<F3cpEvent, number | null>();
  const pools = new Map<string, number | null>();
  const replayed: ReplayedRound[] = [];
  for (const e of events) {
    const tableId = e.data.header.tableId;
    if (e.type === 'TableOpened') pools.set(tableId, e.data.jackpot ? e.data.jackpot.initialPool : null);
    if (e.type === 'JackpotPoolChanged') pools.set(tableId, e.data.poolAfter);
    poolAfter.set(e, pools.get(tableId) ?? null);
    replayed.push(...(folds.get(tableId)!.apply(e) as ReplayedRound[]));
  }
  for (const f of folds.values()) replayed.push(...(f.finish().units as ReplayedRound[]));

  assert.ok(replayed.length > 150, `${replayed.length} rounds`);
  let repeated = 0;
  let outliers = 0;
  let voided = 0;
  for (const round of replayed) {
    const v = round.view;
    const pools = v.events.map((e) => poolAfter.get(e)!);
    const reference = referenceView(v.roundId, v.events, v.context, pools, v.endedBy);
    assert.deepEqual(v, reference, `round ${v.roundId}: the fold's view`);
    assert.deepEqual(buildRoundView(v.roundId, v.events, v.context, pools, v.endedBy), reference);
    repeated += v.repeatedSettlements.length;
    outliers += v.timeOutliers.length;
    if (v.voided) voided++;
  }
  // the sessions hold what the view's less common paths handle
  assert.ok(repeated > 0, 'a repeated settlement');
  assert.ok(outliers > 0, 'an event out of line with its round in time');
  assert.ok(voided > 0, 'a voided round');
});

it('a lean fold (ReplayOptions.lean) returns the same units, findings and records, without the view', () => {
  const events = interleaved([4, 5, 6].map(tableSession));
  const replay = (lean: boolean) => {
    const folds = new Map<string, ReturnType<typeof F3CP_MODULE.newTable>>();
    const units: DerivedUnit[] = [];
    for (const e of events) {
      const tableId = e.data.header.tableId;
      let fold = folds.get(tableId);
      if (!fold)
        folds.set(tableId, (fold = F3CP_MODULE.newTable(tableId, { ...DEFAULT_REPLAY_OPTIONS, lean })));
      units.push(...fold.apply(e));
    }
    const findings: Finding[] = [];
    for (const f of folds.values()) {
      const end = f.finish();
      units.push(...end.units);
      findings.push(...end.findings);
    }
    return { units, findings, folds };
  };
  const full = replay(false);
  const lean = replay(true);
  assert.ok(full.units.length > 150, `${full.units.length} rounds`);
  // compared once every round is closed: a buffer a lean table reuses must not show through any unit kept
  const fields = (u: DerivedUnit) => ({
    roundId: u.roundId,
    tableId: u.tableId,
    ruleSet: u.ruleSet,
    notDerived: u.notDerived,
    findings: u.findings,
    record: u.record,
  });
  assert.deepEqual(lean.units.map(fields), full.units.map(fields));
  assert.deepEqual(lean.findings, full.findings);
  assert.ok(
    lean.units.every((u) => !('view' in u) && !('settlement' in u)),
    'lean units carry no view',
  );
  assert.ok(full.units.some((u) => u.findings.length > 0) && full.units.some((u) => u.notDerived !== null));
  const unit = lean.units.find((u) => u.record)!;
  assert.throws(() => lean.folds.get(unit.tableId)!.explain(unit, []), /ReplayOptions\.lean/);
});

// ---------------------------------------------------------------------------------------------------------------
// The reference: buildRoundView as it was at commit 85b260f, before its three walks over the round's events (the
// time, the start, the sorting) became one. Kept here verbatim as the oracle the view must agree with.

const SETTLEMENT_PHASE = new Set([
  'OutcomeDeclared',
  'PayoutMade',
  'BetCollected',
  'BetReturned',
  'JackpotPaid',
  'RoundVoided',
  'RoundSettled',
]);

function declared(v: RoundView, seat: number, type: string, eventId: string) {
  const k = declaredKey(seat, type);
  let d = v.declared.get(k);
  if (!d) v.declared.set(k, (d = { payout: 0, collected: 0, returned: 0, eventIds: [] }));
  d.eventIds.push(eventId);
  return d;
}

function emptySeatBetsRef(seat: number): SeatBets {
  return {
    seat,
    ante: 0,
    play: 0,
    pairPlus: 0,
    sixCardBonus: 0,
    progressive: 0,
    progressiveCarriedOver: false,
    players: new Set(),
  };
}

const SETTLED_TYPES = ['ANTE', 'PLAY', 'PAIR_PLUS', 'SIX_CARD_BONUS', 'PROGRESSIVE', 'ANTE_BONUS'];
const seatSettled = (v: RoundView, seat: number): boolean =>
  SETTLED_TYPES.some((t) => v.declared.has(declaredKey(seat, t)));

function referenceView(
  roundId: string,
  events: readonly F3cpEvent[],
  context: RoundContext,
  pools: readonly (number | null)[],
  endedBy: string | null = null,
): RoundView {
  const { time, outliers } = roundTime(events);
  const v: RoundView = {
    roundId,
    events,
    started: events.some((e) => e.type === 'RoundStarted'),
    endedBy,
    time,
    timeOutliers: outliers,
    context,
    bets: new Map(),
    betEvents: [],
    lateBets: [],
    dealt: [],
    exposures: [],
    decisions: new Map(),
    playBets: [],
    communityRevealed: null,
    decisionsAfterReveal: [],
    repeatedSettlements: [],
    outcome: null,
    declared: new Map(),
    jackpotPaid: [],
    voided: null,
    settled: false,
    malfunctions: [],
    observations: [],
    vacatedDuringPlay: [],
    poolAtSettlement: null,
    poolAfterRound: pools.length ? pools[pools.length - 1]! : null,
  };
  let settlementStarted = false;
  seenCount = 0;
  const repeated = (e: F3cpEvent, kind: string, seat: number, what: string, amount: number) => {
    const first = firstSettlement(kind, seat, what, amount);
    if (first !== undefined) {
      v.repeatedSettlements.push({ event: e, first });
      return;
    }
    seenKind[seenCount] = kind;
    seenSeat[seenCount] = seat;
    seenWhat[seenCount] = what;
    seenAmount[seenCount] = amount;
    seenId[seenCount++] = e.data.header.eventId;
  };
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    if (!settlementStarted && SETTLEMENT_PHASE.has(e.type)) {
      settlementStarted = true;
      v.poolAtSettlement = i === 0 ? (pools[0] ?? null) : pools[i - 1]!;
    }
    switch (e.type) {
      case 'BetPlaced': {
        const b = e.data;
        v.betEvents.push(b);
        if (v.dealt.length > 0 && b.betType !== 'PLAY' && !b.carriedOver) v.lateBets.push(b);
        let s = v.bets.get(b.seat);
        if (!s) v.bets.set(b.seat, (s = emptySeatBetsRef(b.seat)));
        // UNKNOWN (a bet type added after this reader's schema) is refused by ingest; it is no stake of any kind
        if (b.betType !== 'UNKNOWN') s[BET_FIELD[b.betType]] += b.amount;
        if (b.betType === 'PROGRESSIVE' && b.carriedOver) s.progressiveCarriedOver = true;
        if (b.playerId) s.players.add(b.playerId);
        if (b.betType === 'PLAY') {
          let toSeat = 0;
          for (const d of v.dealt) if (d.target === 'SEAT' && d.seat === b.seat) toSeat++;
          v.playBets.push({ bet: b, cardsDealtToSeat: toSeat });
        }
        break;
      }
      case 'BetWithdrawn': {
        const s = v.bets.get(e.data.seat);
        const type = e.data.betType;
        if (s && type !== 'UNKNOWN') s[BET_FIELD[type]] = Math.max(0, s[BET_FIELD[type]] - e.data.amount);
        break;
      }
      case 'CardDealt':
        v.dealt.push(e.data);
        break;
      case 'CardExposed':
        v.exposures.push(e.data);
        break;
      case 'PlayDecision':
        v.decisions.set(e.data.seat, e.data);
        if (v.communityRevealed) v.decisionsAfterReveal.push(e.data);
        break;
      case 'CommunityCardsRevealed':
        v.communityRevealed = e.data;
        break;
      case 'OutcomeDeclared':
        v.outcome = e.data;
        break;
      case 'PayoutMade':
        repeated(e, 'P', e.data.seat, e.data.betType, e.data.amount);
        declared(v, e.data.seat, e.data.betType, e.data.header.eventId).payout += e.data.amount;
        break;
      case 'BetCollected':
        repeated(e, 'C', e.data.seat, e.data.betType, e.data.amount);
        declared(v, e.data.seat, e.data.betType, e.data.header.eventId).collected += e.data.amount;
        break;
      case 'BetReturned':
        repeated(e, 'R', e.data.seat, e.data.betType, e.data.amount);
        declared(v, e.data.seat, e.data.betType, e.data.header.eventId).returned += e.data.amount;
        break;
      case 'JackpotPaid':
        repeated(e, 'J', e.data.seat, e.data.hand, e.data.amount);
        v.jackpotPaid.push(e.data);
        break;
      case 'RoundVoided':
        v.voided = e.data;
        break;
      case 'RoundSettled':
        v.settled = true;
        break;
      case 'ShufflerMalfunction':
        v.malfunctions.push({ event: e.data, dealtBefore: v.dealt.length });
        break;
      case 'SurveillanceObservation':
        v.observations.push(e.data);
        break;
      case 'SeatVacated':
        // between the first card and the settlement of that seat (art. 18.º n.º 2)
        if (v.dealt.length > 0 && !v.settled && !v.voided && !seatSettled(v, e.data.seat))
          v.vacatedDuringPlay.push(e.data);
        break;
      default:
        break;
    }
  }
  if (v.poolAtSettlement === null && pools.length) v.poolAtSettlement = pools[pools.length - 1]!;
  return v;
}

// settlement events already seen in the round being built (referenceView resets them per call)
let seenCount = 0;
const seenKind: string[] = [];
const seenSeat: number[] = [];
const seenWhat: string[] = [];
const seenAmount: number[] = [];
const seenId: string[] = [];

// equal when `${kind}:${seat}:${what}:${amount}` would be, without making the strings
const sameNumber = (a: number, b: number): boolean => a === b || (a !== a && b !== b);
function firstSettlement(kind: string, seat: number, what: string, amount: number): string | undefined {
  for (let i = 0; i < seenCount; i++)
    if (
      seenKind[i] === kind &&
      seenWhat[i] === what &&
      sameNumber(seenSeat[i]!, seat) &&
      sameNumber(seenAmount[i]!, amount)
    )
      return seenId[i];
  return undefined;
}

function roundTime(events: readonly F3cpEvent[]): { time: number; outliers: F3cpEvent[] } {
  if (!events.length) return { time: 0, outliers: [] };
  const first = events[0]!.data.header.eventTime;
  const last = events[events.length - 1]!.data.header.eventTime;
  // the common case, checked without sorting: every event within the span of the first and of the last
  if (Math.abs(last - first) <= ROUND_TIME_SPAN_MS) {
    let inLine = true;
    for (const e of events)
      if (Math.abs(e.data.header.eventTime - first) > ROUND_TIME_SPAN_MS) {
        inLine = false;
        break;
      }
    if (inLine) return { time: first, outliers: [] };
  }
  const times = events.map((e) => e.data.header.eventTime).sort((a, b) => a - b);
  const median = times[Math.floor((times.length - 1) / 2)]!;
  const outliers = events.filter((e) => Math.abs(e.data.header.eventTime - median) > ROUND_TIME_SPAN_MS);
  const firstInLine = events.find((e) => !outliers.includes(e));
  return { time: (firstInLine ?? events[0]!).data.header.eventTime, outliers };
}
