/** Evidence exports: the bundle checks offline (and a tampered one names what fails), the PDF holds the round. */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { inflateSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { Anchorer, eventHash, FileAnchorSink } from '@table-audit/eventstore';
import { formatMop } from '@table-audit/rules';
import {
  verifyEvidenceBundle,
  type EvidenceBundle,
} from '../../../packages/eventstore/src/evidence-bundle.ts';
import { buildApp, fileAnchorSource, roundTotals } from '../src/index.ts';
import { bearer, fixture, type Fixture } from './fixture.ts';

const cli = fileURLToPath(new URL('../../../apps/cli/bin/table-audit.js', import.meta.url));

/** The text a PDF shows: its content streams inflated, the strings of each text operator joined. */
export function pdfText(pdf: Buffer): string {
  const text: string[] = [];
  const raw = pdf.toString('latin1');
  for (const m of raw.matchAll(/stream\r?\n/g)) {
    const start = m.index + m[0].length;
    const end = raw.indexOf('endstream', start);
    let content: string;
    try {
      content = inflateSync(pdf.subarray(start, end)).toString('latin1');
    } catch {
      continue; // not a deflated stream (fonts, images)
    }
    for (const op of content.matchAll(/\[(.*?)\]\s*TJ|<([0-9a-fA-F]*)>\s*Tj/g)) {
      const hexes =
        op[1] !== undefined ? [...op[1].matchAll(/<([0-9a-fA-F]*)>/g)].map((h) => h[1]!) : [op[2]!];
      text.push(hexes.map((h) => Buffer.from(h, 'hex').toString('latin1')).join(''));
    }
  }
  return text.join('\n');
}

let f: Fixture;
let app: FastifyInstance;
let roundId: string;
let bundle: EvidenceBundle;
let publicKeyPem: string;

before(async () => {
  f = await fixture({ tables: 6, roundsPerTable: 12 });
  const dir = mkdtempSync(join(tmpdir(), 'ta-api-anchors-'));
  const { privateKey } = generateKeyPairSync('ed25519');
  await new Anchorer(f.store, new FileAnchorSink(dir, privateKey), {
    key: privateKey,
    storeId: 'test',
  }).anchor();
  const anchors = fileAnchorSource(dir);
  publicKeyPem = anchors.publicKeyPem;
  app = await buildApp({ store: f.store, auth: { tokenKey: f.key }, anchors });
  const page = await app.inject({
    url: '/v1/findings?checkId=F3CP.PAYOUT.MISMATCH',
    headers: bearer(f.tokens.inspector),
  });
  const withRound = (page.json().items as { roundId: string | null }[]).find((x) => x.roundId !== null);
  assert.ok(withRound, 'the simulated session has a payout finding');
  roundId = withRound.roundId!;
  const r = await app.inject({
    url: `/v1/rounds/${encodeURIComponent(roundId)}/evidence`,
    headers: bearer(f.tokens.inspector),
  });
  assert.equal(r.statusCode, 200, r.body);
  bundle = r.json();
});
after(async () => {
  await app.close();
  await f.close();
});

const copy = (): EvidenceBundle => structuredClone(bundle);

describe('evidence bundle', () => {
  it('holds the round’s events to the head, its findings and derivation, and verifies with its signed anchors', () => {
    assert.equal(bundle.subject.id, roundId);
    assert.ok(bundle.findings.length > 0);
    assert.equal((bundle.derivation as { roundId: string }).roundId, roundId);
    const report = verifyEvidenceBundle(bundle);
    assert.equal(report.problem, null);
    assert.equal(report.ok, true);
    assert.equal(report.anchorsVerified, 2, 'the table and findings streams, each anchored');
    assert.equal(report.anchorKey?.fromBundle, true);
  });

  it('names the first event whose content was changed', () => {
    const b = copy();
    const seg = b.segments[0]!;
    const victim = seg.events[2]!;
    (victim.data as { header: { staffId: string } }).header.staffId = 'SOMEONE-ELSE';
    const report = verifyEvidenceBundle(b);
    assert.equal(report.ok, false);
    assert.match(
      report.problem!.where,
      new RegExp(`revision ${victim.revision} \\(event ${victim.eventId}\\)`),
    );
    assert.match(report.problem!.reason, /does not match its content/);
  });

  it('names a removed event, a re-hashed chain against its anchor, a changed finding and a forged anchor key', () => {
    const removed = copy();
    const gone = removed.segments[0]!.events.splice(3, 1)[0]!;
    assert.match(
      verifyEvidenceBundle(removed).problem!.reason,
      new RegExp(`revision ${gone.revision} is missing`),
    );

    // an edit whose chain is recomputed to the head links up, but no longer matches the signed head
    const rehashed = copy();
    const events = rehashed.segments[0]!.events;
    (events[1]!.data as { header: { staffId: string } }).header.staffId = 'SOMEONE-ELSE';
    for (let i = 1; i < events.length; i++) {
      const e = events[i]!;
      if (i > 1) e.previousHash = events[i - 1]!.hash;
      e.hash = eventHash(e.previousHash, e);
    }
    const anchored = verifyEvidenceBundle(rehashed).problem!;
    assert.match(anchored.where, /segment 0 .* anchor/);
    assert.match(anchored.reason, /signs revision \d+ with hash/);

    const finding = copy();
    (finding.findings[0] as unknown as { summary: string }).summary = 'nothing happened';
    const p = verifyEvidenceBundle(finding).problem!;
    assert.equal(p.where, 'findings[0]');
    assert.match(p.reason, /differs from the stored event/);

    const otherKey = generateKeyPairSync('ed25519').publicKey;
    const wrongKey = verifyEvidenceBundle(copy(), { publicKey: otherKey });
    assert.match(wrongKey.problem!.reason, /signature does not verify/);
    assert.equal(
      verifyEvidenceBundle(copy(), { publicKey: generateKeyPairSync('ed25519').publicKey }).ok,
      false,
    );
    assert.equal(verifyEvidenceBundle(copy(), { publicKey: createPublicKey(publicKeyPem) }).ok, true);
  });

  it('is checked by table-audit verify --bundle: exit 0, and 1 naming the event that fails', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ta-api-bundle-'));
    const good = join(dir, 'good.json');
    writeFileSync(good, JSON.stringify(bundle));
    const ok = spawnSync(process.execPath, [cli, 'verify', '--bundle', good], { encoding: 'utf8' });
    assert.equal(ok.status, 0, ok.stderr);
    assert.match(ok.stdout, /^ok: .* 2 signed anchor\(s\) verified/);
    const b = copy();
    const victim = b.segments[1]!.events[0]!;
    (victim.data as { severity: string }).severity = 'low';
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify(b));
    const broken = spawnSync(process.execPath, [cli, 'verify', '--bundle', bad], { encoding: 'utf8' });
    assert.equal(broken.status, 1);
    assert.match(broken.stdout, new RegExp(`BROKEN: .*event ${victim.eventId}`));
  });
});

describe('evidence PDF', () => {
  it('is a PDF that holds the round id and its totals in MOP', async () => {
    const r = await app.inject({
      url: `/v1/rounds/${encodeURIComponent(roundId)}/evidence?format=pdf`,
      headers: bearer(f.tokens.inspector),
    });
    assert.equal(r.statusCode, 200);
    assert.equal(r.headers['content-type'], 'application/pdf');
    assert.equal(r.rawPayload.subarray(0, 5).toString(), '%PDF-');
    const text = pdfText(r.rawPayload);
    assert.match(text, new RegExp(roundId));
    const t = roundTotals(bundle.derivation);
    assert.ok(t.staked > 0);
    for (const line of [
      `Staked: ${formatMop(t.staked)}`,
      `Paid under the rules: ${formatMop(t.expectedPaid)}`,
      `Paid as declared by the table: ${formatMop(t.declaredPaid)}`,
    ])
      assert.ok(text.includes(line), `${line} in\n${text}`);
  });
});
