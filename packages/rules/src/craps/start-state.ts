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
  writeStartState,
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
 * A bet on the layout as the fold holds it, with the writer's note of its entry in the layout (`entry`: the text
 * last written for it, with the point and the TableOpened header it was written for; null until first written).
 * The note lives on the fold's own bet, so that a throw's capture reads it with no lookup and a bet's text is made
 * once while it stays on the layout (again only when its point moves or the table is opened again).
 */
export interface CrapsLayoutBet extends CrapsStartBet {
  entry: CrapsLayoutEntry | null;
}

export interface CrapsLayoutEntry {
  readonly base: EventHeader | null;
  readonly point: number | null;
  /** the bet's fields (BET_FIELDS but the last two) as JSON, without the brackets */
  readonly fields: string;
  /** the whole list: `[fields,judged,point]` */
  readonly text: string;
}

/**
 * What the fold takes as a throw is made (CrapsStartState, with the layout already as its JSON text: the bets and
 * their points change as the throw is played, their text does not). The other parts are not changed after they
 * are taken (the fold replaces them, it does not change them), so they are written only when the throw is returned.
 */
export interface CrapsStartTaken extends Omit<CrapsStartState, 'bets'> {
  /** the layout as the JSON text of the body's `bets` (CrapsStartWriter.layout) */
  readonly layout: string;
}

/**
 * Writes start states. What repeats from throw to throw is written once: the envelope's head while the table is
 * the same, the TableOpened while it is the table's, each bet while it is on the layout (its entry noted on it).
 * A bet is a list (BET_FIELDS, then whether the law settles it and the point it travels on); its header is its
 * event id, time and sequence number, and the other fields that differ from the TableOpened's header (null: none).
 * The text is exactly what writeStartState and jsonWith write for the same state (JSON.stringify's text: the
 * fields in the same order, strings quoted alike); a state with a value the direct path does not write (not text,
 * null, a whole number or true/false where the fold keeps one) is written by them.
 */
export class CrapsStartWriter {
  private readonly config = new LastJson();
  private readonly alternatives = new LastJson<readonly string[]>();
  /** `{"form":…,"v":…,"game":…,"tableId":…,"roundId":` for the table */
  private readonly head: string;

  constructor(private readonly tableId: string) {
    const envelope = JSON.stringify({ ...FORM_FIELDS, tableId });
    this.head = `${envelope.slice(0, -1)},"roundId":`;
  }

  /** The layout as the JSON text of the body's `bets`, in the order given (the bets' entries noted on them). */
  layout(bets: Iterable<CrapsLayoutBet>, base: EventHeader | null): string {
    let out = '';
    let first = true;
    for (const b of bets) {
      let e = b.entry;
      if (e === null || e.base !== base || e.point !== b.point) {
        const fields = e !== null && e.base === base ? e.fields : betFields(b.placed, base);
        e = b.entry = {
          base,
          point: b.point,
          fields,
          text: `[${fields},${b.kind === null ? 0 : 1},${b.point}]`,
        };
      }
      if (first) {
        out = e.text;
        first = false;
      } else out += `,${e.text}`;
    }
    return `[${out}]`;
  }

  /**
   * A throw's start state (writeStartState's envelope, the body as below); null when a pending finding's check is
   * not one of the game's.
   */
  text(
    roundId: string,
    before: string,
    s: CrapsStartTaken,
    checks: ReadonlyMap<string, CheckDefinition>,
  ): string | null {
    const body = this.body(s, checks);
    if (body === null) return null;
    if (typeof roundId !== 'string' || typeof before !== 'string')
      return writeStartState(CRAPS_START_FORM, { tableId: this.tableId, roundId, before }, body);
    return `${this.head}${quote(roundId)},"before":${quote(before)},"body":${body}}`;
  }

  /** the body's JSON text (jsonWith's: bets and config first); null when a pending finding's check is not one of the game's */
  body(s: CrapsStartTaken, checks: ReadonlyMap<string, CheckDefinition>): string | null {
    const found = [];
    for (const f of s.pending) {
      const json = findingInputJson(f, checks);
      if (!json) return null;
      found.push(json);
    }
    const config = this.config.text(s.config);
    if (
      (s.point !== null && !Number.isSafeInteger(s.point)) ||
      (s.shooter !== null && typeof s.shooter !== 'string') ||
      typeof s.sevenOutByCraps !== 'boolean' ||
      !Number.isSafeInteger(s.shooterThrows) ||
      typeof s.sevenOut !== 'object' ||
      !Array.isArray(s.alternatives) ||
      !Array.isArray(s.diceOut)
    ) {
      const { config: _config, layout, ...rest } = s;
      return jsonWith({ bets: layout, config }, { ...rest, pending: found });
    }
    return `{"bets":${s.layout},"config":${config},"alternatives":${this.alternatives.text(s.alternatives)},"point":${s.point},"shooter":${s.shooter === null ? 'null' : quote(s.shooter)},"sevenOut":${s.sevenOut === null ? 'null' : JSON.stringify(s.sevenOut)},"sevenOutByCraps":${s.sevenOutByCraps},"shooterThrows":${s.shooterThrows},"diceOut":${s.diceOut.length ? JSON.stringify(s.diceOut) : '[]'},"pending":${found.length ? JSON.stringify(found) : '[]'}}`;
  }
}

const { form: _form, v: _v, game: _game } = CRAPS_START_FORM;
/** the envelope's first fields, in writeStartState's order */
const FORM_FIELDS = { form: _form, v: _v, game: _game };

/** text JSON.stringify writes as it is between quotes: no quote, backslash, control character or surrogate */
// eslint-disable-next-line no-control-regex -- the control characters are what JSON.stringify escapes
const PLAIN = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/;
/** JSON.stringify(value) (as a template writes it), without the call for null and for text it writes as it is */
const quote = (value: unknown): string =>
  value === null
    ? 'null'
    : typeof value === 'string' && PLAIN.test(value)
      ? `"${value}"`
      : `${JSON.stringify(value)}`;

/**
 * A bet's fields (BET_FIELDS but the last two) as JSON, without the brackets; the header fields other than its
 * event id, time and sequence number (receivedTime, sourceKind, sourceDevice, casino, concessionaire, tableId,
 * roundId, staffId) only where they differ from the TableOpened's.
 */
function betFields(p: CrapsBetPlaced, base: EventHeader | null): string {
  const h = p.header;
  let other = 'null';
  if (
    base === null ||
    h.receivedTime !== base.receivedTime ||
    h.sourceKind !== base.sourceKind ||
    h.sourceDevice !== base.sourceDevice ||
    h.casino !== base.casino ||
    h.concessionaire !== base.concessionaire ||
    h.tableId !== base.tableId ||
    h.roundId !== base.roundId ||
    h.staffId !== base.staffId
  ) {
    const { eventId: _id, eventTime: _time, sequence: _sequence, ...rest } = headerDiff(h, base);
    other = JSON.stringify(rest);
  }
  const q = quote;
  return `${q(p.betId)},${q(p.playerId)},${q(p.betType)},${p.number},${p.amount},${q(p.behindBetId)},${q(p.extraBetName)},${q(h.eventId)},${h.eventTime},${h.sequence},${other}`;
}

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
