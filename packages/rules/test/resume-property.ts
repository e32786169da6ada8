/**
 * The resume property, for any game with GameModule.resumeTable: for EVERY unit a table's fold returns with
 * ReplayOptions.startStates, a fold resumed from the unit's start state and given the table's events from the
 * first that names the unit's roundId returns that unit derived and explained exactly as the full fold did — its
 * record, its findings (the art. 18.º conduct findings, which need the whole session, excepted) and its
 * explanation (JSON and text). And recording start states changes nothing the fold returns. A start state carries
 * what its own unit needs, not the whole table (e.g. only the closed rounds whose late events arrive during it): a
 * fold resumed from it is exact for that unit, not for the units after it. `asStored` gives the events as the store
 * reads them back (every object's keys sorted): nothing the fold judges may depend on the order of an object's keys.
 */
import assert from 'node:assert/strict';
import type { Finding } from '../src/findings.ts';
import type { DerivedUnit, GameModule, ReplayOptions, TableEvent, TableFold } from '../src/game.ts';
import { DEFAULT_REPLAY_OPTIONS } from '../src/game.ts';

/** The findings a resumed fold cannot make: they need the whole session (art. 18.º, read from what was stored). */
export const CONDUCT_CHECKS = new Set(['F3CP.CONDUCT.BETTING_SYSTEM', 'F3CP.CONDUCT.COLLUSION']);
const notConduct = (fs: readonly Finding[]) => fs.filter((f) => !CONDUCT_CHECKS.has(f.checkId));
const withoutConduct = (u: DerivedUnit): DerivedUnit => ({ ...u, findings: notConduct(u.findings) });

export interface ResumeProof {
  /** units the full fold returned */
  readonly units: number;
  /** units resumed and found equal */
  readonly resumed: number;
  /** units with no start state (null), by roundId: a repeated round id, or a round the fold cannot resume */
  readonly withoutState: string[];
  /** start state sizes in bytes */
  readonly bytes: number[];
}

/** Events as the store reads them back: every object's keys in sorted order (compact.ts keeps shapes sorted). */
export function asStored<T>(events: readonly T[]): T[] {
  const sorted = (x: unknown): unknown =>
    Array.isArray(x)
      ? x.map(sorted)
      : x !== null && typeof x === 'object'
        ? Object.fromEntries(
            Object.keys(x)
              .sort()
              .map((k) => [k, sorted((x as Record<string, unknown>)[k])]),
          )
        : x;
  return events.map((e) => sorted(e) as T);
}

interface Returned {
  unit: DerivedUnit;
  fold: TableFold;
}

function foldAll(fold: TableFold, events: readonly TableEvent[]): { units: DerivedUnit[]; later: Finding[] } {
  const units: DerivedUnit[] = [];
  for (const e of events) units.push(...fold.apply(e));
  const end = fold.finish();
  units.push(...end.units);
  return { units, later: end.findings };
}

/** The round an event names, as the start state's definition reads it (a RoundStarted with none: its event id). */
const names = (e: TableEvent, roundId: string) =>
  e.data.header.roundId === roundId ||
  (e.type === 'RoundStarted' && e.data.header.roundId === null && e.data.header.eventId === roundId);

/**
 * Proves the property on one table's events (in stored order) under `options`; throws an assertion error naming
 * the unit where it fails.
 */
export function proveResume(
  module: GameModule,
  tableId: string,
  events: readonly TableEvent[],
  options: Partial<ReplayOptions> = {},
): ResumeProof {
  const opts: ReplayOptions = { ...DEFAULT_REPLAY_OPTIONS, ...options };
  assert.ok(module.resumeTable, `${module.title} has no resumeTable`);
  const plain = foldAll(module.newTable(tableId, opts), events);
  const fold = module.newTable(tableId, { ...opts, startStates: true });
  const full = foldAll(fold, events);
  // recording start states changes nothing the fold returns
  assert.equal(full.units.length, plain.units.length, 'as many units with start states as without');
  full.units.forEach((u, i) => {
    const { startState: _s, ...rest } = u;
    assert.deepEqual(
      comparable(rest),
      comparable(plain.units[i]),
      `unit ${u.roundId} is the same with start states as without`,
    );
    assert.ok('startState' in u, `unit ${u.roundId} carries a start state (or null)`);
  });
  assert.deepEqual(full.later, plain.later);
  // later findings, as the API would pass them: every finding of the table but the unit's own
  const allFindings = [...full.units.flatMap((u) => u.findings), ...full.later];
  const withoutState: string[] = [];
  const bytes: number[] = [];
  let resumed = 0;
  for (const u of full.units) {
    if (u.startState == null) {
      withoutState.push(u.roundId);
      continue;
    }
    bytes.push(Buffer.byteLength(u.startState));
    const state = JSON.parse(u.startState) as { before: string; roundId: string };
    assert.equal(state.roundId, u.roundId);
    const at = events.findIndex((e) => names(e, u.roundId));
    assert.ok(at >= 0, `an event names round ${u.roundId}`);
    assert.equal(
      events[at]!.data.header.eventId,
      state.before,
      `round ${u.roundId}: the state is taken before the first event that names it`,
    );
    const again = resumeAt(module, tableId, u, events.slice(at), opts);
    assert.ok(again, `the fold resumed for round ${u.roundId} returned it`);
    compare(u, fold, again.unit, again.fold, allFindings);
    resumed++;
  }
  return { units: full.units.length, resumed, withoutState, bytes };
}

function resumeAt(
  module: GameModule,
  tableId: string,
  u: DerivedUnit,
  events: readonly TableEvent[],
  opts: ReplayOptions,
): Returned | null {
  const fold = module.resumeTable!(tableId, u.startState!, opts);
  for (const e of events) {
    const hit = fold.apply(e).find((x) => x.roundId === u.roundId);
    if (hit) return { unit: hit, fold };
  }
  const hit = fold.finish().units.find((x) => x.roundId === u.roundId);
  return hit ? { unit: hit, fold } : null;
}

function compare(
  full: DerivedUnit,
  fullFold: TableFold,
  resumed: DerivedUnit,
  resumedFold: TableFold,
  later: readonly Finding[],
): void {
  const what = `round ${full.roundId} resumed from its start state`;
  assert.equal(resumed.ruleSet, full.ruleSet, `${what}: rule set`);
  assert.deepEqual(resumed.notDerived, full.notDerived, `${what}: why not derived`);
  assert.deepEqual(notConduct(resumed.findings), notConduct(full.findings), `${what}: findings`);
  // the record lists the ids of the unit's findings: the conduct findings' ids are those the replay stored
  const record = (u: DerivedUnit) =>
    u.record && {
      ...u.record,
      findingIds: u.record.findingIds.filter((id) => !conductIds(u).has(id)),
    };
  assert.deepEqual(record(resumed), record(full), `${what}: record`);
  const others = later.filter((f) => !full.findings.includes(f));
  const a = fullFold.explain(withoutConduct(full), others);
  const b = resumedFold.explain(withoutConduct(resumed), others);
  assert.deepEqual(b.json, a.json, `${what}: explanation (JSON)`);
  assert.equal(b.text, a.text, `${what}: explanation (text)`);
}

/**
 * A value as it can be compared between two folds: a function (a unit's derivation holds closures, made anew by
 * each fold) by its name, a Map by its entries; everything else as it is.
 */
function comparable(x: unknown, path: unknown[] = []): unknown {
  if (typeof x === 'function') return `[function ${x.name}]`;
  if (typeof x !== 'object' || x === null) return x;
  if (path.includes(x)) return '[cycle]';
  const inner = [...path, x];
  if (x instanceof Map) return { map: [...x].map(([k, v]) => [comparable(k, inner), comparable(v, inner)]) };
  if (x instanceof Set) return { set: [...x].map((v) => comparable(v, inner)) };
  if (Array.isArray(x)) return x.map((v) => comparable(v, inner));
  return Object.fromEntries(Object.entries(x).map(([k, v]) => [k, comparable(v, inner)]));
}

const conductIds = (u: DerivedUnit) =>
  new Set(u.findings.filter((f) => CONDUCT_CHECKS.has(f.checkId)).map((f) => f.findingId));
