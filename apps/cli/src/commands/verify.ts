import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  ANCHORS_FILE,
  loadPublicKey,
  PUBLIC_KEY_FILE,
  publicKeyId,
  publicKeyPem,
  readAnchorFile,
  verify,
  verifyEvidenceBundle,
  type VerifyOptions,
  type VerifyReport,
} from '@table-audit/eventstore';
import { anchorsDir } from './anchors.ts';
import { json, out, UsageError, type Command } from './command.ts';
import { DEFAULT_STORE, openStoreReadOnly, storePath } from './store.ts';

const usage = `Usage: table-audit verify [--store PATH] [--stream NAME] [--anchors DIR [--public-key PEM]] [--json]
       table-audit verify --bundle FILE [--public-key PEM] [--json]

Re-reads the embedded event store and checks every stream's hash chain (tamper evidence): revisions without gaps,
each event's previous hash equal to the hash of the event before it, each hash equal to the one recomputed from the
event's content and recorded time. With --anchors, also holds the store to the signed anchors kept outside it: a
stream or its last events removed, a stream re-hashed after an edit, events no anchor covers (appended since, or
forged), a checkpoint moved; each is named with its stream, revision, event id, position and the anchor's line.
Exit 0 if intact, 1 if anything does not hold or the store cannot be read, 2 for a usage error.

  --store PATH       the SQLite store (default $TABLE_AUDIT_STORE, else ${DEFAULT_STORE}); opened read-only: nothing
                     is written to it or next to it, so a store on read-only media can be verified
  --stream NAME      only this stream
  --anchors DIR      DIR/${ANCHORS_FILE}, signed by the key in DIR/${PUBLIC_KEY_FILE} (default $TABLE_AUDIT_ANCHORS)
  --public-key PEM   verify the anchors with this public key instead (e.g. the copy a regulator keeps)
  --show-key         print the public key (PEM) and its id, and exit
  --json             machine-readable report, with every stream's head and the Merkle root over them
  --bundle FILE      check an evidence bundle the API exported, offline (no store): every event's hash, every link
                     to its stream's head, each signed anchor (with --public-key PEM, else the bundle's own copy of
                     the key, said so) and that its findings and alert history are its events; names the first
                     event or link that fails`;

/** The largest bundle file read (a round's chain to its table's head is a few MiB at most). */
const MAX_BUNDLE_BYTES = 256 * 1024 * 1024;

function verifyBundle(path: string, keyPath: string | undefined, asJson: boolean): number {
  if (!existsSync(path)) throw new Error(`no evidence bundle at ${path}`);
  const size = statSync(path).size;
  if (size > MAX_BUNDLE_BYTES)
    throw new Error(`${path}: ${size} bytes, more than an evidence bundle holds (${MAX_BUNDLE_BYTES})`);
  let bundle: unknown;
  try {
    bundle = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new Error(`${path}: not JSON: ${(e as Error).message}`);
  }
  const report = verifyEvidenceBundle(
    bundle,
    keyPath === undefined ? {} : { publicKey: loadPublicKey(keyPath) },
  );
  if (asJson) out(json({ bundle: path, ...report }));
  else if (report.problem) out(`BROKEN: ${path}: ${report.problem.where}: ${report.problem.reason}`);
  else
    out(
      `ok: ${path}: ${report.events} events in ${report.segments} chain segments, every hash and link to the head intact; ${report.anchorsVerified} signed anchor(s) verified${report.anchorKey ? ` with ${report.anchorKey.id}${report.anchorKey.fromBundle ? " (the bundle's own copy of the key: give --public-key to check it against yours)" : ''}` : ''}`,
    );
  return report.ok ? 0 : 1;
}

export const verifyCommand: Command = {
  name: 'verify',
  summary: "check the event store's hash chains and its signed anchors (tamper evidence)",
  usage,
  async run(args) {
    const { values } = parseArgs({
      args,
      options: {
        store: { type: 'string' },
        stream: { type: 'string' },
        json: { type: 'boolean' },
        anchors: { type: 'string' },
        'public-key': { type: 'string' },
        'show-key': { type: 'boolean' },
        bundle: { type: 'string' },
      },
    });
    if (values.bundle !== undefined) {
      if (values.anchors !== undefined || values.stream !== undefined || values.store !== undefined)
        throw new UsageError(
          '--bundle is checked on its own: give no --store, --stream or --anchors with it',
        );
      return verifyBundle(values.bundle, values['public-key'], values.json ?? false);
    }
    const dir = anchorsDir(values.anchors);
    const keyPath = values['public-key'] ?? (dir === undefined ? undefined : join(dir, PUBLIC_KEY_FILE));
    if (dir === undefined && (values['public-key'] !== undefined || values['show-key']))
      throw new UsageError('--public-key and --show-key go with --anchors DIR');
    const publicKey = keyPath === undefined ? undefined : loadPublicKey(keyPath);
    if (values['show-key']) {
      out(`${publicKeyId(publicKey!)} (${keyPath})\n${publicKeyPem(publicKey!)}`);
      return 0;
    }
    const anchorsFile = dir === undefined ? undefined : join(dir, ANCHORS_FILE);
    if (anchorsFile !== undefined && !existsSync(anchorsFile))
      throw new Error(`no anchors at ${anchorsFile} (give the --anchors DIR the pipeline signed into)`);

    const path = storePath(values.store);
    const progress = process.stderr.isTTY
      ? (n: number) => void process.stderr.write(`\rverifying… ${n.toLocaleString('en-US')} events`)
      : undefined;
    const check = async (): Promise<{ report: VerifyReport; immutable: boolean }> => {
      const { store, immutable } = openStoreReadOnly(path);
      try {
        const options: VerifyOptions = {
          ...(values.stream === undefined ? {} : { stream: values.stream }),
          ...(progress ? { onProgress: progress } : {}),
          ...(values.json ? { heads: true } : {}),
          ...(anchorsFile === undefined
            ? {}
            : { anchors: { records: readAnchorFile(anchorsFile, publicKey!), source: anchorsFile } }),
        };
        return { report: await verify(store, options), immutable };
      } finally {
        await store.close();
      }
    };
    const before = existsSync(path) ? statSync(path) : null;
    const first = await check();
    let report = first.report;
    // Opened immutable, SQLite assumed nothing would write the file meanwhile; if a writer did start (it makes a
    // -wal file, or changes the file at a checkpoint), read again, this time through the writer's -wal file.
    const after = statSync(path);
    const changed = !before || after.mtimeMs !== before.mtimeMs || after.size !== before.size;
    if (first.immutable && (existsSync(`${path}-wal`) || changed)) ({ report } = await check());
    if (progress) process.stderr.write('\r\x1b[K');
    const scope = values.stream === undefined ? '' : ` of stream "${values.stream}"`;
    if (values.json) {
      out(json({ store: path, stream: values.stream ?? null, ...report }));
      return report.ok ? 0 : 1;
    }
    const lines: string[] = [];
    if (report.firstBroken) {
      const b = report.firstBroken;
      lines.push(
        `BROKEN: stream "${b.stream}" revision ${b.revision} (event ${b.eventId}): ${b.reason}\n` +
          `(first broken link, after checking ${report.events} events in ${report.streams} streams${scope} of ${path})`,
      );
    } else
      lines.push(
        `${report.ok ? 'ok' : 'chains ok'}: ${report.events} events in ${report.streams} streams${scope}, every hash chain intact (${path})`,
      );
    const a = report.anchors;
    if (a) {
      lines.push(
        a.last === null
          ? `anchors: none signed by ${publicKeyId(publicKey!)} in ${a.source}`
          : `anchors: ${a.signed} of ${a.records} signed by ${a.last.keyId} (${keyPath}); the last, #${a.last.sequence} at ${new Date(a.last.time).toISOString()}, covers up to position ${a.last.position}, Merkle root ${a.last.merkleRoot}`,
      );
      if (a.problems.length === 0) lines.push('the store matches every signed anchor');
      for (const p of a.problems) lines.push(`${p.kind.toUpperCase()}: ${p.message}`);
    }
    out(lines.join('\n'));
    return report.ok ? 0 : 1;
  },
};
