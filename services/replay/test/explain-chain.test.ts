/**
 * A disputed hand is explained only from events whose hash chain was checked: explainRound reads the round's table
 * from its first event and checks every link as the replay does; a round whose answer reads an event whose link
 * fails — in the round, before it, or in the round after it (read for the findings judged later) — is refused with
 * RoundNotVerified naming the stream, the revision, the event id and why; a round whose answer reads only events
 * before the break is explained as before, and so is every round of another table.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { openForTampering } from '@table-audit/eventstore/sqlite-tamper';
import { IngestPipeline } from '@table-audit/ingest';
import { simulateSession } from '@table-audit/simulator';
import { explainRound, RoundNotVerified, type RoundExplanation } from '../src/explain.ts';
import { tableStream } from '../src/streams.ts';
import { raisePayout } from './raise-payout.ts';

// no faults: every round starts after the one before it is settled, so which rounds read an event is plain
const session = simulateSession({ seed: 17, tables: 2, roundsPerTable: 10, faultRate: 0 });
const [table, other] = session.tables.map((t) => t.tableId) as [string, string];
const roundsOf = (tableId: string): string[] => [
  ...new Set(
    session.events
      .filter((e) => e.data.header.tableId === tableId && e.data.header.roundId !== null)
      .map((e) => e.data.header.roundId!),
  ),
];

const dirs: string[] = [];
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A store of its own holding the session, as ingest stores it. */
async function stored(): Promise<{ store: SqliteEventStore; path: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'ta-explain-chain-'));
  dirs.push(dir);
  const path = join(dir, 'events.sqlite');
  const store = new SqliteEventStore(path);
  await new IngestPipeline(store, () => 0).submit(
    session.events.map((event, index) => ({
      source: { kind: 'in-process' as const, producer: 't', index },
      event,
    })),
  );
  return { store, path };
}

/** Every round's explanation, or the error it is refused with. */
async function explained(
  store: SqliteEventStore,
  rounds: readonly string[],
): Promise<Map<string, RoundExplanation | Error>> {
  const out = new Map<string, RoundExplanation | Error>();
  for (const roundId of rounds)
    out.set(roundId, await explainRound(store, roundId).catch((e: unknown) => e as Error));
  return out;
}

describe('explainRound checks the chain of what it reads', () => {
  it('explains every round of an intact store', async () => {
    const { store } = await stored();
    try {
      for (const [roundId, x] of await explained(store, [...roundsOf(table), ...roundsOf(other)])) {
        assert.ok(!(x instanceof Error), `${roundId}: ${(x as Error).message}`);
        assert.equal(x.roundId, roundId);
      }
    } finally {
      await store.close();
    }
  });

  it('refuses the edited round, the rounds after it and the round before it; explains the rounds before as before', async () => {
    const { store, path } = await stored();
    try {
      const rounds = roundsOf(table);
      assert.equal(rounds.length, 10);
      const before = await explained(store, [...rounds, ...roundsOf(other)]);
      const edited = raisePayout(path, table, rounds[4]!);
      const now = await explained(store, [...rounds, ...roundsOf(other)]);
      const stream = tableStream(table);
      // rounds 3 to 9: round 4's answer reads its payout, round 3's reads round 4 up to its settlement (the findings
      // about round 3 judged with it), the later ones read from the table's first event through round 4
      for (const roundId of rounds.slice(3)) {
        const x = now.get(roundId);
        assert.ok(x instanceof RoundNotVerified, `${roundId} refused, got ${String(x)}`);
        assert.deepEqual(
          { ...x.broken, reason: '' },
          { stream, revision: edited.revision, eventId: edited.eventId, reason: '' },
          roundId,
        );
        assert.match(x.broken.reason, /^its hash .* does not match its content/);
        assert.equal(x.roundId, roundId);
        assert.equal(x.tableId, table);
        assert.equal(
          x.message,
          `round "${roundId}" of table ${table} is not explained: its table's stored record failed verification at ` +
            `stream "${stream}" revision ${edited.revision} (event ${edited.eventId}): ${x.broken.reason}. The ` +
            `explanation reads that event or events after it, and nothing from there on is derived, since it is ` +
            `not what was recorded; check the store with table-audit verify --stream ${stream}`,
        );
      }
      // rounds 0 to 2 read nothing at or after the edit (round 2's answer stops where round 3 is settled): the same
      // answers, byte for byte; so is every round of the other table
      for (const roundId of [...rounds.slice(0, 3), ...roundsOf(other)]) {
        const was = before.get(roundId) as RoundExplanation;
        const is = now.get(roundId);
        assert.ok(!(is instanceof Error), `${roundId}: ${(is as Error | undefined)?.message}`);
        assert.equal(JSON.stringify(is!.json), JSON.stringify(was.json), roundId);
        assert.equal(is!.text, was.text, roundId);
      }
    } finally {
      await store.close();
    }
  });

  it('names a deleted event: the link of the event after it fails', async () => {
    const { store, path } = await stored();
    try {
      const rounds = roundsOf(table);
      const db = openForTampering(path);
      const gone = db
        .prepare(
          `SELECT revision FROM events WHERE stream = ? AND data LIKE ? ORDER BY revision LIMIT 1 OFFSET 2`,
        )
        .get(tableStream(table), `%"roundId":"${rounds[6]}"%`) as { revision: number };
      db.prepare('DELETE FROM events WHERE stream = ? AND revision = ?').run(
        tableStream(table),
        gone.revision,
      );
      db.close();
      const refused = await explainRound(store, rounds[8]!).catch((e: unknown) => e);
      assert.ok(refused instanceof RoundNotVerified, String(refused));
      assert.equal(refused.broken.revision, gone.revision + 1);
      assert.equal(refused.broken.reason, `revision ${gone.revision} is missing before it`);
      assert.equal((await explainRound(store, rounds[1]!)).roundId, rounds[1]);
    } finally {
      await store.close();
    }
  });
});
