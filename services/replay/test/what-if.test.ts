import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { canonicalJson } from '@table-audit/eventstore';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { openForTampering } from '@table-audit/eventstore/sqlite-tamper';
import { simulateSession } from '@table-audit/simulator';
import { macauDate, type TableEvent } from '@table-audit/rules';
import {
  explainRoundWhatIf,
  periodDays,
  runWhatIf,
  WhatIfComparer,
  WhatIfRequestError,
} from '../src/what-if.ts';
import { storeEvents } from './stored-session.ts';

const WHOLE = { from: '2000-01-01', to: '2099-12-31' };

function compareInMemory(events: readonly TableEvent[], alternatives: readonly string[], scope = WHOLE) {
  const c = new WhatIfComparer(scope, alternatives);
  for (const e of events) c.apply(e);
  return c.finish(events.length);
}

const storeOf = (events: readonly TableEvent[]): Promise<string> =>
  storeEvents(join(mkdtempSync(join(tmpdir(), 'ta-what-if-')), 'events.sqlite'), events);

async function everything(path: string): Promise<string> {
  const store = new SqliteEventStore(path, { readOnly: true });
  const out: string[] = [];
  for await (const e of store.readAll()) out.push(`${e.position} ${e.stream} ${canonicalJson(e.data)}`);
  for (const name of ['replay', 'replay/shard-0-of-2'])
    out.push(`${name} ${await store.loadCheckpoint(name)}`);
  await store.close();
  return out.join('\n');
}

describe('what-if replay', () => {
  it('property: with the default readings (or readings that govern no round) nothing differs', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.constantFrom<readonly string[]>([], ['H2', 'H7'], ['C3']),
        (seed, alternatives) => {
          const s = simulateSession({
            seed,
            tables: 2,
            roundsPerTable: 12,
            faultRate: 0.2,
            handledRate: 0.1,
          });
          const r = compareInMemory(s.events, alternatives);
          assert.ok(r.roundsCompared > 0);
          assert.equal(r.roundsChanged, 0);
          assert.deepEqual(r.changed, []);
          assert.ok(r.findings.every((f) => f.appeared === 0 && f.disappeared === 0));
          assert.equal(r.findingsAlternative, r.findingsChosen);
          for (const m of r.money) {
            assert.equal(m.alternativePaidAvos, m.chosenPaidAvos, m.betType);
            assert.equal(m.alternativeNetAvos, m.chosenNetAvos, m.betType);
            assert.equal(m.linesChanged, 0);
          }
        },
      ),
      { numRuns: 8 },
    );
  });

  it('J11 (literal ZH banker qualification) changes rounds, money by bet type and findings, each round naming what changed', () => {
    const s = simulateSession({ seed: 7, tables: 4, roundsPerTable: 40 });
    const r = compareInMemory(s.events, ['J11']);
    assert.ok(r.roundsChanged > 0, 'some banker pairs hold no card of Q or higher');
    for (const c of r.changed)
      assert.ok(c.lines.length > 0 || c.findingsAppeared.length || c.findingsDisappeared.length);
    const ante = r.money.find((m) => m.betType === 'ANTE')!;
    assert.ok(ante.linesChanged > 0);
    assert.notEqual(ante.alternativeNetAvos, ante.chosenNetAvos);
    // the tables settled as the register reads the law: under the other reading, what they paid is a mismatch
    assert.ok(r.findings.some((f) => f.appeared > 0));
  });

  it('the period and the table narrow what is counted', () => {
    const s = simulateSession({ seed: 7, tables: 4, roundsPerTable: 40 });
    const all = compareInMemory(s.events, ['J11']);
    const day = macauDate(s.events[0]!.data.header.eventTime);
    assert.equal(
      compareInMemory(s.events, ['J11'], { from: '2000-01-01', to: '2000-01-02' }).roundsCompared,
      0,
    );
    assert.equal(
      compareInMemory(s.events, ['J11'], { from: day, to: day }).roundsCompared,
      all.roundsCompared,
    );
    const table = s.tables[0]!.tableId;
    const one = compareInMemory(s.events, ['J11'], { ...WHOLE, tableId: table } as never);
    assert.ok(one.roundsCompared > 0 && one.roundsCompared < all.roundsCompared);
    assert.ok(one.changed.every((c) => c.tableId === table));
    const none = compareInMemory(s.events, ['J11'], { ...WHOLE, concessionaire: 'NO-SUCH' } as never);
    assert.equal(none.roundsCompared, 0);
  });

  it('checks the chain of what it reads: a table edited behind the store is compared only up to the edit', async () => {
    const s = simulateSession({ seed: 12, tables: 3, roundsPerTable: 12, faultRate: 0.1 });
    const path = await storeOf(s.events);
    const day = macauDate(s.events[0]!.data.header.eventTime);
    const scope = { from: day, to: day };
    const clean = await runWhatIf({ storePath: path, alternatives: ['J11'], scope, workers: 1 });
    assert.deepEqual(clean.tablesNotVerified, []);
    const [edited, other] = s.tables.map((t) => t.tableId) as [string, string];
    const otherTable = { ...scope, tableId: other };
    const cleanOther = await runWhatIf({
      storePath: path,
      alternatives: ['J11'],
      scope: otherTable,
      workers: 1,
    });
    assert.ok(cleanOther.roundsCompared > 0);
    const db = openForTampering(path);
    // a payout raised behind the store's back, the hash not recomputed
    const row = db
      .prepare(
        `SELECT revision, event_id, data FROM events WHERE stream = ? AND type = 'PayoutMade' ORDER BY revision LIMIT 1 OFFSET 10`,
      )
      .get(`table-${edited}`) as { revision: number; event_id: string; data: string };
    db.prepare('UPDATE events SET data = ? WHERE stream = ? AND revision = ?').run(
      row.data.replace(/"amount":(\d+)/, (_m, a: string) => `"amount":${Number(a) * 2 + 100}`),
      `table-${edited}`,
      row.revision,
    );
    db.close();
    for (const workers of [1, 2]) {
      const r = await runWhatIf({ storePath: path, alternatives: ['J11'], scope, workers });
      assert.equal(r.tablesNotVerified.length, 1, `${workers} worker(s)`);
      assert.deepEqual(
        { ...r.tablesNotVerified[0]!, reason: '' },
        {
          tableId: edited,
          stream: `table-${edited}`,
          revision: row.revision,
          eventId: row.event_id,
          reason: '',
        },
      );
      assert.match(r.tablesNotVerified[0]!.reason, /hash/);
      assert.ok(r.roundsCompared < clean.roundsCompared, 'the edited table is not compared past the edit');
      assert.ok(r.roundsCompared > 0);
    }
    const after = await runWhatIf({ storePath: path, alternatives: ['J11'], scope: otherTable, workers: 1 });
    assert.equal(after.roundsCompared, cleanOther.roundsCompared, 'another table is compared whole');
    assert.deepEqual(after.tablesNotVerified, []);
  });

  it('runs over a store in worker threads, the same as in one thread, and writes nothing', async () => {
    const s = simulateSession({ seed: 11, tables: 4, roundsPerTable: 15, faultRate: 0.1 });
    const path = await storeOf(s.events);
    const before = await everything(path);
    const day = macauDate(s.events[0]!.data.header.eventTime);
    const scope = { from: day, to: day };
    const one = await runWhatIf({ storePath: path, alternatives: ['J11', 'J2'], scope, workers: 1 });
    const two = await runWhatIf({ storePath: path, alternatives: ['J11', 'J2'], scope, workers: 2 });
    assert.equal(await everything(path), before, 'the store is untouched: no event, no checkpoint');
    const strip = (x: typeof one) => ({ ...x, elapsedMs: 0, workers: 0 });
    assert.deepEqual(strip(two), strip(one));
    assert.ok(one.roundsChanged > 0);
    assert.deepEqual(
      one.readings.map((x) => x.id),
      ['J11', 'J2'],
    );
    assert.ok(
      one.readings[0]!.articles.some((a) => a.pt && a.zh),
      'the provisions in PT and ZH',
    );

    const round = one.changed[0]!;
    const store = new SqliteEventStore(path, { readOnly: true });
    try {
      const x = await explainRoundWhatIf(store, round.roundId, ['J11']);
      assert.equal(x.tableId, round.tableId);
      assert.notEqual(x.alternative.text, x.chosen.text);
    } finally {
      await store.close();
    }
  });

  it('J19 (a breach handled by voiding raises no finding): a round explained under it lists the handled finding on the chosen side only; a round without one reads the same', async () => {
    const s = simulateSession({ seed: 2, tables: 2, roundsPerTable: 20, faultRate: 0.3, handledRate: 0.5 });
    const r = compareInMemory(s.events, ['J19']);
    const changed = r.changed.find((c) => c.findingsDisappeared.length > 0);
    assert.ok(changed, 'the simulation holds a breach the table handled');
    const unchanged = r.changed.length
      ? s.events.find(
          (e) => e.data.header.roundId && !r.changed.some((c) => c.roundId === e.data.header.roundId),
        )
      : undefined;
    const path = await storeOf(s.events);
    const store = new SqliteEventStore(path, { readOnly: true });
    try {
      const checks = (x: { json: object }) =>
        ((x.json as { findings: { checkId: string }[] }).findings ?? []).map((f) => f.checkId);
      const x = await explainRoundWhatIf(store, changed.roundId, ['J19']);
      const gone = changed.findingsDisappeared[0]!;
      assert.ok(checks(x.chosen).includes(gone), `${gone} is raised under the chosen reading`);
      assert.ok(!checks(x.alternative).includes(gone), `${gone} is not raised under J19's alternative`);
      assert.notEqual(x.alternative.text, x.chosen.text);
      const same = await explainRoundWhatIf(store, unchanged!.data.header.roundId!, ['J19']);
      assert.deepEqual(checks(same.alternative), checks(same.chosen));
      assert.equal(same.alternative.text, same.chosen.text);
    } finally {
      await store.close();
    }
  });

  it('refuses an impossible or too long period and an empty selection, naming the field', async () => {
    assert.throws(() => periodDays('2025-02-30', '2025-03-01'), /from: "2025-02-30" is not a date/);
    assert.throws(() => periodDays('2025-03-02', '2025-03-01'), /to \(2025-03-01\) is before from/);
    assert.throws(() => periodDays('2020-01-01', '2025-03-01'), /at most 366/);
    assert.equal(periodDays('2025-12-01', '2025-12-31'), 31);
    await assert.rejects(
      runWhatIf({ storePath: ':memory:', alternatives: [], scope: WHOLE, workers: 1 }),
      WhatIfRequestError,
    );
  });
});
