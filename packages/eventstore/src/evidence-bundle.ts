/**
 * An evidence bundle: what the API exports for a round or an alert so that it can be checked offline, away from
 * the store — the events, each with its hash and the links from it to its stream's head as exported, the signed
 * anchor covering that head when there is one (with the Merkle inclusion proof of the head), and what was derived
 * from the events (the findings, the derivation, an alert's history). This file only checks a bundle, purely:
 * `table-audit verify --bundle FILE` reads the file and calls verifyEvidenceBundle.
 */
import { createPublicKey, type KeyObject } from 'node:crypto';
import { anchorShapeProblem, anchorSignatureValid, publicKeyId, type Anchor } from './anchor.ts';
import { canonicalJson, NotCanonicalJson } from './canonical-json.ts';
import { linkBrokenBecause } from './link.ts';
import { verifyInclusion, type InclusionProof } from './merkle.ts';
import type { RecordedEvent } from './port.ts';

export const EVIDENCE_FORMAT = 'table-audit-evidence/1';

/** A recorded event as JSON: its position as a decimal string. */
export type EvidenceEvent = Omit<RecordedEvent, 'position'> & { position: string };

/** A stream's events from one revision to its head as exported, each linked to the one before. */
export interface ChainSegment {
  stream: string;
  events: EvidenceEvent[];
  /** the latest signed anchor whose head of this stream lies within the segment, with the proof of that head */
  anchor: { anchor: Anchor; proof: InclusionProof } | null;
}

export interface EvidenceBundle {
  format: typeof EVIDENCE_FORMAT;
  subject: { kind: 'round' | 'alert'; id: string };
  /** UTC ms */
  exportedAt: number;
  exportedBy: string;
  segments: ChainSegment[];
  /** the events the subject is about (a round's events, its findings, an alert's events): each is in a segment */
  evidenceEventIds: string[];
  /** the findings, exactly as stored (each is the data of a FindingRaised event of a segment) */
  findings: { findingId: string }[];
  /** the round's derivation (`table-audit replay ROUND_ID --json`): recomputable from the store, not from the bundle */
  derivation: unknown;
  /** an alert's state and history (each history entry's hash is an event of a segment) */
  alert: { history: { hash: string }[] } | null;
  /** PEM of the key that signed the anchors (a copy: a regulator checks with the key they hold) */
  anchorPublicKey: string | null;
}

export interface BundleProblem {
  /** where: "segment 2 (table-MAC-F3CP-002) revision 14 (event E…)", "findings[3]", "format" */
  where: string;
  reason: string;
}

export interface BundleReport {
  ok: boolean;
  /** the first problem found, in the order events, anchors, references */
  problem: BundleProblem | null;
  segments: number;
  events: number;
  /** anchors whose signature and inclusion proof hold */
  anchorsVerified: number;
  /** the id of the key anchors were checked with, and whether it came from the bundle itself (then only as good as the bundle) */
  anchorKey: { id: string; fromBundle: boolean } | null;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function eventShapeProblem(e: unknown): string | null {
  if (!isObject(e)) return 'not a JSON object';
  for (const k of ['stream', 'eventId', 'type', 'hash', 'previousHash', 'position'] as const)
    if (typeof e[k] !== 'string') return `${k} is not a string`;
  for (const k of ['revision', 'recordedAt'] as const)
    if (!Number.isSafeInteger(e[k])) return `${k} is not a whole number`;
  if (e['metadata'] !== undefined && !isObject(e['metadata'])) return 'metadata is not an object';
  return null;
}

/**
 * Checks a parsed bundle: every event's hash recomputed from its content, every link from it to the last event of
 * its segment (the stream's head when exported), each anchor's signature (with `publicKey`, else the bundle's own
 * copy, said so) and the inclusion of the segment's head in the anchor's Merkle root, and that every finding,
 * evidence id and alert history entry of the bundle is one of its events. Stops at the first problem.
 */
export function verifyEvidenceBundle(bundle: unknown, options: { publicKey?: KeyObject } = {}): BundleReport {
  const report: BundleReport = {
    ok: false,
    problem: null,
    segments: 0,
    events: 0,
    anchorsVerified: 0,
    anchorKey: null,
  };
  const fail = (where: string, reason: string): BundleReport => ({ ...report, problem: { where, reason } });
  if (!isObject(bundle)) return fail('bundle', 'not a JSON object');
  if (bundle['format'] !== EVIDENCE_FORMAT)
    return fail('format', `is ${JSON.stringify(bundle['format'])}, not "${EVIDENCE_FORMAT}"`);
  const segments = bundle['segments'];
  if (!Array.isArray(segments) || segments.length === 0) return fail('segments', 'not a non-empty list');

  let key: KeyObject | null = options.publicKey ?? null;
  if (key === null && typeof bundle['anchorPublicKey'] === 'string') {
    try {
      key = createPublicKey(bundle['anchorPublicKey']);
    } catch (e) {
      return fail('anchorPublicKey', `not a public key in PEM: ${(e as Error).message}`);
    }
  }
  if (key !== null) report.anchorKey = { id: publicKeyId(key), fromBundle: options.publicKey === undefined };

  const byHash = new Map<string, EvidenceEvent>();
  const byId = new Map<string, EvidenceEvent>();
  for (const [s, seg] of segments.entries()) {
    const at = `segment ${s}`;
    if (!isObject(seg) || typeof seg['stream'] !== 'string' || !Array.isArray(seg['events']))
      return fail(at, 'not {stream, events, anchor}');
    const stream = seg['stream'];
    const events = seg['events'] as unknown[];
    if (events.length === 0) return fail(`${at} (${stream})`, 'holds no events');
    let previous: { revision: number; hash: string } | undefined;
    for (const [i, raw] of events.entries()) {
      const shape = eventShapeProblem(raw);
      if (shape) return fail(`${at} (${stream}) events[${i}]`, shape);
      const e = raw as EvidenceEvent;
      const where = `${at} (${stream}) revision ${e.revision} (event ${e.eventId})`;
      if (e.stream !== stream) return fail(where, `belongs to stream "${e.stream}", not the segment's`);
      // the segment starts where the export started: its first event's previous hash is taken as given
      const before =
        previous ?? (e.revision === 0 ? undefined : { revision: e.revision - 1, hash: e.previousHash });
      let reason: string | null;
      try {
        reason = linkBrokenBecause({ ...e, position: 0n }, before);
      } catch (err) {
        if (!(err instanceof NotCanonicalJson)) throw err;
        reason = `its content cannot be hashed: ${err.message}`;
      }
      if (reason !== null) return fail(where, reason);
      previous = { revision: e.revision, hash: e.hash };
      byHash.set(e.hash, e);
      byId.set(e.eventId, e);
      report.events++;
    }
    const anchored = seg['anchor'];
    if (anchored !== null && anchored !== undefined) {
      const where = `${at} (${stream}) anchor`;
      if (!isObject(anchored) || !isObject(anchored['proof'])) return fail(where, 'not {anchor, proof}');
      const anchor = anchored['anchor'] as Anchor;
      const proof = anchored['proof'] as unknown as InclusionProof;
      const shape = anchorShapeProblem(anchor);
      if (shape) return fail(where, shape);
      if (key === null)
        return fail(where, 'no public key to check it with (give one, or the bundle its anchorPublicKey)');
      if (!anchorSignatureValid(anchor, key))
        return fail(where, `#${anchor.sequence}: its signature does not verify with key ${publicKeyId(key)}`);
      if (!isObject(proof.head) || proof.head.stream !== stream)
        return fail(
          where,
          `its proof is about stream ${JSON.stringify(proof.head?.stream)}, not "${stream}"`,
        );
      if (!Array.isArray(proof.path) || !verifyInclusion(proof, anchor.merkleRoot))
        return fail(
          where,
          `#${anchor.sequence}: the head is not included in the anchor's Merkle root ${anchor.merkleRoot}`,
        );
      const signedHead = events.find((x) => (x as EvidenceEvent).revision === proof.head.revision) as
        EvidenceEvent | undefined;
      if (!signedHead)
        return fail(
          where,
          `#${anchor.sequence} signs revision ${proof.head.revision}, which the segment does not hold`,
        );
      if (signedHead.hash !== proof.head.hash)
        return fail(
          where,
          `#${anchor.sequence} signs revision ${proof.head.revision} with hash ${proof.head.hash.slice(0, 12)}…, the segment's event ${signedHead.eventId} has ${signedHead.hash.slice(0, 12)}…`,
        );
      report.anchorsVerified++;
    }
    report.segments++;
  }

  const ids = bundle['evidenceEventIds'];
  if (!Array.isArray(ids)) return fail('evidenceEventIds', 'not a list');
  for (const [i, id] of ids.entries())
    if (typeof id !== 'string' || !byId.has(id))
      return fail(`evidenceEventIds[${i}]`, `event ${JSON.stringify(id)} is in no segment of the bundle`);
  const findings = bundle['findings'];
  if (!Array.isArray(findings)) return fail('findings', 'not a list');
  for (const [i, f] of findings.entries()) {
    const id = isObject(f) ? f['findingId'] : undefined;
    const stored = typeof id === 'string' ? byId.get(id) : undefined;
    if (!stored || stored.type !== 'FindingRaised')
      return fail(
        `findings[${i}]`,
        `finding ${JSON.stringify(id)} is not a FindingRaised event of the bundle`,
      );
    if (canonicalJson(f) !== canonicalJson(stored.data))
      return fail(
        `findings[${i}]`,
        `finding ${id as string} differs from the stored event ${stored.eventId} (revision ${stored.revision} of ${stored.stream})`,
      );
  }
  const alert = bundle['alert'];
  if (alert !== null && alert !== undefined) {
    const history = isObject(alert) ? alert['history'] : undefined;
    if (!Array.isArray(history)) return fail('alert.history', 'not a list');
    for (const [i, h] of history.entries()) {
      const stored = isObject(h) && typeof h['hash'] === 'string' ? byHash.get(h['hash']) : undefined;
      if (!stored) return fail(`alert.history[${i}]`, 'its hash is not the hash of an event of the bundle');
      if (canonicalJson(h['data']) !== canonicalJson(stored.data))
        return fail(`alert.history[${i}]`, `differs from the stored event ${stored.eventId}`);
    }
  }
  return { ...report, ok: true };
}
