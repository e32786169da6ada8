/** The signed anchors of a directory (an append-only anchors file and its public key) as evidence exports cite them. */
import { join } from 'node:path';
import {
  ANCHORS_FILE,
  loadPublicKey,
  PUBLIC_KEY_FILE,
  publicKeyPem,
  readAnchorFile,
} from '@table-audit/eventstore';
import type { AnchorSource } from './context.ts';

export function fileAnchorSource(dir: string): AnchorSource {
  const file = join(dir, ANCHORS_FILE);
  const publicKey = loadPublicKey(join(dir, PUBLIC_KEY_FILE));
  return {
    description: file,
    publicKeyPem: publicKeyPem(publicKey),
    read: async () => readAnchorFile(file, publicKey),
  };
}
