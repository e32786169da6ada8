/**
 * How a CRAPS table plays in the simulator: a correct table (bets placed as the law allows, the shooter passed on
 * after a seven-out, every bet the throw decides settled by the engine's own rules) and, for the detection proof,
 * one labelled fault per throw when asked. A "round" of the game-neutral simulator is one throw, with the bets
 * placed and the shooter changed before it.
 */
import type { CrapsEvent, CrapsEvents, SourceKind, TableEvent } from '@table-audit/schemas/events';
import type {
  FaultLabel,
  GameSimulation,
  PlayedRounds,
  SimulatedTable,
  SimulatedTableSpec,
} from '../game.ts';
import type { RoundingPolicy } from '../money.ts';
import type { Rng } from '../rng.ts';
import { CRAPS_CHECKS } from './checks/index.ts';
import { resolveThrow, winningsOf } from './engine.ts';
import { CRAPS_2010, POINT_NUMBERS, type CrapsBetKind } from './rule-set.ts';

const C = CRAPS_CHECKS;
/** Every fault a CRAPS throw can carry, with the check that must find it. */
export const CRAPS_FAULTS: readonly FaultLabel[] = [
  { name: 'craps-payout-wrong', checkIds: [C.payoutMismatch.id] },
  { name: 'craps-void-settled', checkIds: [C.throwVoidSettled.id] },
  { name: 'craps-void-not-declared', checkIds: [C.throwVoidNotDeclared.id] },
  { name: 'craps-die-unchecked', checkIds: [C.diceUncheckedReuse.id] },
  { name: 'craps-shooter-not-changed', checkIds: [C.shooterNotChanged.id] },
  { name: 'craps-shooter-wrongly-changed', checkIds: [C.shooterWronglyChanged.id] },
  { name: 'craps-shooter-no-min-bet', checkIds: [C.shooterNoMinBet.id] },
  { name: 'craps-come-before-point', checkIds: [C.betComeBeforePoint.id] },
  { name: 'craps-stake-not-multiple', checkIds: [C.betNotMultipleOfMin.id] },
  { name: 'craps-extra-not-authorised', checkIds: [C.betNotAuthorised.id] },
  { name: 'craps-odds-without-line', checkIds: [C.betOddsWithoutLine.id] },
];

/** Irregularities a correct table handles as the law says: they must raise nothing. */
export const CRAPS_HANDLED = ['craps-void-die-left-checked', 'craps-void-short-throw'] as const;

const MINIMUM = 5_000; // MOP 50
const AUTHORISED_EXTRA = 'Fire Bet';
const UNAUTHORISED_EXTRA = 'Lucky Shooter';
const DICE = ['D1', 'D2', 'D3', 'D4', 'D5'];
const ROUNDING: RoundingPolicy = { unit: 1, mode: 'down' };
const ONE_THROW: readonly CrapsBetKind[] = [
  'ANY_CRAPS',
  'ANY_SEVEN',
  'ELEVEN',
  'ACE_DEUCE',
  'ACES',
  'BOXCARS',
  'FIELD',
  'BIG',
  'SMALL',
];

interface SimBet {
  readonly betId: string;
  readonly playerId: string;
  readonly kind: CrapsBetKind | 'EXTRA';
  readonly number: number | null;
  readonly amount: number;
  point: number | null;
  /** the law gives no settlement (EXTRA, odds without a line): the table takes it back after the next throw */
  readonly irregular: boolean;
}

type Emit = <K extends keyof CrapsEvents>(
  type: K,
  data: Omit<CrapsEvents[K], 'header'>,
  roundId: string | null,
  source?: SourceKind,
) => void;

class CrapsSimTable implements SimulatedTable {
  readonly conductPlayers: readonly string[] = [];
  private readonly players: string[];
  private readonly rng: Rng;
  private shooterIndex = 0;
  private point: number | null = null;
  private sevenOut = false;
  private throwNo = 0;
  private betNo = 0;
  private readonly bets = new Map<string, SimBet>();
  private readonly croupier: string;
  /** the table's choice for a Field 12 (art. 6.º 12)) */
  private readonly field12Pays: number;

  constructor(private readonly spec: SimulatedTableSpec) {
    this.rng = spec.rng;
    this.players = Array.from({ length: 5 }, (_, i) => `${spec.tableId}-P${i + 1}`);
    this.croupier = `${spec.tableId}-CR1`;
    this.field12Pays = this.rng.next() < 0.5 ? 2 : 3;
  }

  private get shooter(): string {
    return this.players[this.shooterIndex % this.players.length]!;
  }

  private stamp(events: TableEvent[]): Emit {
    return (type, data, roundId, source = 'TABLE_CONTROLLER') => {
      const header = this.spec.clock.stamp(source, roundId, this.croupier);
      events.push({ type, data: { header, ...data } } as CrapsEvent);
    };
  }

  open(): TableEvent[] {
    const events: TableEvent[] = [];
    const emit = this.stamp(events);
    events.push({
      type: 'TableOpened',
      data: {
        header: this.spec.clock.stamp('TABLE_CONTROLLER', null, this.croupier),
        game: 'CRAPS',
        seats: 0,
        betLimits: [],
        shuffleMode: 'MANUAL',
        jackpot: null,
        rounding: { unitAvos: 1, mode: 'DOWN' },
        currency: 'MOP',
        craps: {
          minimumBet: MINIMUM,
          maximumBet: MINIMUM * 200,
          field12PaysToOne: this.field12Pays,
          dieIds: DICE,
          authorisedExtraBets: [AUTHORISED_EXTRA],
        },
        thirteenCards: null,
      },
    });
    emit(
      'ShooterChanged',
      { shooterId: this.shooter, previousShooterId: null, reason: 'FIRST_SHOOTER' },
      null,
    );
    return events;
  }

  private stakeOf(player: string): number {
    let s = 0;
    for (const b of this.bets.values()) if (b.playerId === player) s += b.amount;
    return s;
  }

  canInject(fault: string): boolean {
    switch (fault) {
      case 'craps-shooter-not-changed':
        return this.sevenOut;
      case 'craps-shooter-wrongly-changed':
        return this.point !== null && !this.sevenOut;
      case 'craps-shooter-no-min-bet':
        return !this.sevenOut && this.stakeOf(this.shooter) === 0;
      case 'craps-come-before-point':
        return this.point === null && !this.sevenOut;
      case 'craps-odds-without-line':
        return true;
      default:
        return CRAPS_FAULTS.some((f) => f.name === fault);
    }
  }

  canHandle(irregularity: string): boolean {
    return (CRAPS_HANDLED as readonly string[]).includes(irregularity);
  }

  private place(
    emit: Emit,
    playerId: string,
    kind: CrapsBetKind | 'EXTRA',
    amount: number,
    options: {
      number?: number;
      behind?: SimBet | string;
      extra?: string;
      irregular?: boolean;
      point?: number | null;
    } = {},
  ): SimBet {
    const betId = `${this.spec.tableId}/B-${++this.betNo}`;
    const behind = options.behind;
    const bet: SimBet = {
      betId,
      playerId,
      kind,
      number: options.number ?? null,
      amount,
      point: options.point ?? (typeof behind === 'object' ? behind.point : null),
      irregular: options.irregular ?? kind === 'EXTRA',
    };
    this.bets.set(betId, bet);
    emit(
      'CrapsBetPlaced',
      {
        betId,
        playerId,
        betType: kind,
        number: bet.number,
        amount,
        behindBetId: behind === undefined ? null : typeof behind === 'string' ? behind : behind.betId,
        extraBetName: options.extra ?? null,
      },
      null,
    );
    return bet;
  }

  private units(): number {
    return [1, 1, 2, 3, 6][Math.floor(this.rng.next() * 5)]!;
  }

  /** The bets a correct table accepts before a throw: line bets at the come-out, Come and odds once a point is on. */
  private placeBets(emit: Emit, shooterBets: boolean): void {
    const hasLine = (p: string, kind: CrapsBetKind): SimBet | undefined =>
      [...this.bets.values()].find((b) => b.playerId === p && b.kind === kind);
    for (const p of this.players) {
      const isShooter = p === this.shooter;
      if (isShooter && !shooterBets) continue;
      const r = this.rng.next();
      if (this.point === null) {
        if (isShooter && !hasLine(p, 'PASS_LINE'))
          this.place(emit, p, 'PASS_LINE', MINIMUM * this.units(), { point: null });
        else if (!isShooter && r < 0.3 && !hasLine(p, 'PASS_LINE'))
          this.place(emit, p, 'PASS_LINE', MINIMUM * this.units(), { point: null });
        else if (!isShooter && r < 0.45 && !hasLine(p, 'DONT_PASS'))
          this.place(emit, p, 'DONT_PASS', MINIMUM * this.units(), { point: null });
      } else {
        const line = hasLine(p, 'PASS_LINE');
        if (line && line.point !== null && r < 0.25 && !hasLine(p, 'PASS_ODDS'))
          this.place(emit, p, 'PASS_ODDS', MINIMUM * 2, { behind: line });
        const dont = hasLine(p, 'DONT_PASS');
        if (dont && dont.point !== null && r > 0.85 && !hasLine(p, 'DONT_PASS_ODDS'))
          this.place(emit, p, 'DONT_PASS_ODDS', MINIMUM * 6, { behind: dont });
        if (!isShooter && r > 0.3 && r < 0.45) this.place(emit, p, 'COME', MINIMUM * this.units());
        if (!isShooter && r > 0.45 && r < 0.5) this.place(emit, p, 'DONT_COME', MINIMUM * this.units());
        for (const come of [...this.bets.values()])
          if (
            come.playerId === p &&
            (come.kind === 'COME' || come.kind === 'DONT_COME') &&
            come.point !== null
          )
            if (
              this.rng.next() < 0.3 &&
              ![...this.bets.values()].some(
                (b) => b.kind.endsWith('_ODDS') && b.point === come.point && b.playerId === p,
              )
            )
              this.place(emit, p, come.kind === 'COME' ? 'COME_ODDS' : 'DONT_COME_ODDS', MINIMUM * 6, {
                behind: come,
              });
      }
      if (isShooter && this.stakeOf(p) < MINIMUM) this.place(emit, p, 'FIELD', MINIMUM);
      if (isShooter) continue;
      // bets of one and of many throws may be placed at any moment (art. 5.º n.º 5)
      const s = this.rng.next();
      if (s < 0.35)
        this.place(
          emit,
          p,
          ONE_THROW[Math.floor(this.rng.next() * ONE_THROW.length)]!,
          MINIMUM * this.units(),
        );
      else if (s < 0.42) this.place(emit, p, 'HORN', MINIMUM * 4);
      else if (s < 0.5)
        this.place(emit, p, 'HARD_WAY', MINIMUM, { number: [4, 6, 8, 10][Math.floor(this.rng.next() * 4)]! });
      else if (s < 0.58)
        this.place(emit, p, 'BIG_NUMBER', MINIMUM * 6, {
          number: POINT_NUMBERS[Math.floor(this.rng.next() * 6)]!,
        });
      else if (s < 0.6) this.place(emit, p, 'EXTRA', MINIMUM, { extra: AUTHORISED_EXTRA });
    }
  }

  playRound(fault: string | null, handled: string | null): PlayedRounds {
    const events: TableEvent[] = [];
    const emit = this.stamp(events);
    const roundId = `${this.spec.tableId}/T-${++this.throwNo}`;
    this.spec.clock.pause(20_000 + Math.floor(this.rng.next() * 20_000));

    // the shooter: passed on after a seven-out (art. 4.º 2), C1), unless the fault keeps them
    if (this.sevenOut && fault !== 'craps-shooter-not-changed') {
      const previous = this.shooter;
      this.shooterIndex++;
      emit(
        'ShooterChanged',
        { shooterId: this.shooter, previousShooterId: previous, reason: 'SEVEN_OUT' },
        null,
      );
    }
    this.sevenOut = false;
    if (fault === 'craps-shooter-wrongly-changed') {
      const previous = this.shooter;
      this.shooterIndex++;
      emit(
        'ShooterChanged',
        { shooterId: this.shooter, previousShooterId: previous, reason: 'SEVEN_OUT' },
        null,
      );
    }

    this.placeBets(emit, fault !== 'craps-shooter-no-min-bet');
    const other = this.players.find((p) => p !== this.shooter)!;
    // a bet the throw must resolve, so that a fault in the settlement has something to show on
    if (fault === 'craps-payout-wrong' || fault === 'craps-void-settled')
      this.place(emit, other, 'ANY_SEVEN', MINIMUM);
    if (fault === 'craps-come-before-point') this.place(emit, other, 'COME', MINIMUM);
    if (fault === 'craps-stake-not-multiple') this.place(emit, other, 'FIELD', MINIMUM + MINIMUM / 2);
    if (fault === 'craps-extra-not-authorised')
      this.place(emit, other, 'EXTRA', MINIMUM, { extra: UNAUTHORISED_EXTRA });
    if (fault === 'craps-odds-without-line')
      this.place(emit, other, 'PASS_ODDS', MINIMUM * 2, {
        behind: `${this.spec.tableId}/B-none`,
        irregular: true,
      });

    // the dice: two of the table's, one knocked off and put back unchecked for the fault
    const pair = this.pickDice();
    if (fault === 'craps-die-unchecked') emit('DieLeftTable', { dieId: pair[0] }, null);

    const faces: [number, number] = [
      1 + Math.floor(this.rng.next() * 6),
      1 + Math.floor(this.rng.next() * 6),
    ];
    const declaredVoid =
      fault === 'craps-void-settled' ||
      handled === 'craps-void-die-left-checked' ||
      handled === 'craps-void-short-throw';
    const voidReason =
      handled === 'craps-void-die-left-checked'
        ? 'DIE_LEFT_TABLE'
        : handled === 'craps-void-short-throw' || fault === 'craps-void-settled'
          ? 'NOT_PAST_MIDDLE'
          : fault === 'craps-void-not-declared'
            ? 'NOT_ROLLING'
            : null;
    emit('DiceThrown', { shooterId: this.shooter, dieIds: pair, faces, voidReason, declaredVoid }, roundId);

    if (declaredVoid) {
      if (fault === 'craps-void-settled') {
        // the fault: the one-throw bets settled on a void throw, as if it counted
        for (const b of [...this.bets.values()])
          if ((ONE_THROW as readonly string[]).includes(b.kind)) this.settle(emit, roundId, b, faces, 0);
      }
      if (handled === 'craps-void-die-left-checked') {
        emit('DieLeftTable', { dieId: pair[1] }, roundId);
        emit('DieChecked', { dieId: pair[1], passed: true }, null);
      }
      return { events, faultyRoundId: fault ? roundId : null };
    }

    let wrongDone = fault !== 'craps-payout-wrong';
    for (const b of [...this.bets.values()]) {
      const extra = wrongDone ? 0 : MINIMUM;
      if (this.settle(emit, roundId, b, faces, extra) && extra) wrongDone = true;
    }
    const sum = faces[0] + faces[1];
    if (this.point === null) {
      if (POINT_NUMBERS.includes(sum)) this.point = sum;
    } else if (sum === this.point) this.point = null;
    else if (sum === 7) {
      this.point = null;
      this.sevenOut = true;
    }
    return { events, faultyRoundId: fault ? roundId : null };
  }

  /** Settles one bet as the rules say (plus `extra` avos on its payout, for the fault); true if the throw resolved it. */
  private settle(emit: Emit, roundId: string, b: SimBet, faces: [number, number], extra: number): boolean {
    if (b.irregular || b.kind === 'EXTRA') {
      // the table takes back what the law gives no settlement for: lost (an authorised extra) or returned
      this.bets.delete(b.betId);
      emit(
        'CrapsBetResolved',
        { betId: b.betId, outcome: b.kind === 'EXTRA' ? 'LOSE' : 'PUSH', payout: 0 },
        roundId,
      );
      return false;
    }
    const step = resolveThrow(
      CRAPS_2010,
      { kind: b.kind, number: b.number, point: b.point },
      faces,
      this.field12(),
    );
    if (!step.resolution) {
      b.point = step.point;
      return false;
    }
    this.bets.delete(b.betId);
    const payout = step.resolution === 'WIN' ? winningsOf(b.amount, step.pays!, ROUNDING) : 0;
    if (extra && step.resolution === 'LOSE')
      emit('CrapsBetResolved', { betId: b.betId, outcome: 'WIN', payout: b.amount }, roundId);
    else
      emit(
        'CrapsBetResolved',
        {
          betId: b.betId,
          outcome: step.resolution,
          payout: payout + (step.resolution === 'WIN' ? extra : 0),
        },
        roundId,
      );
    return true;
  }

  private field12(): number {
    return this.field12Pays;
  }

  private pickDice(): [string, string] {
    const i = Math.floor(this.rng.next() * DICE.length);
    const j = (i + 1 + Math.floor(this.rng.next() * (DICE.length - 1))) % DICE.length;
    return [DICE[i]!, DICE[j]!];
  }

  close(): TableEvent[] {
    const header = this.spec.clock.stamp('TABLE_CONTROLLER', null, this.croupier);
    return [{ type: 'TableClosed', data: { header, reason: 'end of session' } }];
  }
}

export const CRAPS_SIMULATION: GameSimulation = {
  roundFaults: CRAPS_FAULTS,
  handledIrregularities: CRAPS_HANDLED,
  conduct: {},
  openTable: (spec) => new CrapsSimTable(spec),
};
