import { analyticsCommand } from './analytics.ts';
import { citeCommand } from './cite.ts';
import { findingsCommand } from './findings.ts';
import type { Command } from './command.ts';
import { ingestCommand } from './ingest.ts';
import { interpretationsCommand } from './interpretations.ts';
import { mathCommand } from './math.ts';
import { replayCommand } from './replay.ts';
import { reportCommand } from './report.ts';
import { rulesCommand } from './rules.ts';
import { runCommand } from './run.ts';
import { serveCommand } from './serve.ts';
import { settleCommand } from './settle.ts';
import { simulateCommand } from './simulate.ts';
import { statusCommand } from './status.ts';
import { storeCommand } from './store.ts';
import { tokenCommand } from './token.ts';
import { verifyCommand } from './verify.ts';

export type { Command } from './command.ts';

export const commands: readonly Command[] = [
  runCommand,
  simulateCommand,
  ingestCommand,
  replayCommand,
  findingsCommand,
  analyticsCommand,
  statusCommand,
  reportCommand,
  verifyCommand,
  storeCommand,
  mathCommand,
  settleCommand,
  rulesCommand,
  citeCommand,
  interpretationsCommand,
  serveCommand,
  tokenCommand,
];
