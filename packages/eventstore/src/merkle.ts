/**
 * A Merkle tree over stream heads, as in RFC 9162 (Certificate Transparency 2.0) §2.1: leaves and inner nodes are
 * hashed with different one-byte prefixes (0x00, 0x01), so a leaf can never pass for a node. One stream's head can
 * then be proven part of a signed root with log2(n) hashes, without the other heads.
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json.ts';

export interface StreamHead {
  stream: string;
  /** the revision of the stream's last event */
  revision: number;
  /** that event's hash */
  hash: string;
}

const sha256 = (...parts: Uint8Array[]): Buffer => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
};
const LEAF = Uint8Array.of(0);
const NODE = Uint8Array.of(1);

export const leafHash = (head: StreamHead): Buffer =>
  sha256(LEAF, Buffer.from(canonicalJson({ hash: head.hash, revision: head.revision, stream: head.stream })));

/** Heads in the one order every party uses: by stream name, compared as UTF-8 bytes. */
export function sortHeads(heads: Iterable<StreamHead>): StreamHead[] {
  return [...heads].sort((a, b) => Buffer.compare(Buffer.from(a.stream), Buffer.from(b.stream)));
}

/** The largest power of two smaller than n (n ≥ 2). */
const split = (n: number): number => 2 ** Math.floor(Math.log2(n - 1));

function treeHash(leaves: readonly Buffer[]): Buffer {
  if (leaves.length === 0) return sha256();
  if (leaves.length === 1) return leaves[0]!;
  const k = split(leaves.length);
  return sha256(NODE, treeHash(leaves.slice(0, k)), treeHash(leaves.slice(k)));
}

/** The root over heads already sorted with sortHeads, hex. */
export const merkleRoot = (sortedHeads: readonly StreamHead[]): string =>
  treeHash(sortedHeads.map(leafHash)).toString('hex');

export interface InclusionProof {
  head: StreamHead;
  /** the head's place among the sorted heads, and how many there are */
  index: number;
  size: number;
  /** sibling hashes from the leaf up, hex */
  path: string[];
}

/** The proof that `stream`'s head is one of `sortedHeads` (RFC 9162 §2.1.3.1), or null if it is not among them. */
export function inclusionProof(sortedHeads: readonly StreamHead[], stream: string): InclusionProof | null {
  const index = sortedHeads.findIndex((h) => h.stream === stream);
  if (index < 0) return null;
  const path: Buffer[] = [];
  const walk = (m: number, leaves: readonly Buffer[]): void => {
    if (leaves.length <= 1) return;
    const k = split(leaves.length);
    if (m < k) {
      walk(m, leaves.slice(0, k));
      path.push(treeHash(leaves.slice(k)));
    } else {
      walk(m - k, leaves.slice(k));
      path.push(treeHash(leaves.slice(0, k)));
    }
  };
  walk(index, sortedHeads.map(leafHash));
  return {
    head: sortedHeads[index]!,
    index,
    size: sortedHeads.length,
    path: path.map((p) => p.toString('hex')),
  };
}

/** Whether `proof` leads from its head to `root` (RFC 9162 §2.1.3.2). */
export function verifyInclusion(proof: InclusionProof, root: string): boolean {
  if (proof.index < 0 || proof.index >= proof.size) return false;
  let fn = proof.index;
  let sn = proof.size - 1;
  let r = leafHash(proof.head);
  for (const hex of proof.path) {
    const p = Buffer.from(hex, 'hex');
    if (sn === 0) return false;
    if (fn % 2 === 1 || fn === sn) {
      r = sha256(NODE, p, r);
      while (fn % 2 === 0 && fn !== 0) {
        fn >>= 1;
        sn >>= 1;
      }
    } else r = sha256(NODE, r, p);
    fn >>= 1;
    sn >>= 1;
  }
  return sn === 0 && r.toString('hex') === root;
}
