import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import {
  Anchorer,
  FileAnchorSink,
  generateSigningKey,
  loadSigningKey,
  publicKeyId,
  type Anchor,
  type AnchorerOptions,
  type AnchorSink,
  type EventStore,
} from '@table-audit/eventstore';
import { out, UsageError } from './command.ts';

/**
 * The checkpoints every anchor covers: moving one behind the replay's back is then caught. Beside these, an anchor
 * covers every checkpoint the last signed anchor covered (so a shard checkpoint `replay/shard-i-of-n`, once signed,
 * stays covered by every later anchor, ingest's included) and those a command names with `cover` (a parallel
 * replay: its shards' checkpoints).
 */
export const ANCHORED_CHECKPOINTS = ['replay'] as const;

/**
 * An Anchorer whose list of covered checkpoints grows: the fixed ones, those of the last signed anchor (read from
 * the sink before each anchor), and those named with `cover`. A checkpoint covered once is never dropped.
 */
export class CheckpointCoveringAnchorer extends Anchorer {
  readonly #covered: string[];
  #carried: Promise<void> | null = null;

  constructor(
    store: EventStore,
    sink: AnchorSink,
    options: Omit<AnchorerOptions, 'checkpoints'>,
    covered: string[] = [...ANCHORED_CHECKPOINTS],
  ) {
    super(store, sink, { ...options, checkpoints: covered });
    this.#covered = covered;
  }

  /** The checkpoints the next anchor will cover (more may join from the last signed anchor). */
  get covered(): readonly string[] {
    return this.#covered;
  }

  /** Adds checkpoints to every anchor from now on. */
  cover(names: Iterable<string>): void {
    for (const name of names) if (!this.#covered.includes(name)) this.#covered.push(name);
  }

  /** Before the first anchor, the checkpoints of the sink's last signed anchor join (read once: later ones are ours). */
  override async anchor(): Promise<Anchor> {
    this.#carried ??= this.sink.read().then(
      (records) => {
        const last = records.filter((r) => r.signed).at(-1)?.anchor;
        if (last) this.cover(Object.keys(last.checkpoints).sort());
      },
      (err: unknown) => {
        this.#carried = null; // read again at the next anchor
        throw err;
      },
    );
    await this.#carried;
    return super.anchor();
  }
}

export const ANCHOR_OPTIONS_USAGE = `  --anchors DIR        sign an anchor of every stream's head into DIR/anchors.jsonl (append-only) at the end of
                       the work (default $TABLE_AUDIT_ANCHORS); table-audit verify --anchors DIR checks against them
  --signing-key PEM    the Ed25519 private key that signs (default $TABLE_AUDIT_SIGNING_KEY)`;

/** --anchors wins over TABLE_AUDIT_ANCHORS; an empty variable counts as unset. */
export const anchorsDir = (flag: string | undefined): string | undefined =>
  flag === '' ? undefined : (flag ?? (process.env.TABLE_AUDIT_ANCHORS || undefined));
const signingKeyPath = (flag: string | undefined): string | undefined =>
  flag === '' ? undefined : (flag ?? (process.env.TABLE_AUDIT_SIGNING_KEY || undefined));

/** Anchors name the store by its file name, so anchors of one store are never continued for another. */
export const storeIdOf = (storePath: string): string => `sqlite:${basename(storePath)}`;

/**
 * The anchorer configured by --anchors and --signing-key (or their variables); null when neither is given.
 * `generateInto`: when no key is configured, make one there once (run's own directory) and say so.
 */
export function configuredAnchorer(
  store: EventStore,
  /** the SQLite file, or the opened store's id (adapters.ts), which anchors name the store by */
  storePath: string | { readonly storeId: string },
  flags: { anchors: string | undefined; signingKey: string | undefined },
  defaults: { anchors?: string; generateInto?: string } = {},
): CheckpointCoveringAnchorer | null {
  const dir = anchorsDir(flags.anchors) ?? defaults.anchors;
  let keyPath = signingKeyPath(flags.signingKey);
  if (dir === undefined) {
    if (keyPath !== undefined)
      throw new UsageError(
        `a signing key (${keyPath}) was given but no --anchors DIR (or TABLE_AUDIT_ANCHORS) to write the anchors into`,
      );
    return null;
  }
  let key;
  if (keyPath === undefined && defaults.generateInto !== undefined) {
    keyPath = join(defaults.generateInto, 'signing-key.pem');
    if (existsSync(keyPath)) key = loadSigningKey(keyPath);
    else {
      key = generateSigningKey(keyPath);
      out(
        `made a signing key for this run's anchors: ${keyPath} (key ${publicKeyId(key)}, created by this run, not ` +
          `an operator's key; give --signing-key PEM or TABLE_AUDIT_SIGNING_KEY to sign with your own)`,
      );
    }
  } else if (keyPath === undefined)
    throw new UsageError(
      `--anchors ${dir} needs a signing key: --signing-key PEM or TABLE_AUDIT_SIGNING_KEY (an Ed25519 private key, e.g. openssl genpkey -algorithm ed25519 -out key.pem)`,
    );
  else key = loadSigningKey(keyPath);
  return new CheckpointCoveringAnchorer(store, new FileAnchorSink(dir, key), {
    key,
    storeId: typeof storePath === 'string' ? storeIdOf(storePath) : storePath.storeId,
  });
}

/** The last signed value of a checkpoint, or undefined when no anchor signs one (then the store's is used). */
export async function signedCheckpoint(anchorer: Anchorer, name: string): Promise<bigint | null | undefined> {
  const records = await anchorer.sink.read();
  const last = records.filter((r) => r.signed).at(-1)?.anchor;
  if (!last || !(name in last.checkpoints)) return undefined;
  const value = last.checkpoints[name];
  return value === null || value === undefined ? null : BigInt(value);
}

export const describeAnchor = (a: Anchor, where: string): string =>
  `anchor #${a.sequence} signed (${a.keyId}): ${a.heads.length} stream heads up to position ${a.position}, Merkle root ${a.merkleRoot.slice(0, 16)}…, into ${where}`;
