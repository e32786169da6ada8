import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TableEvent } from '@table-audit/schemas/events';
// the simulator plays sessions of every game with a simulation part (test only: it depends on this package)
import { simulateSession } from '../../../../services/simulator/src/session.ts';
import { F3CP_MODULE } from '../../src/f3cp/module.ts';
import { DEFAULT_REPLAY_OPTIONS, StartStateError, type DerivedUnit } from '../../src/game.ts';
import { MAX_START_STATE_BYTES } from '../../src/start-state.ts';
import { asStored, proveResume, type ResumeProof } from '../resume-property.ts';

/**
 * Resuming the F3CP table fold at a round, under the 2025 rules (89/2025) and the 2008 rules (78/2008, 97/2008),
 * which share the fold: for every round of simulated sessions with every fault kind (events delivered out of
 * order, late events of closed rounds, a table re-opened, shuffler failures, carried-over Progressive bets among
 * them), handled irregularities and a doubling bettor, under the register's readings and alternative ones, the
 * fold resumed from the round's start state derives and explains it as the full fold did (conduct findings of
 * art. 18.º excepted). Damaged start states are refused with what is wrong.
 */
// a start state as JSON, to read or damage in one place
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

const ERA_2025 = Date.parse('2025-12-01T04:00:00Z');
const ERA_2008 = Date.parse('2019-06-01T04:00:00Z');

const session = (seed: number, start: number) =>
  simulateSession({
    seed,
    start,
    tables: 4,
    roundsPerTable: 40,
    faultRate: 0.35,
    handledRate: 0.15,
    bettingSystemTables: start === ERA_2008 ? 0 : 1,
    tableIdPrefix: start === ERA_2008 ? '2019-' : '',
  });

function proveSession(
  s: ReturnType<typeof session>,
  alternatives: readonly string[],
  stored = false,
): ResumeProof[] {
  return s.tables.map((t) =>
    proveResume(F3CP_MODULE, t.tableId, stored ? asStored(t.events) : t.events, { alternatives }),
  );
}

const total = (proofs: ResumeProof[]) => ({
  units: proofs.reduce((n, p) => n + p.units, 0),
  resumed: proofs.reduce((n, p) => n + p.resumed, 0),
  without: proofs.flatMap((p) => p.withoutState),
  maxBytes: Math.max(...proofs.flatMap((p) => p.bytes)),
});

describe('resuming the F3CP table fold at a round', () => {
  // seed 1 under the register's readings and alternative ones, seed 2 under the register's (each test well under 20 s)
  for (const [era, start, alternative] of [
    ['2025', ERA_2025, ['J4', 'J15']],
    ['2008', ERA_2008, ['H1', 'J4']],
  ] as const)
    for (const [seed, readings] of [
      [1, [[], alternative]],
      [2, [[]]],
    ] as const)
      it(`${era} rules, seed ${seed}, readings ${readings.map((r) => `[${r.join(', ')}]`).join(' ')}: every round resumed from its start state derives and explains as the full fold did`, () => {
        const s = session(seed, start);
        for (const alternatives of readings) {
          const t = total(proveSession(s, alternatives));
          assert.deepEqual(t.without, [], 'every round has its start state');
          assert.equal(t.resumed, t.units);
          assert.ok(t.maxBytes < 8_192, `start states of at most ${t.maxBytes} bytes`);
        }
      });

  it('2025 rules, seed 3, the events as the store reads them back (keys sorted): every round resumed from its start state derives and explains as the full fold did', () => {
    const t = total(proveSession(session(3, ERA_2025), [], true));
    assert.deepEqual(t.without, [], 'every round has its start state');
    assert.equal(t.resumed, t.units);
  });

  it('late events of earlier rounds arriving during a round: its start state carries those rounds, and only those', () => {
    const t = session(5, ERA_2025).tables[2]!;
    const events = [...t.events];
    const rounds = [
      ...new Set(events.filter((e) => e.type === 'RoundStarted').map((e) => e.data.header.roundId!)),
    ];
    const copy = (e: TableEvent, id: string) =>
      ({ ...e, data: { ...e.data, header: { ...e.data.header, eventId: id } } }) as TableEvent;
    const lastOf = (r: string) => [...events].reverse().find((e) => e.data.header.roundId === r)!;
    // during round 12: a late event of round 2 and one of round 10; during round 20, a late observation of round 19
    const insertAfterStart = (r: string, late: TableEvent[]) =>
      events.splice(
        events.findIndex((e) => e.type === 'RoundStarted' && e.data.header.roundId === r) + 2,
        0,
        ...late,
      );
    insertAfterStart(rounds[11]!, [copy(lastOf(rounds[1]!), 'late-1'), copy(lastOf(rounds[9]!), 'late-2')]);
    insertAfterStart(rounds[19]!, [copy(lastOf(rounds[18]!), 'late-3')]);
    const proof = proveResume(F3CP_MODULE, t.tableId, events);
    assert.equal(proof.resumed, proof.units);
    const fold = F3CP_MODULE.newTable(t.tableId, { ...DEFAULT_REPLAY_OPTIONS, startStates: true });
    const units = events.flatMap((e) => fold.apply(e));
    const carried = (r: string) =>
      (JSON.parse(units.find((u) => u.roundId === r)!.startState!) as Json).body.closed.map(
        (c: unknown[]) => c[0],
      );
    assert.deepEqual(carried(rounds[11]!), [rounds[1], rounds[9]]);
    assert.deepEqual(carried(rounds[19]!), [rounds[18]]);
    assert.deepEqual(carried(rounds[12]!), []);
    // the late events' findings are reported with the round they arrived in, in the full fold and the resumed one
    assert.ok(units.find((u) => u.roundId === rounds[11])!.findings.some((f) => f.roundId === rounds[1]));
  });

  it("a gap in a source's numbering at a round's first event: judged alike after resuming (each source's last number is carried)", () => {
    const t = session(7, ERA_2025).tables[0]!;
    // the shuffle events from a shuffler of their own, numbered by it: the table controller's last number before a
    // round is then not the newest source's
    const next = new Map<string, number>();
    const events = t.events.map((e) => {
      const device = e.type.startsWith('Shuffle') ? 'SH-1' : e.data.header.sourceDevice;
      const sequence = (next.get(device) ?? 0) + 1;
      next.set(device, sequence);
      return {
        ...e,
        data: { ...e.data, header: { ...e.data.header, sourceDevice: device, sequence } },
      } as TableEvent;
    });
    const starts = events.filter((e) => e.type === 'RoundStarted');
    for (const k of [5, 9, 14]) {
      const i = events.indexOf(starts[k]!);
      assert.equal(events[i - 1]!.data.header.sourceDevice, 'SH-1');
      const e = events[i]!;
      events[i] = {
        ...e,
        data: { ...e.data, header: { ...e.data.header, sequence: e.data.header.sequence + 5 } },
      } as TableEvent;
    }
    const proof = proveResume(F3CP_MODULE, t.tableId, events);
    assert.equal(proof.resumed, proof.units);
  });

  it('a table closed and opened again with other settings between two rounds', () => {
    const t = session(6, ERA_2025).tables[1]!;
    const events = [...t.events];
    const opened = events.find((e) => e.type === 'TableOpened')! as Extract<
      TableEvent,
      { type: 'TableOpened' }
    >;
    const closed = events.find((e) => e.type === 'TableClosed')!;
    const at = events.findIndex((e, i) => i > 100 && e.type === 'RoundStarted');
    const h = (e: TableEvent, id: string) => ({ ...e.data.header, eventId: id, roundId: null });
    events.splice(
      at,
      0,
      { type: 'TableClosed', data: { ...closed.data, header: h(closed, 'again-closed') } } as TableEvent,
      {
        type: 'TableOpened',
        data: { ...opened.data, header: h(opened, 'again-opened'), shuffleMode: 'MANUAL', jackpot: null },
      },
    );
    const proof = proveResume(F3CP_MODULE, t.tableId, events);
    assert.equal(proof.resumed, proof.units);
  });

  it('a round named first by a table event (a seat taken for it), the table re-opened before its RoundStarted', () => {
    const t = session(8, ERA_2025).tables[0]!;
    const events = [...t.events];
    const opened = events.find((e) => e.type === 'TableOpened')!;
    const start = events.filter((e) => e.type === 'RoundStarted')[12]!;
    const rid = start.data.header.roundId;
    const header = (id: string, roundId: string | null) => ({ ...start.data.header, eventId: id, roundId });
    events.splice(
      events.indexOf(start),
      0,
      { type: 'SeatOccupied', data: { header: header('seat-for-13', rid), seat: 7, playerId: 'P-LATE' } },
      { ...opened, data: { ...opened.data, header: header('opened-again', null) } } as TableEvent,
    );
    const proof = proveResume(F3CP_MODULE, t.tableId, events);
    assert.equal(proof.resumed, proof.units);
    const fold = F3CP_MODULE.newTable(t.tableId, DEFAULT_REPLAY_OPTIONS);
    const unit = events.flatMap((e) => fold.apply(e)).find((u) => u.roundId === rid)!;
    assert.ok(
      unit.findings.some((f) => f.evidenceEventIds.includes('opened-again')),
      'the re-opening is reported with the round',
    );
  });

  it('the lean bulk replay records the same start states as the full one', () => {
    const t = session(3, ERA_2025).tables[1]!;
    const states = (lean: boolean) => {
      const fold = F3CP_MODULE.newTable(t.tableId, { ...DEFAULT_REPLAY_OPTIONS, lean, startStates: true });
      const units: DerivedUnit[] = t.events.flatMap((e) => fold.apply(e));
      units.push(...fold.finish().units);
      return units.map((u) => u.startState);
    };
    const lean = states(true);
    assert.deepEqual(lean, states(false));
    assert.ok(lean.filter((x) => x).length > 30);
  });
});

describe('an F3CP start state the fold cannot resume from', () => {
  const t = session(4, ERA_2025).tables[0]!;
  const fold = F3CP_MODULE.newTable(t.tableId, { ...DEFAULT_REPLAY_OPTIONS, startStates: true });
  const units = t.events.flatMap((e: TableEvent) => fold.apply(e));
  const state = units[5]!.startState!;
  const refused = (text: string, pattern: RegExp, options = DEFAULT_REPLAY_OPTIONS) =>
    assert.throws(
      () => F3CP_MODULE.resumeTable!(t.tableId, text, options),
      (e: unknown) => e instanceof StartStateError && pattern.test(e.message),
    );
  const edit = (f: (o: Json) => void) => {
    const o = JSON.parse(state) as Json;
    f(o);
    return JSON.stringify(o);
  };

  it('Given damaged JSON, When resumed, Then it is refused as not JSON', () =>
    refused(`{${state}`, /not JSON/));
  it("Given a 13 Cards table's state, When resumed, Then it names the form", () =>
    refused(
      edit((o) => ((o.form = 'round-fold'), (o.game = 'THIRTEEN_CARDS'))),
      /form "round-fold", not "f3cp-table"/,
    ));
  it('Given another version, When resumed, Then it names the version', () =>
    refused(
      edit((o) => (o.v = 0)),
      /version 0 of form "f3cp-table"/,
    ));
  it('Given a field missing or out of range, When resumed, Then it names the field', () => {
    refused(
      edit((o) => delete o.body.dealingMode),
      /body has no field "dealingMode"/,
    );
    refused(
      edit((o) => (o.body.dealingMode = 'CUPS')),
      /body\.dealingMode is "CUPS", not one of SHOE, SHUFFLER/,
    );
    refused(
      edit((o) => (o.body.consecutiveFailures = -1)),
      /body\.consecutiveFailures is -1, outside 0/,
    );
    refused(
      edit((o) => (o.body.sequences = [['d', 1.5]])),
      /body\.sequences\[0\]\.1 is number 1\.5, not a whole number/,
    );
    refused(
      edit((o) => (o.body.config.seats = 1_000)),
      /body\.config\.seats is 1000, outside 0 to 100/,
    );
    refused(
      edit((o) => (o.body.pendingForNextRound = [{ checkId: 'NO.SUCH', summary: 's', evidence: [] }])),
      /pendingForNextRound\[0\]\.checkId NO\.SUCH is not a check of this game/,
    );
  });
  it('Given a state taken under other readings, When resumed under the register, Then it says to fold from the start', () => {
    refused(
      edit((o) => (o.body.alternatives = ['J4'])),
      /taken under the alternative readings \[J4\]/,
    );
    refused(state, /asked for \[J15\]/, { ...DEFAULT_REPLAY_OPTIONS, alternatives: ['J15'] });
  });
  it('Given a state over 64 KiB, When resumed, Then it is refused before it is parsed', () =>
    refused(state + ' '.repeat(MAX_START_STATE_BYTES), /over the 65536 bytes/));
});
