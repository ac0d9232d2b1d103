// Plain JavaScript that any Node (even the 20 a fresh machine may have) can run: makes
// sure the product runs on Node >= 22.18 (type stripping), fetching Node 24 from the npm
// registry into .tools/ when the machine's Node is older.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname ?? new URL('..', import.meta.url).pathname, '..');

export function nodeIsRecentEnough(version = process.versions.node) {
  const [major, minor] = version.split('.').map(Number);
  return major > 22 || (major === 22 && minor >= 18);
}

/** Path of a Node binary good enough to run the product. */
export function ensureNode() {
  if (nodeIsRecentEnough()) return process.execPath;
  const pkg = `node-${process.platform}-${process.arch}`;
  const bin = join(ROOT, '.tools', 'node_modules', pkg, 'bin', 'node');
  if (!existsSync(bin)) {
    console.log(`Node ${process.versions.node} is too old; installing Node 24 into .tools/ ...`);
    execFileSync('npm', ['install', '--prefix', join(ROOT, '.tools'), '--no-save', '--no-package-lock', `${pkg}@24`], { stdio: 'inherit', cwd: ROOT });
  }
  return bin;
}

/** Runs a command to completion, forwarding signals; resolves with its exit code. */
export function run(command, args, options = {}) {
  return new Promise((resolvePromise) => {
    const child = spawn(command, args, { stdio: 'inherit', cwd: ROOT, ...options });
    const forward = (signal) => child.kill(signal);
    process.on('SIGINT', forward);
    process.on('SIGTERM', forward);
    child.on('exit', (code, signal) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolvePromise(code ?? (signal ? 1 : 0));
    });
  });
}
