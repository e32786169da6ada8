/**
 * The CRAPS table's start state (DerivedUnit.startState, form "craps-table" version 1): what a throw's derivation
 * reads from the table as the throw is made — the configuration, the point, the shooter and whether the dice must
 * pass, the bets on the layout (each as its CrapsBetPlaced, with the point it travels on), the dice out of play and
 * the findings about bets placed and shooters changed since the last throw. Written by CrapsTable with
 * ReplayOptions.startStates, read by CRAPS_MODULE.resumeTable; every field checked on reading.
 */
import type { CrapsBetPlaced, CrapsBetType, TableOpened } from '@table-audit/schemas/events';
import type { CheckDefinition, Evidence, FindingInput } from '../findings.ts';
import { StartStateError } from '../game.ts';
import {
  arrayAt,
  booleanAt,
  describe,
  findingInputJson,
  integerAt,
  nullableIntegerAt,
  nullableStringAt,
  objectAt,
  oneOfAt,
  readEvidence,
  readFindingInput,
  readHeader,
  readTableOpened,
  stringAt,
} from '../start-state.ts';
import { CRAPS_BET_KINDS, POINT_NUMBERS, type CrapsBetKind } from './rule-set.ts';

export const CRAPS_START_FORM = { form: 'craps-table', v: 1, game: 'CRAPS' } as const;

export interface CrapsStartBet {
  readonly placed: CrapsBetPlaced;
  readonly kind: CrapsBetKind | null;
  readonly point: number | null;
}

/** The table's state as a throw is made (the fold's fields of the same names). */
export interface CrapsStartState {
  /** the alternative readings the fold applied, sorted: a resumed fold must apply the same (C1 moves the dice) */
  readonly alternatives: readonly string[];
  readonly config: TableOpened | null;
  readonly point: number | null;
  readonly shooter: string | null;
  readonly sevenOut: Evidence | null;
  readonly sevenOutByCraps: boolean;
  readonly shooterThrows: number;
  /** the layout, in the order the bets were placed */
  readonly bets: readonly CrapsStartBet[];
  readonly diceOut: readonly (readonly [string, Evidence])[];
  readonly pending: readonly FindingInput[];
}

/** The JSON body of a start state; null when a pending finding's check is not one of the game's. */
export function crapsStartBody(
  s: CrapsStartState,
  checks: ReadonlyMap<string, CheckDefinition>,
): object | null {
  const pending = [];
  for (const f of s.pending) {
    const json = findingInputJson(f, checks);
    if (!json) return null;
    pending.push(json);
  }
  return { ...s, pending };
}

const P = "the start state's body";
const LIST = 10_000;
const BET_TYPES: readonly CrapsBetType[] = [...CRAPS_BET_KINDS, 'EXTRA', 'UNKNOWN'];
/** a point: null (off) or a point number (4, 5, 6, 8, 9, 10) */
function POINTS(o: Record<string, unknown>, name: string, at: string): number | null {
  const p = nullableIntegerAt(o, name, at, 4, 10);
  if (p !== null && !POINT_NUMBERS.includes(p))
    throw new StartStateError(
      `${at}.${name} is ${p}, not a point number (${POINT_NUMBERS.join(', ')}) or null`,
    );
  return p;
}

function readBetPlaced(x: unknown, at: string): CrapsBetPlaced {
  const b = objectAt(x, at);
  return {
    header: readHeader(b.header, `${at}.header`),
    betId: stringAt(b, 'betId', at),
    playerId: stringAt(b, 'playerId', at),
    betType: oneOfAt(b, 'betType', at, BET_TYPES),
    number: nullableIntegerAt(b, 'number', at, 0, 12),
    amount: integerAt(b, 'amount', at),
    behindBetId: nullableStringAt(b, 'behindBetId', at),
    extraBetName: nullableStringAt(b, 'extraBetName', at),
  };
}

/** Reads a start state's body, every field checked against what the fold holds. */
export function readCrapsStartBody(
  body: unknown,
  tableId: string,
  checks: ReadonlyMap<string, CheckDefinition>,
): CrapsStartState {
  const o = objectAt(body, P);
  return {
    alternatives: arrayAt(o, 'alternatives', P, 100, (x, at) => stringAt({ x }, 'x', at)),
    config: o.config === null ? null : readTableOpened(o.config, `${P}.config`, 'CRAPS', tableId),
    point: POINTS(o, 'point', P),
    shooter: nullableStringAt(o, 'shooter', P),
    sevenOut: o.sevenOut === null ? null : readEvidence(o.sevenOut, `${P}.sevenOut`),
    sevenOutByCraps: booleanAt(o, 'sevenOutByCraps', P),
    shooterThrows: integerAt(o, 'shooterThrows', P, 0),
    bets: arrayAt(o, 'bets', P, LIST, (x, at) => {
      const b = objectAt(x, at);
      return {
        placed: readBetPlaced(b.placed, `${at}.placed`),
        kind: b.kind === null ? null : oneOfAt(b, 'kind', at, CRAPS_BET_KINDS),
        point: POINTS(b, 'point', at),
      };
    }),
    diceOut: arrayAt(o, 'diceOut', P, 100, (x, at) => {
      if (!Array.isArray(x) || x.length !== 2)
        throw new StartStateError(`${at} is ${describe(x)}, not a pair [die id, evidence]`);
      return [stringAt({ id: x[0] }, 'id', at), readEvidence(x[1], `${at}[1]`)] as const;
    }),
    pending: arrayAt(o, 'pending', P, LIST, (x, at) => readFindingInput(x, at, checks)),
  };
}
