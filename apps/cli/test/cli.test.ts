import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { redirectOutput } from '../src/commands/command.ts';
import { settleCommand } from '../src/commands/settle.ts';
import { fileIngestThreads, TWO_THREADS_FROM } from '../src/commands/ingest.ts';

const bin = fileURLToPath(new URL('../bin/table-audit.js', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'ta-cli-'));
after(() => {
  chmodSync(root, 0o755);
  rmSync(root, { recursive: true, force: true });
});
const fresh = (name: string) => {
  const d = join(root, name);
  mkdirSync(d, { recursive: true });
  return d;
};

// every run names its store, or runs in a directory of its own: a test never touches the repository's data/
const run = (args: string[], options: { cwd?: string; env?: Record<string, string> } = {}) => {
  const r = spawnSync(process.execPath, [bin, ...args], {
    encoding: 'utf8',
    cwd: options.cwd ?? root,
    env: { ...process.env, TABLE_AUDIT_STORE: '', ...options.env },
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};

const round = (over: Record<string, unknown> = {}) => ({
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
  ...over,
});
const roundsFile = (name: string, rounds: unknown[]) => {
  const file = join(root, name);
  writeFileSync(file, JSON.stringify({ rounds }, null, 2));
  return file;
};

describe('table-audit command line', () => {
  it('lists its commands and exit codes with --help', () => {
    const r = run(['--help']);
    assert.equal(r.code, 0);
    for (const c of ['run', 'math', 'settle', 'rules', 'cite', 'interpretations'])
      assert.match(r.stdout, new RegExp(`\\n  ${c} `));
    assert.match(r.stdout, /Exit status:\n {2}0 .*\n {2}1 .*\n {2}2 {2}usage error/);
    assert.match(r.stdout, /event store of every command is data\/events\.sqlite/);
  });

  it('exits 2 with the list of commands for an unknown command', () => {
    const r = run(['frobnicate']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /unknown command "frobnicate"/);
  });

  it('names the rule set of an instant by its Macau date', () => {
    const r = run(['rules', '--at', '2025-11-17T16:30:00Z']);
    assert.equal(r.code, 0);
    assert.equal(r.stdout.trim(), '2025-11-18: f3cp-2025a (89/2025 + 94/2025)');
    const old = run(['rules', '--date', '2025-11-10']);
    assert.equal(old.code, 0);
    assert.equal(old.stdout.trim(), '2025-11-10: f3cp-2008a (78/2008 + 97/2008)');
  });

  it('refuses impossible dates and instants without a zone, naming the input and the flag', () => {
    for (const [args, why] of [
      [['--date', '2025-13-45'], /--date: "2025-13-45" has month 13/],
      [['--date', '2025-02-30'], /--date: "2025-02-30" has day 30; 2025-02 has days 01 to 28/],
      [
        ['--at', '2025-11-17T16:30:00'],
        /--at "2025-11-17T16:30:00" is not an ISO-8601 instant with its time zone/,
      ],
      [['--at', '2025-02-30T10:00:00Z'], /--at "2025-02-30T10:00:00Z": the date has day 30/],
    ] as const) {
      const r = run(['rules', ...args]);
      assert.equal(r.code, 2, args.join(' '));
      assert.match(r.stderr, why);
      assert.equal(r.stdout, '');
    }
  });

  it('settles a rounds file and shows each line with its article; bad cards are named', () => {
    const file = roundsFile('rounds.json', [
      round(),
      {
        ...round({ id: 'old', date: '2024-01-01' }),
        seats: [{ seat: 1, cards: ['Qh', '6d', '4c'], decision: 'fold', bets: { ante: 10000 } }],
      },
    ]);
    const r = run(['settle', file]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /round "ok" \(rounds\[0\], line 3\)\nrule set f3cp-2025a/);
    assert.match(r.stdout, /ante .* lose .*Despacho n\.º 89\/2025, art\. 13\.º, alínea 3\)/s);
    assert.match(r.stdout, /pairPlus +MOP 50\.00/);
    // the 2024 round is settled under the 2008 rules, citing 78/2008 (with 97/2008's wording of art. 9.º)
    assert.match(r.stdout, /round "old" \(rounds\[1\], line \d+\)\nrule set f3cp-2008a/);
    assert.match(
      r.stdout,
      /Despacho n\.º 78\/2008, art\. 9\.º, alínea 2\) \(redacção do Despacho n\.º 97\/2008\)/,
    );
    const bad = roundsFile('bad-card.json', [
      { seats: [{ seat: 1, cards: ['Qx', '6d', '4c'], bets: { pairPlus: 1 } }], banker: ['Ks', '9d', '2c'] },
    ]);
    const b = run(['settle', bad, '--rules', 'f3cp-2025a']);
    assert.equal(b.code, 1);
    assert.match(b.stderr, /round #1 \(rounds\[0\], line 3\), seat 1, cards: "Qx" is not a card/);
  });

  it('settle reports a bad round at its place and goes on with the others', () => {
    const file = roundsFile('mixed.json', [
      round({ id: 'iso', date: '2025-11-20T10:00:00Z' }),
      null,
      round({ id: 'impossible', date: '2025-13-45' }),
      round({ id: 'good' }),
    ]);
    const r = run(['settle', file]);
    assert.equal(r.code, 1);
    assert.match(
      r.stderr,
      /round "iso" \(rounds\[0\], line 3\), "date": "2025-11-20T10:00:00Z" is a timestamp, not a date/,
    );
    assert.match(r.stderr, /round #2 \(rounds\[1\], line \d+\): the round is null; each round is an object/);
    assert.match(r.stderr, /round "impossible" \(rounds\[2\], line \d+\), "date": "2025-13-45" has month 13/);
    assert.match(r.stdout, /round "good" \(rounds\[3\], line \d+\)\nrule set f3cp-2025a/);
    assert.match(r.stderr, /1 of 4 rounds settled; 3 rejected/);
  });

  it('settle refuses an unknown bet key, naming it, the round, the seat and the valid keys', () => {
    const file = roundsFile('typo.json', [
      round({ seats: [{ seat: 2, cards: ['Qh', '6d', '4c'], bets: { pairplus: 5000 } }] }),
    ]);
    const r = run(['settle', file]);
    assert.equal(r.code, 1);
    assert.match(
      r.stderr,
      /round "ok" \(rounds\[0\], line 3\), seat 2: unknown bet "pairplus"; the bets are ante, play, pairPlus, sixCardBonus, progressive/,
    );
  });

  it('settle reports a Play that differs from the Ante as the replay does (art. 12.º n.º 2)', () => {
    const file = roundsFile('play.json', [
      round({
        seats: [{ seat: 3, cards: ['Qh', '6d', '4c'], decision: 'play', bets: { ante: 10000, play: 20000 } }],
      }),
    ]);
    const r = run(['settle', file]);
    assert.equal(r.code, 1);
    assert.match(
      r.stdout,
      /finding F3CP\.BET\.PLAY_NOT_EQUAL_ANTE \(high\): seat 3: Play MOP 200\.00 is not equal to the Ante MOP 100\.00 — Despacho n\.º 89\/2025, art\. 12\.º, n\.º 2/,
    );
    const j = run(['settle', file, '--json']);
    const [result] = JSON.parse(j.stdout) as {
      findings: { checkId: string; citations: { key: string }[] }[];
    }[];
    assert.equal(result!.findings[0]!.checkId, 'F3CP.BET.PLAY_NOT_EQUAL_ANTE');
    assert.equal(result!.findings[0]!.citations[0]!.key, '89/2025 art.12 n.2');
  });

  it('settle gives the line and column of a JSON syntax error', () => {
    const file = join(root, 'broken.json');
    writeFileSync(file, '{\n  "rounds": [\n    { "id": "a", }\n  ]\n}\n');
    const r = run(['settle', file]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /broken\.json, line 3, column 18: not valid JSON: unexpected "}"/);
  });

  it('settle --json writes round by round, never the whole output at once', async () => {
    const file = roundsFile(
      'many.json',
      Array.from({ length: 2000 }, (_, i) => round({ id: `r${i}` })),
    );
    const writes: string[] = [];
    const before = redirectOutput((text) => writes.push(text));
    let code: number;
    try {
      code = await settleCommand.run([file, '--json']);
    } finally {
      redirectOutput(before);
    }
    assert.equal(code, 0);
    assert.ok(writes.length >= 2000, `${writes.length} writes`);
    assert.ok(Math.max(...writes.map((w) => w.length)) < 20_000, 'each write holds one round');
    const all = JSON.parse(writes.join('')) as { id: string; settlement: unknown }[];
    assert.equal(all.length, 2000);
    assert.equal(all[1999]!.id, 'r1999');
  });

  it('exits quietly when the reader of its output goes away (| head)', () => {
    const file = roundsFile(
      'pipe.json',
      Array.from({ length: 400 }, (_, i) => round({ id: `p${i}` })),
    );
    const r = spawnSync('sh', ['-c', `"${process.execPath}" "${bin}" settle "${file}" | head -n 1`], {
      encoding: 'utf8',
    });
    assert.equal(r.stdout.split('\n')[0], `${file} round "p0" (rounds[0], line 3)`);
    assert.doesNotMatch(r.stderr, /EPIPE|Error/);
  });

  it('quotes a provision in Portuguese and Chinese, by key or as findings print it', () => {
    const r = run(['cite', '89/2025 art.15 n.5']);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /PT: 5\. Se numa jogada os jogadores forem titulares de um Naipe Real/);
    assert.match(r.stdout, /ZH: .*同花順/);
    const pasted = run(['cite', 'Despacho n.º 89/2025, art. 15.º, n.º 5']);
    assert.equal(pasted.code, 0, pasted.stderr);
    assert.equal(pasted.stdout, r.stdout);
    const amended = run([
      'cite',
      'Despacho n.º 89/2025, art. 7.º, n.º 1, alínea 2) (redacção do Despacho n.º 94/2025)',
    ]);
    assert.match(amended.stdout, /^89\/2025 art\.7 n\.1 al\.2 \[94\/2025\]/);
  });

  it('refuses numbers out of range, giving the range', () => {
    const out = join(root, 'never.avro');
    for (const [args, why] of [
      [['--fault-rate', '7'], /--fault-rate takes a share from 0 to 1 .*got "7"/],
      [['--tables=-1'], /--tables takes a whole number from 1 to 999, got "-1"/],
      [['--rounds', '2.5'], /--rounds takes a whole number from 0 to 10,000, got "2\.5"/],
      [['--seed', 'x'], /--seed takes a whole number from 0 to 4,294,967,295, got "x"/],
    ] as const) {
      const r = run(['simulate', '--out', out, ...args]);
      assert.equal(r.code, 2, args.join(' '));
      assert.match(r.stderr, why);
    }
    const r = run(['run', '--tables', '0', '--dir', join(root, 'never-run')]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--tables takes a whole number from 1 to 999, got "0"/);
    assert.ok(
      !existsSync(out) && !existsSync(join(root, 'never-run')),
      'nothing made before the arguments are checked',
    );
  });

  it('ingests files over two threads (--threads 2) as over one: the same counts, a chain that verifies', () => {
    const dir = fresh('threads');
    const file = join(dir, 's.avro');
    assert.equal(run(['simulate', '--out', file, '--tables', '3', '--rounds', '8', '--seed', '2']).code, 0);
    const counts = (threads: string) => {
      const store = join(dir, `t${threads}.sqlite`);
      const r = run(['ingest', file, '--store', store, ...(threads ? ['--threads', threads] : [])]);
      assert.equal(r.code, 0, r.stderr);
      // a small file goes over one thread unless told
      assert.match(r.stdout, threads === '2' ? /events\/s, two threads\)/ : /events\/s, one thread\)/);
      const verified = run(['verify', '--store', store]);
      assert.equal(verified.code, 0, verified.stdout + verified.stderr);
      return /accepted (\d+), already stored (\d+), rejected (\d+)/.exec(r.stdout)?.slice(1);
    };
    const one = counts('1');
    assert.ok(one && Number(one[0]) > 1000, String(one));
    assert.deepEqual(counts('2'), one);
    assert.deepEqual(counts(''), one);
    // from 8 MiB of input, two threads unless told
    assert.equal(fileIngestThreads(undefined, TWO_THREADS_FROM - 1), 1);
    assert.equal(fileIngestThreads(undefined, TWO_THREADS_FROM), 2);
    assert.equal(fileIngestThreads('1', 10 * TWO_THREADS_FROM), 1);
    assert.equal(fileIngestThreads('2', 1), 2);
    const bad = run(['ingest', file, '--store', join(dir, 'x.sqlite'), '--threads', '3']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--threads takes 1 or 2, got "3"/);
  });

  it('a failed ingest leaves no store file or directory behind; store errors name the path and why', () => {
    const store = join(root, 'made', 'by', 'ingest', 'events.sqlite');
    const r = run(['ingest', join(root, 'missing.avro'), '--store', store]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /missing\.avro: cannot be read/);
    assert.ok(!existsSync(join(root, 'made')), 'the store and the directories made for it are removed');

    const kept = fresh('kept');
    const k = run(['ingest', join(root, 'missing.avro'), '--store', join(kept, 'events.sqlite')]);
    assert.equal(k.code, 1);
    assert.deepEqual(readdirSync(kept), [], 'an existing directory stays, empty as it was');

    const dirStore = fresh('a-directory');
    const d = run(['ingest', join(root, 'missing.avro'), '--store', dirStore]);
    assert.equal(d.code, 1);
    assert.match(
      d.stderr,
      /cannot open the event store .*a-directory: unable to open database file; .*a-directory is a directory/,
    );

    // /proc takes no new directories, even from root, and answers ENOENT as some read-only media do
    const p = run(['ingest', join(root, 'missing.avro'), '--store', '/proc/table-audit/db/events.sqlite']);
    assert.equal(p.code, 1);
    assert.match(p.stderr, /cannot create the directory \/proc\/table-audit for the event store .*: ENOENT/);

    const v = run(['verify', '--store', join(root, 'nowhere.sqlite')]);
    assert.equal(v.code, 1);
    assert.match(v.stderr, /no event store at .*nowhere\.sqlite/);
    assert.ok(!existsSync(join(root, 'nowhere.sqlite')));
  });

  it('verify reads a store without writing anything next to it (read-only media)', async () => {
    const dir = fresh('readonly');
    const path = join(dir, 'events.sqlite');
    const store = new SqliteEventStore(path);
    await store.append('table-1', [{ eventId: 'e1', type: 'T', data: { n: 1 } }]);
    await store.close(); // a clean close leaves the file alone: no -wal, no -shm
    assert.deepEqual(readdirSync(dir), ['events.sqlite']);
    const bytes = readFileSync(path);
    chmodSync(path, 0o444);
    chmodSync(dir, 0o555);
    try {
      // The tests run as root, whom these modes do not stop, so they alone prove nothing. What is proved: verify
      // opens the file without creating its -wal and -shm files (an ordinary read-only SQLite open of a WAL
      // store creates both, which is what fails on read-only media) and without changing a byte of it.
      const r = run(['verify', '--store', path]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^ok: 1 events in 1 streams/);
      assert.deepEqual(readdirSync(dir), ['events.sqlite']);
      assert.ok(readFileSync(path).equals(bytes));
    } finally {
      chmodSync(dir, 0o755);
      chmodSync(path, 0o644);
    }
    // with a writer at work (its -wal file holds committed events), verify reads through it
    const writer = new SqliteEventStore(path);
    try {
      await writer.append('table-1', [{ eventId: 'e2', type: 'T', data: { n: 2 } }]);
      assert.ok(existsSync(`${path}-wal`));
      const r = run(['verify', '--store', path]);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^ok: 2 events in 1 streams/);
    } finally {
      await writer.close();
    }
  });

  it('run refuses a directory it did not make, and deletes nothing in it', () => {
    const dir = fresh('mine');
    writeFileSync(join(dir, 'thesis.txt'), 'years of work');
    const r = run([
      'run',
      '--no-serve',
      '--dir',
      dir,
      '--store',
      join(root, 'refused.sqlite'),
      '--tables',
      '2',
      '--rounds',
      '2',
    ]);
    assert.equal(r.code, 2);
    assert.match(
      r.stderr,
      /--dir .*mine: the directory is not empty and was not made by table-audit run \(it has no \.table-audit-run marker\)/,
    );
    assert.deepEqual(readdirSync(dir), ['thesis.txt']);
    assert.ok(!existsSync(join(root, 'refused.sqlite')));
  });

  it('run fails, naming each labelled fault missed, when its proof fails', () => {
    const r = run([
      'run',
      '--no-serve',
      '--dir',
      join(root, 'small'),
      '--store',
      join(root, 'small.sqlite'),
      '--tables',
      '2',
      '--rounds',
      '2',
    ]);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /labelled faults missed: 1/);
    assert.match(
      r.stderr,
      /the proof failed: 1 labelled fault\(s\) missed.*\n {2}missed: table MAC-F3CP-002, fault betting-system: no F3CP\.CONDUCT\.BETTING_SYSTEM finding/,
    );
  });

  it('runs the main job end to end into the default store, which verify then reads; a second run adds nothing', () => {
    const cwd = fresh('project');
    const args = ['run', '--no-serve', '--dir', 'out', '--tables', '6', '--rounds', '20', '--seed', '3'];
    const r = run(args, { cwd });
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      // counted from the session: the colluders' table (400 rounds) is one of the 6
      /1\. simulator: F3CP 6 table\(s\), 500 rounds; F3CP of 2019 \(2008 rules\) 1 table\(s\), 20 rounds; CRAPS 1 table\(s\), 150 throws; 13 Cards 1 table\(s\), 60 rounds; Mah-Jong 1 table\(s\), 40 deals \(the deal only: outcomes out of scope\); [\d,]+ events → /,
    );
    // the CRAPS table's faults are found too, under their own check ids
    assert.match(r.stdout, /CRAPS\.[A-Z_]+\.[A-Z_]+ +(?:critical|high|medium|low) +\d+/);
    // and the 2019 table's, under the 2008 rules' own check ids
    assert.match(r.stdout, /F3CP08\.[A-Z_]+\.[A-Z_]+ +(?:critical|high|medium|low) +\d+/);
    // and those of the 13 Cards and Mah-Jong tables
    assert.match(r.stdout, /THIRTEEN\.[A-Z_.]+ +(?:critical|high|medium|low) +\d+/);
    assert.match(r.stdout, /MAHJONG\.[A-Z_.]+ +(?:critical|high|medium|low) +\d+/);
    assert.match(r.stdout, /2\. ingest: ([\d,]+) events appended to data\/events\.sqlite, 0 rejected/);
    assert.match(r.stdout, /3\. replay: [\d,]+ rounds re-derived, \d+ findings appended/);
    assert.match(r.stdout, /labelled faults missed: 0, findings on clean rounds: 0/);
    assert.match(r.stdout, /^4\. analytics:$/m);
    assert.match(
      r.stdout,
      /^summary \([\d.]+ s in all\):\n {3}10 tables, [\d,]+ rounds .*; ([\d,]+) events: \1 appended by this run, 0 already stored, 0 rejected\n {3}\d+ findings \(\d+ critical, \d+ high, \d+ medium, \d+ low\) from \d+ checks; the proof holds/m,
    );
    assert.match(r.stdout, /F3CP\.CONDUCT\.COLLUSION +high +1/);
    assert.match(r.stdout, /\n {3}disputed hand .*\n[\s\S]*Settlement, expected \| declared:/);
    // the explanation shows Macau time, saying so, and MOP, not bare avos
    assert.match(
      r.stdout,
      /Events, from 2025-12-01 \d{2}:\d{2}:\d{2}\.\d{3} Macau time \(UTC\+8\):\n {2}\d{2}:\d{2}:\d{2}\.\d{3} {2}round/,
    );
    assert.match(
      r.stdout,
      /F3CP\.PAYOUT\.MISMATCH: seat \d \w+: expected .*MOP [\d,]+\.\d\d.*declared .*MOP [\d,]+\.\d\d/,
    );
    assert.deepEqual(readdirSync(join(cwd, 'out')).sort(), [
      '.table-audit-run',
      'anchors',
      'session.avro',
      'signing-key.pem',
      'truth.json',
    ]);
    // the embedded default: a key the run made, said so, and anchors signed with it after ingest and replay
    assert.match(
      r.stdout,
      /made a signing key for this run's anchors: out\/signing-key\.pem \(key ed25519:\w{16}, created by this run/,
    );
    assert.match(r.stdout, /anchor #\d+ signed \(ed25519:\w{16}\): \d+ stream heads up to position \d+/);
    const events = Number(/2\. ingest: ([\d,]+)/.exec(r.stdout)![1]!.replaceAll(',', ''));

    const v = run(['verify', '--anchors', 'out/anchors'], { cwd });
    assert.equal(v.code, 0, v.stdout + v.stderr);
    assert.match(v.stdout, /^ok: (\d+) events/);
    assert.match(v.stdout, /the store matches every signed anchor/);
    const stored = Number(/^ok: (\d+) events/.exec(v.stdout)![1]);
    assert.ok(stored > events, 'the events and the findings');

    writeFileSync(join(cwd, 'out', 'notes.txt'), 'mine');
    const again = run(args, { cwd });
    assert.equal(again.code, 0, again.stderr);
    assert.match(
      again.stdout,
      /2\. ingest: 0 events appended to data\/events\.sqlite, [\d,]+ already stored, 0 rejected/,
    );
    assert.match(again.stdout, /labelled faults missed: 0, findings on clean rounds: 0/);
    assert.doesNotMatch(again.stdout, /made a signing key/, 'the key is made once');
    const anchoredAgain = run(['verify', '--anchors', 'out/anchors'], { cwd });
    assert.equal(anchoredAgain.code, 0, anchoredAgain.stdout);
    assert.equal(
      /^ok: (\d+) events/.exec(run(['verify'], { cwd }).stdout)![1],
      String(stored),
      'nothing twice',
    );
    assert.ok(
      existsSync(join(cwd, 'out', 'notes.txt')),
      'a reused run directory keeps what the run did not write',
    );

    const other = run([...args.slice(0, -1), '4'], { cwd });
    assert.equal(other.code, 1);
    assert.match(
      other.stderr,
      /already holds another simulation under the same table ids .* nothing was appended/,
    );
    assert.equal(/^ok: (\d+) events/.exec(run(['verify'], { cwd }).stdout)![1], String(stored));
  });
});
