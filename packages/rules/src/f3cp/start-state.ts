/**
 * The F3CP table's start state (DerivedUnit.startState, form "f3cp-table" version 1): what a round's derivation
 * reads from the table as the round begins, and nothing of earlier rounds' events. Both rule sets (89/2025 and
 * 78/2008) share the table fold, so they share this form. Written by F3cpTable with ReplayOptions.startStates,
 * read by F3CP_MODULE.resumeTable; every field checked on reading, each refusal a StartStateError naming it.
 */
import type { TableOpened } from '@table-audit/schemas/events';
import type { Citation } from '../citations/citation.ts';
import type { CheckDefinition, Evidence, Finding, FindingContext, FindingInput } from '../findings.ts';
import { StartStateError } from '../game.ts';
import {
  arrayAt,
  booleanAt,
  describe,
  integerAt,
  nullableIntegerAt,
  nullableStringAt,
  objectAt,
  oneOfAt,
  readTableOpened,
  stringAt,
  type Obj,
} from '../start-state.ts';
import type { DealingMode } from './events.ts';

export const F3CP_START_FORM = { form: 'f3cp-table', v: 1, game: 'F3CP' } as const;

/** A closed round as a start state carries it: only those the round's own span looked up (late events). */
export interface StartClosedRound {
  readonly closedBy: string;
  readonly ctx: FindingContext | null;
}

/** The table's state as a round began (the fold's fields of the same names). */
export interface F3cpStartState {
  /** the alternative readings the fold applied, sorted: a resumed fold must apply the same */
  readonly alternatives: readonly string[];
  /** each source's last sequence number, in the order the fold last saw the sources (the newest last) */
  readonly sequences: readonly (readonly [string, number])[];
  readonly config: TableOpened | null;
  readonly tableClosed: boolean;
  readonly dealingMode: DealingMode;
  readonly occupants: readonly (readonly [number, string])[];
  readonly pool: number | null;
  readonly consecutiveFailures: number;
  readonly lastFailureEvidence: readonly Evidence[];
  readonly failuresSinceReplacement: readonly Evidence[];
  /** findings decided before the round's own events, waiting for it (shuffle procedure, re-opened, numbering) */
  readonly pendingForNextRound: readonly FindingInput[];
  readonly carryOver: {
    readonly ctx: FindingContext;
    readonly due: readonly { readonly seat: number; readonly amount: number }[];
    readonly evidence: readonly Evidence[];
  } | null;
  /** findings about closed rounds from their late events, reported with the next round closed */
  readonly lateFindings: readonly Finding[];
  /** the closed rounds the round's span looked up, by round id */
  readonly closed: ReadonlyMap<string, StartClosedRound>;
}

/** The JSON body of a start state; null when a pending finding's check is not one of the game's (not resumable). */
export function f3cpStartBody(
  s: F3cpStartState,
  checks: ReadonlyMap<string, CheckDefinition>,
): object | null {
  const pending = [];
  for (const f of s.pendingForNextRound) {
    if (checks.get(f.check.id) !== f.check) return null;
    const { check, ...rest } = f;
    pending.push({ checkId: check.id, ...rest });
  }
  return {
    alternatives: s.alternatives,
    sequences: s.sequences,
    config: s.config,
    tableClosed: s.tableClosed,
    dealingMode: s.dealingMode,
    occupants: s.occupants,
    pool: s.pool,
    consecutiveFailures: s.consecutiveFailures,
    lastFailureEvidence: s.lastFailureEvidence,
    failuresSinceReplacement: s.failuresSinceReplacement,
    pendingForNextRound: pending,
    carryOver: s.carryOver,
    lateFindings: s.lateFindings,
    closed: [...s.closed].map(([roundId, c]) => [roundId, c.closedBy, c.ctx]),
  };
}

const P = "the start state's body";
const LIST = 10_000;

/** Reads a start state's body, every field checked against what the fold holds. */
export function readF3cpStartBody(
  body: unknown,
  tableId: string,
  checks: ReadonlyMap<string, CheckDefinition>,
): F3cpStartState {
  const o = objectAt(body, P);
  const texts = (x: unknown, at: string): string => {
    if (typeof x !== 'string') throw new StartStateError(`${at} is ${describe(x)}, not text`);
    return x;
  };
  const pair = <A, B>(x: unknown, at: string, a: (v: Obj, i: string) => A, b: (v: Obj, i: string) => B) => {
    if (!Array.isArray(x) || x.length !== 2) throw new StartStateError(`${at} is ${describe(x)}, not a pair`);
    const v = { 0: x[0], 1: x[1] } as Obj;
    return [a(v, at), b(v, at)] as const;
  };
  return {
    alternatives: arrayAt(o, 'alternatives', P, 100, texts),
    sequences: arrayAt(o, 'sequences', P, LIST, (x, at) =>
      pair(
        x,
        at,
        (v, i) => stringAt(v, '0', i),
        (v, i) => integerAt(v, '1', i),
      ),
    ),
    config: o.config === null ? null : readTableOpened(o.config, `${P}.config`, 'F3CP', tableId),
    tableClosed: booleanAt(o, 'tableClosed', P),
    dealingMode: oneOfAt(o, 'dealingMode', P, ['SHOE', 'SHUFFLER']),
    occupants: arrayAt(o, 'occupants', P, 100, (x, at) =>
      pair(
        x,
        at,
        (v, i) => integerAt(v, '0', i, 0, 100),
        (v, i) => stringAt(v, '1', i),
      ),
    ),
    pool: nullableIntegerAt(o, 'pool', P),
    consecutiveFailures: integerAt(o, 'consecutiveFailures', P, 0),
    lastFailureEvidence: arrayAt(o, 'lastFailureEvidence', P, LIST, readEvidence),
    failuresSinceReplacement: arrayAt(o, 'failuresSinceReplacement', P, 100, readEvidence),
    pendingForNextRound: arrayAt(o, 'pendingForNextRound', P, LIST, (x, at) =>
      readFindingInput(x, at, checks),
    ),
    carryOver:
      o.carryOver === null
        ? null
        : (() => {
            const at = `${P}.carryOver`;
            const c = objectAt(o.carryOver, at);
            return {
              ctx: readContext(c.ctx, `${at}.ctx`),
              due: arrayAt(c, 'due', at, 100, (x, i) => {
                const d = objectAt(x, i);
                return { seat: integerAt(d, 'seat', i, 0, 100), amount: integerAt(d, 'amount', i) };
              }),
              evidence: arrayAt(c, 'evidence', at, LIST, readEvidence),
            };
          })(),
    lateFindings: arrayAt(o, 'lateFindings', P, LIST, readFinding),
    closed: new Map(
      arrayAt(o, 'closed', P, LIST, (x, at) => {
        if (!Array.isArray(x) || x.length !== 3)
          throw new StartStateError(
            `${at} is ${describe(x)}, not [round id, what closed it, context or null]`,
          );
        const v = { 0: x[0], 1: x[1] } as Obj;
        return [
          stringAt(v, '0', at),
          { closedBy: stringAt(v, '1', at), ctx: x[2] === null ? null : readContext(x[2], `${at}[2]`) },
        ] as const;
      }),
    ),
  };
}

function readEvidence(x: unknown, at: string): Evidence {
  const e = objectAt(x, at);
  return { eventId: stringAt(e, 'eventId', at), eventTime: integerAt(e, 'eventTime', at) };
}

function readContext(x: unknown, at: string): FindingContext {
  const c = objectAt(x, at);
  return {
    ruleSet: stringAt(c, 'ruleSet', at),
    casino: stringAt(c, 'casino', at),
    concessionaire: stringAt(c, 'concessionaire', at),
    tableId: stringAt(c, 'tableId', at),
    roundId: nullableStringAt(c, 'roundId', at),
  };
}

const textList = (o: Obj, name: string, at: string) =>
  arrayAt(o, name, at, LIST, (x, i) => {
    if (typeof x !== 'string') throw new StartStateError(`${i} is ${describe(x)}, not text`);
    return x;
  });
const numberList = (o: Obj, name: string, at: string) =>
  arrayAt(o, name, at, LIST, (x, i) => integerAt({ n: x }, 'n', i).valueOf());

function readCitation(x: unknown, at: string): Citation {
  const c = objectAt(x, at);
  const optional = (name: string) =>
    name in c ? { [name]: integerAt(c, name, at, 0, 10_000) } : ({} as Record<string, number>);
  return {
    diploma: stringAt(c, 'diploma', at),
    article: integerAt(c, 'article', at, 0, 10_000),
    ...optional('numero'),
    ...optional('alinea'),
    ...optional('subalinea'),
    ...('wording' in c ? { wording: stringAt(c, 'wording', at) } : {}),
  };
}

/** The fields a JSON value may hold as it is (expected, declared, details): anything JSON, kept as read. */
const optionalAs = (o: Obj, name: string) => (name in o ? { [name]: o[name] } : {});

function readFindingInput(
  x: unknown,
  at: string,
  checks: ReadonlyMap<string, CheckDefinition>,
): FindingInput {
  const f = objectAt(x, at);
  const id = stringAt(f, 'checkId', at);
  const check = checks.get(id);
  if (!check) throw new StartStateError(`${at}.checkId ${id} is not a check of this game`);
  return {
    check,
    ...('discriminator' in f ? { discriminator: stringAt(f, 'discriminator', at) } : {}),
    ...('seats' in f ? { seats: numberList(f, 'seats', at) } : {}),
    ...('players' in f
      ? {
          players: arrayAt(f, 'players', at, LIST, (p, i) => {
            if (p !== null && typeof p !== 'string')
              throw new StartStateError(`${i} is ${describe(p)}, not text or null`);
            return p;
          }),
        }
      : {}),
    summary: stringAt(f, 'summary', at),
    ...('handled' in f ? { handled: booleanAt(f, 'handled', at) } : {}),
    ...('handledReading' in f ? { handledReading: stringAt(f, 'handledReading', at) } : {}),
    ...optionalAs(f, 'expected'),
    ...optionalAs(f, 'declared'),
    ...('extraCitations' in f ? { extraCitations: arrayAt(f, 'extraCitations', at, 100, readCitation) } : {}),
    ...('extraInterpretations' in f ? { extraInterpretations: textList(f, 'extraInterpretations', at) } : {}),
    evidence: arrayAt(f, 'evidence', at, LIST, readEvidence),
    ...('details' in f ? { details: objectAt(f.details, `${at}.details`) } : {}),
  };
}

function readFinding(x: unknown, at: string): Finding {
  const f = objectAt(x, at);
  return {
    findingId: stringAt(f, 'findingId', at),
    checkId: stringAt(f, 'checkId', at),
    title: stringAt(f, 'title', at),
    severity: oneOfAt(f, 'severity', at, ['critical', 'high', 'medium', 'low']),
    ruleSet: stringAt(f, 'ruleSet', at),
    casino: stringAt(f, 'casino', at),
    concessionaire: stringAt(f, 'concessionaire', at),
    tableId: stringAt(f, 'tableId', at),
    roundId: nullableStringAt(f, 'roundId', at),
    seats: numberList(f, 'seats', at),
    players: textList(f, 'players', at),
    summary: stringAt(f, 'summary', at),
    handled: booleanAt(f, 'handled', at),
    expected: f.expected ?? null,
    declared: f.declared ?? null,
    citations: arrayAt(f, 'citations', at, 100, (c, i) => {
      const o = objectAt(c, i);
      return { key: stringAt(o, 'key', i), reference: stringAt(o, 'reference', i) };
    }),
    interpretations: textList(f, 'interpretations', at),
    evidenceEventIds: textList(f, 'evidenceEventIds', at),
    eventTime: integerAt(f, 'eventTime', at),
    ...('details' in f ? { details: objectAt(f.details, `${at}.details`) } : {}),
  };
}
