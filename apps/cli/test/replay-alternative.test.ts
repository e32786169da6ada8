import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { IngestPipeline } from '@table-audit/ingest';
import { cleanRound } from '../../../packages/rules/test/f3cp/clean-round.ts';
import { TABLE_2008 } from '../../../packages/rules/test/f3cp/fixtures-2008.ts';

const bin = fileURLToPath(new URL('../bin/table-audit.js', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'ta-cli-alt-'));
after(() => rmSync(root, { recursive: true, force: true }));
const run = (args: string[]) =>
  spawnSync(process.execPath, [bin, ...args], {
    encoding: 'utf8',
    cwd: root,
    env: { ...process.env, TABLE_AUDIT_STORE: '' },
  });

/**
 * A disputed 2019 hand: seat 1 holds A-K-Q of hearts against the croupier's K-Q-J of spades, paid as the highest
 * Straight Flush (H1's chosen reading, art. 4.º 2) of 78/2008). Replayed with --alternative H1 (art. 8.º 1)
 * literally: a Flush), the same declared payouts differ from the engine's.
 */
describe('table-audit replay ROUND --alternative H1', () => {
  const store = join(root, 'events.sqlite');
  const events = cleanRound(
    {
      roundId: 'DISPUTED-2019-R1',
      seats: [{ seat: 1, ante: 10_000, pairPlus: 10_000, cards: 'Ah Kh Qh' }],
      banker: 'Ks Qs Js',
    },
    TABLE_2008,
  );

  it('ingests the hand', async () => {
    const s = new SqliteEventStore(store);
    try {
      const pipeline = new IngestPipeline(s, () => 0);
      await pipeline.submit(
        events.map((event, index) => ({
          source: { kind: 'in-process' as const, producer: 'test', index },
          event,
        })),
      );
    } finally {
      s.close();
    }
  });

  it('the chosen reading: a Straight Flush, nothing found', () => {
    const r = run(['replay', 'DISPUTED-2019-R1', '--store', store, '--json']);
    assert.equal(r.status, 0, r.stderr);
    const x = JSON.parse(r.stdout) as {
      ruleSet: { id: string; title: string };
      findings: { checkId: string }[];
    };
    assert.equal(x.ruleSet.id, 'f3cp-2008a');
    assert.deepEqual(x.findings, []);
  });

  it('the alternative reading: a Flush, the declared payouts differ', () => {
    const r = run(['replay', 'DISPUTED-2019-R1', '--store', store, '--alternative', 'H1', '--json']);
    assert.equal(r.status, 0, r.stderr);
    const x = JSON.parse(r.stdout) as { alternatives: { id: string }[]; findings: { checkId: string }[] };
    assert.deepEqual(
      x.alternatives.map((a) => a.id),
      ['H1'],
    );
    assert.deepEqual([...new Set(x.findings.map((f) => f.checkId))].sort(), [
      'F3CP08.OUTCOME.MISDECLARED',
      'F3CP08.PAYOUT.MISMATCH',
    ]);
    const text = run(['replay', 'DISPUTED-2019-R1', '--store', store, '--alternative', 'H1']);
    assert.match(text.stdout, /^Alternative reading of H1: A-K-Q of one suit is a Flush/);
    assert.match(text.stdout, /F3CP08\.PAYOUT\.MISMATCH/);
  });

  it('refuses an interpretation with no selectable reading, and --alternative without a round', () => {
    const bad = run(['replay', 'DISPUTED-2019-R1', '--store', store, '--alternative', 'H9']);
    assert.equal(bad.status, 2);
    assert.match(
      bad.stderr,
      /--alternative: interpretation "H9" has no alternative reading .* selectable: H1/,
    );
    const whole = run(['replay', '--store', store, '--alternative', 'H1']);
    assert.equal(whole.status, 2);
    assert.match(whole.stderr, /give the round id/);
  });
});
