import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { IngestPipeline } from '@table-audit/ingest';
import { macauDate } from '@table-audit/rules';
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
      /--alternative: interpretation "H9" has no alternative reading .* selectable: .*H1/,
    );
    const whole = run(['replay', '--store', store, '--alternative', 'H1']);
    assert.equal(whole.status, 2);
    assert.match(whole.stderr, /give the round id/);
  });

  it('replay --what-if H1=ALT over the period: the round changes, the store is not written', () => {
    const day = macauDate(events[0]!.data.header.eventTime);
    const before = statSync(store).mtimeMs;
    const r = run([
      'replay',
      '--store',
      store,
      '--what-if',
      'H1=ALT',
      '--from',
      day,
      '--to',
      day,
      '--json',
      '--workers',
      '1',
    ]);
    assert.equal(r.status, 0, r.stderr);
    const report = JSON.parse(r.stdout);
    assert.equal(report.roundsCompared, 1);
    assert.equal(report.roundsChanged, 1);
    assert.equal(report.changed[0].roundId, 'DISPUTED-2019-R1');
    assert.ok(report.findings.some((f: { appeared: number }) => f.appeared > 0));
    assert.equal(statSync(store).mtimeMs, before, 'nothing written');
    const text = run([
      'replay',
      '--store',
      store,
      '--what-if',
      'H1=ALT',
      '--from',
      day,
      '--to',
      day,
      '--workers',
      '1',
    ]);
    assert.match(text.stdout, /1 rounds re-derived under both readings .*; 1 changed/);
    assert.match(text.stdout, /MOP/);
  });

  it('replay --keep-readings, then the period what-if of one reading is answered from them (the same report), --derive derives it', () => {
    const day = macauDate(events[0]!.data.header.eventTime);
    const before = statSync(store).mtimeMs;
    const period = ['--what-if', 'H1=ALT', '--from', day, '--to', day, '--workers', '1'];
    const derived = JSON.parse(run(['replay', '--store', store, ...period, '--json']).stdout);
    assert.equal(derived.source.kind, 'derived');
    assert.match(derived.source.why, /no readings are kept for this store/);
    const kept = run(['replay', '--store', store, '--keep-readings', '--workers', '1']);
    assert.equal(kept.status, 0, kept.stderr);
    assert.match(
      kept.stdout,
      /Readings kept ready in .*events\.sqlite\.readings\.sqlite: 1 of 1 tables derived/,
    );
    assert.equal(statSync(store).mtimeMs, before, 'the store is not written');
    const again = run(['replay', '--store', store, '--keep-readings', '--workers', '1']);
    assert.match(again.stdout, /0 of 1 tables derived/);
    const answered = JSON.parse(run(['replay', '--store', store, ...period, '--json']).stdout);
    assert.equal(answered.source.kind, 'kept');
    const same = (r: Record<string, unknown>) => {
      const { source: _s, elapsedMs: _e, ...rest } = r;
      return rest;
    };
    assert.deepEqual(same(answered), same(derived));
    const text = run(['replay', '--store', store, ...period]);
    assert.match(text.stdout, /1 rounds compared under both readings, from the readings kept ready/);
    assert.match(text.stdout, /Macau time \(UTC\+8\)/);
    const forced = JSON.parse(run(['replay', '--store', store, ...period, '--derive', '--json']).stdout);
    assert.equal(forced.source.kind, 'derived');
    assert.equal(forced.source.why, null);
    const wrong = run(['replay', '--store', store, '--keep-readings', '--what-if', 'H1=ALT']);
    assert.equal(wrong.status, 2);
    assert.match(wrong.stderr, /--what-if does not go with --keep-readings/);
  });

  it('replay ROUND --what-if H1=ALT: both derivations side by side, the provisions in PT and ZH', () => {
    const r = run(['replay', 'DISPUTED-2019-R1', '--store', store, '--what-if', 'H1=ALT']);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /CHOSEN READINGS \(the register\) +ALTERNATIVE \(H1=ALT\)/);
    assert.match(r.stdout, /PT: /);
    assert.match(r.stdout, / \| /, 'a row that differs is marked');
  });

  it('replay ROUND --what-if all: the 2008 readings the hand hinges on (H1; H5, which refuses its Pair Plus), the others unchanged', () => {
    const r = run(['replay', 'DISPUTED-2019-R1', '--store', store, '--what-if', 'all']);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /rule set f3cp-2008a/);
    assert.match(r.stdout, /2 of \d+ readings change this round:\n\nH1=ALT — /);
    assert.match(r.stdout, /No change under: .*H2=ALT/);
    assert.doesNotMatch(r.stdout, /J\d+=ALT/, 'only the readings of the round’s rule set');
    assert.match(r.stdout, /table-audit replay DISPUTED-2019-R1 --what-if H1=ALT/);
    const j = run(['replay', 'DISPUTED-2019-R1', '--store', store, '--what-if', 'all', '--json']);
    assert.equal(j.status, 0, j.stderr);
    const x = JSON.parse(j.stdout) as { readings: { reading: { key: string }; changed: unknown }[] };
    assert.deepEqual(
      x.readings.filter((r) => r.changed).map((r) => r.reading.key),
      ['H1', 'H5'],
    );
    const period = run([
      'replay',
      '--store',
      store,
      '--what-if',
      'all',
      '--from',
      '2019-01-01',
      '--to',
      '2019-01-02',
    ]);
    assert.equal(period.status, 2);
    assert.match(period.stderr, /--what-if all is for one round/);
  });

  it('refuses a bad --what-if, a period without dates, and --from without --what-if', () => {
    const bad = run([
      'replay',
      '--store',
      store,
      '--what-if',
      'H1=ALT,Z9=ALT',
      '--from',
      '2019-01-01',
      '--to',
      '2019-01-02',
    ]);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /item 2 \("Z9=ALT"\): Z9 is not in the interpretation register/);
    assert.equal(run(['replay', '--store', store, '--what-if', 'H1=ALT']).status, 2);
    const lone = run(['replay', '--store', store, '--from', '2019-01-01']);
    assert.equal(lone.status, 2);
    assert.match(lone.stderr, /--from goes with --what-if/);
    const long = run([
      'replay',
      '--store',
      store,
      '--what-if',
      'H1=ALT',
      '--from',
      '2018-01-01',
      '--to',
      '2019-12-31',
    ]);
    assert.equal(long.status, 2);
    assert.match(long.stderr, /at most 366/);
  });
});
