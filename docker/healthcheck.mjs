// Docker HEALTHCHECK of the backend image: GET /healthz on the port of what PID 1 runs.
// The target is read from PID 1's arguments because `docker run <image> --target=files`
// overrides the image's PORTAL_TARGET without changing the environment HEALTHCHECK sees.
// (Kubernetes ignores HEALTHCHECK and uses the chart's probes instead.)
import { readFileSync } from 'node:fs';

// Default ports of the services, as in each service module; `<NAME>_PORT` overrides.
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
  requests: 8110,
  signatures: 8111,
  billing: 8115,
};

function runningTargets() {
  let spec = process.env.PORTAL_TARGET || 'all';
  try {
    const flag = readFileSync('/proc/1/cmdline', 'utf8').split('\0').find((arg) => arg.startsWith('--target='));
    if (flag) spec = flag.slice('--target='.length);
  } catch {
    // Not readable (another PID namespace): the image default is the best guess.
  }
  return spec.split(',').map((name) => name.trim()).filter(Boolean);
}

// A process that runs the gateway (`all` included) answers on the gateway's port;
// otherwise the first service it runs is probed.
function probePort(targets) {
  const service = targets.find((name) => name in SERVICE_PORTS);
  if (targets.includes('all') || targets.includes('gateway') || !service) return process.env.PORT || 8080;
  return process.env[`${service.toUpperCase()}_PORT`] || SERVICE_PORTS[service];
}

try {
  const response = await fetch(`http://127.0.0.1:${probePort(runningTargets())}/healthz`, { signal: AbortSignal.timeout(4000) });
  process.exit(response.ok ? 0 : 1);
} catch {
  process.exit(1);
}
