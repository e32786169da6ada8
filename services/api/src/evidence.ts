/**
 * Evidence exports: a bundle (JSON, checkable offline with `table-audit verify --bundle FILE`, see
 * packages/eventstore/src/evidence-bundle.ts) and the same as a printable PDF.
 */
import {
  EVIDENCE_FORMAT,
  inclusionProof,
  type ChainSegment,
  type EvidenceBundle,
  type EvidenceEvent,
  type RecordedEvent,
} from '@table-audit/eventstore';
import { findingStream, tableStream } from '@table-audit/schemas/streams';
import { formatMacauTime, formatMop } from '@table-audit/rules';
import PDFDocument from 'pdfkit';
import { alertStream } from './alerts.ts';
import type { ApiContext } from './context.ts';

const asEvidence = (e: RecordedEvent): EvidenceEvent => ({ ...e, position: String(e.position) });

async function streamEvents(ctx: ApiContext, stream: string): Promise<RecordedEvent[]> {
  const out: RecordedEvent[] = [];
  for await (const e of ctx.store.readStream(stream)) out.push(e);
  return out;
}

/**
 * The segment of a stream from its first event that `wanted` selects to its head, with the latest signed anchor
 * whose head of the stream lies in it (null: none selected, or no anchors configured).
 */
async function segment(
  ctx: ApiContext,
  stream: string,
  events: readonly RecordedEvent[],
  wanted: (e: RecordedEvent) => boolean,
): Promise<ChainSegment | null> {
  const first = events.findIndex(wanted);
  if (first < 0) return null;
  const slice = events.slice(first);
  let anchor: ChainSegment['anchor'] = null;
  if (ctx.anchors) {
    const from = slice[0]!.revision;
    const records = await ctx.anchors.read();
    for (let i = records.length - 1; i >= 0 && anchor === null; i--) {
      const a = records[i]!;
      if (!a.signed || a.problem !== null || a.anchor === null) continue;
      const head = a.anchor.heads.find((h) => h.stream === stream);
      if (!head || head.revision < from) continue;
      const proof = inclusionProof(a.anchor.heads, stream);
      if (proof) anchor = { anchor: a.anchor, proof };
    }
  }
  return { stream, events: slice.map(asEvidence), anchor };
}

/** What a bundle is about: its table, which of the table's events and findings, and what was derived. */
export interface BundleSubject {
  readonly subject: EvidenceBundle['subject'];
  readonly tableId: string;
  /** the round's events (or, for a finding across rounds, its evidence events) */
  readonly tableEvent: (e: RecordedEvent) => boolean;
  readonly finding: (f: { findingId?: unknown; roundId?: unknown }) => boolean;
  readonly derivation: unknown;
  readonly alert: EvidenceBundle['alert'];
}

/** The bundle: the table's chain from the subject's first event, its findings' chain, the alert's stream. */
export async function buildBundle(ctx: ApiContext, who: string, s: BundleSubject): Promise<EvidenceBundle> {
  const table = await streamEvents(ctx, tableStream(s.tableId));
  const findingsAll = await streamEvents(ctx, findingStream(s.tableId));
  const isFinding = (e: RecordedEvent) =>
    e.type === 'FindingRaised' && s.finding(e.data as { findingId?: unknown });
  const segments = [
    await segment(ctx, tableStream(s.tableId), table, s.tableEvent),
    await segment(ctx, findingStream(s.tableId), findingsAll, isFinding),
  ];
  let alertEvents: RecordedEvent[] = [];
  if (s.subject.kind === 'alert') {
    alertEvents = await streamEvents(ctx, alertStream(s.subject.id));
    segments.push(await segment(ctx, alertStream(s.subject.id), alertEvents, () => true));
  }
  const findings = findingsAll.filter(isFinding);
  return {
    format: EVIDENCE_FORMAT,
    subject: s.subject,
    exportedAt: ctx.now(),
    exportedBy: who,
    segments: segments.filter((x): x is ChainSegment => x !== null),
    evidenceEventIds: [
      ...table.filter(s.tableEvent).map((e) => e.eventId),
      ...findings.map((e) => e.eventId),
      ...alertEvents.map((e) => e.eventId),
    ],
    findings: findings.map((e) => e.data as { findingId: string }),
    derivation: s.derivation,
    alert: s.alert,
    anchorPublicKey: ctx.anchors?.publicKeyPem ?? null,
  };
}

/** Selects a round's events by their header's round id. */
export const ofRound =
  (roundId: string) =>
  (e: RecordedEvent): boolean =>
    (e.data as { header?: { roundId?: unknown } } | null)?.header?.roundId === roundId;

/** A round's money: what was staked, what the rules pay, what the table declared paid (avos). */
export function roundTotals(derivation: unknown): {
  staked: number;
  expectedPaid: number;
  declaredPaid: number;
} {
  const lines =
    (
      derivation as {
        lines?: { stake: number; expected: { payout: number }; declared: { payout: number } | null }[];
      }
    ).lines ?? [];
  let staked = 0;
  let expectedPaid = 0;
  let declaredPaid = 0;
  for (const l of lines) {
    staked += l.stake;
    expectedPaid += l.expected.payout;
    declaredPaid += l.declared?.payout ?? 0;
  }
  return { staked, expectedPaid, declaredPaid };
}

/** The bundle as a printable PDF: what it is about, the totals in MOP, the findings with their law, the chain. */
export function bundlePdf(
  bundle: EvidenceBundle,
  place: { casino: string; concessionaire: string },
): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: 50,
    info: { Title: `Evidence: ${bundle.subject.kind} ${bundle.subject.id}` },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const d = bundle.derivation as {
    game?: string;
    roundId?: string;
    tableId?: string;
    /** F3CP: the rule set with why it governs; the other games: its id */
    ruleSet?: { id: string; why: string } | string | null;
    steps?: { time: string }[];
  } | null;
  doc.fontSize(16).text(`table-audit evidence: ${bundle.subject.kind} ${bundle.subject.id}`);
  doc.moveDown(0.5).fontSize(10);
  doc.text(`Exported ${formatMacauTime(bundle.exportedAt)} by ${bundle.exportedBy}`);
  if (d?.roundId) {
    doc.text(`Round ${d.roundId} at table ${d.tableId ?? '?'}, ${place.casino} (${place.concessionaire})`);
    const start = d.steps?.[0]?.time;
    if (start) doc.text(`Started ${formatMacauTime(Date.parse(start))}`);
    doc.text(
      typeof d.ruleSet === 'string'
        ? `Rule set ${d.ruleSet}`
        : d.ruleSet
          ? `Rule set ${d.ruleSet.id}: ${d.ruleSet.why}`
          : 'No rule set governs this round',
    );
    if (d.game === undefined) {
      // an F3CP hand: its settlement lines total
      const t = roundTotals(d);
      doc.moveDown(0.5).fontSize(12).text('Totals');
      doc.fontSize(10);
      doc.text(`Staked: ${formatMop(t.staked)}`);
      doc.text(`Paid under the rules: ${formatMop(t.expectedPaid)}`);
      doc.text(`Paid as declared by the table: ${formatMop(t.declaredPaid)}`);
      doc.text(`Difference (declared - rules): ${formatMop(t.declaredPaid - t.expectedPaid)}`);
    } else if (d.game === 'MAHJONG')
      doc.text(
        'Mah-Jong: only the deal is judged; outcomes are out of scope until the rest of the regulation is available.',
      );
    else
      doc.text(
        `Totals are not printed for ${d.game}: each bet, in avos, is in the JSON export's derivation.`,
      );
  }
  doc.moveDown(0.5).fontSize(12).text(`Findings (${bundle.findings.length})`);
  doc.fontSize(10);
  for (const f of bundle.findings as unknown as {
    findingId: string;
    checkId: string;
    severity: string;
    summary: string;
    citations: { reference: string }[];
    interpretations: string[];
  }[]) {
    doc.text(`${f.checkId} (${f.severity}): ${f.summary}`);
    doc.text(
      `   ${f.citations.map((c) => c.reference).join('; ')}${f.interpretations.length ? ` [interpretations ${f.interpretations.join(', ')}]` : ''}; id ${f.findingId}`,
    );
  }
  const history = bundle.alert?.history as
    { type: string; data: { actorSubject: string; time: number } }[] | undefined;
  if (history) {
    doc.moveDown(0.5).fontSize(12).text('Alert history');
    doc.fontSize(10);
    for (const h of history) doc.text(`${formatMacauTime(h.data.time)}  ${h.type} by ${h.data.actorSubject}`);
  }
  doc.moveDown(0.5).fontSize(12).text('Hash chain');
  doc.fontSize(9);
  for (const s of bundle.segments) {
    const first = s.events[0]!;
    const last = s.events.at(-1)!;
    doc.text(
      `${s.stream}: revisions ${first.revision}-${last.revision}, ${s.events.length} events linked to the head ${last.hash}`,
    );
    doc.text(
      s.anchor
        ? `   signed anchor #${s.anchor.anchor.sequence} (${s.anchor.anchor.keyId}, ${formatMacauTime(s.anchor.anchor.time)}) covers revision ${s.anchor.proof.head.revision}; Merkle root ${s.anchor.anchor.merkleRoot}`
        : '   no signed anchor covers this segment',
    );
  }
  doc.moveDown(0.5).text('Check the JSON export of this evidence offline: table-audit verify --bundle FILE');
  doc.end();
  return done;
}
