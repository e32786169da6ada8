/**
 * Readings kept ready answer exactly what the what-if derives: for every selectable reading, over one store holding
 * F3CP tables under the 2025 and the 2008 rules (faults, handled irregularities, a betting-system and a collusion
 * table), CRAPS, 13 Cards and Mah-Jong tables, on several Macau dates, for the whole store, one date, one casino
 * and one table. And they are used only while current, in a file that is theirs.
 */
import assert from 'node:assert/strict';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { ALTERNATIVE_READINGS, type TableEvent } from '@table-audit/rules';
import { simulateSession } from '@table-audit/simulator';
import {
  answerFromKept,
  prepareReadings,
  readingsFileOf,
  ReadingsFileRefused,
} from '../src/readings-ready.ts';
import { TableFolds } from '../src/tables.ts';
import { runWhatIf, type WhatIfReport, type WhatIfScope } from '../src/what-if.ts';
import { storeEvents } from './stored-session.ts';

const WHOLE = { from: '2025-06-01', to: '2026-05-31' };
/** the days the 2008 rules' tables play */
const OLD = { from: '2025-11-01', to: '2025-11-10' };
const MAX_CHANGED = 40;

function mixedEvents(): TableEvent[] {
  const day = (d: string) => Date.parse(`${d}T02:00:00Z`);
  const sessions = [
    simulateSession({
      seed: 31,
      tables: 3,
      roundsPerTable: 60,
      faultRate: 0.1,
      handledRate: 0.05,
      bettingSystemTables: 1,
      collusionTables: 1,
      collusionRounds: 60,
      tableIdPrefix: 'A',
      start: day('2025-12-01'),
    }),
    simulateSession({
      seed: 32,
      tables: 2,
      roundsPerTable: 40,
      faultRate: 0.1,
      tableIdPrefix: 'B',
      start: day('2025-12-03'),
    }),
    simulateSession({
      seed: 33,
      tables: 2,
      roundsPerTable: 40,
      faultRate: 0.1,
      tableIdPrefix: 'O',
      // the 2008 rules (f3cp-2008a, to 2025-11-10), in the same year as the 2025 tables
      start: day('2025-11-05'),
    }),
    // a table playing across Macau midnight into 2025-11-11, when f3cp-2025 came into force: its first rounds
    // under the 2008 readings, its last under the 2025 ones
    simulateSession({
      seed: 34,
      tables: 1,
      roundsPerTable: 60,
      faultRate: 0.1,
      tableIdPrefix: 'X',
      start: Date.parse('2025-11-10T15:20:00Z'),
    }),
    ...(['CRAPS', 'THIRTEEN_CARDS', 'MAHJONG'] as const).map((game, i) =>
      simulateSession({
        seed: 40 + i,
        tables: 1,
        roundsPerTable: 15,
        game,
        faultRate: 0.3,
        tableIdPrefix: `G${i}`,
        start: day('2025-12-02'),
      } as Parameters<typeof simulateSession>[0]),
    ),
  ];
  const events = sessions.flatMap((s) => s.events);
  // an event after a table's last round closed: judged when the table's events end (a table-level finding)
  const last = events
    .filter((e) => e.data.header.tableId === events[0]!.data.header.tableId && e.data.header.roundId !== null)
    .at(-1)!;
  const eventId = '00000000-0000-4000-8000-00000000fee1';
  events.push({ ...last, data: { ...last.data, header: { ...last.data.header, eventId } } } as TableEvent);
  return events;
}

/** The table-level findings of the events (those the tables' folds raise as their events end). */
function tableLevelFindings(events: readonly TableEvent[]): number {
  const folds = new TableFolds();
  for (const e of events) folds.apply(e);
  let n = 0;
  for (const t of folds.values()) n += t.finish().findings.length;
  return n;
}

/** The report without what says how it was had (its source, time and workers). */
const answer = (r: WhatIfReport) => {
  const { source: _s, elapsedMs: _e, workers: _w, readings: _r, scope: _sc, ...rest } = r;
  return rest;
};

async function derived(storePath: string, key: string, scope: WhatIfScope) {
  const r = await runWhatIf({
    storePath,
    alternatives: [key],
    scope,
    workers: 1,
    kept: false,
    maxChanged: MAX_CHANGED,
  });
  assert.equal(r.source.kind, 'derived');
  return answer(r);
}

async function kept(storePath: string, key: string, scope: WhatIfScope) {
  const r = await runWhatIf({ storePath, alternatives: [key], scope, workers: 1, maxChanged: MAX_CHANGED });
  assert.equal(r.source.kind, 'kept', `${key}: ${r.source.kind === 'derived' ? r.source.why : ''}`);
  return answer(r);
}

/** The directories this test made: removed at its end (nothing else is). */
const made: string[] = [];
const ownDir = (prefix: string): string => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
};

describe('readings kept ready', () => {
  after(() => {
    for (const dir of made) rmSync(dir, { recursive: true, force: true });
  });
  let storePath = '';
  let events: TableEvent[] = [];
  before(async () => {
    events = mixedEvents();
    storePath = await storeEvents(join(ownDir('ta-ready-'), 'events.sqlite'), events);
    const p = await prepareReadings({ storePath, workers: 2 });
    assert.ok(tableLevelFindings(events) > 0, 'a table-level finding is compared too');
    const tables = new Set(events.map((e) => e.data.header.tableId)).size;
    assert.ok(tables >= 9);
    assert.equal(p.tables, tables);
    assert.equal(p.tablesDerived, tables);
  });

  it('every selectable reading: the kept answer over the whole year is the what-if derived', async () => {
    let changedSomewhere = 0;
    for (const { key } of ALTERNATIVE_READINGS) {
      const d = await derived(storePath, key, WHOLE);
      assert.deepEqual(await kept(storePath, key, WHOLE), d, key);
      if (d.roundsChanged > 0) changedSomewhere++;
    }
    // the comparison is not of empty answers: many readings change rounds of this store
    assert.ok(changedSomewhere >= 10, `${changedSomewhere} readings change a round`);
  });

  it("derives a table under the readings of its rounds' rule sets: 2025 or 2008, both for the table crossing into the 2025 rules", () => {
    const db = new Database(readingsFileOf(storePath), { readonly: true });
    const rows = db.prepare('SELECT table_id, game, readings FROM tables').all() as {
      table_id: string;
      game: string;
      readings: string;
    }[];
    db.close();
    const of = (prefix: string) =>
      rows.filter((r) => r.table_id.startsWith(prefix)).map((r) => JSON.parse(r.readings) as string[]);
    const eras = (keys: string[]) => [...new Set(keys.map((k) => k[0]))].sort().join('');
    assert.ok(of('A').length && of('A').every((k) => eras(k) === 'J'), '2025 tables: J readings only');
    assert.ok(of('O').length && of('O').every((k) => eras(k) === 'H'), '2008 tables: H readings only');
    assert.deepEqual(of('X').map(eras), ['HJ'], 'the table crossing 2025-11-11: both');
    assert.deepEqual(
      rows.filter((r) => r.game === 'CRAPS').map((r) => JSON.parse(r.readings)),
      [['C1', 'C2', 'C3', 'C5']],
    );
  });

  it('one date, one casino, one table: the kept answer is the what-if derived', async () => {
    const first = events.find((e) => e.data.header.tableId.startsWith('A'))!.data.header;
    const scopes: WhatIfScope[] = [
      { from: '2025-12-01', to: '2025-12-01' },
      { from: '2025-12-02', to: '2025-12-31' },
      { ...WHOLE, casino: first.casino },
      { ...WHOLE, tableId: first.tableId },
      { ...WHOLE, concessionaire: first.concessionaire },
      OLD,
    ];
    for (const key of ['J9', 'J11', 'J2', 'H1', 'C1', 'T1:2', 'M1'])
      for (const scope of scopes)
        assert.deepEqual(
          await kept(storePath, key, scope),
          await derived(storePath, key, scope),
          `${key} ${JSON.stringify(scope)}`,
        );
  });

  it('a combination of readings is derived, saying why; a table with events after its readings were kept is derived now, the others read from them', async () => {
    const both = await runWhatIf({ storePath, alternatives: ['J2', 'J11'], scope: WHOLE, workers: 1 });
    assert.equal(both.source.kind, 'derived');
    assert.match(both.source.kind === 'derived' ? (both.source.why ?? '') : '', /one at a time/);

    // a copy of the store with one more event at one table: that table is no longer current
    const dir = ownDir('ta-ready-more-');
    const copy = join(dir, 'events.sqlite');
    writeFileSync(copy, readFileSync(storePath));
    writeFileSync(readingsFileOf(copy), readFileSync(readingsFileOf(storePath)));
    const fresh = await answerFromKept({ storePath: copy, alternatives: ['J11'], scope: WHOLE });
    assert.ok('partial' in fresh, 'the copy is current');
    const table = events[0]!.data.header.tableId;
    const store = new SqliteEventStore(copy);
    const last = events.filter((e) => e.data.header.tableId === table).at(-1)!;
    await store.append(`table-${table}`, [
      {
        eventId: '00000000-0000-4000-8000-00000000abcd',
        type: last.type,
        data: {
          ...last.data,
          header: { ...last.data.header, eventId: '00000000-0000-4000-8000-00000000abcd' },
        },
      },
    ]);
    await store.close();
    const stale = await answerFromKept({ storePath: copy, alternatives: ['J11'], scope: WHOLE });
    assert.ok('partial' in stale);
    assert.equal(stale.derive.length, 1);
    assert.equal(stale.derive[0]!.tableId, table);
    assert.match(stale.derive[0]!.why, new RegExp(`table ${table} has events after`));
    // the what-if: that table derived now, the others from what was kept — the same report as all derived
    for (const key of ['J11', 'J9', 'J2']) {
      const r = await runWhatIf({
        storePath: copy,
        alternatives: [key],
        scope: WHOLE,
        workers: 2,
        maxChanged: MAX_CHANGED,
        // as the API asks: the kept readings read in a worker too
        inWorkers: key !== 'J2',
      });
      assert.equal(r.source.kind, 'kept');
      assert.equal(r.source.kind === 'kept' && r.source.derivedNow.tables, 1);
      assert.deepEqual(answer(r), await derived(copy, key, WHOLE), key);
    }
    // that table alone: derived, saying why
    const alone = await runWhatIf({
      storePath: copy,
      alternatives: ['J11'],
      scope: { ...WHOLE, tableId: table },
      workers: 1,
    });
    assert.equal(alone.source.kind, 'derived');
    assert.match(alone.source.kind === 'derived' ? (alone.source.why ?? '') : '', /has events after/);
    // another table's what-if is answered from what was kept alone
    const other = events.find((e) => e.data.header.tableId !== table)!.data.header.tableId;
    const fromKept = await answerFromKept({
      storePath: copy,
      alternatives: ['J11'],
      scope: { ...WHOLE, tableId: other },
    });
    assert.ok('partial' in fromKept && fromKept.derive.length === 0);
    // preparing again derives that table only, and then the kept answer is the derived one again
    const again = await prepareReadings({ storePath: copy, workers: 1 });
    assert.equal(again.tablesDerived, 1);
    assert.deepEqual(await kept(copy, 'J11', WHOLE), await derived(copy, 'J11', WHOLE));
  });

  it('a file in its place that is not ours is refused and left as it is', async () => {
    const dir = ownDir('ta-ready-foreign-');
    const copy = join(dir, 'events.sqlite');
    writeFileSync(copy, readFileSync(storePath));
    const foreign = readingsFileOf(copy);
    writeFileSync(foreign, 'notes of my own\n');
    await assert.rejects(prepareReadings({ storePath: copy, workers: 1 }), ReadingsFileRefused);
    assert.equal(readFileSync(foreign, 'utf8'), 'notes of my own\n');
    const r = await runWhatIf({ storePath: copy, alternatives: ['J11'], scope: WHOLE, workers: 1 });
    assert.equal(r.source.kind, 'derived');
    appendFileSync(foreign, '');
    assert.equal(readFileSync(foreign, 'utf8'), 'notes of my own\n');
  });
});
