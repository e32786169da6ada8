/**
 * Given/When/Then for CRAPS: a script of one table's events (Despacho 53/2010), replayed with the module's own
 * fold, and the check ids it raised compared with what the law says.
 */
import assert from 'node:assert/strict';
import type {
  CrapsBetOutcome,
  CrapsBetType,
  CrapsEvent,
  CrapsEvents,
  EventHeader,
  ShooterChangeReason,
  ThrowVoidReason,
} from '@table-audit/schemas/events';
import { CRAPS_MODULE, DEFAULT_REPLAY_OPTIONS, type CrapsThrowUnit, type Finding } from '../../src/index.ts';

export interface TableOptions {
  field12?: number;
  minimum?: number;
  authorised?: string[];
  /** the first event's time (an ISO instant) */
  start?: string;
}

/** One table's events, written in the order a correct table emits them. */
export class CrapsScript {
  readonly events: CrapsEvent[] = [];
  private seq = 0;
  private time: number;
  private throwNo = 0;
  private betNo = 0;
  currentThrow: string | null = null;

  constructor(
    readonly tableId = 'LP-CRAPS-02',
    private readonly o: TableOptions = {},
  ) {
    this.time = Date.parse(o.start ?? '2025-12-01T14:00:00+08:00');
  }

  private header(roundId: string | null): EventHeader {
    this.time += 5_000;
    return {
      eventId: `${this.tableId}-e${++this.seq}`,
      eventTime: this.time,
      receivedTime: null,
      sourceKind: 'TABLE_CONTROLLER',
      sourceDevice: `tc-${this.tableId}`,
      sequence: this.seq,
      casino: 'LOTUS-PALACE',
      concessionaire: 'CONCESSIONAIRE-03',
      tableId: this.tableId,
      roundId,
      staffId: 'CR-1',
    };
  }

  emit<K extends keyof CrapsEvents>(
    type: K,
    data: Omit<CrapsEvents[K], 'header'>,
    roundId: string | null = null,
  ): this {
    this.events.push({ type, data: { header: this.header(roundId), ...data } } as CrapsEvent);
    return this;
  }

  open(firstShooter = 'P1'): this {
    this.emit('TableOpened', {
      game: 'CRAPS',
      seats: 0,
      betLimits: [],
      shuffleMode: 'MANUAL',
      jackpot: null,
      rounding: { unitAvos: 1, mode: 'DOWN' },
      currency: 'MOP',
      craps: {
        minimumBet: this.o.minimum ?? 5_000,
        maximumBet: 1_000_000,
        field12PaysToOne: this.o.field12 ?? 2,
        dieIds: ['D1', 'D2', 'D3', 'D4', 'D5'],
        authorisedExtraBets: this.o.authorised ?? ['Fire Bet'],
      },
      thirteenCards: null,
    });
    return this.shooter(firstShooter, null, 'FIRST_SHOOTER');
  }

  shooter(shooterId: string, previousShooterId: string | null, reason: ShooterChangeReason): this {
    return this.emit('ShooterChanged', { shooterId, previousShooterId, reason });
  }

  /** Places a bet; returns its id. */
  bet(
    playerId: string,
    betType: CrapsBetType,
    amount: number,
    o: { number?: number; behind?: string; extra?: string } = {},
  ): string {
    const betId = `B-${++this.betNo}`;
    this.emit('CrapsBetPlaced', {
      betId,
      playerId,
      betType,
      number: o.number ?? null,
      amount,
      behindBetId: o.behind ?? null,
      extraBetName: o.extra ?? null,
    });
    return betId;
  }

  throw(
    faces: [number, number],
    o: {
      shooter?: string;
      dice?: [string, string];
      voidReason?: ThrowVoidReason;
      declaredVoid?: boolean;
    } = {},
  ): this {
    const roundId = `T-${++this.throwNo}`;
    this.currentThrow = roundId;
    return this.emit(
      'DiceThrown',
      {
        shooterId: o.shooter ?? 'P1',
        dieIds: o.dice ?? ['D1', 'D2'],
        faces,
        voidReason: o.voidReason ?? null,
        declaredVoid: o.declaredVoid ?? false,
      },
      roundId,
    );
  }

  /** The croupier settles a bet on the current throw. */
  settle(betId: string, outcome: CrapsBetOutcome, payout = 0): this {
    return this.emit('CrapsBetResolved', { betId, outcome, payout }, this.currentThrow);
  }

  close(): this {
    return this.emit('TableClosed', { reason: 'end of session' });
  }
}

export interface Replay {
  readonly units: CrapsThrowUnit[];
  readonly findings: Finding[];
}

/** `alternatives`: the alternative readings (readings.ts keys) to replay under; none: the register's. */
export function replay(events: readonly CrapsEvent[], alternatives: readonly string[] = []): Replay {
  const fold = CRAPS_MODULE.newTable('LP-CRAPS-02', { ...DEFAULT_REPLAY_OPTIONS, alternatives });
  const units: CrapsThrowUnit[] = [];
  for (const e of events) units.push(...fold.apply(e));
  const end = fold.finish();
  units.push(...end.units);
  return { units, findings: [...units.flatMap((u) => u.findings), ...end.findings] };
}

/** Given the events, when replayed, then exactly these check ids (sorted, with repeats) were raised. */
export function given(script: CrapsScript) {
  return {
    then(checkIds: string[]): Replay {
      const r = replay(script.events);
      assert.deepEqual(
        r.findings.map((f) => f.checkId).sort(),
        [...checkIds].sort(),
        r.findings.map((f) => `${f.checkId}: ${f.summary}`).join('\n'),
      );
      return r;
    },
  };
}

export const only = (r: Replay, checkId: string): Finding => {
  const found = r.findings.filter((f) => f.checkId === checkId);
  assert.equal(found.length, 1, `one ${checkId}`);
  return found[0]!;
};
