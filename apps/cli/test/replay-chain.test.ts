/**
 * `table-audit replay ROUND_ID` explains a disputed hand only from events whose hash chain it checked: on a store
 * whose file was edited behind it, a round whose answer reads the edited event is refused (exit 1, the stream,
 * revision and event id named, and `table-audit verify` to run), and a round whose answer reads nothing at or after
 * it is printed as before, byte for byte.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { raisePayout } from '../../../services/replay/test/raise-payout.ts';
import { IngestPipeline } from '@table-audit/ingest';
import { simulateSession } from '@table-audit/simulator';

const bin = fileURLToPath(new URL('../bin/table-audit.js', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'ta-cli-chain-'));
after(() => rmSync(root, { recursive: true, force: true }));
const run = (args: string[]) =>
  spawnSync(process.execPath, [bin, ...args], {
    encoding: 'utf8',
    cwd: root,
    env: { ...process.env, TABLE_AUDIT_STORE: '' },
  });

// no faults: each round starts after the one before it is settled
const session = simulateSession({ seed: 23, tables: 1, roundsPerTable: 8, faultRate: 0 });
const tableId = session.tables[0]!.tableId;
const stream = `table-${tableId}`;
const rounds = [
  ...new Set(session.events.map((e) => e.data.header.roundId).filter((r): r is string => r !== null)),
];

describe('table-audit replay ROUND_ID over an edited store', () => {
  const store = join(root, 'events.sqlite');
  const answers = new Map<string, string>();

  it('Given a store it made: every round explained (exit 0)', async () => {
    const s = new SqliteEventStore(store);
    try {
      await new IngestPipeline(s, () => 0).submit(
        session.events.map((event, index) => ({
          source: { kind: 'in-process' as const, producer: 'test', index },
          event,
        })),
      );
    } finally {
      await s.close();
    }
    for (const roundId of [rounds[1]!, rounds[5]!]) {
      const r = run(['replay', roundId, '--store', store, '--json']);
      assert.equal(r.status, 0, r.stderr);
      assert.equal((JSON.parse(r.stdout) as { roundId: string }).roundId, roundId);
      answers.set(roundId, r.stdout);
    }
  });

  it('When a payout of round 4 is raised in the file: round 5 is refused (exit 1) naming the event; round 1 is as before', () => {
    const row = raisePayout(store, tableId, rounds[4]!);

    for (const json of [true, false]) {
      const refused = run(['replay', rounds[5]!, '--store', store, ...(json ? ['--json'] : [])]);
      assert.equal(refused.status, 1, refused.stdout);
      assert.equal(refused.stdout, '', 'nothing explained');
      assert.match(
        refused.stderr,
        new RegExp(
          `^table-audit replay: round "${rounds[5]}" of table ${tableId} is not explained: its table's stored record failed verification at stream "${stream}" revision ${row.revision} \\(event ${row.eventId}\\): its hash .* does not match its content .*; check the store with table-audit verify --stream ${stream}\\n$`,
        ),
      );
    }
    // the verify it points to names the same event
    const verify = run(['verify', '--stream', stream, '--store', store]);
    assert.equal(verify.status, 1);
    assert.match(
      verify.stdout,
      new RegExp(`^BROKEN: stream "${stream}" revision ${row.revision} \\(event ${row.eventId}\\)`),
    );

    const before = run(['replay', rounds[1]!, '--store', store, '--json']);
    assert.equal(before.status, 0, before.stderr);
    assert.equal(before.stdout, answers.get(rounds[1]!), 'round 1 reads nothing at or after the edit');
  });
});
