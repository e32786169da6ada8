/**
 * The F3CP table's start state (DerivedUnit.startState, form "f3cp-table" version 1): what a round's derivation
 * reads from the table as the round begins, and nothing of earlier rounds' events. Both rule sets (89/2025 and
 * 78/2008) share the table fold, so they share this form. Written by F3cpTable with ReplayOptions.startStates,
 * read by F3CP_MODULE.resumeTable; every field checked on reading, each refusal a StartStateError naming it.
 */
import type { TableOpened } from '@table-audit/schemas/events';
import type { CheckDefinition, Evidence, Finding, FindingContext, FindingInput } from '../findings.ts';
import { StartStateError } from '../game.ts';
import {
  arrayAt,
  booleanAt,
  describe,
  findingInputJson,
  integerAt,
  nullableIntegerAt,
  objectAt,
  oneOfAt,
  readContext,
  readEvidence,
  readFinding,
  readFindingInput,
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
  /** seat → player (written by the caller, as [seat, player] pairs, once for the rounds that share it) */
  readonly occupants: ReadonlyMap<number, string>;
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

/**
 * The JSON body of a start state but its `config`; null when a pending finding's check is not one of the game's (not
 * resumable).
 */
export function f3cpStartBody(
  s: F3cpStartState,
  checks: ReadonlyMap<string, CheckDefinition>,
): object | null {
  const pending = [];
  for (const f of s.pendingForNextRound) {
    const json = findingInputJson(f, checks);
    if (!json) return null;
    pending.push(json);
  }
  // the config is written by the caller, once for the rounds that share it
  return {
    alternatives: s.alternatives,
    sequences: s.sequences,
    tableClosed: s.tableClosed,
    dealingMode: s.dealingMode,
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
    occupants: new Map(
      arrayAt(o, 'occupants', P, 100, (x, at) =>
        pair(
          x,
          at,
          (v, i) => integerAt(v, '0', i, 0, 100),
          (v, i) => stringAt(v, '1', i),
        ),
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
