// The alert workflow as the API writes it (Alert* events in alert-<finding id> streams) projected into alert_states
// and alert_state_changes; a batch handed over again, by the same projector or by a fresh one after a restart, leaves
// the same state; and a round with two identical bet lines keeps both (bets are keyed by line position).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runProcessor, type RecordedEvent } from '@table-audit/eventstore';
import type { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import type { RoundDerived } from '@table-audit/schemas';
import { roundStream } from '@table-audit/schemas/streams';
import { AnalyticsProjector, migrate, openAnalytics, type AnalyticsClient } from '../src/index.ts';
import { simulatedStore } from './fixture.ts';

delete process.env.CLICKHOUSE_URL;
const dir = mkdtempSync(join(tmpdir(), 'ta-analytics-alerts-'));
let store: SqliteEventStore;
let analytics: AnalyticsClient;
const MIN = 60_000;
// what TabSeparated must escape, and what an array literal must quote, as a person might type it
const COMMENT = "camera 4: bet withdrawn in time\tbefore 'no more bets'\nC:\\clips\\r2 — ['x']";

interface FindingInfo {
  findingId: string;
  checkId: string;
  severity: string;
  casino: string;
  concessionaire: string;
  tableId: string;
  eventTime: number;
}
let a: FindingInfo;
let b: FindingInfo;
const alertEvents: RecordedEvent[] = [];

const actor = (subject: string, time: number, requestId: string) => ({
  actorSubject: subject,
  actorRole: 'compliance_officer' as const,
  actorConcessionaire: null,
  time,
  requestId,
});

before(async () => {
  ({ store } = await simulatedStore(dir, { tables: 3, rounds: 20 }));
  const findings: FindingInfo[] = [];
  let derived: RoundDerived | undefined;
  for await (const e of store.readAll()) {
    if (e.type === 'FindingRaised' && !(e.data as { handled: boolean }).handled)
      findings.push(e.data as FindingInfo);
    if (e.type === 'RoundDerived' && !derived && (e.data as RoundDerived).lines.length > 0)
      derived = e.data as RoundDerived;
  }
  assert.ok(findings.length >= 2 && derived, 'the session has findings to alert on and a derived round');
  [a, b] = [findings[0]!, findings[findings.length - 1]!];
  const t = Math.max(a.eventTime, b.eventTime);
  // a: acknowledged, assigned, resolved, reopened, acknowledged again; b: acknowledged then resolved
  let appended = 0;
  const append = async (alertId: string, type: string, data: object) => {
    await store.append(`alert-${alertId}`, [
      { eventId: `alert:${type}:${alertId}:${appended++}`, type, data: { alertId, ...data } },
    ]);
  };
  await append(a.findingId, 'AlertAcknowledged', { ...actor('officer.a', t + 5 * MIN, 'r1'), note: 'seen' });
  await append(a.findingId, 'AlertAssigned', {
    ...actor('officer.a', t + 6 * MIN, 'r2'),
    assignee: 'officer.b',
  });
  await append(b.findingId, 'AlertAcknowledged', { ...actor('officer.b', t + 7 * MIN, 'r3'), note: null });
  await append(a.findingId, 'AlertResolved', {
    ...actor('officer.b', t + 60 * MIN, 'r4'),
    disposition: 'confirmed',
    comment: 'payout short by one unit',
  });
  await append(b.findingId, 'AlertResolved', {
    ...actor('officer.b', t + 90 * MIN, 'r5'),
    disposition: 'false_positive',
    comment: COMMENT,
  });
  await append(a.findingId, 'AlertReopened', {
    ...actor('inspector.x', t + 120 * MIN, 'r6'),
    reason: 'DICJ asks',
  });
  await append(a.findingId, 'AlertCommented', {
    ...actor('officer.b', t + 121 * MIN, 'r7'),
    comment: 'on it',
  });
  await append(a.findingId, 'AlertAcknowledged', { ...actor('officer.b', t + 125 * MIN, 'r8'), note: null });
  // a round whose two bet lines are the same bet of the same seat and type
  const line = derived!.lines[0]!;
  await store.append(roundStream(derived!.tableId), [
    {
      eventId: 'dup-round-record',
      type: 'RoundDerived',
      data: { ...derived!, roundId: 'dup-round', findingIds: [], lines: [line, { ...line }] },
    },
  ]);
  for await (const e of store.readAll()) if (e.stream.startsWith('alert-')) alertEvents.push(e);

  analytics = await openAnalytics({ path: join(dir, 'analytics') });
  await migrate(analytics.client);
  await runProcessor(store, new AnalyticsProjector(analytics.client), { batchSize: 5_000 });
});
after(async () => {
  await analytics?.close();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

const states = async () =>
  (
    await analytics.client.query({
      query: `SELECT finding_id, state, assignee, disposition, reopened, last_event, note, changed_by,
          toUnixTimestamp64Milli(changed_at) AS changed_at, toUnixTimestamp64Milli(opened_at) AS opened_at,
          toUnixTimestamp64Milli(acknowledged_at) AS acknowledged_at,
          toUnixTimestamp64Milli(resolved_at) AS resolved_at, check_id, severity, casino, concessionaire, table_id
        FROM alert_states FINAL ORDER BY finding_id`,
      format: 'JSONEachRow',
      clickhouse_settings: { output_format_json_quote_64bit_integers: 0 },
    })
  ).json<Record<string, unknown>>();

const count = async (query: string): Promise<number> =>
  Number(
    (await (await analytics.client.query({ query, format: 'JSONEachRow' })).json<{ n: string }>())[0]!.n,
  );

describe('the alert workflow projected into alert_states and alert_state_changes', () => {
  it('folds each alert as the API does, with its finding’s scope and the times of acknowledge and resolve', async () => {
    const byId = new Map((await states()).map((r) => [r.finding_id as string, r]));
    assert.equal(byId.size, 2);
    const t = Math.max(a.eventTime, b.eventTime);
    assert.deepEqual(byId.get(a.findingId), {
      finding_id: a.findingId,
      state: 'acknowledged',
      assignee: 'officer.b',
      disposition: null,
      reopened: 1,
      last_event: 'AlertAcknowledged',
      note: '',
      changed_by: 'officer.b',
      changed_at: t + 125 * MIN,
      opened_at: a.eventTime,
      acknowledged_at: t + 125 * MIN,
      resolved_at: null,
      check_id: a.checkId,
      severity: a.severity,
      casino: a.casino,
      concessionaire: a.concessionaire,
      table_id: a.tableId,
    });
    const rb = byId.get(b.findingId)!;
    assert.equal(rb.state, 'resolved');
    assert.equal(rb.disposition, 'false_positive');
    assert.equal(rb.note, `false_positive: ${COMMENT}`);
    assert.equal(rb.acknowledged_at, t + 7 * MIN);
    assert.equal(rb.resolved_at, t + 90 * MIN);
    assert.equal(rb.casino, b.casino);
    assert.equal(await count('SELECT count() AS n FROM alert_state_changes FINAL'), 8);
    const resolvedThenReopened = await count(
      `SELECT count() AS n FROM alert_state_changes FINAL
       WHERE finding_id = '${a.findingId.replace(/'/g, '')}' AND disposition = 'confirmed' AND state = 'resolved'`,
    );
    assert.equal(resolvedThenReopened, 1, 'the history keeps the resolution the reopen undid');
  });

  it('a batch handed over again, to the same projector or a restarted one, leaves the same state', async () => {
    const expected = await states();
    // the same projector: its memory already holds the states after these events
    const same = new AnalyticsProjector(analytics.client);
    await same.handle(alertEvents);
    await same.handle(alertEvents);
    assert.deepEqual(await states(), expected);
    // a restart whose checkpoint was left before the reopen: the rest handed over one event at a time
    const restarted = new AnalyticsProjector(analytics.client);
    const reopen = alertEvents.findIndex((e) => e.type === 'AlertReopened');
    for (const e of alertEvents.slice(reopen)) await restarted.handle([e]);
    assert.deepEqual(await states(), expected);
    assert.equal(await count('SELECT count() AS n FROM alert_state_changes FINAL'), 8);
  });
});

describe('bets are keyed by their line position', () => {
  it('two identical bets of one seat and type in a round are both kept', async () => {
    assert.equal(await count(`SELECT count() AS n FROM bets FINAL WHERE round_id = 'dup-round'`), 2);
    assert.equal(
      await count(
        `SELECT uniqExact(seat, bet_type, stake_avos) AS n FROM bets FINAL WHERE round_id = 'dup-round'`,
      ),
      1,
    );
  });
});
