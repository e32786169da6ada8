import { commands, type Command } from './commands/index.ts';

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
  ].join('\n');
}

/** Runs one command line; returns the process exit code (0 ok, 1 failure, 2 usage error). */
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
    return await command.run(rest);
  } catch (err) {
    const e = err as Error;
    const usage = e.name === 'UsageError' || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    process.stderr.write(`table-audit ${name}: ${e.message}\n${usage ? `\n${command.usage}\n` : ''}`);
    return usage ? 2 : 1;
  }
}
