#!/usr/bin/env node
// The `shardwise` command: one module per subcommand under ../cli.
import { UsageError } from '../cli/args.mjs';
const COMMANDS = {
  serve: 'Run the local service (durations and upload exchanges) on 127.0.0.1',
  plan: 'Plan shards from a report or a durations file',
  upload: 'Upload a saved report folder or report file',
  durations: 'Fetch predicted durations and save a timings file',
  verify: 'After the shards of a run: check they ran every test exactly once',
  'node-test': 'Run node:test (node --test) with the reporter; --shard=i/n: a balanced shard',
  run: 'Run any runner on a balanced shard of files; report its JUnit XML',
};

function usage() {
  const lines = Object.entries(COMMANDS).map(([name, what]) => `  ${name.padEnd(10)} ${what}`);
  return `Usage: shardwise <command> [options]\n\nCommands:\n${lines.join('\n')}\n\nRun 'shardwise <command> --help' for a command's options.`;
}

const [command, ...argv] = process.argv.slice(2);
if (!command || command === '--help' || command === '-h' || command === 'help') {
  console.log(usage());
  process.exit(command ? 0 : 1);
}
if (command === '--version' || command === '-v' || command === 'version') {
  const { readFileSync } = await import('node:fs');
  console.log(JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version);
  process.exit(0);
}
if (!Object.hasOwn(COMMANDS, command)) {
  console.error(`shardwise: unknown command '${command}'\n\n${usage()}`);
  process.exit(2);
}
let mod;
try {
  mod = await import(`../cli/${command}.mjs`);
} catch (e) {
  if (e?.code !== 'ERR_MODULE_NOT_FOUND') throw e;
  console.error(`shardwise: '${command}' is not available in this build`);
  process.exit(2);
}
try {
  process.exitCode = (await mod.run(argv)) ?? 0;
} catch (e) {
  if (e instanceof UsageError) {
    console.error(`shardwise ${command}: ${e.message}`);
    process.exit(2);
  }
  // one line, no stack; a Node error's message already begins with its code (ENOENT: ...)
  const message = String(e?.message ?? e);
  const code = typeof e?.code === 'string' && !message.startsWith(e.code) ? `${e.code}: ` : '';
  console.error(`shardwise ${command}: ${code}${message}`);
  process.exitCode = 1;
}
