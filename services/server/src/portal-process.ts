import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { servicePortEnv } from './platform.config.ts';
import { SERVICE_MODULES } from './targets.ts';

export const MAIN_PATH = fileURLToPath(new URL('./main.ts', import.meta.url));

/** Every service on an ephemeral port (a benchmark or test may pin one afterwards). */
export function ephemeralServicePorts(): Record<string, string> {
  return Object.fromEntries(SERVICE_MODULES.map((m) => [servicePortEnv(m.name), '0']));
}

export interface PortalProcess {
  child: ChildProcess;
  /** The gateway URL from the start banner. */
  url: string;
  /** SIGTERM (graceful) and wait for the exit. */
  stop(): Promise<void>;
}

/**
 * The real entry point in a child process, for tests and benchmarks that must not share
 * a process with what they measure or kill. Resolves once the start banner names the URL.
 */
export function spawnPortal(env: NodeJS.ProcessEnv, args: string[] = [], startTimeoutMs = 90_000): Promise<PortalProcess> {
  const child = spawn(process.execPath, [MAIN_PATH, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`portal did not start within ${startTimeoutMs} ms:\n${out}`));
    }, startTimeoutMs);
    const onData = (c: Buffer) => {
      out += c.toString();
      const m = /open (http:\/\/localhost:\d+)\//.exec(out);
      if (m) {
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        child.stdout!.resume();
        child.off('exit', onEarlyExit);
        resolve({
          child,
          url: m[1]!.replace('localhost', '127.0.0.1'),
          stop: () => new Promise((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
        });
      }
    };
    const onEarlyExit = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`portal exited with ${code} before starting:\n${out}`));
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (c: Buffer) => { out += c.toString(); });
    child.on('exit', onEarlyExit);
  });
}

/**
 * A service target (one or a comma-separated list) in a child process; resolves once the
 * /healthz of every port given answers (the services of one process start side by side,
 * so one listening says nothing of the others).
 */
export async function spawnService(env: NodeJS.ProcessEnv, target: string, ports: number | readonly number[], startTimeoutMs = 90_000): Promise<{ child: ChildProcess; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [MAIN_PATH, `--target=${target}`], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const stop = () => new Promise<void>((done) => {
    if (child.exitCode !== null || child.signalCode !== null) return done();
    child.once('exit', () => done());
    child.kill('SIGTERM');
  });
  const deadline = Date.now() + startTimeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${target} exited with ${child.exitCode}`);
    const answers = await Promise.all([ports].flat().map((port) => fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok, () => false)));
    if (answers.every(Boolean)) return { child, stop };
    await new Promise((r) => setTimeout(r, 200));
  }
  await stop();
  throw new Error(`${target} did not start within ${startTimeoutMs} ms`);
}
