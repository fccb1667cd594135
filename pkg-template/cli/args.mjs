// What the CLI commands share about their arguments: parsed with Node's parseArgs, where a value
// that looks like a negative number (`--shards -3`) is the option's value (so the command's own
// check can say what is wrong with it), and every problem is one line naming it and the fix.
import { parseArgs } from 'node:util';

/** A problem with the command line: printed as one line, exit code 2. */
export class UsageError extends Error {}

/**
 * `parseArgs` for `shardwise <command>`, positionals allowed.
 * @throws {UsageError}
 */
export function parse(command, argv, options) {
  const args = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const name = a.startsWith('--') && !a.includes('=') ? a.slice(2) : undefined;
    if (name && options[name]?.type === 'string' && /^-\d/.test(argv[i + 1] ?? '')) {
      args.push(`${a}=${argv[i + 1]}`);
      i++;
    } else {
      args.push(a);
    }
  }
  try {
    return parseArgs({ args, options, allowPositionals: true });
  } catch (e) {
    // parseArgs' advice on '--' positionals does not apply to these commands
    throw new UsageError(`${String(e.message).split('. ')[0]}; see 'shardwise ${command} --help'`);
  }
}

/** Throws a UsageError naming a missing required option or argument. */
export function required(command, value, what) {
  if (value === undefined || value === '') throw new UsageError(`${what} is required; see 'shardwise ${command} --help'`);
}

/** A whole number option as a number (range checks are the API's), or a UsageError. */
export function number(command, values, flag) {
  const raw = values[flag];
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value)) throw new UsageError(`--${flag} must be a number, got '${raw}'; see 'shardwise ${command} --help'`);
  return value;
}
