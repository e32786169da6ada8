import { TableReplayer, DEFAULT_REPLAY_OPTIONS } from '@table-audit/replay';
import { simulateSession } from '@table-audit/simulator';
const s = simulateSession({
  seed: 9,
  tables: 200,
  roundsPerTable: 50,
  faultRate: 0.05,
  handledRate: 0.02,
  bettingSystemTables: 2,
});
function run(label: string, collusion: boolean) {
  const tables = new Map<string, TableReplayer>();
  const c = process.cpuUsage();
  let n = 0;
  for (const e of s.events) {
    let t = tables.get(e.data.header.tableId);
    if (!t)
      tables.set(
        e.data.header.tableId,
        (t = new TableReplayer(e.data.header.tableId, {
          ...DEFAULT_REPLAY_OPTIONS,
          collusion: { ...DEFAULT_REPLAY_OPTIONS.collusion, enabled: collusion },
        })),
      );
    n += t.apply(e).length;
  }
  const u = process.cpuUsage(c);
  console.log(label.padEnd(32), Math.round(n / (u.user / 1e6)), 'rounds/CPU-s');
}
run('cold, with collusion', true);
run('warm, with collusion', true);
run('warm, with collusion', true);
run('without collusion', false);
run('without collusion', false);
