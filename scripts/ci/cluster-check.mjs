// After a helm step of scripts/ci/cluster.sh: every Deployment of the namespace has all
// its replicas updated, Ready and available, with each of its pods Ready; every Service
// with a selector selects at least one pod, all of them Ready, and its EndpointSlices
// list ready endpoints for every port it declares (a targetPort that names no container
// port, or a selector that matches nothing, leaves them empty).
// Usage: node scripts/ci/cluster-check.mjs <namespace> <step name>; kubectl on PATH.
import { execFileSync } from 'node:child_process';

const [namespace, step] = process.argv.slice(2);
const get = (kinds) => JSON.parse(execFileSync('kubectl', ['get', kinds, '-n', namespace, '-o', 'json'], { maxBuffer: 64 << 20 })).items;

const deployments = get('deployments');
const services = get('services');
const pods = get('pods').filter((pod) => !pod.metadata.deletionTimestamp && pod.status.phase !== 'Succeeded');
const slices = get('endpointslices.discovery.k8s.io');

const matches = (selector, labels = {}) => Object.entries(selector).every(([key, value]) => labels[key] === value);
const ready = (pod) => pod.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
const problems = [];
const rows = [];

if (deployments.length === 0) problems.push('no Deployment in the namespace');
for (const d of deployments) {
  const want = d.spec.replicas ?? 1;
  const s = d.status;
  const own = pods.filter((pod) => matches(d.spec.selector.matchLabels ?? {}, pod.metadata.labels));
  const readyPods = own.filter(ready).length;
  rows.push(`deployment/${d.metadata.name}: ${s.readyReplicas ?? 0}/${want} ready, ${readyPods} pod(s) Ready`);
  if (d.spec.selector.matchExpressions?.length) problems.push(`deployment/${d.metadata.name}: matchExpressions are not checked here`);
  if ((s.updatedReplicas ?? 0) !== want || (s.readyReplicas ?? 0) !== want || (s.availableReplicas ?? 0) !== want) {
    problems.push(`deployment/${d.metadata.name}: wants ${want}, updated ${s.updatedReplicas ?? 0}, ready ${s.readyReplicas ?? 0}, available ${s.availableReplicas ?? 0}`);
  }
  if (readyPods < want) problems.push(`deployment/${d.metadata.name}: ${readyPods} of ${want} pods Ready`);
}

for (const svc of services) {
  const selector = svc.spec.selector;
  if (!selector) continue;
  const selected = pods.filter((pod) => matches(selector, pod.metadata.labels));
  const own = slices.filter((slice) => slice.metadata.labels?.['kubernetes.io/service-name'] === svc.metadata.name);
  const readyEndpoints = own.flatMap((slice) => slice.endpoints ?? []).filter((e) => e.conditions?.ready).length;
  const slicePorts = new Set(own.flatMap((slice) => slice.ports ?? []).map((p) => p.name ?? ''));
  rows.push(`service/${svc.metadata.name}: selects ${selected.length} pod(s), ${readyEndpoints} ready endpoint(s)`);
  if (selected.length === 0) problems.push(`service/${svc.metadata.name}: its selector ${JSON.stringify(selector)} matches no pod`);
  if (selected.some((pod) => !ready(pod))) problems.push(`service/${svc.metadata.name}: selects pods that are not Ready`);
  if (readyEndpoints < selected.length) problems.push(`service/${svc.metadata.name}: ${readyEndpoints} ready endpoints for ${selected.length} pods`);
  for (const port of svc.spec.ports) {
    if (!slicePorts.has(port.name ?? '')) problems.push(`service/${svc.metadata.name}: port ${port.name ?? port.port} (targetPort ${port.targetPort}) reaches no container port`);
  }
}

console.error(`  after ${step}:\n${rows.map((row) => `    ${row}`).join('\n')}`);
if (problems.length > 0) {
  console.error(`  FAILED:\n${problems.map((p) => `    ${p}`).join('\n')}`);
  process.exit(1);
}
