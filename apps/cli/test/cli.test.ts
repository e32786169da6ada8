import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../bin/table-audit.js', import.meta.url));
const run = (...args: string[]) => {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};

describe('table-audit command line', () => {
  it('lists its commands with --help', () => {
    const r = run('--help');
    assert.equal(r.code, 0);
    for (const c of ['run', 'math', 'settle', 'rules', 'cite', 'interpretations'])
      assert.match(r.stdout, new RegExp(`\\n  ${c} `));
  });

  it('exits 2 with the list of commands for an unknown command', () => {
    const r = run('frobnicate');
    assert.equal(r.code, 2);
    assert.match(r.stderr, /unknown command "frobnicate"/);
  });

  it('names the rule set of an instant by its Macau date', () => {
    const r = run('rules', '--at', '2025-11-17T16:30:00Z');
    assert.equal(r.code, 0);
    assert.equal(r.stdout.trim(), '2025-11-18: f3cp-2025a (89/2025 + 94/2025)');
    const old = run('rules', '--date', '2025-11-10');
    assert.equal(old.code, 1);
    assert.match(old.stdout, /f3cp-2008a .* not implemented/);
  });

  it('settles a rounds file and shows each line with its article; bad cards are named', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ta-cli-'));
    const file = join(dir, 'rounds.json');
    writeFileSync(
      file,
      JSON.stringify({
        rounds: [
          {
            id: 'ok',
            date: '2025-11-20',
            seats: [
              {
                seat: 1,
                cards: ['Qh', '6d', '4c'],
                decision: 'play',
                bets: { ante: 10000, play: 10000, pairPlus: 5000 },
              },
            ],
            banker: ['Ks', '9d', '2c'],
          },
          {
            id: 'old',
            date: '2024-01-01',
            seats: [{ seat: 1, cards: ['Qh', '6d', '4c'], decision: 'fold', bets: { ante: 10000 } }],
            banker: ['Ks', '9d', '2c'],
          },
        ],
      }),
    );
    const r = run('settle', file);
    assert.equal(r.code, 1, 'the 2024 round cannot be settled yet');
    assert.match(r.stdout, /round ok\nrule set f3cp-2025a/);
    assert.match(r.stdout, /ante .* lose .*Despacho n\.º 89\/2025, art\. 13\.º, alínea 3\)/s);
    assert.match(r.stdout, /round old: rule set f3cp-2008a .* not implemented/);
    writeFileSync(
      file,
      JSON.stringify({
        rounds: [
          {
            seats: [{ seat: 1, cards: ['Qx', '6d', '4c'], bets: { pairPlus: 1 } }],
            banker: ['Ks', '9d', '2c'],
          },
        ],
      }),
    );
    const bad = run('settle', file, '--rules', 'f3cp-2025a');
    assert.equal(bad.code, 1, 'a round that cannot be read is reported and the others go on');
    assert.match(bad.stdout, /round 1, seat 1: "Qx" is not a card/);
  });

  it('quotes a provision in Portuguese and Chinese', () => {
    const r = run('cite', '89/2025 art.15 n.5');
    assert.equal(r.code, 0);
    assert.match(r.stdout, /PT: 5\. Se numa jogada os jogadores forem titulares de um Naipe Real/);
    assert.match(r.stdout, /ZH: .*同花順/);
  });

  it('runs the main job end to end: simulator, ingest, event store, replay, findings, a disputed hand', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ta-run-'));
    const r = run('run', '--dir', dir, '--tables', '6', '--rounds', '20', '--seed', '3');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /1\. simulator: 6 tables x 20 rounds/);
    assert.match(r.stdout, /2\. ingest: [\d,]+ events appended .* 0 rejected/);
    assert.match(r.stdout, /3\. replay: [\d,]+ rounds re-derived, \d+ findings appended/);
    assert.match(r.stdout, /labelled faults missed: 0, findings on clean rounds: 0/);
    assert.match(r.stdout, /F3CP\.CONDUCT\.COLLUSION +1/);
    assert.match(r.stdout, /5\. disputed hand .*\n[\s\S]*Settlement, expected \| declared:/);
  });
});
