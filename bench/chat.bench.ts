// `npm run bench:chat`: the AI chat on the embedded default (PGlite, in-process bus, all
// services in one process behind the gateway, as `npm start` runs them).
//  1. Excerpt mode (no model): POST chat/ask on a 1 MB text document, BENCH_QUESTIONS
//     questions one after another with varied words; p50/p95 of the whole answer
//     (target p95 < 200 ms). The first question, which indexes the document, is reported apart.
//  2. Model mode against the local OpenAI-compatible stand-in (answers at once): time from
//     sending POST chat/ask (streamed) to its first `delta` event, against the time the
//     stand-in itself takes to its first chunk for the same prompt asked directly; the
//     difference is what the service adds before the first token (target < 50 ms).
// Timings are wall-clock on whatever else the machine is doing: read them with the load shown.
import { loadavg, availableParallelism } from 'node:os';
import { startOpenAiStandIn } from '@ledgerline/kit/testing/openai-stand-in.ts';
import { startBenchPortal, type BenchPortal } from './lib/bench-portal.ts';

const QUESTIONS = Number(process.env.BENCH_QUESTIONS ?? 100);
const DOCUMENT_BYTES = 1_000_000;
const WORDS = ['invoice', 'payment', 'deadline', 'penalty', 'interest', 'withholding', 'depreciation', 'payroll', 'dividend', 'audit', 'balance', 'receivable', 'payable', 'inventory', 'lease', 'pension', 'customs', 'excise', 'rebate', 'refund'];
const QUESTION_TEMPLATES = ['What is the {w} amount?', 'When is the {w} due?', 'Which {w} and {v} figures are listed?', 'Summarise the {w} section.', 'Is there any {w} penalty?'];

/** ~1 MB of ledger-like lines with varied words and numbers, 'Total 4242' somewhere in the middle. */
function document(): string {
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < DOCUMENT_BYTES; i += 1) {
    const w = WORDS[(i * 7) % WORDS.length]!;
    const v = WORDS[(i * 13 + 5) % WORDS.length]!;
    const line = i === 4000 ? 'Total 4242' : `Entry ${i}: ${w} of ${(i * 37) % 9973}.${i % 100} EUR booked against ${v} account ${1000 + (i % 900)} on day ${1 + (i % 28)}`;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join('\n');
}

const question = (i: number) => QUESTION_TEMPLATES[i % QUESTION_TEMPLATES.length]!
  .replace('{w}', WORDS[i % WORDS.length]!).replace('{v}', WORDS[(i * 3 + 1) % WORDS.length]!);

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};
const line = (label: string, xs: number[]) => `${label.padEnd(44)} p50 ${pct(xs, 50).toFixed(1)} ms  p95 ${pct(xs, 95).toFixed(1)} ms  (${xs.length})`;

async function json<T>(url: string, method: string, token: string | null, body?: unknown): Promise<T> {
  const r = await fetch(url, { method, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!r.ok) throw new Error(`${method} ${url}: ${r.status} ${await r.text()}`);
  return (await r.json()) as T;
}

/** A firm with one text report of ~1 MB, extracted; returns the admin token, the firm and the file. */
async function seed(portal: BenchPortal): Promise<{ token: string; firm: string; fileId: number }> {
  const { token } = await json<{ token: string }>(`${portal.url}/api/admin/auth/login`, 'POST', null, { username: 'bench-admin', password: 'bench-secret' });
  const firm = `benchchat${Date.now().toString(36)}`;
  await json(`${portal.url}/api/companies`, 'POST', token, { name: 'Bench Chat LLP', shortName: firm });
  const form = new FormData();
  form.append('fileType', 'firm_document');
  form.append('file', new Blob([document()], { type: 'text/plain' }), 'ledger.txt');
  const up = await fetch(`${portal.url}/api/${firm}/files`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  if (up.status !== 201) throw new Error(`upload: ${up.status} ${await up.text()}`);
  const fileId = ((await up.json()) as { files: { id: number }[] }).files[0]!.id;
  for (const deadline = Date.now() + 120_000; ;) {
    const files = await json<{ id: number; processedAt: string | null }[]>(`${portal.url}/api/${firm}/files`, 'GET', token);
    if (files.find((f) => f.id === fileId)?.processedAt) break;
    if (Date.now() > deadline) throw new Error('extraction did not finish');
    await new Promise((r) => setTimeout(r, 250));
  }
  return { token, firm, fileId };
}

async function excerptMode(): Promise<void> {
  const portal = await startBenchPortal({ mode: 'all', firstPort: 19400, dataPrefix: 'bench-chat-', extraEnv: { AI_FIRM_REQUESTS_PER_MINUTE: '1000000' } });
  try {
    const { token, firm, fileId } = await seed(portal);
    const ask = (message: string) => json<{ assistantMessage: { content: string } }>(`${portal.url}/api/${firm}/chat/ask`, 'POST', token, { fileId, message });
    let t = performance.now();
    const first = await ask('What is the total?');
    console.log(`excerpt mode: first question (indexes the 1 MB document)   ${(performance.now() - t).toFixed(1)} ms`);
    if (!first.assistantMessage.content.includes('> Total 4242')) throw new Error(`unexpected answer: ${first.assistantMessage.content.slice(0, 200)}`);
    const times: number[] = [];
    for (let i = 0; i < QUESTIONS; i += 1) {
      t = performance.now();
      await ask(question(i));
      times.push(performance.now() - t);
    }
    console.log(line('excerpt mode: POST chat/ask, whole answer', times));
  } finally {
    await portal.stop();
  }
}

async function modelMode(): Promise<void> {
  const standIn = await startOpenAiStandIn();
  const portal = await startBenchPortal({
    mode: 'all', firstPort: 19500, dataPrefix: 'bench-chat-model-',
    extraEnv: { AI_FIRM_REQUESTS_PER_MINUTE: '1000000', AI_MODEL: 'stand-in', OPENAI_BASE_URL: standIn.url },
  });
  try {
    const { token, firm, fileId } = await seed(portal);
    const firstDelta = async (url: string, headers: Record<string, string>, body: unknown, marker: string) => {
      const t = performance.now();
      const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
      const reader = r.body!.getReader();
      const decoder = new TextDecoder();
      let seen = '';
      let at = 0;
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        seen += decoder.decode(value, { stream: true });
        if (!at && seen.includes(marker)) at = performance.now() - t;
      }
      if (!at) throw new Error(`no ${marker} in ${seen.slice(0, 200)}`);
      return at;
    };
    const viaService: number[] = [];
    const direct: number[] = [];
    const beforeModel: number[] = [];
    const ask = (i: number) => firstDelta(`${portal.url}/api/${firm}/chat/ask`, { authorization: `Bearer ${token}`, accept: 'text/event-stream' }, { fileId, message: question(i) }, 'event: delta');
    await ask(0); // indexes the document
    for (let i = 0; i < QUESTIONS; i += 1) {
      const sent = performance.now();
      viaService.push(await ask(i));
      beforeModel.push(standIn.arrivals.at(-1)! - sent);
      // The same prompt the service sent, straight to the stand-in: the model's own share.
      const prompt = standIn.requests.at(-1)!;
      direct.push(await firstDelta(`${standIn.url}/chat/completions`, {}, prompt, '"content"'));
    }
    console.log(line('model mode: first delta through the service', viaService));
    console.log(line('model mode: first chunk from the stand-in alone', direct));
    console.log(line('model mode: request sent → the model asked', beforeModel));
    console.log(`model mode: added by the service before the first token  p50 ${(pct(viaService, 50) - pct(direct, 50)).toFixed(1)} ms  p95 ${(pct(viaService, 95) - pct(direct, 95)).toFixed(1)} ms`);
  } finally {
    await portal.stop();
    await standIn.close();
  }
}

console.log(`chat benchmark: ${QUESTIONS} questions per mode, ${availableParallelism()} CPUs, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
await excerptMode();
await modelMode();
console.log(`load average at the end ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
