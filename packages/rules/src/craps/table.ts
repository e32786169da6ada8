/**
 * The CRAPS fold: one table's events, in order, into throws (the unit the law judges; one DerivedUnit and one
 * RoundDerived per throw, whose roundId is the DiceThrown's), with the bets on the layout carried from throw to
 * throw until a throw resolves them. The point, the shooter and the dice out of play are the table's state.
 *
 * A throw opens with its DiceThrown (its state changes are applied then, so that bets placed after it are judged
 * against the point it made) and closes at the next DiceThrown, the TableClosed or the end of the events, when
 * the CrapsBetResolved of the throw have all come. Findings about bets placed and shooters changed between two
 * throws are reported with the next throw.
 */
import type {
  CrapsBetPlaced,
  CrapsBetResolved,
  CrapsEvent,
  TableSettings as CrapsTableSettings,
  DiceThrown,
  TableOpened,
} from '@table-audit/schemas/events';
import {
  evidenceOf,
  makeFinding,
  type CheckDefinition,
  type Evidence,
  type Finding,
  type FindingContext,
  type FindingInput,
} from '../findings.ts';
import { type DerivedUnit, type NotDerived, type RoundRecord, type TableFold } from '../game.ts';
import type { RoundingPolicy } from '../money.ts';
import { ruleSetFor } from '../registry.ts';
import { checkDiceReuse, checkVoidNotDeclared, checkVoidSettled } from './checks/art-01-03-dice-throws.ts';
import { checkShooterChange, checkShooterKept, checkShooterMinimum } from './checks/art-02-04-shooter.ts';
import {
  checkAuthorised,
  checkComeBeforePoint,
  checkMultipleOfMinimum,
  checkOddsWithoutLine,
  ODDS_BACKS,
} from './checks/art-05-07-bets.ts';
import { checkPayout, checkUnknownSettled, type ExpectedLine } from './checks/art-06-payouts.ts';
import { resolveThrow, winningsOf, type Resolution } from './engine.ts';
import { crapsExplanation, crapsExplanationText } from './explain.ts';
import { crapsThrowRecord } from './round-record.ts';
import {
  crapsReadings,
  CRAPS_BETS,
  POINT_NUMBERS,
  type CrapsBetKind,
  type CrapsRuleSet,
} from './rule-set.ts';
import { UnassignedEvents } from '../unassigned.ts';
import {
  checkResumedAt,
  checkSameReadings,
  readStartState,
  StartStateCapture,
  withinBound,
  withStartState,
} from '../start-state.ts';
import { CRAPS_CHECKS } from './checks/index.ts';
import {
  CRAPS_START_FORM,
  CrapsStartWriter,
  readCrapsStartBody,
  type CrapsLayoutBet,
  type CrapsStartTaken,
} from './start-state.ts';

/** A bet on the layout. */
export interface ActiveBet extends CrapsLayoutBet {
  readonly placed: CrapsBetPlaced;
  /** null for a bet the law does not settle (an EXTRA bet, an odds bet with nothing behind it) */
  readonly kind: CrapsBetKind | null;
  point: number | null;
}

/** One bet's line on a throw: what the rules give and what the table declared. */
export interface ThrowLine extends ExpectedLine {
  /** false: the law gives no settlement for the bet (EXTRA, odds without a line): its line is not compared */
  readonly judged: boolean;
  readonly declared: CrapsBetResolved | null;
}

/** A judged throw. */
export interface CrapsThrowUnit extends DerivedUnit {
  readonly tableId: string;
  readonly throwEvent: DiceThrown;
  readonly config: TableOpened;
  /** the table's point before the throw */
  readonly pointBefore: number | null;
  readonly valid: boolean;
  readonly lines: readonly ThrowLine[];
  /** settlements of bets that were not on the layout at the throw */
  readonly unknownSettled: readonly CrapsBetResolved[];
  record: RoundRecord | null;
}

interface OpenThrow {
  readonly event: DiceThrown;
  readonly ctx: FindingContext | null;
  readonly rules: CrapsRuleSet | null;
  readonly notDerived: NotDerived | null;
  readonly pointBefore: number | null;
  /** the law treats the throw as played (not declared void) */
  readonly played: boolean;
  readonly inputs: FindingInput[];
  /** expected lines of the bets on the layout at the throw, by betId */
  readonly expected: Map<string, { line: ExpectedLine; judged: boolean }>;
  readonly resolved: CrapsBetResolved[];
}

const NO_UNITS: readonly CrapsThrowUnit[] = Object.freeze([]);
/** an empty list a start state shares (the dice out, the pending findings) */
const NONE: readonly never[] = Object.freeze([]);
/** Every CRAPS check by id: a start state names a pending finding's check by its id. */
const CHECKS_BY_ID: ReadonlyMap<string, CheckDefinition> = new Map(
  Object.values(CRAPS_CHECKS).map((c) => [c.id, c]),
);
const ROUNDING_MODE = { DOWN: 'down', HALF_UP: 'half-up', UP: 'up', UNKNOWN: 'down' } as const;

export class CrapsTable implements TableFold<CrapsThrowUnit> {
  private config: TableOpened | null = null;
  private settings: CrapsTableSettings | null = null;
  private rounding: RoundingPolicy = { unit: 1, mode: 'down' };
  private point: number | null = null;
  private shooter: string | null = null;
  /** the seven-out that calls for a new shooter, until one comes */
  private sevenOut: Evidence | null = null;
  /** the throw that called for a new shooter was a come-out craps (only under the alternative reading of C1) */
  private sevenOutByCraps = false;
  /** valid throws since the last shooter change: the alternative reading of C1 spares the shooter's first */
  private shooterThrows = 0;
  private readonly bets = new Map<string, ActiveBet>();
  private readonly diceOut = new Map<string, Evidence>();
  private pending: FindingInput[] = [];
  private open: OpenThrow | null = null;
  /** events that belong to no throw and change no state the checks read (counted, the first ones kept; the store keeps them all) */
  readonly unassigned = new UnassignedEvents<CrapsEvent>();

  /**
   * ReplayOptions.startStates: each throw's start state, taken as its DiceThrown is applied (once the throw before
   * is closed); null for a throw named by an event before its DiceThrown (not resumable: the state then would hold
   * the throw before, still open)
   */
  private readonly capture: StartStateCapture<CrapsStartTaken | null> | null;
  /** a resumed fold: the throw it resumed for and the event it must be given first (null once given) */
  private resumedAt: { roundId: string; before: string } | null = null;
  /** the alternative readings, sorted, as start states name them */
  private get readings(): readonly string[] {
    return (this.sortedReadings ??= [...new Set(this.alternatives)].sort());
  }
  private sortedReadings: readonly string[] | null = null;
  /** writes the start states (with `capture`) */
  private readonly writer: CrapsStartWriter | null;

  constructor(
    readonly tableId: string,
    /** alternative readings (readings.ts) the throws are derived under; empty: the register's */
    private readonly alternatives: readonly string[] = [],
    startStates = false,
  ) {
    this.capture = startStates ? new StartStateCapture() : null;
    this.writer = startStates ? new CrapsStartWriter(tableId) : null;
  }

  apply(e: CrapsEvent): CrapsThrowUnit[] {
    if (this.resumedAt) {
      checkResumedAt(this.resumedAt, e, 'throw');
      this.resumedAt = null;
    }
    let taking: string | null = null;
    if (this.capture) {
      const h = e.data.header;
      const named = h.roundId ?? (e.type === 'DiceThrown' ? h.eventId : null);
      if (named !== null && named !== this.open?.event.header.roundId && this.capture.wants(named)) {
        if (e.type === 'DiceThrown') taking = named;
        else this.capture.take(named, h.eventId, null);
      }
    }
    switch (e.type) {
      case 'TableOpened':
        this.config = e.data;
        this.settings = e.data.craps;
        this.rounding = {
          unit: Math.max(1, e.data.rounding.unitAvos),
          mode: ROUNDING_MODE[e.data.rounding.mode],
        };
        return NO_UNITS as CrapsThrowUnit[];
      case 'TableClosed': {
        const done = this.open ? [this.close()] : [];
        return done;
      }
      case 'DiceThrown': {
        const done = this.open ? [this.close()] : [];
        if (taking !== null) this.capture!.take(taking, e.data.header.eventId, this.startNow());
        this.throwMade(e.data);
        return done;
      }
      case 'CrapsBetResolved':
        if (this.open && e.data.header.roundId === this.open.event.header.roundId)
          this.open.resolved.push(e.data);
        else this.unassigned.push(e);
        return NO_UNITS as CrapsThrowUnit[];
      case 'CrapsBetPlaced':
        this.betPlaced(e.data);
        return NO_UNITS as CrapsThrowUnit[];
      case 'ShooterChanged': {
        const c = e.data;
        const outgoing = c.previousShooterId ?? this.shooter;
        let outgoingStakes = 0;
        for (const b of this.bets.values())
          if (b.placed.playerId === outgoing) outgoingStakes += b.placed.amount;
        const f = checkShooterChange(c, {
          shooter: this.shooter,
          sevenOut: this.sevenOut !== null,
          pointOn: this.point !== null,
          outgoingStakes,
        });
        if (f) this.pending.push(f);
        this.shooter = c.shooterId;
        this.sevenOut = null;
        this.sevenOutByCraps = false;
        this.shooterThrows = 0;
        return NO_UNITS as CrapsThrowUnit[];
      }
      case 'DieLeftTable':
        this.diceOut.set(e.data.dieId, evidenceOf(e.data));
        return NO_UNITS as CrapsThrowUnit[];
      case 'DieChecked':
        if (e.data.passed) this.diceOut.delete(e.data.dieId);
        return NO_UNITS as CrapsThrowUnit[];
      default:
        this.unassigned.push(e);
        return NO_UNITS as CrapsThrowUnit[];
    }
  }

  finish(): { units: CrapsThrowUnit[]; findings: Finding[] } {
    return { units: this.open ? [this.close()] : [], findings: [] };
  }

  explain(unit: DerivedUnit, later: readonly Finding[]): { json: object; text: string } {
    const json = crapsExplanation(unit as CrapsThrowUnit, later);
    return { json, text: crapsExplanationText(json) };
  }

  private betPlaced(b: CrapsBetPlaced): void {
    const s = this.settings;
    const kind = b.betType === 'EXTRA' || b.betType === 'UNKNOWN' ? null : (b.betType as CrapsBetKind);
    let point: number | null = null;
    let judged = kind !== null;
    if (s) {
      const found = [
        checkMultipleOfMinimum(b, s.minimumBet),
        checkAuthorised(b, s.authorisedExtraBets),
        checkComeBeforePoint(b, this.point),
      ];
      for (const f of found) if (f) this.pending.push(f);
    }
    if (kind && ODDS_BACKS[kind]) {
      const behindBet = b.behindBetId === null ? undefined : this.bets.get(b.behindBetId);
      const behind = behindBet
        ? { kind: behindBet.placed.betType, playerId: behindBet.placed.playerId, point: behindBet.point }
        : null;
      const f = checkOddsWithoutLine(b, behind);
      if (f) {
        this.pending.push(f);
        judged = false;
      } else point = behind!.point;
    } else if (kind === 'PASS_LINE' || kind === 'DONT_PASS') point = this.point;
    this.bets.set(b.betId, { placed: b, kind: judged ? kind : null, point, entry: null });
  }

  private throwMade(t: DiceThrown): void {
    const lookup = ruleSetFor('craps', t.header.eventTime);
    const rules =
      lookup.status === 'implemented' ? crapsReadings(lookup.rules as CrapsRuleSet, this.alternatives) : null;
    const notDerived: NotDerived | null =
      lookup.status === 'implemented'
        ? this.config && this.settings
          ? null
          : { code: 'no-rules', message: 'no TableOpened with CRAPS settings came before the throw' }
        : {
            code: lookup.status === 'no-rules' ? 'no-rules' : 'rule-set-not-implemented',
            message: lookup.reason,
          };
    const ctx: FindingContext | null =
      rules && !notDerived
        ? {
            ruleSet: rules.id,
            casino: t.header.casino,
            concessionaire: t.header.concessionaire,
            tableId: this.tableId,
            roundId: t.header.roundId,
          }
        : null;
    const inputs = this.pending;
    this.pending = [];
    const played = !t.declaredVoid;
    const o: OpenThrow = {
      event: t,
      ctx,
      rules,
      notDerived,
      pointBefore: this.point,
      played,
      inputs,
      expected: new Map(),
      resolved: [],
    };
    this.open = o;
    if (!ctx || !rules || !this.settings) return;

    // the thrower, the dice and the throw itself
    inputs.push(...checkDiceReuse(t, this.diceOut));
    // a die back in play is reported once: from this throw on it is in play again, as the table had it
    for (const dieId of t.dieIds) this.diceOut.delete(dieId);
    const kept =
      this.shooter === t.shooterId ? checkShooterKept(t, this.sevenOut, this.sevenOutByCraps) : null;
    if (kept) inputs.push(kept);
    // reported once: the table went on with the same shooter
    if (kept) this.sevenOut = null;
    let stakes = 0;
    const stakeEvidence: Evidence[] = [];
    for (const b of this.bets.values())
      if (b.placed.playerId === t.shooterId) {
        stakes += b.placed.amount;
        stakeEvidence.push(evidenceOf(b.placed));
      }
    const short = checkShooterMinimum(t, stakes, this.settings.minimumBet, stakeEvidence);
    if (short) inputs.push(short);
    const notDeclared = checkVoidNotDeclared(t);
    if (notDeclared) inputs.push(notDeclared);
    if (this.shooter === null) this.shooter = t.shooterId;
    if (!played) return; // void: nothing moves, nothing is resolved (art. 3.º n.º 2)

    // a throw played (even one that should have been void: the finding says so, the table moved on)
    const faces = [t.faces[0] ?? 0, t.faces[1] ?? 0] as const;
    const sum = faces[0] + faces[1];
    for (const [betId, b] of this.bets) {
      if (b.kind === null) {
        o.expected.set(betId, { line: lineOf(b, null, 0, []), judged: false });
        continue;
      }
      const step = resolveThrow(
        rules,
        { kind: b.kind, number: b.placed.number, point: b.point },
        faces,
        this.settings.field12PaysToOne,
      );
      const payout = step.resolution === 'WIN' ? winningsOf(b.placed.amount, step.pays!, this.rounding) : 0;
      o.expected.set(betId, {
        line: lineOf(b, step.resolution, payout, interpretationsOf(b.kind)),
        judged: true,
      });
      if (step.resolution) this.bets.delete(betId);
      else b.point = step.point;
    }
    // the table's point and the shooter (art. 4.º 2) with C1)
    this.shooterThrows++;
    if (this.point === null) {
      if (POINT_NUMBERS.includes(sum)) this.point = sum;
      else if (
        (sum === 2 || sum === 3 || sum === 12) &&
        this.shooterThrows > 1 &&
        rules.alternatives?.includes('C1')
      ) {
        // the alternative reading of C1: a come-out craps after the shooter's first throw loses the Pass Line and
        // passes the dice too
        this.sevenOut = evidenceOf(t);
        this.sevenOutByCraps = true;
      }
    } else if (sum === this.point) this.point = null;
    else if (sum === 7) {
      this.point = null;
      this.sevenOut = evidenceOf(t);
      this.sevenOutByCraps = false;
    }
  }

  private close(): CrapsThrowUnit {
    const o = this.open!;
    this.open = null;
    const t = o.event;
    const inputs = o.inputs;
    const declared = new Map<string, CrapsBetResolved>();
    const unknownSettled: CrapsBetResolved[] = [];
    for (const r of o.resolved) {
      if (o.expected.has(r.betId) || (!o.played && this.bets.has(r.betId))) declared.set(r.betId, r);
      else unknownSettled.push(r);
      // what the table settled is off the layout, whatever the law said
      this.bets.delete(r.betId);
    }
    const lines: ThrowLine[] = [];
    if (o.ctx) {
      if (!o.played) {
        const f = checkVoidSettled(t, o.resolved);
        if (f) inputs.push(f);
      } else {
        for (const [betId, { line, judged }] of o.expected) {
          const d = declared.get(betId) ?? null;
          lines.push({ ...line, judged, declared: d });
          if (!judged) continue;
          const f = checkPayout(t, line, d);
          if (f) inputs.push(f);
        }
        for (const r of unknownSettled) inputs.push(checkUnknownSettled(t, r));
      }
    }
    const findings = o.ctx ? inputs.map((f) => makeFinding(o.ctx!, f)) : [];
    const unit: CrapsThrowUnit = {
      roundId: t.header.roundId ?? t.header.eventId,
      tableId: this.tableId,
      ruleSet: o.ctx?.ruleSet ?? null,
      notDerived: o.notDerived,
      findings,
      throwEvent: t,
      config: this.config!,
      pointBefore: o.pointBefore,
      valid: o.played && t.voidReason === null,
      lines,
      unknownSettled: o.played ? unknownSettled : o.resolved,
      record: null,
    };
    unit.record = this.config ? crapsThrowRecord(unit) : null;
    if (this.capture) withStartState(unit, this.startStateOf(unit.roundId));
    return unit;
  }

  // --- start states (ReplayOptions.startStates, resumeTable) ----------------------------------------------------

  /**
   * The table's state as a throw is made (no throw is open here): the layout as its text (the bets move as the
   * throw is played; each bet's text is kept on it while it stays), the dice out and the pending findings as
   * copies of the lists (the throw adds to them), the rest as it is (replaced, never changed, by the fold).
   */
  private startNow(): CrapsStartTaken {
    return {
      alternatives: this.readings,
      config: this.config,
      point: this.point,
      shooter: this.shooter,
      sevenOut: this.sevenOut,
      sevenOutByCraps: this.sevenOutByCraps,
      shooterThrows: this.shooterThrows,
      layout: this.writer!.layout(this.bets.values(), this.config?.header ?? null),
      diceOut: this.diceOut.size === 0 ? NONE : [...this.diceOut],
      pending: this.pending.length === 0 ? NONE : [...this.pending],
    };
  }

  /** The start state of a throw the fold returns; null when it has none (see `capture`, StartStateCapture). */
  private startStateOf(roundId: string): string | null {
    const taken = this.capture!.returnedRound(roundId);
    if (!taken?.state) return null;
    const text = this.writer!.text(roundId, taken.before, taken.state, CHECKS_BY_ID);
    return text !== null && withinBound(text) ? text : null;
  }

  /**
   * Sets a fresh fold to a throw's start state (./start-state.ts); throws StartStateError naming what is wrong
   * when the text is not a CRAPS start state of this table, or was taken under other alternative readings.
   */
  resume(startState: string): this {
    const s = readStartState(startState, CRAPS_START_FORM, this.tableId);
    const b = readCrapsStartBody(s.body, this.tableId, CHECKS_BY_ID);
    checkSameReadings(b.alternatives, this.readings, 'throw');
    if (b.config) this.apply({ type: 'TableOpened', data: b.config });
    this.point = b.point;
    this.shooter = b.shooter;
    this.sevenOut = b.sevenOut;
    this.sevenOutByCraps = b.sevenOutByCraps;
    this.shooterThrows = b.shooterThrows;
    for (const x of b.bets)
      this.bets.set(x.placed.betId, { placed: x.placed, kind: x.kind, point: x.point, entry: null });
    for (const [dieId, evidence] of b.diceOut) this.diceOut.set(dieId, evidence);
    this.pending = [...b.pending];
    this.resumedAt = { roundId: s.roundId, before: s.before };
    return this;
  }
}

function lineOf(
  b: ActiveBet,
  outcome: Resolution | null,
  payout: number,
  interpretations: string[],
): ExpectedLine {
  const rule = b.kind ? CRAPS_BETS[b.kind] : null;
  return {
    betId: b.placed.betId,
    playerId: b.placed.playerId,
    bet: betLabel(b.placed),
    stake: b.placed.amount,
    outcome,
    payout,
    citations: rule ? [rule.defined, rule.paid] : [],
    interpretations,
    placed: evidenceOf(b.placed),
  };
}

/** The bet as lines and reports name it: the type, with the number for Hard Way and Big bets, the name of an EXTRA. */
export function betLabel(b: CrapsBetPlaced): string {
  if (b.betType === 'EXTRA') return `EXTRA ${b.extraBetName ?? ''}`.trim();
  return b.number === null ? b.betType : `${b.betType}_${b.number}`;
}

const interpretationsOf = (kind: CrapsBetKind): string[] =>
  kind === 'HORN'
    ? ['C2']
    : kind === 'BIG_NUMBER'
      ? ['C3']
      : kind === 'DONT_PASS' || kind === 'DONT_COME'
        ? ['C5']
        : [];
