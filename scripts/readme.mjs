#!/usr/bin/env node
// pkg-template/README.md (the npm README) is the user-facing part of README.md: the text between
// `<!-- user:start -->` and `<!-- user:end -->`, with links into pkg-template/ made relative to the
// package. `node scripts/readme.mjs` writes it; `--check` fails when it is out of date.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
export const SOURCE = `${root}README.md`;
export const TARGET = `${root}pkg-template/README.md`;

/** The npm README generated from the repository README's text. */
export function npmReadme(readme) {
  const m = /<!-- user:start -->\n([\s\S]*?)<!-- user:end -->/.exec(readme);
  if (!m) throw new Error('README.md has no <!-- user:start --> ... <!-- user:end --> section');
  const body = m[1].replace(/\]\(pkg-template\//g, '](');
  return `# shardwise\n\n<!-- Generated from the repository's README.md by scripts/readme.mjs: edit that file. -->\n${body}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const want = npmReadme(fs.readFileSync(SOURCE, 'utf8'));
  if (process.argv.includes('--check')) {
    const have = fs.existsSync(TARGET) ? fs.readFileSync(TARGET, 'utf8') : '';
    if (have !== want) {
      console.error('pkg-template/README.md is out of date: run node scripts/readme.mjs');
      process.exit(1);
    }
  } else {
    fs.writeFileSync(TARGET, want);
    console.log('wrote pkg-template/README.md');
  }
}
