// Debian's nginx as a reference reverse proxy for the gateway benchmark: one worker (the
// gateway is one Node process), keep-alive to the upstream, nothing else, in a temporary
// prefix so it needs no system configuration and leaves nothing behind.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const NGINX_BINARY = process.env.NGINX_BINARY ?? '/usr/sbin/nginx';

export interface NginxProxy {
  url: string;
  /** The master and its worker. */
  pids: number[];
  stop(): Promise<void>;
}

export async function startNginxProxy(upstreamPort: number, listenPort: number): Promise<NginxProxy> {
  const prefix = mkdtempSync(join(tmpdir(), 'bench-nginx-'));
  const conf = `
${process.getuid?.() === 0 ? 'user root;' : ''}
worker_processes 1;
daemon off;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  keepalive_requests 1000000;
  client_body_temp_path ${prefix}/body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  upstream service { server 127.0.0.1:${upstreamPort}; keepalive 64; keepalive_requests 1000000; }
  server {
    listen 127.0.0.1:${listenPort};
    location / {
      proxy_pass http://service;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
    }
  }
}
`;
  writeFileSync(join(prefix, 'nginx.conf'), conf);
  const child = spawn(NGINX_BINARY, ['-p', prefix, '-c', join(prefix, 'nginx.conf')], { stdio: ['ignore', 'ignore', 'inherit'] });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  let spawnError: Error | null = null;
  child.once('error', (err) => { spawnError = err; });
  const url = `http://127.0.0.1:${listenPort}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (spawnError) throw new Error(`nginx could not start (${NGINX_BINARY}; apt-get install nginx): ${(spawnError as Error).message}`);
    if (child.exitCode !== null) throw new Error(`nginx exited with ${child.exitCode}`);
    if (await fetch(`${url}/healthz`).then((r) => r.ok, () => false)) break;
    if (Date.now() > deadline) throw new Error('nginx did not answer within 10 s');
    await new Promise((r) => setTimeout(r, 100));
  }
  const worker = readFileSync(`/proc/${child.pid}/task/${child.pid}/children`, 'utf8').trim().split(/\s+/).map(Number);
  return {
    url,
    pids: [child.pid!, ...worker],
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGQUIT');
      await exited;
      rmSync(prefix, { recursive: true, force: true });
    },
  };
}
