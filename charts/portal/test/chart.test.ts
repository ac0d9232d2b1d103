// Checks the deployment files the way a cluster would take them: `helm lint` with
// values.schema.json, `kubeconform -strict` against the Kubernetes JSON schemas (offline,
// cached by scripts/ci/install-kube-tools.sh), and assertions on the rendered objects of
// charts/portal and of the k8s/ kustomizations.
import { describe, it, expect, beforeAll, afterAll } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const CHART = join(ROOT, 'charts', 'portal');
// The oldest Kubernetes the chart supports (Chart.yaml kubeVersion); the install script
// caches the schemas of this version.
const KUBE_VERSION = '1.30.0';
const DEFAULT_SCHEMA_DIR = `/opt/ci-cache/kube-schemas/v${KUBE_VERSION}-standalone-strict`;
const SCHEMA_FILE_TEMPLATE = '{{ .ResourceKind }}{{ .KindSuffix }}.json';
// The release name the chart's docs and skaffold.yaml use: objects are portal-<component>.
const RELEASE = 'portal';
// The server's service targets (services/server/src/targets.ts) and their ports.
const SERVICES: Record<string, number> = {
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

interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: any;
  data?: Record<string, string>;
}

interface Tools {
  helm: string;
  kubeconform: string;
  kustomize: string;
  schemaLocation: string;
}

interface Result {
  status: number | null;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], input?: string): Result {
  const result = spawnSync(command, args, { cwd: ROOT, input, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.error) throw result.error;
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

function mustRun(command: string, args: string[], input?: string): string {
  const result = run(command, args, input);
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${result.status}):\n${result.stderr}${result.stdout}`);
  return result.stdout;
}

function goBinDir(): string | null {
  const go = spawnSync('go', ['env', 'GOBIN', 'GOPATH'], { encoding: 'utf8' });
  if (go.status !== 0) return null;
  const [gobin, gopath] = go.stdout.split('\n');
  return gobin || (gopath ? join(gopath, 'bin') : null);
}

/** The tools from their env variables, else where the install script puts them; fails with how to get them. */
function locateTools(): Tools {
  const bin = goBinDir();
  const missing: string[] = [];
  const tool = (envName: string, name: string): string => {
    const path = process.env[envName] || (bin ? join(bin, name) : '');
    if (!path || !existsSync(path)) missing.push(`${name} (${envName}=${path || 'unset, and no Go to find GOPATH/bin'})`);
    return path;
  };
  const helm = tool('HELM_BIN', 'helm');
  const kubeconform = tool('KUBECONFORM_BIN', 'kubeconform');
  const kustomize = tool('KUSTOMIZE_BIN', 'kustomize');
  const schemaLocation = process.env.KUBE_SCHEMA_LOCATION || join(DEFAULT_SCHEMA_DIR, SCHEMA_FILE_TEMPLATE);
  const probe = schemaLocation.replace(SCHEMA_FILE_TEMPLATE, 'deployment-apps-v1.json');
  if (!existsSync(probe)) missing.push(`Kubernetes JSON schemas (KUBE_SCHEMA_LOCATION=${schemaLocation}, no ${probe})`);
  if (missing.length > 0) {
    const where = process.env.CI === 'true' ? '.ci/run must run it before the tests' : 'run it once on this machine';
    throw new Error(`Missing Kubernetes tooling: ${missing.join('; ')}.\nInstall with: bash scripts/ci/install-kube-tools.sh (${where}).`);
  }
  return { helm, kubeconform, kustomize, schemaLocation };
}

/**
 * Parses YAML streams with helm itself: a throwaway chart prints its values as JSON. helm
 * reads YAML with the same library as Kubernetes, so the objects are what a cluster would
 * see, and the tests need no YAML parser of their own. Each document is indented under a
 * key of a values file (indenting a YAML document keeps its meaning).
 */
function parseYamlStreams(helm: string, workDir: string, streams: Record<string, string>): Record<string, K8sObject[]> {
  const chart = join(workDir, 'yaml-to-json');
  mkdirSync(join(chart, 'templates'), { recursive: true });
  writeFileSync(join(chart, 'Chart.yaml'), 'apiVersion: v2\nname: yaml-to-json\nversion: 0.0.0\n');
  writeFileSync(join(chart, 'templates', 'out.yaml'), '{{ toJson (dict "streams" .Values.streams) }}\n');
  const lines = ['streams:'];
  for (const [name, yaml] of Object.entries(streams)) {
    lines.push(`  ${JSON.stringify(name)}:`);
    const documents = yaml.split(/^---[ \t]*$/m).filter((doc) => /^[^#\s]/m.test(doc));
    documents.forEach((doc, index) => {
      lines.push(`    d${String(index).padStart(4, '0')}:`);
      for (const line of doc.split('\n')) lines.push(line.trim() ? `      ${line}` : '');
    });
  }
  const values = join(workDir, 'streams.yaml');
  writeFileSync(values, `${lines.join('\n')}\n`);
  const out = mustRun(helm, ['template', 'convert', chart, '--values', values]);
  const parsed = JSON.parse(out.slice(out.indexOf('{'))) as { streams: Record<string, Record<string, K8sObject> | null> };
  return Object.fromEntries(Object.keys(streams).map((name) => [
    name,
    Object.entries(parsed.streams[name] ?? {}).sort(([a], [b]) => a.localeCompare(b)).map(([, object]) => object),
  ]));
}

interface Conformance {
  kind: string;
  name: string;
  status: string;
  msg: string;
}

/**
 * Validates each named YAML stream with `kubeconform -strict` in one run (the schemas load
 * once) and returns every resource's verdict, per stream.
 */
function kubeconform(tools: Tools, workDir: string, streams: Record<string, string>): Record<string, Conformance[]> {
  const dir = join(workDir, 'kubeconform');
  mkdirSync(dir, { recursive: true });
  const files = Object.keys(streams).map((name, index) => {
    const file = join(dir, `${index}.yaml`);
    writeFileSync(file, streams[name]!);
    return file;
  });
  const result = run(tools.kubeconform, ['-strict', '-verbose', '-output', 'json', '-schema-location', tools.schemaLocation, ...files]);
  const report = JSON.parse(result.stdout) as { resources: (Conformance & { filename: string })[] };
  return Object.fromEntries(Object.keys(streams).map((name, index) => [
    name,
    report.resources.filter((r) => r.filename === files[index]).map(({ kind, name: object, status, msg }) => ({ kind, name: object, status, msg })),
  ]));
}

const byKind = (objects: K8sObject[], kind: string): K8sObject[] => objects.filter((o) => o.kind === kind);
const named = (objects: K8sObject[], kind: string, name: string): K8sObject => {
  const found = objects.find((o) => o.kind === kind && o.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name} among ${objects.map((o) => `${o.kind}/${o.metadata.name}`).join(', ')}`);
  return found;
};
const container = (deployment: K8sObject): any => deployment.spec.template.spec.containers[0];

// Every optional part on: all services, ingress with TLS, autoscaling, secrets from values
// and from a reference, a metrics peer for the NetworkPolicies.
const EVERYTHING = {
  services: Object.fromEntries(Object.keys(SERVICES).map((name) => [name, { enabled: true }])),
  gateway: { autoscaling: { enabled: true, targetMemoryUtilizationPercentage: 80 } },
  serviceDefaults: { autoscaling: { enabled: true } },
  frontend: { autoscaling: { enabled: true } },
  ingress: {
    enabled: true,
    className: 'nginx',
    hosts: [{ host: '*.portal.example.com', paths: [{ path: '/', pathType: 'Prefix' }] }],
    tls: [{ secretName: 'portal-tls', hosts: ['*.portal.example.com'] }],
  },
  secrets: {
    values: { POSTGRES_URL: 'postgres://portal:secret@db:5432/portal', PORTAL_ADMIN_PASSWORD: 'change-me' },
    refs: { AMQP_URL: { name: 'rabbitmq-app', key: 'uri' } },
  },
  networkPolicy: { metricsFrom: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } }] },
  config: { trustedProxies: ['10.42.0.0/16', 'fd00::/8'] },
  loadTest: { enabled: true, profile: 'stress', image: { repository: 'registry.example.com/grafana/k6', tag: '1.8.1' }, extraEnv: { LOADTEST_SCALE: '2' } },
  backup: { enabled: true, schedule: '30 1 * * *', retentionDays: 30, target: { endpoint: 'https://s3.example.com', bucket: 'firm-backups', prefix: 'portal' } },
};

describe('deployment manifests', () => {
  let tools: Tools;
  let workDir: string;
  let everythingValues: string;
  const rendered: Record<string, string> = {};
  let objects: Record<string, K8sObject[]>;
  let conformance: Record<string, Conformance[]>;

  /** kubeconform's verdict on a stream: every object it holds, each valid. */
  const expectValid = (name: string) => {
    const verdicts = conformance[name]!;
    expect(verdicts.filter((v) => v.status !== 'statusValid')).toEqual([]);
    expect(verdicts).toHaveLength(objects[name]!.length);
  };

  beforeAll(() => {
    tools = locateTools();
    workDir = mkdtempSync(join(tmpdir(), 'portal-chart-'));
    everythingValues = join(workDir, 'everything.json');
    writeFileSync(everythingValues, JSON.stringify(EVERYTHING));
    const template = (...args: string[]) => mustRun(tools.helm, ['template', RELEASE, CHART, '--kube-version', KUBE_VERSION, ...args]);
    rendered.chartDefault = template();
    rendered.chartEverything = template('--values', everythingValues);
    rendered.chartWithoutActivity = template('--set', 'services.activity.enabled=false');
    for (const path of ['k8s/base', 'k8s/overlays/single', 'k8s/overlays/distributed', 'k8s/dev-infra']) {
      rendered[path] = mustRun(tools.kustomize, ['build', join(ROOT, path)]);
    }
    objects = parseYamlStreams(tools.helm, workDir, rendered);
    conformance = kubeconform(tools, workDir, rendered);
  });

  afterAll(() => {
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  describe('charts/portal', () => {
    it('passes helm lint --strict with the default values and with every option on', () => {
      for (const extra of [[], ['--values', everythingValues]]) {
        const lint = run(tools.helm, ['lint', '--strict', '--kube-version', KUBE_VERSION, CHART, ...extra]);
        expect(lint.stderr + lint.stdout).toContain('0 chart(s) failed');
        expect(lint.status).toBe(0);
      }
    });

    it.each([
      ['the default values', 'chartDefault'],
      ['every option on', 'chartEverything'],
    ])('renders objects valid for Kubernetes with %s (kubeconform -strict)', (_case, name) => {
      expectValid(name);
    });

    it('runs the gateway, every service and the frontend by default', () => {
      const deployments = byKind(objects.chartDefault!, 'Deployment');
      const services = Object.keys(SERVICES).map((name) => `portal-${name}`);
      expect(deployments.map((d) => d.metadata.name).sort()).toEqual(['portal-frontend', 'portal-gateway', ...services].sort());
      expect(container(named(deployments, 'Deployment', 'portal-gateway')).args).toEqual(['--target=gateway']);
      for (const name of Object.keys(SERVICES)) {
        expect(container(named(deployments, 'Deployment', `portal-${name}`)).args).toEqual([`--target=${name}`]);
      }
      expect(container(named(deployments, 'Deployment', 'portal-frontend')).image).toBe('ledgerline/frontend:0.1.0');
    });

    it('has services listen on the pod address, where the gateway, the other services and the probes reach them', () => {
      // A service binds 127.0.0.1 unless SERVICE_HOST says otherwise.
      expect(named(objects.chartDefault!, 'ConfigMap', 'portal-env').data!.SERVICE_HOST).toBe('0.0.0.0');
    });

    it('trusts no proxy\'s X-Forwarded-For by default, and the listed ones when set', () => {
      expect(named(objects.chartDefault!, 'ConfigMap', 'portal-env').data!.TRUSTED_PROXIES).toBeUndefined();
      expect(named(objects.chartEverything!, 'ConfigMap', 'portal-env').data!.TRUSTED_PROXIES).toBe('10.42.0.0/16,fd00::/8');
    });

    it('gives the files service room for OCR, the other services the shared defaults', () => {
      const deployments = byKind(objects.chartDefault!, 'Deployment');
      expect(container(named(deployments, 'Deployment', 'portal-files')).resources).toEqual({ requests: { cpu: '100m', memory: '384Mi' }, limits: { memory: '1Gi' } });
      for (const name of Object.keys(SERVICES).filter((n) => n !== 'files')) {
        expect(container(named(deployments, 'Deployment', `portal-${name}`)).resources).toEqual({ requests: { cpu: '50m', memory: '160Mi' }, limits: { memory: '512Mi' } });
      }
    });

    it('makes one Deployment and Service per enabled service, on its own port and target', () => {
      const all = objects.chartEverything!;
      expect(byKind(all, 'Deployment')).toHaveLength(Object.keys(SERVICES).length + 2);
      const config = named(all, 'ConfigMap', 'portal-env').data!;
      for (const [name, port] of Object.entries(SERVICES)) {
        const main = container(named(all, 'Deployment', `portal-${name}`));
        expect(main.image).toBe('ledgerline/backend:0.1.0');
        expect(main.args).toEqual([`--target=${name}`]);
        expect(main.ports).toEqual([{ name: 'http', containerPort: port, protocol: 'TCP' }]);
        expect(named(all, 'Service', `portal-${name}`).spec.ports[0]).toMatchObject({ port, targetPort: 'http' });
        // The gateway finds each service by its Service name, the service listens on its port.
        expect(config[`${name.toUpperCase()}_SERVICE_URL`]).toBe(`http://portal-${name}:${port}`);
        expect(config[`${name.toUpperCase()}_PORT`]).toBe(String(port));
      }
      expect(config.FRONTENDS_URL).toBe('http://portal-frontend:80');
      // A disabled service gets no Deployment, Service or route.
      const withoutActivity = objects.chartWithoutActivity!;
      expect(withoutActivity.filter((o) => o.metadata.name === 'portal-activity')).toEqual([]);
      const routes = Object.keys(named(withoutActivity, 'ConfigMap', 'portal-env').data!).filter((key) => key.endsWith('_SERVICE_URL'));
      expect(routes.sort()).toEqual(['CHAT_SERVICE_URL', 'DIRECTORY_SERVICE_URL', 'FILES_SERVICE_URL', 'IDENTITY_SERVICE_URL', 'TASKS_SERVICE_URL', 'COMPLIANCE_SERVICE_URL', 'INSIGHTS_SERVICE_URL', 'MESSAGING_SERVICE_URL', 'REQUESTS_SERVICE_URL', 'SIGNATURES_SERVICE_URL', 'BILLING_SERVICE_URL'].sort());
    });

    it('gives every Deployment both probes, resources and a non-root, read-only security context', () => {
      for (const deployment of [...byKind(objects.chartDefault!, 'Deployment'), ...byKind(objects.chartEverything!, 'Deployment')]) {
        const pod = deployment.spec.template.spec;
        const main = container(deployment);
        expect(main.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
        expect(main.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'http' });
        expect(main.resources.requests).toEqual(expect.objectContaining({ cpu: expect.anything(), memory: expect.anything() }));
        expect(main.resources.limits.memory).toBeTruthy();
        expect(pod.securityContext.runAsNonRoot).toBe(true);
        expect(pod.securityContext.runAsUser).toBeGreaterThan(0);
        expect(main.securityContext).toMatchObject({ runAsNonRoot: true, readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } });
        // A read-only root still needs a writable /tmp.
        const tmpMount = main.volumeMounts.find((m: { mountPath: string }) => m.mountPath === '/tmp');
        expect(pod.volumes.find((v: { name: string }) => v.name === tmpMount.name).emptyDir).toBeDefined();
        expect(pod.automountServiceAccountToken).toBe(false);
      }
    });

    it('loads secrets from the chart Secret and from references, never into the ConfigMap', () => {
      const all = objects.chartEverything!;
      const gateway = container(named(all, 'Deployment', 'portal-gateway'));
      expect(gateway.envFrom).toEqual([{ configMapRef: { name: 'portal-env' } }, { secretRef: { name: 'portal-env' } }]);
      expect(gateway.env).toContainEqual({ name: 'AMQP_URL', valueFrom: { secretKeyRef: { name: 'rabbitmq-app', key: 'uri' } } });
      expect(Object.keys(named(all, 'Secret', 'portal-env').data!).sort()).toEqual(['PORTAL_ADMIN_PASSWORD', 'POSTGRES_URL']);
      expect(named(all, 'ConfigMap', 'portal-env').data!.POSTGRES_URL).toBeUndefined();
      // Nothing given, nothing made: the default render has no Secret to load.
      expect(byKind(objects.chartDefault!, 'Secret')).toEqual([]);
    });

    it('lets services accept traffic only from the gateway and each other, the gateway from anywhere', () => {
      for (const name of ['chartDefault', 'chartEverything']) {
        const policies = byKind(objects[name]!, 'NetworkPolicy');
        const gateway = named(policies, 'NetworkPolicy', 'portal-gateway');
        expect(gateway.spec.podSelector.matchLabels['portal.ledgerline.io/tier']).toBe('gateway');
        expect(gateway.spec.ingress).toEqual([{ ports: [{ port: 8080, protocol: 'TCP' }] }]);

        const services = named(policies, 'NetworkPolicy', 'portal-services');
        expect(services.spec.podSelector.matchLabels['portal.ledgerline.io/tier']).toBe('service');
        const peers = services.spec.ingress[0].from.filter((peer: any) => peer.podSelector);
        expect(peers.map((peer: any) => peer.podSelector.matchLabels['portal.ledgerline.io/tier'])).toEqual(['gateway', 'service']);
        const enabled = byKind(objects[name]!, 'Deployment').filter((d) => d.metadata.labels!['portal.ledgerline.io/tier'] === 'service');
        expect(services.spec.ingress[0].ports.map((p: { port: number }) => p.port).sort()).toEqual(enabled.map((d) => container(d).ports[0].containerPort).sort());

        const frontend = named(policies, 'NetworkPolicy', 'portal-frontend');
        expect(frontend.spec.ingress[0].from[0].podSelector.matchLabels['portal.ledgerline.io/tier']).toBe('gateway');
      }
      // Every pod those policies select carries the tier label they select on.
      for (const deployment of byKind(objects.chartEverything!, 'Deployment')) {
        expect(deployment.spec.template.metadata.labels['portal.ledgerline.io/tier']).toMatch(/^(gateway|service|frontend)$/);
      }
      const metricsPeer = named(objects.chartEverything!, 'NetworkPolicy', 'portal-services').spec.ingress[0].from;
      expect(metricsPeer).toContainEqual(EVERYTHING.networkPolicy.metricsFrom[0]);
    });

    it('adds an Ingress to the gateway and autoscalers that own the replica count when enabled', () => {
      const all = objects.chartEverything!;
      const ingress = named(all, 'Ingress', 'portal');
      expect(ingress.spec.rules[0].http.paths[0].backend.service).toEqual({ name: 'portal-gateway', port: { name: 'http' } });
      // ingress-nginx would cut request bodies at 1 MiB; the gateway enforces the upload limit.
      // /socket.io websockets are long-lived: nginx's 60 s proxy timeouts are raised.
      expect(ingress.metadata.annotations).toMatchObject({
        'nginx.ingress.kubernetes.io/proxy-body-size': '0',
        'nginx.ingress.kubernetes.io/proxy-request-buffering': 'off',
        'nginx.ingress.kubernetes.io/proxy-read-timeout': '3600',
        'nginx.ingress.kubernetes.io/proxy-send-timeout': '3600',
      });
      const autoscalers = byKind(all, 'HorizontalPodAutoscaler');
      expect(autoscalers).toHaveLength(byKind(all, 'Deployment').length);
      for (const hpa of autoscalers) {
        const deployment = named(all, 'Deployment', hpa.spec.scaleTargetRef.name);
        expect(deployment.spec.replicas).toBeUndefined();
      }
      expect(named(all, 'HorizontalPodAutoscaler', 'portal-gateway').spec.metrics.map((m: any) => m.resource.name)).toEqual(['cpu', 'memory']);
      expect(byKind(objects.chartDefault!, 'Ingress')).toEqual([]);
      expect(byKind(objects.chartDefault!, 'HorizontalPodAutoscaler')).toEqual([]);
      expect(named(objects.chartDefault!, 'Deployment', 'portal-gateway').spec.replicas).toBe(2);
    });

    it('covers every component with a PodDisruptionBudget selecting its pods', () => {
      const all = objects.chartEverything!;
      for (const deployment of byKind(all, 'Deployment')) {
        const pdb = named(all, 'PodDisruptionBudget', deployment.metadata.name);
        expect(pdb.spec.selector.matchLabels).toEqual(deployment.spec.selector.matchLabels);
      }
    });

    it('has a helm test pod that GETs the gateway /readyz through its Service', () => {
      const pod = named(objects.chartDefault!, 'Pod', 'portal-test-readyz');
      expect(pod.metadata.annotations!['helm.sh/hook']).toBe('test');
      expect(pod.spec.containers[0].args.at(-1)).toBe('http://portal-gateway:80/readyz');
      expect(pod.spec.containers[0].args).toContain('--fail');
    });

    it('runs the k6 suite as a Job with the k6 image and the scripts\' ConfigMap, only when switched on', () => {
      expect(byKind(objects.chartDefault!, 'Job')).toEqual([]);
      expect(objects.chartDefault!.filter((o) => o.metadata.name === 'portal-loadtest-scripts')).toEqual([]);
      const job = named(objects.chartEverything!, 'Job', 'portal-loadtest-stress');
      const pod = job.spec.template.spec;
      const k6 = pod.containers[0];
      expect(pod.restartPolicy).toBe('Never');
      expect(k6.image).toBe('registry.example.com/grafana/k6:1.8.1');
      expect(k6.args).toEqual(['run', '/scripts/main.ts']);
      const env = Object.fromEntries(k6.env.map((e: { name: string; value?: string; valueFrom?: unknown }) => [e.name, e.value ?? e.valueFrom]));
      expect(env).toMatchObject({
        BASE_URL: 'http://portal-gateway:80', LOADTEST_PROFILE: 'stress', LOADTEST_SCALE: '2',
        LOADTEST_ADMIN_PASSWORD: { secretKeyRef: { name: 'portal-env', key: 'PORTAL_ADMIN_PASSWORD' } },
        K6_WEB_DASHBOARD: 'true', K6_WEB_DASHBOARD_EXPORT: '/tmp/loadtest/report.html', LOADTEST_OUT: '/tmp/loadtest',
      });
      // Grafana's image runs as its own non-root user; the container fits the chart's restrictions.
      expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 12345 });
      expect(k6.securityContext).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } });
      // The scripts: every file of loadtests/k6, as they are (files/loadtests is a link to it), mounted where k6 runs main.ts.
      const scripts = named(objects.chartEverything!, 'ConfigMap', 'portal-loadtest-scripts');
      const source = readdirSync(join(ROOT, 'loadtests', 'k6')).filter((name) => name.endsWith('.ts')).sort();
      expect(Object.keys(scripts.data!).sort()).toEqual(source);
      for (const name of source) expect(scripts.data![name]).toBe(readFileSync(join(ROOT, 'loadtests', 'k6', name), 'utf8'));
      const volume = pod.volumes.find((v: { configMap?: { name: string } }) => v.configMap?.name === 'portal-loadtest-scripts');
      expect(k6.volumeMounts).toContainEqual({ name: volume.name, mountPath: '/scripts', readOnly: true });
    });

    it('runs the optional backup as a CronJob only when switched on: the database in parts (files/backup-dump.sh), then the bucket mirrored to the target, with retention', () => {
      expect(byKind(objects.chartDefault!, 'CronJob')).toEqual([]);
      const cron = named(objects.chartEverything!, 'CronJob', 'portal-backup');
      expect(cron.spec.schedule).toBe('30 1 * * *');
      expect(cron.spec.concurrencyPolicy).toBe('Forbid');
      const pod = cron.spec.jobTemplate.spec.template.spec;
      // The script server/test/postgres-backup.test.ts runs against PostgreSQL and restores with `npm run restore`.
      const dump = pod.initContainers[0];
      expect(dump.command).toEqual(['sh', '-c', readFileSync(join(ROOT, 'charts', 'portal', 'files', 'backup-dump.sh'), 'utf8')]);
      const dumpEnv = Object.fromEntries(dump.env.map((e: { name: string; value?: string; valueFrom?: unknown }) => [e.name, e.value ?? e.valueFrom]));
      expect(dumpEnv).toMatchObject({ BACKUP_OUT: '/work/portal-backup.tar', PRODUCT_VERSION: expect.stringMatching(/^\d+\.\d+\.\d+/) });
      expect(dumpEnv.BACKUP_TABLES_PER_PART).toBeUndefined();
      const upload = pod.containers[0];
      expect(upload.command[2]).toContain('mc cp /work/portal-backup.tar "$dest/portal-backup.tar"');
      expect(upload.command[2]).toContain('mc mirror --quiet "source/$S3_BUCKET" "$dest/objects"');
      expect(upload.command[2]).toContain('--older-than "${RETENTION_DAYS}d"');
      const env = Object.fromEntries(upload.env.map((e: { name: string; value?: string; valueFrom?: unknown }) => [e.name, e.value ?? e.valueFrom]));
      expect(env).toMatchObject({ TARGET_ENDPOINT: 'https://s3.example.com', TARGET_BUCKET: 'firm-backups', TARGET_PREFIX: 'portal', RETENTION_DAYS: '30' });
      expect(env.TARGET_SECRET_KEY).toEqual({ secretKeyRef: { name: 'portal-backup-target', key: 'secretKey' } });
      // The database URL and bucket keys as the services get them: the release's ConfigMap and Secret, and references.
      expect(upload.envFrom).toEqual(container(named(objects.chartEverything!, 'Deployment', 'portal-identity')).envFrom);
      expect(env.AMQP_URL).toEqual({ secretKeyRef: { name: 'rabbitmq-app', key: 'uri' } });
      for (const c of [...pod.initContainers, upload]) expect(c.securityContext.readOnlyRootFilesystem).toBe(true);
    });

    it.each([
      ['a backup without a target', ['--set', 'backup.enabled=true'], 'backup'],
      ['an unknown service target', ['--set', 'services.payroll.enabled=true', '--set', 'services.payroll.port=8110'], 'payroll'],
      ['a string replica count', ['--set', 'services.identity.replicaCount=two'], 'replicaCount'],
      ['a root pod security context', ['--set', 'podSecurityContext.backend.runAsNonRoot=false'], 'runAsNonRoot'],
      ['an unknown top-level key', ['--set', 'gatway.replicaCount=3'], 'gatway'],
    ])('rejects %s through values.schema.json', (_case, args, culprit) => {
      for (const command of ['lint', 'template']) {
        const result = run(tools.helm, [command, ...(command === 'template' ? [RELEASE] : []), CHART, '--kube-version', KUBE_VERSION, ...args]);
        expect(result.status).not.toBe(0);
        expect(result.stderr + result.stdout).toMatch(/schema/);
        expect(result.stderr + result.stdout).toContain(culprit);
      }
    });
  });

  describe('k8s kustomizations', () => {
    it.each(['k8s/base', 'k8s/overlays/single', 'k8s/overlays/distributed', 'k8s/dev-infra'])('%s builds into objects valid for Kubernetes (kubeconform -strict)', (path) => {
      expectValid(path);
    });

    it('single runs everything in one --target=all Deployment behind the gateway Service', () => {
      const single = objects['k8s/overlays/single']!;
      const backends = byKind(single, 'Deployment').filter((d) => container(d).image.startsWith('ledgerline/backend'));
      expect(backends).toHaveLength(1);
      const all = container(backends[0]!);
      expect(all.args).toEqual(['--target=all']);
      expect(named(single, 'Service', 'portal-gateway').spec.selector).toEqual(backends[0]!.spec.selector.matchLabels);
      for (const name of Object.keys(SERVICES)) {
        expect(single.find((o) => o.metadata.name === `portal-${name}`)).toBeUndefined();
      }
      // Its services stay on 127.0.0.1: only the gateway port is reachable from outside the pod.
      expect(all.env?.find((e: { name: string }) => e.name === 'SERVICE_HOST')).toBeUndefined();
      expect(byKind(single, 'ConfigMap')[0]!.data!.SERVICE_HOST).toBeUndefined();
    });

    it('distributed runs the gateway and each service apart, each reaching the others by name', () => {
      const distributed = objects['k8s/overlays/distributed']!;
      expect(container(named(distributed, 'Deployment', 'portal-gateway')).args).toEqual(['--target=gateway']);
      // One ConfigMap for every pod: identity calls every service, every service calls identity.
      const config = byKind(distributed, 'ConfigMap')[0]!.data!;
      const isolated = named(distributed, 'NetworkPolicy', 'portal-services').spec;
      for (const [name, port] of Object.entries(SERVICES)) {
        const deployment = named(distributed, 'Deployment', `portal-${name}`);
        const main = container(deployment);
        expect(main.args).toEqual([`--target=${name}`]);
        expect(main.ports[0].containerPort).toBe(port);
        expect(main.env).toContainEqual({ name: 'SERVICE_HOST', value: '0.0.0.0' });
        expect(named(distributed, 'Service', `portal-${name}`).spec.ports[0].port).toBe(port);
        expect(config[`${name.toUpperCase()}_PORT`]).toBe(String(port));
        expect(config[`${name.toUpperCase()}_SERVICE_URL`]).toBe(`http://portal-${name}:${port}`);
        expect(named(distributed, 'PodDisruptionBudget', `portal-${name}`).spec.selector.matchLabels).toEqual(deployment.spec.selector.matchLabels);
        expect(isolated.podSelector.matchExpressions).toContainEqual({ key: 'app.kubernetes.io/component', operator: 'In', values: expect.arrayContaining([name]) });
        expect(isolated.ingress[0].ports).toContainEqual({ port, protocol: 'TCP' });
      }
      expect(container(named(distributed, 'Deployment', 'portal-files')).resources.limits.memory).toBe('1Gi');
    });

    it('every portal Deployment has both probes and runs as non-root', () => {
      for (const path of ['k8s/overlays/single', 'k8s/overlays/distributed']) {
        for (const deployment of byKind(objects[path]!, 'Deployment')) {
          const main = container(deployment);
          expect(main.livenessProbe.httpGet.path).toBe('/healthz');
          expect(main.readinessProbe.httpGet.path).toBe('/readyz');
          expect(main.resources.limits.memory).toBeTruthy();
          expect(deployment.spec.template.spec.securityContext.runAsNonRoot).toBe(true);
        }
      }
    });

    it('dev-infra provides PostgreSQL, RabbitMQ and MinIO and the portal-secrets Secret pointing at them', () => {
      const infra = objects['k8s/dev-infra']!;
      expect(byKind(infra, 'StatefulSet').map((s) => s.metadata.name).sort()).toEqual(['minio', 'postgres', 'rabbitmq']);
      const secret = named(infra, 'Secret', 'portal-secrets') as K8sObject & { stringData: Record<string, string> };
      expect(secret.stringData.POSTGRES_URL).toMatch(/^postgres:\/\/.+@postgres:5432\//);
      expect(secret.stringData.AMQP_URL).toMatch(/^amqp:\/\/.+@rabbitmq:5672/);
      expect(secret.stringData.S3_ENDPOINT).toBe('http://minio:9000');
      // Shared by every pod: directory verifies what the files service signs with it.
      expect(Buffer.from(secret.stringData.PORTAL_ENCRYPTION_KEY!, 'base64')).toHaveLength(32);
    });
  });
});
