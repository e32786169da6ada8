/**
 * `table-audit verify` end to end: the real command line (apps/cli/bin/table-audit.js) on a store file that is
 * intact, then tampered with behind its back.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { openForTampering } from '../src/sqlite-tamper.ts';
import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import {
  Anchorer,
  FileAnchorSink,
  merkleRoot,
  publicKeyId,
  sortHeads,
  type StreamHead,
} from '../src/index.ts';
import { SqliteEventStore } from '../src/sqlite-event-store.ts';

const bin = fileURLToPath(new URL('../../../apps/cli/bin/table-audit.js', import.meta.url));
// The CLI imports this package by name; pnpm links it into the CLI's node_modules on install.
const linked = existsSync(
  fileURLToPath(new URL('../../../apps/cli/node_modules/@table-audit/eventstore', import.meta.url)),
);

const dir = mkdtempSync(join(tmpdir(), 'ta-cli-verify-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const run = (args: string[], env: Record<string, string> = {}) => {
  const r = spawnSync(process.execPath, [bin, 'verify', ...args], {
    encoding: 'utf8',
    env: { ...process.env, TABLE_AUDIT_STORE: '', ...env },
    cwd: dir,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};

async function makeStore(name: string): Promise<string> {
  const path = join(dir, name);
  const store = new SqliteEventStore(path);
  await store.append('table-1', [
    { eventId: 'round-1/dealt', type: 'CardsDealt', data: { seat: 1 } },
    { eventId: 'round-1/paid', type: 'PayoutDeclared', data: { seat: 1, amount: 2000 } },
  ]);
  await store.append('table-2', [{ eventId: 'round-9/dealt', type: 'CardsDealt', data: { seat: 4 } }]);
  await store.close();
  return path;
}

async function storeHeads(path: string): Promise<StreamHead[]> {
  const store = new SqliteEventStore(path, { readOnly: true });
  const heads = new Map<string, StreamHead>();
  for await (const e of store.readAll())
    heads.set(e.stream, { stream: e.stream, revision: e.revision, hash: e.hash });
  await store.close();
  return sortHeads(heads.values());
}

/** A store with an anchor of its heads in DIR (signed with a fresh key), and the key's file. */
async function anchoredStore(name: string): Promise<{ path: string; anchors: string; keyFile: string }> {
  const path = await makeStore(`${name}.sqlite`);
  const anchors = join(dir, `${name}-anchors`);
  const key = generateKeyPairSync('ed25519').privateKey;
  const keyFile = join(dir, `${name}-key.pem`);
  writeFileSync(keyFile, key.export({ type: 'pkcs8', format: 'pem' }));
  const store = new SqliteEventStore(path);
  await new Anchorer(store, new FileAnchorSink(anchors, key), { key, storeId: name }).anchor();
  await store.close();
  return { path, anchors, keyFile };
}

describe(
  'table-audit verify',
  { skip: linked ? false : '@table-audit/eventstore is not linked into apps/cli yet: run pnpm install' },
  () => {
    it('says ok and exits 0 for an intact store, in text and JSON, from --store or TABLE_AUDIT_STORE', async () => {
      const path = await makeStore('intact.sqlite');
      const text = run(['--store', path]);
      assert.equal(text.code, 0, text.stderr);
      assert.match(text.stdout, /^ok: 3 events in 2 streams, every hash chain intact/);
      const viaEnv = run(['--json'], { TABLE_AUDIT_STORE: path });
      assert.equal(viaEnv.code, 0, viaEnv.stderr);
      assert.deepEqual(JSON.parse(viaEnv.stdout), {
        store: path,
        stream: null,
        ok: true,
        streams: 2,
        events: 3,
        // the heads and their root, for a regulator to keep elsewhere
        heads: await storeHeads(path),
        merkleRoot: merkleRoot(await storeHeads(path)),
      });
    });

    it('names the first broken link and exits 1 for a tampered store', async () => {
      const path = await makeStore('tampered.sqlite');
      const db = openForTampering(path);
      db.prepare(
        `UPDATE events SET data = '{"amount":200000,"seat":1}' WHERE event_id = 'round-1/paid'`,
      ).run();
      db.close();
      const text = run(['--store', path]);
      assert.equal(text.code, 1);
      assert.match(
        text.stdout,
        /^BROKEN: stream "table-1" revision 1 \(event round-1\/paid\): its hash .* does not match/,
      );
      const report = JSON.parse(run(['--store', path, '--json']).stdout) as {
        ok: boolean;
        firstBroken: unknown;
      };
      assert.equal(report.ok, false);
      assert.deepEqual(
        { ...(report.firstBroken as object), reason: undefined },
        {
          stream: 'table-1',
          revision: 1,
          eventId: 'round-1/paid',
          reason: undefined,
        },
      );
      const other = run(['--store', path, '--stream', 'table-2']);
      assert.equal(other.code, 0, 'the other stream is intact');
      assert.match(other.stdout, /of stream "table-2"/);
    });

    it('exits 1 with a clear message when there is no store', () => {
      const r = run(['--store', join(dir, 'nowhere.sqlite')]);
      assert.equal(r.code, 1);
      assert.match(r.stderr, /no event store at .*nowhere\.sqlite/);
      const byDefault = run([]);
      assert.equal(byDefault.code, 1);
      assert.match(byDefault.stderr, /no event store at \/.*\/data\/events\.sqlite/); // the default, made absolute
    });

    it('--anchors: ok when the store matches; names the truncated stream and exits 1 when not', async () => {
      const { path, anchors } = await anchoredStore('anchored');
      const ok = run(['--store', path, '--anchors', anchors]);
      assert.equal(ok.code, 0, ok.stdout + ok.stderr);
      assert.match(
        ok.stdout,
        /anchors: 1 of 1 signed by ed25519:\w{16} .*the last, #0 at .* covers up to position 3/,
      );
      assert.match(ok.stdout, /the store matches every signed anchor/);

      const db = openForTampering(path);
      db.prepare(`DELETE FROM events WHERE event_id = 'round-1/paid'`).run();
      db.close();
      const cut = run(['--store', path, '--anchors', anchors]);
      assert.equal(cut.code, 1);
      assert.match(cut.stdout, /^chains ok: 2 events in 2 streams/);
      assert.match(
        cut.stdout,
        /TRUNCATED: stream "table-1" ends at revision 0, but anchor #0 \(line 1, .*\) signed revision 1 \(hash \w{12}…\): revisions 1\.\.1 were removed/,
      );
      const report = JSON.parse(run(['--store', path, '--anchors', anchors, '--json']).stdout) as {
        ok: boolean;
        anchors: { problems: { kind: string; stream: string; revision: number }[] };
      };
      assert.equal(report.ok, false);
      assert.deepEqual(
        report.anchors.problems.map((p) => [p.kind, p.stream, p.revision]),
        [['truncated', 'table-1', 1]],
      );
    });

    it('--show-key prints the public key and its id; another key does not verify the anchors', async () => {
      const { path, anchors, keyFile } = await anchoredStore('keyed');
      const shown = run(['--anchors', anchors, '--show-key']);
      assert.equal(shown.code, 0, shown.stderr);
      const id = publicKeyId(createPrivateKey(readFileSync(keyFile, 'utf8')));
      assert.match(shown.stdout, new RegExp(`^${id} \\(.*public-key\\.pem\\)\n-----BEGIN PUBLIC KEY-----`));

      const otherKey = join(dir, 'other-public.pem');
      writeFileSync(
        otherKey,
        generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }),
      );
      const foreign = run(['--store', path, '--anchors', anchors, '--public-key', otherKey]);
      assert.equal(foreign.code, 1);
      assert.match(
        foreign.stdout,
        /ANCHOR-INVALID: .*anchors\.jsonl line 1: signed by key ed25519:\w+, not by ed25519:\w+/,
      );
      assert.match(foreign.stdout, /NO-ANCHORS: .* holds no anchor signed by this key/);
    });
  },
);
