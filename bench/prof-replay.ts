import { replayEvents } from '@table-audit/replay';
import { simulateSession } from '@table-audit/simulator';
const s = simulateSession({
  seed: 9,
  tables: 200,
  roundsPerTable: 50,
  faultRate: 0.05,
  handledRate: 0.02,
  bettingSystemTables: 2,
});
for (let i = 0; i < 4; i++) {
  const c = process.cpuUsage();
  replayEvents(s.events);
  const u = process.cpuUsage(c);
  console.log('pass', i, 'rounds per CPU second', Math.round(10000 / ((u.user + u.system) / 1e6)));
}
