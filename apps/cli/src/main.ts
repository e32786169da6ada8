import { commands, type Command } from './commands/index.ts';
import { ConfigError, exportToEnvironment, loadConfig } from './config.ts';
import { DEFAULT_STORE } from './commands/store.ts';

function help(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'table-audit — regulatory audit of Macau casino table games',
    '',
    'Usage: table-audit <command> [options]      (table-audit <command> --help for its options)',
    '',
    'Commands:',
    ...commands.map((c: Command) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Exit status:',
    '  0  done, and nothing to report',
    '  1  findings, a failed proof, input rejected (each named on stderr), or a command that could not finish',
    '  2  usage error: an unknown command or option, or an option value out of range',
    '',
    `The event store of every command is ${DEFAULT_STORE} (--store PATH or TABLE_AUDIT_STORE to change it).`,
    'Configuration: table-audit.config.json in the working directory (or $TABLE_AUDIT_CONFIG), environment',
    'variables over it, flags over both (docs/configuration.md).',
    'Money is shown in MOP (files carry avos, 1/100 MOP); times in Macau time, UTC+8 (files carry UTC ms).',
    '',
  ].join('\n');
}

/** Commands that open a SQLite file directly (not through adapters.ts): refused when the store is EventStoreDB. */
const SQLITE_ONLY = new Set(['verify', 'store']);

/** Runs one command line; returns the process exit code (0 ok, 1 findings or failure, 2 usage error). */
export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(help());
    return name === undefined ? 2 : 0;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    process.stderr.write(`table-audit: unknown command "${name}"\n\n${help()}`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(`${command.usage}\n`);
    return 0;
  }
  try {
    // the file's choices reach every command, through the variables they read; the environment still wins
    const config = loadConfig();
    exportToEnvironment(config);
    if (config.store.kind === 'eventstoredb' && SQLITE_ONLY.has(command.name) && !rest.includes('--store'))
      throw new ConfigError(
        `the configured store is EventStoreDB (${config.file ?? 'TABLE_AUDIT_EVENTSTORE_URL'}), and table-audit ${command.name} works on a SQLite store file only: give it --store PATH`,
      );
    return await command.run(rest);
  } catch (err) {
    const e = err instanceof Error ? err : new Error(String(err));
    const usage = e.name === 'UsageError' || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    // the causes too: an error that wraps another must not hide it
    let text = e.message;
    for (let c = e.cause; c !== undefined; c = c instanceof Error ? c.cause : undefined)
      text += `\n  caused by: ${c instanceof Error ? c.message : String(c)}`;
    process.stderr.write(`table-audit ${name}: ${text}\n${usage ? `\n${command.usage}\n` : ''}`);
    return usage || e.name === 'ConfigError' ? 2 : 1;
  }
}
