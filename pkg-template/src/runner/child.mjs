// The one way the CLI runs a test runner as a child process (`shardwise node-test`'s node --test,
// `shardwise run`'s command): its output is the user's terminal, the signals that end this process
// (Ctrl-C, a CI job cancelled) end it too, and its exit code is the result.
import { spawn } from 'node:child_process';

/**
 * Runs `command args` and resolves its exit code: the child's own; 1 when a signal ended it (said
 * by `log`); 127 when it could not start (said: no such command, or why).
 * @param {string} command
 * @param {string[]} args
 * @param {{cwd?: string, env?: Record<string, string>, log?: (line: string) => void}} [o] `env`
 *   is added to this process's environment, less NODE_TEST_CONTEXT (inside a node:test file it
 *   would make a child node --test report to that file's runner instead of its own reporters)
 */
export function runChild(command, args, { cwd, env = {}, log = () => {} } = {}) {
  const { NODE_TEST_CONTEXT, ...outer } = process.env;
  const child = spawn(command, args, { cwd, stdio: 'inherit', env: { ...outer, ...env },
    // a command by name on Windows (npx, a .cmd) needs its shell; node itself does not (nor a path with spaces)
    shell: process.platform === 'win32' && command !== process.execPath });
  const forward = (signal) => () => child.kill(signal);
  const handlers = ['SIGINT', 'SIGTERM'].map((s) => [s, forward(s)]);
  for (const [s, h] of handlers) process.on(s, h);
  const done = () => { for (const [s, h] of handlers) process.off(s, h); };
  return new Promise((resolve) => {
    child.on('error', (e) => {
      done();
      log(`[shardwise] could not run ${command}: ${e.code === 'ENOENT' ? 'no such command' : e.message}`);
      resolve(127);
    });
    child.on('close', (code, signal) => {
      done();
      if (signal) log(`[shardwise] ${command} was ended by ${signal}`);
      resolve(code ?? 1);
    });
  });
}
