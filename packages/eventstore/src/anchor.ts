/**
 * Signed anchors: what the store held at a moment — every stream's head (revision and hash), a Merkle root over
 * them, the global position and the consumers' checkpoints — signed with Ed25519 and chained to the previous
 * anchor, then written where the store's writer cannot rewrite it (an AnchorSink: an append-only file here, a Kafka
 * topic or a WORM bucket in production). A hash chain kept only inside the store cannot show its own truncation or
 * a whole tail recomputed after an edit; a head signed and kept elsewhere can.
 */
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign as signBytes,
  verify as verifyBytes,
  type KeyObject,
} from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { canonicalJson } from './canonical-json.ts';
import { GENESIS_HASH } from './hash-chain.ts';
import { merkleRoot, sortHeads, type StreamHead } from './merkle.ts';
import type { EventStore } from './port.ts';
import { linkBrokenBecause } from './link.ts';

export const ANCHOR_FORMAT = 'table-audit-anchor/1';

export interface Anchor {
  format: typeof ANCHOR_FORMAT;
  /** 0 for the first anchor of a sink, then +1 */
  sequence: number;
  /** when it was signed, UTC ms */
  time: number;
  /** which store it describes (anchors of one store never verify another) */
  storeId: string;
  /** the global position of the last event covered, as a decimal string ("-1": none yet) */
  position: string;
  /** every stream's last event, sorted by stream name (UTF-8 bytes) */
  heads: StreamHead[];
  /** Merkle root over `heads` (see merkle.ts), hex */
  merkleRoot: string;
  /** the named consumers' checkpoints (decimal positions, null: none saved) */
  checkpoints: Record<string, string | null>;
  /** sha256 of the previous anchor's line (canonical JSON with its signature); 64 zeros for the first */
  previousAnchorHash: string;
  /** which key signed it: "ed25519:" + the first 16 hex digits of the sha256 of its public key (SPKI DER) */
  keyId: string;
  /** Ed25519 signature over the canonical JSON of every other field, base64 */
  signature: string;
}

export type UnsignedAnchor = Omit<Anchor, 'signature'>;

const bytesToSign = (a: UnsignedAnchor): Buffer => {
  const { signature: _ignored, ...rest } = a as Anchor;
  return Buffer.from(canonicalJson(rest));
};

/** The anchor as one line of its sink, and the hash the next anchor chains to. */
export const anchorLine = (a: Anchor): string => canonicalJson(a);
export const anchorHash = (a: Anchor): string => createHash('sha256').update(anchorLine(a)).digest('hex');

export function publicKeyId(key: KeyObject): string {
  const pub = key.type === 'private' ? createPublicKey(key) : key;
  const der = pub.export({ type: 'spki', format: 'der' });
  return `ed25519:${createHash('sha256').update(der).digest('hex').slice(0, 16)}`;
}

export const publicKeyPem = (key: KeyObject): string =>
  (key.type === 'private' ? createPublicKey(key) : key).export({ type: 'spki', format: 'pem' }).toString();

export function signAnchor(unsigned: Omit<UnsignedAnchor, 'keyId'>, privateKey: KeyObject): Anchor {
  const withKey: UnsignedAnchor = { ...unsigned, keyId: publicKeyId(privateKey) };
  return { ...withKey, signature: signBytes(null, bytesToSign(withKey), privateKey).toString('base64') };
}

export const anchorSignatureValid = (a: Anchor, publicKey: KeyObject): boolean => {
  try {
    return verifyBytes(null, bytesToSign(a), publicKey, Buffer.from(a.signature, 'base64'));
  } catch {
    return false;
  }
};

function ed25519(key: KeyObject, path: string, kind: string): KeyObject {
  if (key.asymmetricKeyType !== 'ed25519')
    throw new Error(`${path}: the ${kind} key is ${key.asymmetricKeyType ?? 'not asymmetric'}, not Ed25519`);
  return key;
}

/** An Ed25519 private key from a PEM file (PKCS#8). */
export function loadSigningKey(path: string): KeyObject {
  let pem: string;
  try {
    pem = readFileSync(path, 'utf8');
  } catch (e) {
    throw new Error(`cannot read the signing key ${path}: ${(e as Error).message}`);
  }
  try {
    return ed25519(createPrivateKey(pem), path, 'signing');
  } catch (e) {
    throw new Error(`${path} is not an Ed25519 private key in PEM: ${(e as Error).message}`);
  }
}

/** An Ed25519 public key from a PEM file (SPKI); a private key's file gives its public half. */
export function loadPublicKey(path: string): KeyObject {
  let pem: string;
  try {
    pem = readFileSync(path, 'utf8');
  } catch (e) {
    throw new Error(`cannot read the public key ${path}: ${(e as Error).message}`);
  }
  try {
    return ed25519(createPublicKey(pem), path, 'public');
  } catch (e) {
    throw new Error(`${path} is not an Ed25519 public key in PEM: ${(e as Error).message}`);
  }
}

/** Makes a new key pair and writes the private key to `path` (owner-only; refuses to overwrite any file). */
export function generateSigningKey(path: string): KeyObject {
  const { privateKey } = generateKeyPairSync('ed25519');
  writeFileSync(path, privateKey.export({ type: 'pkcs8', format: 'pem' }), { flag: 'wx', mode: 0o600 });
  return privateKey;
}

/** A signed anchor could not be made; the store did not look like the last signed anchor said, or a link broke. */
export class AnchorRefused extends Error {
  override readonly name = 'AnchorRefused';
  constructor(
    readonly stream: string,
    readonly revision: number,
    readonly eventId: string | null,
    readonly position: bigint | null,
    reason: string,
  ) {
    super(
      `will not sign an anchor: stream "${stream}" revision ${revision}${eventId === null ? '' : ` (event ${eventId}${position === null ? '' : `, position ${position}`})`}: ${reason}`,
    );
  }
}

/** Where anchors go: somewhere the store's writer cannot rewrite. */
export interface AnchorSink {
  /** for messages, e.g. "file data/anchors/anchors.jsonl" */
  readonly description: string;
  /**
   * Under an exclusive lock: reads the last anchor, has `build` make the next one from it, and appends that one
   * durably. Refuses (throws) when the last anchor stored does not verify.
   */
  append(build: (last: Anchor | null) => Promise<Anchor>): Promise<Anchor>;
  /** Every anchor stored, oldest first, each with its place (line) and any reason it is not acceptable. */
  read(): Promise<AnchorRecord[]>;
}

export interface AnchorRecord {
  /** 1-based line (file) or offset (topic) */
  line: number;
  anchor: Anchor | null;
  /** whether `anchor` carries a valid signature of the expected key (then its heads are evidence, even out of order) */
  signed: boolean;
  /** why this record is not a valid anchor (null when it is) */
  problem: string | null;
}

export interface AnchorerOptions {
  /** the Ed25519 private key that signs */
  key: KeyObject;
  storeId: string;
  /** checkpoints covered (e.g. ['replay']): moving one behind the writers' back is then caught */
  checkpoints?: readonly string[];
  now?: () => number;
}

/**
 * Makes signed anchors of a store, incrementally: from the last anchor's heads and position it reads only what
 * was appended since, checking each new event's link to its stream's head (so it never signs a broken chain), and
 * checks that every head it carries over is still in the store as signed (so a truncation or a re-hashed tail is
 * refused at the next anchor, not signed over).
 */
export class Anchorer {
  #timer: NodeJS.Timeout | null = null;
  #running: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: EventStore,
    readonly sink: AnchorSink,
    private readonly o: AnchorerOptions,
  ) {}

  /** Signs and appends an anchor of the store as it is now. One at a time per Anchorer. */
  anchor(): Promise<Anchor> {
    const next = this.#running.then(() => this.sink.append((last) => this.#build(last)));
    this.#running = next.catch(() => undefined);
    return next;
  }

  /** Also anchors every `intervalMs` until stop(); a failure is passed to `onError` (the timer goes on). */
  start(intervalMs: number, onError: (err: unknown) => void): void {
    if (this.#timer !== null) return;
    this.#timer = setInterval(() => void this.anchor().catch(onError), intervalMs);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
    await this.#running;
  }

  async #build(last: Anchor | null): Promise<Anchor> {
    if (last !== null && last.storeId !== this.o.storeId)
      throw new Error(
        `${this.sink.description} holds anchors of store "${last.storeId}", not of "${this.o.storeId}"`,
      );
    const heads = new Map<string, StreamHead>((last?.heads ?? []).map((h) => [h.stream, h]));
    for (const h of heads.values()) {
      let found: { hash: string; eventId: string; position: bigint } | null = null;
      for await (const e of this.store.readStream(h.stream, { fromRevision: h.revision, maxCount: 1 }))
        found = e;
      const where = `anchor #${last!.sequence} signed it as the stream's head`;
      if (found === null)
        throw new AnchorRefused(
          h.stream,
          h.revision,
          null,
          null,
          `the event is gone from the store; ${where}`,
        );
      if (found.hash !== h.hash)
        throw new AnchorRefused(
          h.stream,
          h.revision,
          found.eventId,
          found.position,
          `its hash ${found.hash.slice(0, 12)}… is not the signed ${h.hash.slice(0, 12)}…; ${where}`,
        );
    }
    let position = last === null ? -1n : BigInt(last.position);
    for await (const e of this.store.readAll(position < 0n ? {} : { fromPosition: position })) {
      const reason = linkBrokenBecause(e, heads.get(e.stream), true);
      if (reason !== null) throw new AnchorRefused(e.stream, e.revision, e.eventId, e.position, reason);
      heads.set(e.stream, { stream: e.stream, revision: e.revision, hash: e.hash });
      position = e.position;
    }
    const checkpoints: Record<string, string | null> = {};
    for (const name of this.o.checkpoints ?? []) {
      const c = await this.store.loadCheckpoint(name);
      checkpoints[name] = c === null ? null : String(c);
    }
    const sorted = sortHeads(heads.values());
    return signAnchor(
      {
        format: ANCHOR_FORMAT,
        sequence: last === null ? 0 : last.sequence + 1,
        time: (this.o.now ?? Date.now)(),
        storeId: this.o.storeId,
        position: String(position),
        heads: sorted,
        merkleRoot: merkleRoot(sorted),
        checkpoints,
        previousAnchorHash: last === null ? GENESIS_HASH : anchorHash(last),
      },
      this.o.key,
    );
  }
}

/** Why a parsed value is not an anchor of the expected shape, or null. */
export function anchorShapeProblem(v: unknown): string | null {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return 'not a JSON object';
  const a = v as Record<string, unknown>;
  if (a.format !== ANCHOR_FORMAT) return `format is ${JSON.stringify(a.format)}, not "${ANCHOR_FORMAT}"`;
  for (const k of ['sequence', 'time'] as const)
    if (!Number.isSafeInteger(a[k]) || (a[k] as number) < 0) return `${k} is not a whole number`;
  for (const k of ['storeId', 'position', 'merkleRoot', 'previousAnchorHash', 'keyId', 'signature'] as const)
    if (typeof a[k] !== 'string') return `${k} is not a string`;
  if (!/^(-1|0|[1-9][0-9]*)$/.test(a.position as string)) return 'position is not a decimal position';
  if (!Array.isArray(a.heads)) return 'heads is not a list';
  for (const [i, h] of (a.heads as unknown[]).entries()) {
    const x = h as Record<string, unknown> | null;
    if (
      typeof x !== 'object' ||
      x === null ||
      typeof x.stream !== 'string' ||
      !Number.isSafeInteger(x.revision) ||
      typeof x.hash !== 'string'
    )
      return `heads[${i}] is not {stream, revision, hash}`;
  }
  if (typeof a.checkpoints !== 'object' || a.checkpoints === null || Array.isArray(a.checkpoints))
    return 'checkpoints is not an object';
  return null;
}
