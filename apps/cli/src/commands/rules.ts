import { parseArgs } from 'node:util';
import { parseMacauDate, RULE_SETS, ruleSetFor, type Game } from '@table-audit/rules';
import { json, out, UsageError, type Command } from './command.ts';
import { instant } from './numbers.ts';

const usage = `Usage: table-audit rules [--game f3cp] [--date YYYY-MM-DD | --at ISO-8601-INSTANT] [--json]

Without --date/--at: lists the rule-set registry. With them: the rule set that governs a round of --game on that
Macau local date (UTC+8), or at that instant (e.g. --at 2025-11-17T16:30:00Z is 2025-11-18 in Macau).
Exit 0 when an implemented rule set governs the date, 1 when none does (or it is not implemented), 2 for a usage
error (an impossible date such as 2025-02-30, an instant without its time zone).`;

export const rulesCommand: Command = {
  name: 'rules',
  summary: 'the rule-set registry: which rules govern a game on a date',
  usage,
  async run(args) {
    const { values } = parseArgs({
      args,
      options: {
        game: { type: 'string', default: 'f3cp' },
        date: { type: 'string' },
        at: { type: 'string' },
        json: { type: 'boolean' },
      },
    });
    if (values.date === undefined && values.at === undefined) {
      const rows = RULE_SETS.map((e) => ({
        id: e.id,
        game: e.game,
        diplomas: e.diplomas,
        from: e.from,
        to: e.to,
        implemented: e.rules !== null,
      }));
      if (values.json) out(json(rows));
      else
        for (const r of rows)
          out(
            `${r.id.padEnd(20)} ${r.game.padEnd(15)} ${r.from} .. ${(r.to ?? 'in force').padEnd(10)} ${r.implemented ? 'implemented' : 'not implemented'}  ${r.diplomas.join(' + ')}`,
          );
      return 0;
    }
    const games = [...new Set(RULE_SETS.map((e) => e.game))];
    if (!games.includes(values.game as Game))
      throw new UsageError(
        `--game "${values.game}" is not a game of the registry; the games are ${games.join(', ')}`,
      );
    if (values.date !== undefined && values.at !== undefined)
      throw new UsageError('give --date or --at, not both');
    let when: string | number;
    if (values.at !== undefined) when = instant('--at', values.at);
    else {
      try {
        when = parseMacauDate(values.date, '--date');
      } catch (e) {
        throw new UsageError((e as Error).message);
      }
    }
    const found = ruleSetFor(values.game as Game, when);
    if (values.json) out(json(found.status === 'implemented' ? { ...found, rules: found.rules.id } : found));
    else if (found.status === 'implemented')
      out(`${found.localDate}: ${found.entry.id} (${found.entry.diplomas.join(' + ')})`);
    else out(`${found.localDate}: ${found.reason}`);
    return found.status === 'implemented' ? 0 : 1;
  },
};
