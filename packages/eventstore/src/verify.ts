/**
 * Re-reads a stream or the whole store and checks every stream's hash chain: gap-free revisions from 0, each
 * previousHash equal to the hash of the event before it, each hash equal to the hash recomputed from the content.
 *
 * What the chain cannot see on its own: the removal of a stream's last events or of a whole stream, or a chain
 * recomputed after an edit. Given signed anchors (anchor.ts), verify also compares the store with every head they
 * signed and names the first event that no longer matches, events no anchor covers, and moved checkpoints.
 */
import type { AnchorRecord } from './anchor.ts';
import { linkBrokenBecause } from './link.ts';
import { merkleRoot, sortHeads, type StreamHead } from './merkle.ts';
import type { EventStore } from './port.ts';

export interface VerifyOptions {
  /** Only this stream; default the whole store (every stream, in global order). */
  stream?: string;
  /** Called every `progressEvery` events (default 10,000) with the number checked so far. */
  onProgress?: (events: number) => void;
  progressEvery?: number;
  /** Report the store's stream heads and their Merkle root (reads the whole store even past a broken link). */
  heads?: boolean;
  /** Signed anchors to hold the store to (e.g. readAnchorFile's records), and where they were read from. */
  anchors?: { records: readonly AnchorRecord[]; source: string };
}

export interface BrokenLink {
  stream: string;
  revision: number;
  eventId: string;
  reason: string;
}

export type AnchorProblemKind =
  /** a line of the anchors that is not a valid signed anchor in its place */
  | 'anchor-invalid'
  /** no signed anchor at all */
  | 'no-anchors'
  /** a signed stream has no event left */
  | 'stream-deleted'
  /** a signed stream ends before its signed head */
  | 'truncated'
  /** an event at a signed revision has another hash: edited or renumbered, then re-hashed */
  | 'rewritten'
  /** events after the last signed head of their stream */
  | 'unanchored'
  /** a checkpoint that is not where the last anchor signed it */
  | 'checkpoint-moved';

export interface AnchorProblem {
  kind: AnchorProblemKind;
  stream?: string;
  /** the first revision that no longer matches (or is not covered) */
  revision?: number;
  eventId?: string;
  /** global position, decimal */
  position?: string;
  /** the anchor whose signed head it contradicts (its sequence), and its line */
  anchor?: number;
  line?: number;
  message: string;
}

export interface AnchorsReport {
  source: string;
  /** records read, and how many carry a valid signature */
  records: number;
  signed: number;
  last: { sequence: number; time: number; position: string; merkleRoot: string; keyId: string } | null;
  problems: AnchorProblem[];
}

export interface VerifyReport {
  ok: boolean;
  /** Streams seen. */
  streams: number;
  /** Events checked (up to and including the first broken one, unless heads or anchors were asked for: all). */
  events: number;
  /** The first event, in the order read, whose link in its stream's chain does not hold. */
  firstBroken?: BrokenLink;
  /** With `heads`: every stream's last event as stored, sorted, and the Merkle root over them. */
  heads?: StreamHead[];
  merkleRoot?: string;
  /** With `anchors`: how the store compares with what was signed. */
  anchors?: AnchorsReport;
}

const iso = (ms: number) => new Date(ms).toISOString();
const short = (hash: string) => `${hash.slice(0, 12)}…`;

interface Signed {
  hash: string;
  sequence: number;
  time: number;
  line: number;
}
interface Seen {
  hash: string;
  eventId: string;
  position: bigint;
}

export async function verify(store: EventStore, options: VerifyOptions = {}): Promise<VerifyReport> {
  const events = options.stream === undefined ? store.readAll() : store.readStream(options.stream);
  const heads = new Map<string, StreamHead>();
  const every = options.progressEvery ?? 10_000;
  const readToEnd = options.heads === true || options.anchors !== undefined;
  const inScope = (stream: string) => options.stream === undefined || options.stream === stream;

  // every revision some anchor signed, per stream, with the first anchor that signed it
  const signed = new Map<string, Map<number, Signed>>();
  const records = options.anchors?.records ?? [];
  const trusted = records.filter((r) => r.signed && r.anchor !== null);
  const lastAnchor = trusted.at(-1)?.anchor ?? null;
  for (const r of trusted)
    for (const h of r.anchor!.heads) {
      if (!inScope(h.stream)) continue;
      let m = signed.get(h.stream);
      if (!m) signed.set(h.stream, (m = new Map()));
      if (!m.has(h.revision))
        m.set(h.revision, { hash: h.hash, sequence: r.anchor!.sequence, time: r.anchor!.time, line: r.line });
    }
  const lastSigned = new Map((lastAnchor?.heads ?? []).map((h) => [h.stream, h.revision]));
  const seen = new Map<string, Map<number, Seen>>();
  const unanchored = new Map<string, { first: Seen & { revision: number }; count: number }>();

  let checked = 0;
  let firstBroken: BrokenLink | undefined;
  for await (const event of events) {
    checked++;
    if (options.onProgress && checked % every === 0) options.onProgress(checked);
    if (firstBroken === undefined) {
      const reason = linkBrokenBecause(event, heads.get(event.stream));
      if (reason !== null) {
        firstBroken = { stream: event.stream, revision: event.revision, eventId: event.eventId, reason };
        if (!readToEnd) {
          if (!heads.has(event.stream))
            heads.set(event.stream, { stream: event.stream, revision: event.revision, hash: event.hash });
          break;
        }
      }
    }
    heads.set(event.stream, { stream: event.stream, revision: event.revision, hash: event.hash });
    if (signed.get(event.stream)?.has(event.revision)) {
      let m = seen.get(event.stream);
      if (!m) seen.set(event.stream, (m = new Map()));
      m.set(event.revision, { hash: event.hash, eventId: event.eventId, position: event.position });
    }
    if (lastAnchor !== null && event.revision > (lastSigned.get(event.stream) ?? -1)) {
      const u = unanchored.get(event.stream);
      if (u) u.count++;
      else
        unanchored.set(event.stream, {
          first: {
            revision: event.revision,
            hash: event.hash,
            eventId: event.eventId,
            position: event.position,
          },
          count: 1,
        });
    }
  }

  const report: VerifyReport = { ok: firstBroken === undefined, streams: heads.size, events: checked };
  if (firstBroken !== undefined) report.firstBroken = firstBroken;
  if (options.heads) {
    const sorted = sortHeads(heads.values());
    report.heads = sorted;
    report.merkleRoot = merkleRoot(sorted);
  }
  if (options.anchors !== undefined) {
    const problems = await compareWithAnchors(store, options, {
      records,
      trusted: trusted.length,
      signed,
      seen,
      heads,
      unanchored,
      lastAnchor,
    });
    report.anchors = {
      source: options.anchors.source,
      records: records.length,
      signed: trusted.length,
      last:
        lastAnchor === null
          ? null
          : {
              sequence: lastAnchor.sequence,
              time: lastAnchor.time,
              position: lastAnchor.position,
              merkleRoot: lastAnchor.merkleRoot,
              keyId: lastAnchor.keyId,
            },
      problems,
    };
    if (problems.length > 0) report.ok = false;
  }
  return report;
}

async function compareWithAnchors(
  store: EventStore,
  options: VerifyOptions,
  x: {
    records: readonly AnchorRecord[];
    trusted: number;
    signed: Map<string, Map<number, Signed>>;
    seen: Map<string, Map<number, Seen>>;
    heads: Map<string, StreamHead>;
    unanchored: Map<string, { first: Seen & { revision: number }; count: number }>;
    lastAnchor: NonNullable<AnchorRecord['anchor']> | null;
  },
): Promise<AnchorProblem[]> {
  const source = options.anchors!.source;
  const problems: AnchorProblem[] = [];
  for (const r of x.records)
    if (r.problem !== null)
      problems.push({
        kind: 'anchor-invalid',
        line: r.line,
        ...(r.anchor ? { anchor: r.anchor.sequence } : {}),
        message: `${source} line ${r.line}: ${r.problem}`,
      });
  if (x.trusted === 0) {
    problems.push({
      kind: 'no-anchors',
      message: `${source} holds no anchor signed by this key: nothing outside the store vouches for it`,
    });
    return problems;
  }
  const withProblem = new Set<string>();
  const names = [...x.signed.keys()].sort();
  for (const stream of names) {
    const revisions = [...x.signed.get(stream)!].sort(([a], [b]) => a - b);
    const storeHead = x.heads.get(stream);
    let lastMatch: [number, Signed] | null = null;
    for (const [revision, s] of revisions) {
      const obs = x.seen.get(stream)?.get(revision);
      if (obs !== undefined && obs.hash === s.hash) {
        lastMatch = [revision, s];
        continue;
      }
      withProblem.add(stream);
      const by = `anchor #${s.sequence} (line ${s.line}, ${iso(s.time)})`;
      const [maxRevision, maxSigned] = revisions.at(-1)!;
      const upTo =
        maxRevision > revision
          ? `; later anchors signed it up to revision ${maxRevision} (#${maxSigned.sequence})`
          : '';
      const since =
        lastMatch !== null
          ? ` (revision ${lastMatch[0]} still matches anchor #${lastMatch[1].sequence})`
          : revision === revisions[0]![0]
            ? ''
            : ' (no earlier signed revision of it matches either)';
      if (storeHead === undefined)
        problems.push({
          kind: 'stream-deleted',
          stream,
          revision: 0,
          anchor: s.sequence,
          message: `stream "${stream}" is gone from the store: ${by} signed it at revision ${revision} (hash ${short(s.hash)})${upTo}; every one of its events was removed`,
        });
      else if (obs === undefined)
        problems.push({
          kind: 'truncated',
          stream,
          revision: storeHead.revision + 1,
          anchor: s.sequence,
          message: `stream "${stream}" ends at revision ${storeHead.revision}, but ${by} signed revision ${revision} (hash ${short(s.hash)})${upTo}: revisions ${storeHead.revision + 1}..${Math.max(revision, maxRevision)} were removed${since}, or events before them removed and the stream renumbered`,
        });
      else
        problems.push({
          kind: 'rewritten',
          stream,
          revision,
          eventId: obs.eventId,
          position: String(obs.position),
          anchor: s.sequence,
          message: `stream "${stream}" revision ${revision} (event ${obs.eventId}, position ${obs.position}): its hash ${short(obs.hash)} is not the one ${by} signed (${short(s.hash)}): the stream was edited or renumbered and re-hashed between revision ${lastMatch === null ? 0 : lastMatch[0] + 1} and ${revision}${since}`,
        });
      break;
    }
  }
  const last = x.lastAnchor!;
  for (const [stream, u] of [...x.unanchored].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (withProblem.has(stream)) continue;
    const signedHead = last.heads.find((h) => h.stream === stream);
    problems.push({
      kind: 'unanchored',
      stream,
      revision: u.first.revision,
      eventId: u.first.eventId,
      position: String(u.first.position),
      anchor: last.sequence,
      message: `stream "${stream}" revision ${u.first.revision} (event ${u.first.eventId}, position ${u.first.position}): ${u.count} event(s) from here on are covered by no signed anchor — the last one (#${last.sequence}, ${iso(last.time)}) signed ${signedHead ? `this stream up to revision ${signedHead.revision}` : 'no such stream'}: appended since without an anchor, or forged`,
    });
  }
  if (options.stream === undefined)
    for (const [name, value] of Object.entries(last.checkpoints)) {
      const stored = await store.loadCheckpoint(name);
      const now = stored === null ? null : String(stored);
      if (now !== value)
        problems.push({
          kind: 'checkpoint-moved',
          anchor: last.sequence,
          message: `checkpoint "${name}" is at ${now === null ? 'no position (removed)' : `position ${now}`} in the store, but the last anchor (#${last.sequence}, ${iso(last.time)}) signed ${value === null ? 'none' : `position ${value}`}: moved behind the processors' back, or saved since without an anchor`,
        });
    }
  return problems;
}
