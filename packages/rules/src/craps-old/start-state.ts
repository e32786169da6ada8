/**
 * The CRAPS table's start state (DerivedUnit.startState, form "craps-table" version 1): what a throw's derivation
 * reads from the table as the throw is made — the configuration, the point, the shooter and whether the dice must
 * pass, the bets on the layout (each as its CrapsBetPlaced, with the point it travels on), the dice out of play and
 * the findings about bets placed and shooters changed since the last throw. Written by CrapsTable with
 * ReplayOptions.startStates, read by CRAPS_MODULE.resumeTable; every field checked on reading.
 */
import type { CrapsBetPlaced, CrapsBetType, EventHeader, TableOpened } from '@table-audit/schemas/events';
import type { CheckDefinition, Evidence, FindingInput } from '../findings.ts';
import { StartStateError } from '../game.ts';
import {
  arrayAt,
  booleanAt,
  describe,
  findingInputJson,
  headerDiff,
  integerAt,
  jsonWith,
  LastJson,
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

/**
 * Writes start states' bodies. What repeats from throw to throw is written once: the TableOpened while it is the
 * table's, each bet while it is on the layout. A bet is a list (BET_FIELDS, then whether the law settles it and
 * the point it travels on); its header is its event id, time and sequence number, and the other fields that
 * differ from the TableOpened's header (null: none).
 */
export class CrapsStartWriter {
  private readonly config = new LastJson();
  private readonly bets = new WeakMap<CrapsBetPlaced, { base: EventHeader | null; json: string }>();

  /** the body's JSON text; null when a pending finding's check is not one of the game's */
  body(s: CrapsStartState, checks: ReadonlyMap<string, CheckDefinition>): string | null {
    const pending = [];
    for (const f of s.pending) {
      const json = findingInputJson(f, checks);
      if (!json) return null;
      pending.push(json);
    }
    const base = s.config?.header ?? null;
    let bets = '';
    for (const b of s.bets)
      bets += `${bets ? ',' : ''}[${this.bet(b.placed, base)},${b.kind === null ? 0 : 1},${b.point}]`;
    const { config, bets: _bets, ...rest } = s;
    return jsonWith({ bets: `[${bets}]`, config: this.config.text(config) }, { ...rest, pending });
  }

  /** a bet's fields (BET_FIELDS) as JSON, without the brackets */
  private bet(p: CrapsBetPlaced, base: EventHeader | null): string {
    const known = this.bets.get(p);
    if (known && known.base === base) return known.json;
    const h = p.header;
    let other = 'null';
    if (!base || OTHER_HEADER_FIELDS.some((k) => h[k] !== base[k])) {
      const { eventId: _id, eventTime: _time, sequence: _sequence, ...rest } = headerDiff(h, base);
      other = JSON.stringify(rest);
    }
    const q = JSON.stringify;
    const json = `${q(p.betId)},${q(p.playerId)},${q(p.betType)},${p.number},${p.amount},${q(p.behindBetId)},${q(p.extraBetName)},${q(h.eventId)},${h.eventTime},${h.sequence},${other}`;
    this.bets.set(p, { base, json });
    return json;
  }
}

/** The header fields a bet's list holds only where they differ from the TableOpened's. */
const OTHER_HEADER_FIELDS = [
  'receivedTime',
  'sourceKind',
  'sourceDevice',
  'casino',
  'concessionaire',
  'tableId',
  'roundId',
  'staffId',
] as const satisfies readonly (keyof EventHeader)[];

/** The fields of a bet on the layout in a start state, in order. */
export const BET_FIELDS = [
  'betId',
  'playerId',
  'betType',
  'number',
  'amount',
  'behindBetId',
  'extraBetName',
  'header.eventId',
  'header.eventTime',
  'header.sequence',
  'the other header fields that differ from the TableOpened header (or null)',
  'judged (1: the law settles it, 0: not)',
  'point',
] as const;

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

function readBet(x: unknown, at: string, base: EventHeader | null): CrapsStartBet {
  if (!Array.isArray(x) || x.length !== BET_FIELDS.length)
    throw new StartStateError(
      `${at} is ${describe(x)}, not a list of ${BET_FIELDS.length} (${BET_FIELDS.join(', ')})`,
    );
  const b = Object.fromEntries(BET_FIELDS.map((name, i) => [name, x[i]]));
  const other = b[BET_FIELDS[10]] === null ? {} : objectAt(b[BET_FIELDS[10]], `${at}[10]`);
  const header = readHeader(
    {
      ...other,
      eventId: b['header.eventId'],
      eventTime: b['header.eventTime'],
      sequence: b['header.sequence'],
    },
    `${at} header`,
    base,
  );
  const placed: CrapsBetPlaced = {
    header,
    betId: stringAt(b, 'betId', at),
    playerId: stringAt(b, 'playerId', at),
    betType: oneOfAt(b, 'betType', at, BET_TYPES),
    number: nullableIntegerAt(b, 'number', at, 0, 12),
    amount: integerAt(b, 'amount', at),
    behindBetId: nullableStringAt(b, 'behindBetId', at),
    extraBetName: nullableStringAt(b, 'extraBetName', at),
  };
  const judged = integerAt(b, BET_FIELDS[11], at, 0, 1) === 1;
  if (judged && !(CRAPS_BET_KINDS as readonly string[]).includes(placed.betType))
    throw new StartStateError(
      `${at}: a ${placed.betType} bet is not one the law settles, yet it is marked judged`,
    );
  return { placed, kind: judged ? (placed.betType as CrapsBetKind) : null, point: POINTS(b, 'point', at) };
}

/** Reads a start state's body, every field checked against what the fold holds. */
export function readCrapsStartBody(
  body: unknown,
  tableId: string,
  checks: ReadonlyMap<string, CheckDefinition>,
): CrapsStartState {
  const o = objectAt(body, P);
  const config = o.config === null ? null : readTableOpened(o.config, `${P}.config`, 'CRAPS', tableId);
  return {
    alternatives: arrayAt(o, 'alternatives', P, 100, (x, at) => stringAt({ x }, 'x', at)),
    config,
    point: POINTS(o, 'point', P),
    shooter: nullableStringAt(o, 'shooter', P),
    sevenOut: o.sevenOut === null ? null : readEvidence(o.sevenOut, `${P}.sevenOut`),
    sevenOutByCraps: booleanAt(o, 'sevenOutByCraps', P),
    shooterThrows: integerAt(o, 'shooterThrows', P, 0),
    bets: arrayAt(o, 'bets', P, LIST, (x, at) => readBet(x, at, config?.header ?? null)),
    diceOut: arrayAt(o, 'diceOut', P, 100, (x, at) => {
      if (!Array.isArray(x) || x.length !== 2)
        throw new StartStateError(`${at} is ${describe(x)}, not a pair [die id, evidence]`);
      return [stringAt({ id: x[0] }, 'id', at), readEvidence(x[1], `${at}[1]`)] as const;
    }),
    pending: arrayAt(o, 'pending', P, LIST, (x, at) => readFindingInput(x, at, checks)),
  };
}
