/**
 * A test's own edit of a store file it made, behind the store's back, as the replay's tamper tests do: the first
 * payout of a round raised in the file, its hash not recomputed, so the table's chain breaks there. Used by the
 * replay's, the API's and the CLI's tests of what a broken chain gives.
 */
import assert from 'node:assert/strict';
import { openForTampering } from '@table-audit/eventstore/sqlite-tamper';
import { tableStream } from '../src/streams.ts';

export function raisePayout(
  path: string,
  tableId: string,
  roundId: string,
): { revision: number; eventId: string } {
  const db = openForTampering(path);
  try {
    const row = db
      .prepare(
        `SELECT revision, event_id, data FROM events WHERE stream = ? AND type = 'PayoutMade' AND data LIKE ? ORDER BY revision LIMIT 1`,
      )
      .get(tableStream(tableId), `%"roundId":"${roundId}"%`) as
      { revision: number; event_id: string; data: string } | undefined;
    assert.ok(row, `a payout of ${roundId}`);
    const changed = row.data.replace(/"amount":(\d+)/, (_m, a: string) => `"amount":${Number(a) * 2 + 100}`);
    assert.notEqual(changed, row.data, 'the edit changes the payout');
    db.prepare('UPDATE events SET data = ? WHERE stream = ? AND revision = ?').run(
      changed,
      tableStream(tableId),
      row.revision,
    );
    return { revision: row.revision, eventId: row.event_id };
  } finally {
    db.close();
  }
}
