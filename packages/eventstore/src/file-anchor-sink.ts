/**
 * Anchors as an append-only file: DIR/anchors.jsonl, one anchor per line (canonical JSON), opened with 'a' and never
 * rewritten, with the public key that verifies them beside it (DIR/public-key.pem). Put DIR where the store's writer
 * cannot rewrite it (another account, append-only attribute, WORM storage, or copy each line elsewhere as written).
 */
import type { KeyObject } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import {
  anchorHash,
  anchorLine,
  anchorShapeProblem,
  anchorSignatureValid,
  publicKeyId,
  publicKeyPem,
  type Anchor,
  type AnchorRecord,
  type AnchorSink,
} from './anchor.ts';
import { GENESIS_HASH } from './hash-chain.ts';

export const ANCHORS_FILE = 'anchors.jsonl';
export const PUBLIC_KEY_FILE = 'public-key.pem';

/**
 * Reads and checks an anchors file: each line must be an anchor signed by `publicKey`, numbered in order and
 * chained to the line before. Every record is returned, each with the reason it is not acceptable (or null).
 */
export function readAnchorFile(path: string, publicKey: KeyObject): AnchorRecord[] {
  const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const lines = text.split('\n');
  const torn = lines.at(-1) !== '';
  if (!torn) lines.pop();
  const keyId = publicKeyId(publicKey);
  const records: AnchorRecord[] = [];
  let previous: Anchor | null = null;
  for (const [i, line] of lines.entries()) {
    const at = i + 1;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (e) {
      const last = torn && i === lines.length - 1;
      records.push({
        line: at,
        anchor: null,
        signed: false,
        problem: `not JSON${last ? ' (the last line has no newline: a write was cut short)' : ''}: ${(e as Error).message}`,
      });
      continue;
    }
    const shape = anchorShapeProblem(value);
    if (shape !== null) {
      records.push({ line: at, anchor: null, signed: false, problem: `not an anchor: ${shape}` });
      continue;
    }
    const a = value as Anchor;
    let problem: string | null = null;
    const signed = a.keyId === keyId && anchorSignatureValid(a, publicKey) && anchorLine(a) === line;
    if (a.keyId !== keyId) problem = `signed by key ${a.keyId}, not by ${keyId}`;
    else if (!signed)
      problem = 'its signature does not verify (or it is not in canonical form): the line was changed';
    else if (a.sequence !== (previous === null ? 0 : previous.sequence + 1))
      problem = `sequence ${a.sequence} follows ${previous === null ? 'nothing' : `sequence ${previous.sequence}`}: anchors were removed or re-ordered`;
    else if (a.previousAnchorHash !== (previous === null ? GENESIS_HASH : anchorHash(previous)))
      problem =
        'its previousAnchorHash is not the hash of the line before: anchors were removed or re-ordered';
    records.push({ line: at, anchor: a, signed, problem });
    if (signed) previous = a; // a gap is reported once; the signed lines after it still count
  }
  return records;
}

/** How long to wait for another process's lock on the anchors file before failing. */
const LOCK_WAIT_MS = 10_000;

export class FileAnchorSink implements AnchorSink {
  readonly path: string;
  readonly publicKeyPath: string;
  readonly description: string;
  readonly #key: KeyObject;

  /**
   * @param dir the anchors directory (created if missing)
   * @param key the signing key (its public half must be the one in DIR/public-key.pem, which is written if absent)
   */
  constructor(
    readonly dir: string,
    key: KeyObject,
  ) {
    this.path = join(dir, ANCHORS_FILE);
    this.publicKeyPath = join(dir, PUBLIC_KEY_FILE);
    this.description = `file ${this.path}`;
    this.#key = key;
  }

  /** Writes DIR/public-key.pem if absent; refuses a directory whose anchors another key signs. */
  #checkKey(): void {
    mkdirSync(this.dir, { recursive: true });
    const pem = publicKeyPem(this.#key);
    if (!existsSync(this.publicKeyPath)) {
      writeFileSync(this.publicKeyPath, pem, { flag: 'wx' });
      return;
    }
    const there = readFileSync(this.publicKeyPath, 'utf8');
    if (there.trim() !== pem.trim())
      throw new Error(
        `${this.publicKeyPath} is not the public half of this signing key (${publicKeyId(this.#key)}): the anchors in ${this.dir} are signed with another key; give the key that signs them, or another --anchors directory`,
      );
  }

  async read(): Promise<AnchorRecord[]> {
    return readAnchorFile(this.path, this.#key);
  }

  async append(build: (last: Anchor | null) => Promise<Anchor>): Promise<Anchor> {
    this.#checkKey();
    const release = await this.#lock();
    try {
      const records = readAnchorFile(this.path, this.#key);
      const last = records.at(-1);
      if (last !== undefined && last.problem !== null)
        throw new Error(
          `${this.path} line ${last.line}: ${last.problem}; no anchor is appended after a line that does not verify`,
        );
      const anchor = await build(last?.anchor ?? null);
      const fd = openSync(this.path, 'a');
      try {
        writeSync(fd, `${anchorLine(anchor)}\n`);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      return anchor;
    } finally {
      release();
    }
  }

  /** An exclusive lock file next to the anchors (made with 'wx'), so two writers do not both chain onto one line. */
  async #lock(): Promise<() => void> {
    const lockPath = `${this.path}.lock`;
    const deadline = Date.now() + LOCK_WAIT_MS;
    for (;;) {
      try {
        const fd = openSync(lockPath, 'wx');
        writeSync(fd, `${process.pid}\n`);
        closeSync(fd);
        return () => unlinkSync(lockPath);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      if (Date.now() > deadline) {
        let holder = '';
        try {
          holder = readFileSync(lockPath, 'utf8').trim();
        } catch {
          // released meanwhile: the next attempt takes it
          continue;
        }
        throw new Error(
          `${lockPath} has been held by process ${holder || '?'} for over ${LOCK_WAIT_MS / 1000} s; if no table-audit process is running, that one died while anchoring: check ${this.path} and remove the lock file`,
        );
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}
