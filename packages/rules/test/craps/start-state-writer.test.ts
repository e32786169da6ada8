import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CrapsBetPlaced, EventHeader, TableOpened } from '@table-audit/schemas/events';
import { CRAPS_CHECKS } from '../../src/craps/checks/index.ts';
import { CRAPS_BET_KINDS, type CrapsBetKind } from '../../src/craps/rule-set.ts';
import {
  CRAPS_START_FORM,
  CrapsStartWriter,
  readCrapsStartBody,
  type CrapsLayoutBet,
  type CrapsStartState,
} from '../../src/craps/start-state.ts';
import type { CheckDefinition, FindingInput } from '../../src/findings.ts';
import { seededRng, type Rng } from '../../src/rng.ts';
import {
  findingInputJson,
  headerDiff,
  jsonWith,
  readStartState,
  writeStartState,
} from '../../src/start-state.ts';

/**
 * The CRAPS start-state writer against the writer it replaced (kept here, as it was at 3882605, as the oracle):
 * for states of random tables — text with quotes, backslashes, control characters, lone and paired surrogates,
 * line and paragraph separators; bets whose headers differ from the TableOpened's; the point moving under a bet
 * kept on the layout; the table opened again with another header; pending findings, dice out, a seven-out — the
 * text written is the same, character for character, and it reads back to the state written. The fixed sessions
 * of start-state-digest.test.ts prove the same on whole folds; this proves it on values the simulator never makes.
 */

const CHECKS: ReadonlyMap<string, CheckDefinition> = new Map(
  Object.values(CRAPS_CHECKS).map((c) => [c.id, c]),
);

// --- the writer as it was (3882605), the oracle ------------------------------------------------------------------

const OLD_OTHER_HEADER_FIELDS = [
  'receivedTime',
  'sourceKind',
  'sourceDevice',
  'casino',
  'concessionaire',
  'tableId',
  'roundId',
  'staffId',
] as const satisfies readonly (keyof EventHeader)[];

function oldBet(p: CrapsBetPlaced, base: EventHeader | null): string {
  const h = p.header;
  let other = 'null';
  if (!base || OLD_OTHER_HEADER_FIELDS.some((k) => h[k] !== base[k])) {
    const { eventId: _id, eventTime: _time, sequence: _sequence, ...rest } = headerDiff(h, base);
    other = JSON.stringify(rest);
  }
  const q = JSON.stringify;
  return `${q(p.betId)},${q(p.playerId)},${q(p.betType)},${p.number},${p.amount},${q(p.behindBetId)},${q(p.extraBetName)},${q(h.eventId)},${h.eventTime},${h.sequence},${other}`;
}

function oldText(tableId: string, roundId: string, before: string, s: CrapsStartState): string | null {
  const pending = [];
  for (const f of s.pending) {
    const json = findingInputJson(f, CHECKS);
    if (!json) return null;
    pending.push(json);
  }
  const base = s.config?.header ?? null;
  let bets = '';
  for (const b of s.bets)
    bets += `${bets ? ',' : ''}[${oldBet(b.placed, base)},${b.kind === null ? 0 : 1},${b.point}]`;
  const { config, bets: _bets, ...rest } = s;
  const body = jsonWith({ bets: `[${bets}]`, config: JSON.stringify(config) }, { ...rest, pending });
  return writeStartState(CRAPS_START_FORM, { tableId, roundId, before }, body);
}

// --- random tables -------------------------------------------------------------------------------------------------

const ODD = [
  '"',
  '\\',
  '\n',
  '\u0000',
  '\u001f',
  '\u007f',
  '\u2028',
  '\u2029',
  '\ud800',
  '\udfff',
  '😀',
  'é',
  '/',
];
const text = (r: Rng, prefix: string): string => {
  let s = prefix;
  const n = Math.floor(r.next() * 4);
  for (let i = 0; i < n; i++)
    s += r.next() < 0.5 ? ODD[Math.floor(r.next() * ODD.length)] : String.fromCharCode(97 + i);
  return s;
};
const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r.next() * xs.length)]!;

function header(r: Rng, tableId: string, n: number): EventHeader {
  return {
    eventId: text(r, `E${n}`),
    eventTime: 1_764_561_601_000 + n * 1_000,
    receivedTime: null,
    sourceKind: 'TABLE_CONTROLLER',
    sourceDevice: 'TC-1',
    sequence: n,
    casino: text(r, 'Casino '),
    concessionaire: 'SJM',
    tableId,
    roundId: null,
    staffId: 'CR-1',
  };
}

function opened(r: Rng, tableId: string, n: number): TableOpened {
  return {
    header: header(r, tableId, n),
    game: 'CRAPS',
    seats: 0,
    betLimits: [],
    shuffleMode: 'MANUAL',
    jackpot: null,
    rounding: { unitAvos: 1, mode: 'DOWN' },
    currency: 'MOP',
    craps: {
      minimumBet: 5_000,
      maximumBet: 1_000_000,
      field12PaysToOne: 2,
      dieIds: ['D1', 'D2'],
      authorisedExtraBets: [text(r, 'Fire ')],
    },
    thirteenCards: null,
  };
}

function placed(r: Rng, base: EventHeader, n: number): CrapsBetPlaced {
  const h: EventHeader = {
    ...base,
    eventId: text(r, `B${n}`),
    sequence: 100 + n,
    eventTime: base.eventTime + n,
  };
  const other = r.next();
  if (other < 0.1) h.sourceDevice = text(r, 'TC-');
  else if (other < 0.2) h.receivedTime = h.eventTime + 40;
  else if (other < 0.3) h.staffId = null;
  else if (other < 0.35) h.sourceKind = 'SURVEILLANCE';
  const betType = pick(r, [...CRAPS_BET_KINDS, 'EXTRA', 'UNKNOWN'] as const);
  return {
    header: h,
    betId: text(r, `bet-${n}`),
    playerId: text(r, 'P'),
    betType,
    number: betType === 'HARD_WAY' ? 4 : null,
    amount: 5_000 * (1 + Math.floor(r.next() * 6)),
    behindBetId: r.next() < 0.2 ? text(r, 'bet-') : null,
    extraBetName: betType === 'EXTRA' ? text(r, 'Lucky ') : null,
  };
}

const POINTS = [null, 4, 5, 6, 8, 9, 10];

/** a bet on the layout whose point the test moves, as the fold does */
interface Bet extends CrapsLayoutBet {
  point: number | null;
}

function finding(r: Rng, n: number): FindingInput {
  return {
    check: pick(r, Object.values(CRAPS_CHECKS)),
    discriminator: text(r, `d${n}`),
    summary: text(r, 'a finding '),
    ...(r.next() < 0.5 ? { expected: { amount: n, note: text(r, 'x') } } : {}),
    evidence: [{ eventId: text(r, 'E'), eventTime: n }],
  };
}

describe('the CRAPS start-state writer', () => {
  it('writes, for 400 throws of 20 random tables, the text the writer it replaced wrote, which reads back', () => {
    const r = seededRng(53);
    let written = 0;
    for (let table = 0; table < 20; table++) {
      const tableId = text(r, `T${table}`);
      const writer = new CrapsStartWriter(tableId);
      let config: TableOpened | null = r.next() < 0.1 ? null : opened(r, tableId, 1);
      const layout: Bet[] = [];
      let n = 0;
      for (let t = 0; t < 20; t++) {
        // the table between two throws: bets off and on, points moved, now and then opened again
        for (let i = layout.length - 1; i >= 0; i--) if (r.next() < 0.3) layout.splice(i, 1);
        for (const b of layout) if (r.next() < 0.2) b.point = pick(r, POINTS);
        for (let i = Math.floor(r.next() * 5); i > 0; i--) {
          const p = placed(r, config?.header ?? header(r, tableId, 0), ++n);
          const judged = (CRAPS_BET_KINDS as readonly string[]).includes(p.betType) && r.next() < 0.9;
          layout.push({
            placed: p,
            kind: judged ? (p.betType as CrapsBetKind) : null,
            point: pick(r, POINTS),
            entry: null,
          });
        }
        if (r.next() < 0.05) config = opened(r, tableId, 2 + t);
        const state: CrapsStartState = {
          alternatives: pick(r, [[], ['C1'], ['C2', 'C5']]),
          config,
          point: pick(r, POINTS),
          shooter: r.next() < 0.1 ? null : text(r, 'P'),
          sevenOut: r.next() < 0.1 ? { eventId: text(r, 'E'), eventTime: t } : null,
          sevenOutByCraps: r.next() < 0.05,
          shooterThrows: Math.floor(r.next() * 9),
          bets: layout.map((b) => ({ placed: b.placed, kind: b.kind, point: b.point })),
          diceOut: r.next() < 0.1 ? [[text(r, 'D'), { eventId: text(r, 'E'), eventTime: t }]] : [],
          pending: r.next() < 0.2 ? [finding(r, t), finding(r, t + 1)] : [],
        };
        const roundId = text(r, `${tableId}/T-${t}`);
        const before = text(r, 'E');
        const expected = oldText(tableId, roundId, before, state);
        const { bets: _bets, ...rest } = state;
        const got = writer.text(
          roundId,
          before,
          { ...rest, layout: writer.layout(layout, config?.header ?? null) },
          CHECKS,
        );
        assert.equal(got, expected, `table ${table}, throw ${t}`);
        const back = readStartState(got, CRAPS_START_FORM, tableId);
        assert.equal(back.roundId, roundId);
        assert.equal(back.before, before);
        const body = readCrapsStartBody(back.body, tableId, CHECKS);
        assert.deepEqual(
          body.bets.map((b) => [b.placed, b.kind, b.point]),
          state.bets.map((b) => [b.placed, b.kind, b.point]),
        );
        written++;
      }
    }
    assert.equal(written, 400);
  });

  it('writes a state with a value its direct path does not write (not the type the fold keeps) as the old one did', () => {
    const writer = new CrapsStartWriter('T');
    const odd = {
      alternatives: [],
      config: null,
      point: Number.NaN,
      shooter: undefined as unknown as string,
      sevenOut: null,
      sevenOutByCraps: false,
      shooterThrows: 1.5,
      bets: [],
      diceOut: [],
      pending: [],
    } satisfies CrapsStartState;
    const { bets: _bets, ...rest } = odd;
    assert.equal(
      writer.text('T/1', 'E1', { ...rest, layout: writer.layout([], null) }, CHECKS),
      oldText('T', 'T/1', 'E1', odd),
    );
  });

  it("writes no state when a pending finding names a check that is not one of the game's", () => {
    const writer = new CrapsStartWriter('T');
    const foreign: FindingInput = { check: { ...CRAPS_CHECKS.payoutMismatch }, summary: 'x', evidence: [] };
    const state = {
      alternatives: [],
      config: null,
      point: null,
      shooter: null,
      sevenOut: null,
      sevenOutByCraps: false,
      shooterThrows: 0,
      layout: '[]',
      diceOut: [],
      pending: [foreign],
    };
    assert.equal(writer.text('T/1', 'E1', state, CHECKS), null);
  });
});
