/**
 * The what-if comparison, pure and in memory: every table event goes to two sets of table folds, one under the
 * register's readings and one under the alternatives selected (ReplayOptions.alternatives, plus the finding-level
 * readings of readings.ts), and each unit derived under both is compared: findings that appear or disappear (by
 * check id), what each bet is owed (by bet type), the rounds that changed. Nothing is written anywhere: the stored
 * findings, round records and checkpoints are never touched. what-if.ts runs one comparer per shard of tables.
 */
import {
  DEFAULT_REPLAY_OPTIONS,
  type DerivedUnit,
  type Finding,
  type ReplayOptions,
  type TableEvent,
} from '@table-audit/rules';
import { TableFolds } from './tables.ts';

/** Which rounds the report counts: a Macau date range (inclusive) and, optionally, a casino, a table, a concessionaire. */
export interface WhatIfScope {
  /** YYYY-MM-DD, Macau dates, inclusive */
  readonly from: string;
  readonly to: string;
  readonly casino?: string;
  readonly tableId?: string;
  /** a compliance officer's scope: only the tables their concessionaire operates */
  readonly concessionaire?: string;
}

/** One bet whose settlement differs between the readings. */
export interface ChangedLine {
  readonly seat: number;
  readonly betType: string;
  readonly stakeAvos: number;
  readonly chosen: { readonly outcome: string; readonly payoutAvos: number; readonly netAvos: number } | null;
  readonly alternative: {
    readonly outcome: string;
    readonly payoutAvos: number;
    readonly netAvos: number;
  } | null;
}

export interface ChangedRound {
  readonly roundId: string;
  readonly tableId: string;
  readonly casino: string;
  readonly concessionaire: string;
  readonly game: string;
  readonly ruleSetId: string | null;
  readonly macauDate: string;
  readonly roundStartTime: number;
  readonly statusChosen: string;
  readonly statusAlternative: string;
  /** why the alternative could not derive the round, when it could not and the chosen reading could */
  readonly notDerivedAlternative: string | null;
  readonly findingsAppeared: readonly string[];
  readonly findingsDisappeared: readonly string[];
  readonly lines: readonly ChangedLine[];
  /** what the rules owe the players (winnings), under each reading */
  readonly expectedPaidChosenAvos: number;
  readonly expectedPaidAlternativeAvos: number;
}

export interface FindingDelta {
  readonly checkId: string;
  readonly casino: string;
  readonly tableId: string;
  appeared: number;
  disappeared: number;
}

export interface MoneyByBet {
  readonly betType: string;
  /** winnings owed under each reading (avos) */
  chosenPaidAvos: number;
  alternativePaidAvos: number;
  /** the players' net result under each reading (avos; negative: the house gained) */
  chosenNetAvos: number;
  alternativeNetAvos: number;
  /** bets settled differently */
  linesChanged: number;
}

/** What one comparer (one shard) found; partials add up (mergeWhatIf). */
export interface WhatIfPartial {
  events: number;
  tableEvents: number;
  /** tables with an event in scope (casino, table, concessionaire) */
  tablesInScope: number;
  /** units in scope derived under both readings */
  roundsCompared: number;
  roundsChanged: number;
  /** units in scope one reading could not derive (a voided round aside) */
  notDerivedChosen: number;
  notDerivedAlternative: number;
  findingsChosen: number;
  findingsAlternative: number;
  findings: FindingDelta[];
  money: MoneyByBet[];
  /** the first `maxChanged` changed rounds, by round start time */
  changed: ChangedRound[];
  /**
   * Tables whose stored record failed verification as it was read (a broken link of the hash chain): each is
   * compared up to the event before the break and no further, as the replay stops it.
   */
  tablesNotVerified: UnverifiedTable[];
}

/** Where a table's stored record stopped following its hash chain, and why. */
export interface UnverifiedTable {
  tableId: string;
  stream: string;
  revision: number;
  eventId: string;
  reason: string;
}

export const emptyWhatIf = (): WhatIfPartial => ({
  events: 0,
  tableEvents: 0,
  tablesInScope: 0,
  roundsCompared: 0,
  roundsChanged: 0,
  notDerivedChosen: 0,
  notDerivedAlternative: 0,
  findingsChosen: 0,
  findingsAlternative: 0,
  findings: [],
  money: [],
  changed: [],
  tablesNotVerified: [],
});

/** Changed rounds kept by default (all are counted). */
export const DEFAULT_MAX_CHANGED = 500;

const countBy = (ids: readonly string[]): Map<string, number> => {
  const m = new Map<string, number>();
  for (const id of ids) m.set(id, (m.get(id) ?? 0) + 1);
  return m;
};

/** The check ids in `a` beyond those in `b`, as a multiset difference. */
function beyond(a: Map<string, number>, b: Map<string, number>): string[] {
  const out: string[] = [];
  for (const [id, n] of a) for (let i = b.get(id) ?? 0; i < n; i++) out.push(id);
  return out.sort();
}

/**
 * What compared units add up to: one what-if's partial as it grows. The comparer keeps one for its scope; a
 * preparation of readings (readings-ready.ts) keeps one per reading, table and Macau date, so that any scope's
 * partial is the merge of its buckets.
 */
export class WhatIfTally {
  private readonly result: WhatIfPartial = emptyWhatIf();
  private readonly findings = new Map<string, FindingDelta>();
  private readonly money = new Map<string, MoneyByBet>();

  constructor(private readonly maxChanged = DEFAULT_MAX_CHANGED) {}

  /** Adds a unit derived under both readings; returns how it changed (null: it did not). */
  compare(c: DerivedUnit, a: DerivedUnit): ChangedRound | null {
    const rec = (c.record ?? a.record)!;
    const res = this.result;
    res.roundsCompared++;
    const cNotDerived = c.notDerived && c.notDerived.code !== 'voided' ? 1 : 0;
    const aNotDerived = a.notDerived && a.notDerived.code !== 'voided' ? 1 : 0;
    res.notDerivedChosen += cNotDerived;
    res.notDerivedAlternative += aNotDerived;
    res.findingsChosen += c.findings.length;
    res.findingsAlternative += a.findings.length; // the alternative's folds read J19, H8 and J20 themselves (tables.ts)
    const pairs = pairLines(c, a);
    for (const p of pairs) this.addMoney(p);
    const changed = differenceOf(c, a, c.findings, a.findings, pairs);
    if (!changed) return null;
    this.tally(changed.findingsAppeared, rec.casino, rec.tableId, 'appeared');
    this.tally(changed.findingsDisappeared, rec.casino, rec.tableId, 'disappeared');
    res.roundsChanged++;
    if (this.maxChanged > 0) keepEarliest(res.changed, changed, this.maxChanged);
    return changed;
  }

  /** Adds a table's table-level findings under both readings (judged once its events end). */
  tableFindings(chosen: readonly Finding[], alternative: readonly Finding[], tableId: string): void {
    const first = chosen[0] ?? alternative[0];
    if (!first) return;
    const cIds = countBy(chosen.map((f) => f.checkId));
    const aIds = countBy(alternative.map((f) => f.checkId));
    this.result.findingsChosen += chosen.length;
    this.result.findingsAlternative += alternative.length;
    this.tally(beyond(aIds, cIds), first.casino, tableId, 'appeared');
    this.tally(beyond(cIds, aIds), first.casino, tableId, 'disappeared');
  }

  private tally(ids: readonly string[], casino: string, tableId: string, what: 'appeared' | 'disappeared') {
    for (const checkId of ids) {
      const key = `${checkId}\u0000${casino}\u0000${tableId}`;
      let d = this.findings.get(key);
      if (!d) this.findings.set(key, (d = { checkId, casino, tableId, appeared: 0, disappeared: 0 }));
      d[what]++;
    }
  }

  /** Adds a pair of lines to the money by bet type. */
  private addMoney({ betType, chosen: sx, alternative: sy, differs }: LinePair): void {
    let m = this.money.get(betType);
    if (!m)
      this.money.set(
        betType,
        (m = {
          betType,
          chosenPaidAvos: 0,
          alternativePaidAvos: 0,
          chosenNetAvos: 0,
          alternativeNetAvos: 0,
          linesChanged: 0,
        }),
      );
    m.chosenPaidAvos += sx?.payoutAvos ?? 0;
    m.alternativePaidAvos += sy?.payoutAvos ?? 0;
    m.chosenNetAvos += sx?.netAvos ?? 0;
    m.alternativeNetAvos += sy?.netAvos ?? 0;
    if (differs) m.linesChanged++;
  }

  /** The partial so far (its counters are the tally's own: the caller sets events, tables and verification). */
  partial(): WhatIfPartial {
    return { ...this.result, findings: [...this.findings.values()], money: [...this.money.values()] };
  }
}

/**
 * Pairs the units two folds of one table complete, as they complete them: a unit one side completed before the
 * other waits for its twin (never expected: the folds see the same events).
 */
export class UnitPairs {
  private readonly waiting = new Map<string, { side: 'chosen' | 'alternative'; unit: DerivedUnit }>();

  constructor(private readonly compare: (c: DerivedUnit, a: DerivedUnit) => void) {}

  /** The units one event completed under each reading. */
  both(c: readonly DerivedUnit[], a: readonly DerivedUnit[]): void {
    if (c.length === a.length && c.every((u, i) => u.roundId === a[i]!.roundId)) {
      for (let i = 0; i < c.length; i++) this.compare(c[i]!, a[i]!);
      return;
    }
    for (const u of c) this.pair('chosen', u);
    for (const u of a) this.pair('alternative', u);
  }

  private pair(side: 'chosen' | 'alternative', unit: DerivedUnit): void {
    const key = `${unit.tableId}\u0000${unit.roundId}`;
    const other = this.waiting.get(key);
    if (other && other.side !== side) {
      this.waiting.delete(key);
      if (side === 'chosen') this.compare(unit, other.unit);
      else this.compare(other.unit, unit);
    } else this.waiting.set(key, { side, unit });
  }
}

export class WhatIfComparer {
  private readonly chosen: TableFolds;
  private readonly alternative: TableFolds;
  private readonly tally: WhatIfTally;
  private readonly pairs: UnitPairs;
  /** tables with an event in scope */
  private readonly tablesSeen = new Set<string>();
  /** tables with a unit in scope: their table-level findings are compared at the end */
  private readonly tablesInScope = new Set<string>();
  /** tables stopped where their record failed verification */
  private readonly stopped = new Set<string>();
  private readonly tablesNotVerified: UnverifiedTable[] = [];

  constructor(
    private readonly scope: WhatIfScope,
    alternatives: readonly string[],
    base: ReplayOptions = DEFAULT_REPLAY_OPTIONS,
    maxChanged = DEFAULT_MAX_CHANGED,
  ) {
    this.chosen = new TableFolds({ ...base, alternatives: [] });
    this.alternative = new TableFolds({ ...base, alternatives });
    this.tally = new WhatIfTally(maxChanged);
    this.pairs = new UnitPairs((c, a) => this.compare(c, a));
  }

  private tableEvents = 0;

  /** Whether an event's table can be in scope (its header names the casino and concessionaire). */
  private tableInScope(e: TableEvent): boolean {
    return tableInScope(this.scope, e.data.header);
  }

  /** Applies one table event under both readings and compares the units it completed. */
  apply(e: TableEvent): void {
    this.tableEvents++;
    if (!this.tableInScope(e) || this.stopped.has(e.data.header.tableId)) return;
    this.tablesSeen.add(e.data.header.tableId);
    this.pairs.both(this.chosen.apply(e) ?? [], this.alternative.apply(e) ?? []);
  }

  private compare(c: DerivedUnit, a: DerivedUnit): void {
    if (!inDates(this.scope, c) && !inDates(this.scope, a)) return;
    this.tablesInScope.add(c.tableId);
    this.tally.compare(c, a);
  }

  /**
   * Stops a table whose record failed verification at `at`: nothing from that event on is derived under either
   * reading (its open units are not closed either), what was compared before it stays.
   */
  stopTable(tableId: string, at: Omit<UnverifiedTable, 'tableId'>): void {
    this.stopped.add(tableId);
    this.chosen.drop(tableId);
    this.alternative.drop(tableId);
    this.tablesNotVerified.push({ tableId, ...at });
  }

  /** Closes the tables' open units and compares them and the table-level findings; returns the partial. */
  finish(events: number): WhatIfPartial {
    for (const t of this.chosen.values()) {
      const other = this.alternative.get(t.tableId);
      const ce = t.finish();
      const ae = other?.finish() ?? { units: [], findings: [] };
      this.pairs.both(ce.units, ae.units);
      if (this.tablesInScope.has(t.tableId)) this.tally.tableFindings(ce.findings, ae.findings, t.tableId);
    }
    return {
      ...this.tally.partial(),
      events,
      tableEvents: this.tableEvents,
      tablesInScope: this.tablesSeen.size,
      tablesNotVerified: this.tablesNotVerified,
    };
  }
}

/** Whether a table is in the scope's casino, table and concessionaire (a header names all three). */
export function tableInScope(
  scope: WhatIfScope,
  h: { readonly tableId: string; readonly casino: string; readonly concessionaire: string },
): boolean {
  return (
    (scope.tableId === undefined || h.tableId === scope.tableId) &&
    (scope.casino === undefined || h.casino === scope.casino) &&
    (scope.concessionaire === undefined || h.concessionaire === scope.concessionaire)
  );
}

/** Whether a unit's Macau date is in the scope's period (a unit without a record is not). */
function inDates(scope: WhatIfScope, u: DerivedUnit): boolean {
  const r = u.record;
  return r !== null && r !== undefined && r.macauDate >= scope.from && r.macauDate <= scope.to;
}

type LineSide = ChangedLine['chosen'];

/** One bet under both readings (null: no such line under that reading). */
export interface LinePair {
  readonly seat: number;
  readonly betType: string;
  readonly stakeAvos: number;
  readonly chosen: LineSide;
  readonly alternative: LineSide;
  /** settled differently (outcome, payout or net), or present under one reading only */
  readonly differs: boolean;
}

/**
 * Every line of a unit under both readings, paired by seat, bet type and bet id (lines without a bet id by their
 * place among the lines of the same seat and bet type).
 */
export function pairLines(c: DerivedUnit, a: DerivedUnit): LinePair[] {
  const cl = c.record?.lines ?? [];
  const al = a.record?.lines ?? [];
  type Line = (typeof cl)[number];
  const byKey = new Map<string, { c?: Line; a?: Line }>();
  const place = new Map<string, number>();
  const keyed = (l: Line, side: string) => {
    const base = `${side}\u0000${l.seat}\u0000${l.betType}`;
    const n = place.get(base) ?? 0;
    place.set(base, n + 1);
    return `${l.seat}\u0000${l.betType}\u0000${l.betId ?? n}`;
  };
  for (const l of cl) byKey.set(keyed(l, 'c'), { c: l });
  for (const l of al) {
    const k = keyed(l, 'a');
    const entry = byKey.get(k);
    if (entry) entry.a = l;
    else byKey.set(k, { a: l });
  }
  const side = (l: Line | undefined): LineSide =>
    l
      ? {
          outcome: l.expectedOutcome,
          payoutAvos: Number(l.expectedPayoutAvos),
          netAvos: Number(l.expectedNetAvos),
        }
      : null;
  const pairs: LinePair[] = [];
  for (const { c: x, a: y } of byKey.values()) {
    const sx = side(x);
    const sy = side(y);
    pairs.push({
      seat: (x ?? y)!.seat,
      betType: (x ?? y)!.betType,
      stakeAvos: Number((x ?? y)!.stakeAvos),
      chosen: sx,
      alternative: sy,
      differs:
        !sx ||
        !sy ||
        sx.outcome !== sy.outcome ||
        sx.payoutAvos !== sy.payoutAvos ||
        sx.netAvos !== sy.netAvos,
    });
  }
  return pairs;
}

/**
 * How a unit derived under the alternative differs from the same unit under the register's readings, given the
 * findings to compare for each (the unit's own, or with those judged later about it): null when it does not.
 */
export function differenceOf(
  c: DerivedUnit,
  a: DerivedUnit,
  chosenFindings: readonly Finding[],
  alternativeFindings: readonly Finding[],
  pairs: readonly LinePair[] = pairLines(c, a),
): ChangedRound | null {
  const rec = (c.record ?? a.record)!;
  const cIds = countBy(chosenFindings.map((f) => f.checkId));
  const aIds = countBy(alternativeFindings.map((f) => f.checkId));
  const appeared = beyond(aIds, cIds);
  const disappeared = beyond(cIds, aIds);
  const lines: ChangedLine[] = pairs
    .filter((p) => p.differs)
    .map(({ seat, betType, stakeAvos, chosen, alternative }) => ({
      seat,
      betType,
      stakeAvos,
      chosen,
      alternative,
    }));
  const cStatus = c.record?.status ?? 'NOT_DERIVED';
  const aStatus = a.record?.status ?? 'NOT_DERIVED';
  if (!appeared.length && !disappeared.length && !lines.length && cStatus === aStatus) return null;
  const cNotDerived = c.notDerived && c.notDerived.code !== 'voided';
  const aNotDerived = a.notDerived && a.notDerived.code !== 'voided';
  return {
    roundId: rec.roundId,
    tableId: rec.tableId,
    casino: rec.casino,
    concessionaire: rec.concessionaire,
    game: rec.game,
    ruleSetId: rec.ruleSetId,
    macauDate: rec.macauDate,
    roundStartTime: Number(rec.roundStartTime),
    statusChosen: cStatus,
    statusAlternative: aStatus,
    notDerivedAlternative: aNotDerived && !cNotDerived ? a.notDerived!.message : null,
    findingsAppeared: appeared,
    findingsDisappeared: disappeared,
    lines,
    expectedPaidChosenAvos: Number(c.record?.expectedPaidAvos ?? 0),
    expectedPaidAlternativeAvos: Number(a.record?.expectedPaidAvos ?? 0),
  };
}

/** Keeps the `max` earliest changed rounds (by start time, then round id), sorted. */
function keepEarliest(list: ChangedRound[], r: ChangedRound, max: number): void {
  const before = (x: ChangedRound, y: ChangedRound) =>
    x.roundStartTime < y.roundStartTime || (x.roundStartTime === y.roundStartTime && x.roundId < y.roundId);
  if (list.length >= max && !before(r, list[list.length - 1]!)) return;
  let i = list.length;
  while (i > 0 && before(r, list[i - 1]!)) i--;
  list.splice(i, 0, r);
  if (list.length > max) list.pop();
}

/** Every shard's partial added up. */
export function mergeWhatIf(
  parts: readonly WhatIfPartial[],
  maxChanged = DEFAULT_MAX_CHANGED,
): WhatIfPartial {
  const out = emptyWhatIf();
  const findings = new Map<string, FindingDelta>();
  const money = new Map<string, MoneyByBet>();
  for (const p of parts) {
    for (const k of [
      'events',
      'tableEvents',
      'tablesInScope',
      'roundsCompared',
      'roundsChanged',
      'notDerivedChosen',
      'notDerivedAlternative',
      'findingsChosen',
      'findingsAlternative',
    ] as const)
      out[k] += p[k];
    for (const f of p.findings) {
      const key = `${f.checkId}\u0000${f.casino}\u0000${f.tableId}`;
      const d = findings.get(key);
      if (d) {
        d.appeared += f.appeared;
        d.disappeared += f.disappeared;
      } else findings.set(key, { ...f });
    }
    for (const m of p.money) {
      const d = money.get(m.betType);
      if (!d) money.set(m.betType, { ...m });
      else {
        d.chosenPaidAvos += m.chosenPaidAvos;
        d.alternativePaidAvos += m.alternativePaidAvos;
        d.chosenNetAvos += m.chosenNetAvos;
        d.alternativeNetAvos += m.alternativeNetAvos;
        d.linesChanged += m.linesChanged;
      }
    }
    for (const r of p.changed) keepEarliest(out.changed, r, maxChanged);
    out.tablesNotVerified.push(...p.tablesNotVerified);
  }
  out.tablesNotVerified.sort((a, b) => a.tableId.localeCompare(b.tableId));
  out.findings = [...findings.values()].sort(
    (a, b) =>
      a.checkId.localeCompare(b.checkId) ||
      a.casino.localeCompare(b.casino) ||
      a.tableId.localeCompare(b.tableId),
  );
  out.money = [...money.values()].sort((a, b) => a.betType.localeCompare(b.betType));
  return out;
}
