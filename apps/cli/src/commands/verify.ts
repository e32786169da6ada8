import { existsSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { verify, type VerifyReport } from '@table-audit/eventstore';
import { json, out, type Command } from './command.ts';
import { DEFAULT_STORE, openStoreReadOnly, storePath } from './store.ts';

const usage = `Usage: table-audit verify [--store PATH] [--stream NAME] [--json]

Re-reads the embedded event store and checks every stream's hash chain (tamper evidence): revisions without gaps,
each event's previous hash equal to the hash of the event before it, each hash equal to the one recomputed from the
event's content. Prints ok, or the first broken link: its stream, revision, event id and why. Exit 0 if intact,
1 if a link is broken or the store cannot be read, 2 for a usage error.

  --store PATH    the SQLite store (default $TABLE_AUDIT_STORE, else ${DEFAULT_STORE}); opened read-only: nothing
                  is written to it or next to it, so a store on read-only media can be verified
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
    const path = storePath(values.store);
    const progress = process.stderr.isTTY
      ? (n: number) => void process.stderr.write(`\rverifying… ${n.toLocaleString('en-US')} events`)
      : undefined;
    const check = async (): Promise<{ report: VerifyReport; immutable: boolean }> => {
      const { store, immutable } = openStoreReadOnly(path);
      try {
        const report = await verify(store, {
          ...(values.stream === undefined ? {} : { stream: values.stream }),
          ...(progress ? { onProgress: progress } : {}),
        });
        return { report, immutable };
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
  },
};
