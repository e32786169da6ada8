import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { verify } from '@table-audit/eventstore';
import { SqliteEventStore } from '@table-audit/eventstore/sqlite';
import { json, out, type Command } from './command.ts';

const DEFAULT_STORE = './data/events.sqlite';

const usage = `Usage: table-audit verify [--store PATH] [--stream NAME] [--json]

Re-reads the embedded event store and checks every stream's hash chain (tamper evidence): revisions without gaps,
each event's previous hash equal to the hash of the event before it, each hash equal to the one recomputed from the
event's content. Prints ok, or the first broken link: its stream, revision, event id and why. Exit 0 if intact,
1 if a link is broken or the store cannot be read.

  --store PATH    the SQLite store (default $TABLE_AUDIT_STORE, else ${DEFAULT_STORE}); opened read-only
  --stream NAME   only this stream
  --json          machine-readable report`;

export const verifyCommand: Command = {
  name: 'verify',
  summary: "check the event store's hash chains (tamper evidence)",
  usage,
  async run(args) {
    const { values } = parseArgs({
      args,
      options: {
        store: { type: 'string' },
        stream: { type: 'string' },
        json: { type: 'boolean' },
      },
    });
    const path = values.store ?? (process.env.TABLE_AUDIT_STORE || DEFAULT_STORE); // an empty variable counts as unset
    if (!existsSync(path))
      throw new Error(`no event store at ${path} (give --store PATH or set TABLE_AUDIT_STORE)`);
    const store = new SqliteEventStore(path, { readOnly: true });
    try {
      const progress = process.stderr.isTTY
        ? (n: number) => void process.stderr.write(`\rverifying… ${n.toLocaleString('en-US')} events`)
        : undefined;
      const report = await verify(store, {
        ...(values.stream === undefined ? {} : { stream: values.stream }),
        ...(progress ? { onProgress: progress } : {}),
      });
      if (progress) process.stderr.write('\r\x1b[K');
      const scope = values.stream === undefined ? '' : ` of stream "${values.stream}"`;
      if (values.json) out(json({ store: path, stream: values.stream ?? null, ...report }));
      else if (report.ok)
        out(
          `ok: ${report.events} events in ${report.streams} streams${scope}, every hash chain intact (${path})`,
        );
      else {
        const b = report.firstBroken!;
        out(
          `BROKEN: stream "${b.stream}" revision ${b.revision} (event ${b.eventId}): ${b.reason}\n` +
            `(first broken link, after checking ${report.events} events in ${report.streams} streams${scope} of ${path})`,
        );
      }
      return report.ok ? 0 : 1;
    } finally {
      await store.close();
    }
  },
};
