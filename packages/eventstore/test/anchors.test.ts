/**
 * Signed anchors: the Merkle tree and its proofs, the append-only file, the anchorer, and every edit the chain
 * alone cannot see — each made directly in the SQLite file, as with sqlite3, then caught and located by verify.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type Database from 'better-sqlite3';
import { openForTampering } from '../src/sqlite-tamper.ts';
import {
  Anchorer,
  AnchorRefused,
  eventHash,
  FileAnchorSink,
  inclusionProof,
  merkleRoot,
  readAnchorFile,
  sortHeads,
  verify,
  verifyInclusion,
  type AnchorProblem,
  type StreamHead,
  type VerifyReport,
} from '../src/index.ts';
import { SqliteEventStore } from '../src/sqlite-event-store.ts';

const dir = mkdtempSync(join(tmpdir(), 'ta-anchors-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const key = (): KeyObject => generateKeyPairSync('ed25519').privateKey;

describe('Merkle root over stream heads', () => {
  const heads = (k: number): StreamHead[] =>
    sortHeads(
      Array.from({ length: k }, (_, i) => ({
        stream: `table-${i}`,
        revision: i,
        hash: String(i).repeat(64),
      })),
    );

  it('proves each head into the root, for every size up to 9, and refuses a changed head or path', () => {
    for (let k = 1; k <= 9; k++) {
      const h = heads(k);
      const root = merkleRoot(h);
      for (const x of h) {
        const proof = inclusionProof(h, x.stream)!;
        assert.ok(verifyInclusion(proof, root), `size ${k}, ${x.stream}`);
        assert.equal(verifyInclusion({ ...proof, head: { ...x, revision: x.revision + 1 } }, root), false);
        for (let k2 = 0; k2 < proof.path.length; k2++) {
          const path = [...proof.path];
          path[k2] = `${path[k2]!.startsWith('0') ? '1' : '0'}${path[k2]!.slice(1)}`;
          assert.equal(verifyInclusion({ ...proof, path }, root), false, `size ${k}, path[${k2}] changed`);
        }
        assert.equal(verifyInclusion({ ...proof, index: (proof.index + 1) % k }, root), k === 1);
      }
      assert.equal(inclusionProof(h, 'table-x'), null);
    }
  });

  it('depends on every head, and leaves and nodes are domain-separated', () => {
    const h = heads(4);
    assert.notEqual(merkleRoot(h), merkleRoot([...h.slice(0, 3), { ...h[3]!, hash: 'f'.repeat(64) }]));
    assert.notEqual(merkleRoot(h.slice(0, 2)), merkleRoot(h.slice(0, 1)));
    assert.equal(merkleRoot([]), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });
});

interface Fixture {
  store: SqliteEventStore;
  db: Database.Database;
  sink: FileAnchorSink;
  anchorer: Anchorer;
  anchorsDir: string;
  signer: KeyObject;
}

const e = (stream: string, i: number) => ({
  eventId: `${stream}/${i}`,
  type: stream.startsWith('table-')
    ? 'PayoutDeclared'
    : stream === 'ingest-rejects'
      ? 'InputRejected'
      : 'FindingRaised',
  data: { seat: i % 7, amount: 1000 * (i + 1) },
});

/**
 * table-1: 30 events in 3 batches (anchors #0, #1, #2 after each: heads at revisions 9, 19, 29), table-2: 5,
 * ingest-rejects: 3, findings-1: 2, the replay checkpoint at the last position; then anchor #3.
 */
async function anchoredStore(): Promise<Fixture> {
  const path = join(dir, `store-${++n}.sqlite`);
  const anchorsDir = join(dir, `anchors-${n}`);
  const store = new SqliteEventStore(path);
  const signer = key();
  const sink = new FileAnchorSink(anchorsDir, signer);
  const anchorer = new Anchorer(store, sink, { key: signer, storeId: 'test', checkpoints: ['replay'] });
  for (let b = 0; b < 3; b++) {
    await store.append(
      'table-1',
      Array.from({ length: 10 }, (_, i) => e('table-1', b * 10 + i)),
    );
    if (b === 0)
      await store.append(
        'table-2',
        [0, 1, 2, 3, 4].map((i) => e('table-2', i)),
      );
    if (b === 1)
      await store.append(
        'ingest-rejects',
        [0, 1, 2].map((i) => e('ingest-rejects', i)),
      );
    await anchorer.anchor();
  }
  const r = await store.append('findings-1', [e('findings-1', 0), e('findings-1', 1)]);
  await store.saveCheckpoint('replay', r.position);
  await anchorer.anchor();
  return { store, db: openForTampering(path), sink, anchorer, anchorsDir, signer };
}

async function check(f: Fixture): Promise<VerifyReport> {
  return verify(f.store, {
    anchors: { records: readAnchorFile(f.sink.path, f.signer), source: f.sink.path },
  });
}

/** Recomputes the chain of `stream` from `fromRevision` on, as a forger with write access would. */
function rehash(db: Database.Database, stream: string, fromRevision: number): void {
  const rows = db.prepare('SELECT * FROM events WHERE stream = ? ORDER BY revision').all(stream) as Record<
    string,
    never
  >[];
  let previous = '0'.repeat(64);
  const set = db.prepare('UPDATE events SET previous_hash = ?, hash = ? WHERE position = ?');
  for (const row of rows) {
    const r = row as unknown as {
      position: number;
      revision: number;
      event_id: string;
      type: string;
      data: string;
      metadata: string | null;
      recorded_at: number;
      hash: Buffer; // 32 bytes (store schema 3)
    };
    if (r.revision < fromRevision) {
      previous = r.hash.toString('hex');
      continue;
    }
    const hash = eventHash(previous, {
      stream,
      revision: r.revision,
      eventId: r.event_id,
      type: r.type,
      data: JSON.parse(r.data) as unknown,
      ...(r.metadata === null ? {} : { metadata: JSON.parse(r.metadata) as Record<string, unknown> }),
      recordedAt: r.recorded_at,
    });
    set.run(Buffer.from(previous, 'hex'), Buffer.from(hash, 'hex'), r.position);
    previous = hash;
  }
}

async function tampered(edit: (db: Database.Database) => void): Promise<VerifyReport> {
  const f = await anchoredStore();
  try {
    assert.equal((await check(f)).ok, true, 'intact before the edit');
    edit(f.db);
    return await check(f);
  } finally {
    f.db.close();
    await f.store.close();
  }
}

const only = (report: VerifyReport): AnchorProblem => {
  assert.equal(report.ok, false);
  assert.equal(report.anchors!.problems.length, 1, JSON.stringify(report.anchors!.problems, null, 1));
  return report.anchors!.problems[0]!;
};

describe('verify against signed anchors: edits made directly in the SQLite file', () => {
  it('an intact store matches every anchor, and the report names the last one', async () => {
    const f = await anchoredStore();
    const report = await check(f);
    assert.equal(report.ok, true);
    assert.equal(report.anchors!.signed, 4);
    assert.equal(report.anchors!.last!.sequence, 3);
    assert.deepEqual(report.anchors!.problems, []);
    const withHeads = await verify(f.store, { heads: true });
    assert.equal(
      withHeads.merkleRoot,
      report.anchors!.last!.merkleRoot,
      'the store heads are the signed heads',
    );
    f.db.close();
    await f.store.close();
  });

  it('the last event of a stream deleted: truncated, at that revision', async () => {
    const p = only(
      await tampered((db) =>
        db.prepare(`DELETE FROM events WHERE stream = 'table-1' AND revision = 29`).run(),
      ),
    );
    assert.deepEqual([p.kind, p.stream, p.revision, p.anchor], ['truncated', 'table-1', 29, 2]);
    assert.match(
      p.message,
      /ends at revision 28, .*signed revision 29 .*revisions 29\.\.29 were removed \(revision 19 still matches anchor #1\)/,
    );
  });

  it('the last 10 events deleted: truncated from the first removed revision', async () => {
    const p = only(
      await tampered((db) =>
        db.prepare(`DELETE FROM events WHERE stream = 'table-1' AND revision >= 20`).run(),
      ),
    );
    assert.deepEqual([p.kind, p.stream, p.revision], ['truncated', 'table-1', 20]);
    assert.match(p.message, /revisions 20\.\.29 were removed/);
  });

  it('a whole table stream deleted', async () => {
    const p = only(await tampered((db) => db.prepare(`DELETE FROM events WHERE stream = 'table-2'`).run()));
    assert.deepEqual([p.kind, p.stream, p.revision], ['stream-deleted', 'table-2', 0]);
    assert.match(p.message, /"table-2" is gone from the store: anchor #0 .*signed it at revision 4/);
  });

  it('all rejects deleted, and all findings deleted', async () => {
    const rejects = only(
      await tampered((db) => db.prepare(`DELETE FROM events WHERE stream = 'ingest-rejects'`).run()),
    );
    assert.deepEqual([rejects.kind, rejects.stream], ['stream-deleted', 'ingest-rejects']);
    const findings = only(
      await tampered((db) => db.prepare(`DELETE FROM events WHERE stream LIKE 'findings-%'`).run()),
    );
    assert.deepEqual([findings.kind, findings.stream], ['stream-deleted', 'findings-1']);
  });

  it('a forged payout appended with a recomputed hash: not covered by any anchor, named', async () => {
    const report = await tampered((db) => {
      const tail = db
        .prepare(`SELECT lower(hex(hash)) AS hash FROM events WHERE stream = 'table-1' AND revision = 29`)
        .get() as { hash: string };
      const forged = { eventId: 'forged-1', type: 'PayoutDeclared', data: { seat: 3, amount: 500000 } };
      const recordedAt = Date.now();
      const hash = eventHash(tail.hash, { stream: 'table-1', revision: 30, recordedAt, ...forged });
      db.prepare(
        `INSERT INTO events (stream, revision, event_id, type, data, metadata, recorded_at, previous_hash, hash)
         VALUES ('table-1', 30, 'forged-1', 'PayoutDeclared', ?, NULL, ?, unhex(?), unhex(?))`,
      ).run(JSON.stringify(forged.data), recordedAt, tail.hash, hash);
    });
    assert.equal(report.firstBroken, undefined, 'the chain itself is intact: only the anchor sees it');
    const p = only(report);
    assert.deepEqual([p.kind, p.stream, p.revision, p.eventId], ['unanchored', 'table-1', 30, 'forged-1']);
    assert.match(p.message, /1 event\(s\) from here on are covered by no signed anchor .*up to revision 29/);
  });

  it('an event edited and the rest of the stream re-hashed: the first signed revision after the edit', async () => {
    const report = await tampered((db) => {
      db.prepare(
        `UPDATE events SET data = '{"amount":99000,"seat":2}' WHERE stream = 'table-1' AND revision = 12`,
      ).run();
      rehash(db, 'table-1', 12);
    });
    assert.equal(report.firstBroken, undefined);
    const p = only(report);
    assert.deepEqual(
      [p.kind, p.stream, p.revision, p.eventId, p.anchor],
      ['rewritten', 'table-1', 19, 'table-1/19', 1],
    );
    assert.match(p.message, /re-hashed between revision 10 and 19 \(revision 9 still matches anchor #0\)/);
  });

  it('an event deleted, the stream renumbered and re-hashed', async () => {
    const report = await tampered((db) => {
      db.prepare(`DELETE FROM events WHERE stream = 'table-1' AND revision = 3`).run();
      // two steps, so the unique (stream, revision) index never sees two rows with one revision
      db.prepare(`UPDATE events SET revision = -revision WHERE stream = 'table-1' AND revision > 3`).run();
      db.prepare(
        `UPDATE events SET revision = -revision - 1 WHERE stream = 'table-1' AND revision < 0`,
      ).run();
      rehash(db, 'table-1', 3);
    });
    assert.equal(report.firstBroken, undefined);
    const p = only(report);
    assert.deepEqual([p.kind, p.stream, p.revision, p.eventId], ['rewritten', 'table-1', 9, 'table-1/10']);
  });

  it('recorded_at rewritten: a broken link; re-hashed as well: the anchor', async () => {
    const plain = await tampered((db) =>
      db
        .prepare(
          `UPDATE events SET recorded_at = recorded_at - 86400000 WHERE stream = 'table-1' AND revision = 25`,
        )
        .run(),
    );
    assert.deepEqual([plain.firstBroken?.stream, plain.firstBroken?.revision], ['table-1', 25]);
    assert.match(plain.firstBroken!.reason, /recorded time/);
    const rehashed = await tampered((db) => {
      db.prepare(
        `UPDATE events SET recorded_at = recorded_at - 86400000 WHERE stream = 'table-1' AND revision = 25`,
      ).run();
      rehash(db, 'table-1', 25);
    });
    assert.equal(rehashed.firstBroken, undefined);
    const p = only(rehashed);
    assert.deepEqual([p.kind, p.revision], ['rewritten', 29]);
  });

  it('the replay checkpoint moved to the end', async () => {
    const p = only(
      await tampered((db) =>
        db.prepare(`UPDATE checkpoints SET position = position + 1000 WHERE name = 'replay'`).run(),
      ),
    );
    assert.equal(p.kind, 'checkpoint-moved');
    assert.match(
      p.message,
      /checkpoint "replay" is at position \d+ in the store, but the last anchor \(#3, .*\) signed position \d+/,
    );
  });

  it('events appended after the last anchor are reported until the next anchor covers them', async () => {
    const f = await anchoredStore();
    await f.store.append('table-3', [e('table-3', 0)]);
    const p = only(await check(f));
    assert.deepEqual([p.kind, p.stream, p.revision], ['unanchored', 'table-3', 0]);
    assert.match(p.message, /signed no such stream/);
    await f.anchorer.anchor();
    assert.equal((await check(f)).ok, true);
    f.db.close();
    await f.store.close();
  });
});

describe('the anchors file and the anchorer', () => {
  it('an edited, removed or foreign anchor line is reported with its line; the writer refuses to go on after it', async () => {
    const f = await anchoredStore();
    const lines = readFileSync(f.sink.path, 'utf8').split('\n');
    const edited = lines.map((l, i) => (i === 3 ? l.replace(/"time":\d+/, '"time":1') : l)).join('\n');
    writeFileSync(f.sink.path, edited);
    const report = await check(f);
    const bad = report.anchors!.problems.filter((p) => p.kind === 'anchor-invalid');
    assert.deepEqual(
      bad.map((p) => p.line),
      [4],
    );
    assert.match(bad[0]!.message, /line 4: its signature does not verify/);
    await assert.rejects(f.anchorer.anchor(), /line 4: its signature does not verify.*no anchor is appended/);

    writeFileSync(f.sink.path, [lines[0], lines[2], lines[3], ''].join('\n'));
    const gap = (await check(f)).anchors!.problems.filter((p) => p.kind === 'anchor-invalid');
    assert.deepEqual(
      gap.map((p) => p.line),
      [2],
    );
    assert.match(gap[0]!.message, /sequence 2 follows sequence 0: anchors were removed or re-ordered/);

    const other = key();
    const records = readAnchorFile(f.sink.path, other);
    assert.ok(records.every((r) => !r.signed && /signed by key ed25519:\w+, not by/.test(r.problem!)));
    await assert.rejects(
      new FileAnchorSink(f.anchorsDir, other).append(async () => assert.fail('must not build')),
      /is not the public half of this signing key/,
    );
    f.db.close();
    await f.store.close();
  });

  it('a half-written last line is reported, and nothing is appended after it', async () => {
    const f = await anchoredStore();
    appendFileSync(f.sink.path, '{"format":"table-audit-anchor/1","seq');
    await assert.rejects(
      f.anchorer.anchor(),
      /line 5: not JSON \(the last line has no newline: a write was cut short\)/,
    );
    f.db.close();
    await f.store.close();
  });

  it('refuses to sign over a truncated stream or a broken link, naming the event', async () => {
    const f = await anchoredStore();
    f.db.prepare(`DELETE FROM events WHERE stream = 'table-2' AND revision = 4`).run();
    await assert.rejects(f.anchorer.anchor(), (err: unknown) => {
      assert.ok(err instanceof AnchorRefused);
      assert.deepEqual([err.stream, err.revision], ['table-2', 4]);
      assert.match(err.message, /the event is gone from the store; anchor #3 signed it/);
      return true;
    });
    f.db.close();
    await f.store.close();

    const g = await anchoredStore();
    await g.store.append('table-2', [e('table-2', 5), e('table-2', 6)]);
    g.db
      .prepare(`UPDATE events SET data = '{"amount":1,"seat":0}' WHERE stream = 'table-2' AND revision = 6`)
      .run();
    await assert.rejects(
      g.anchorer.anchor(),
      /stream "table-2" revision 6 \(event table-2\/6, position \d+\): its hash .* does not match its content/,
    );
    g.db.close();
    await g.store.close();
  });
});
