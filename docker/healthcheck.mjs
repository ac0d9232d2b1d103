// Docker HEALTHCHECK of the backend image: GET /healthz on the port of the target that
// PID 1 actually runs. The target is read from PID 1's arguments because `docker run
// image --target=files` overrides the image's default without changing its env.
// (Kubernetes ignores HEALTHCHECK and uses the chart's probes instead.)
import { readFileSync } from 'node:fs';

// Default ports of the services, as in each service's config; `<NAME>_PORT` overrides.
const SERVICE_PORTS = {
  identity: 8101,
  directory: 8102,
  files: 8103,
  activity: 8104,
  chat: 8105,
  tasks: 8106,
  compliance: 8107,
  insights: 8108,
  messaging: 8109,
};

function runningTarget() {
  try {
    const args = readFileSync('/proc/1/cmdline', 'utf8').split('\0');
    const flag = args.find((arg) => arg.startsWith('--target='));
    if (flag) return flag.slice('--target='.length);
  } catch {
    // Not readable (e.g. another PID namespace): fall back to the image default.
  }
  return process.env.PORTAL_TARGET || 'all';
}

const target = runningTarget();
// `all` serves everything through the gateway's port.
const port = target in SERVICE_PORTS
  ? process.env[`${target.toUpperCase()}_PORT`] || SERVICE_PORTS[target]
  : process.env.PORT || 8080;

try {
  const response = await fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(4000) });
  process.exit(response.ok ? 0 : 1);
} catch {
  process.exit(1);
}
