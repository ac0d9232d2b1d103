import { access } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Worker as Thread } from 'node:worker_threads';
import Tesseract from 'tesseract.js';

/**
 * OCR of encoded images (PNG, JPEG, GIF, BMP, WebP, TIFF) with tesseract.js: Tesseract
 * compiled to WASM, run in one worker thread, with the English LSTM model that the
 * `@tesseract.js-data/eng` package ships, so nothing is fetched from the network.
 *
 * The thread starts on the first image and is reused; jobs run one at a time. It holds the
 * process open only while a job runs, and ends after a few idle minutes to give back its
 * WASM heap (the next image starts a new one in under a second). An image the engine cannot
 * read, a job that crashes the thread or runs past the time limit gives ''; a missing or
 * broken language model is a deployment error and rejects.
 */
export interface OcrEngine {
  recognize(image: Buffer): Promise<string>;
  close(): Promise<void>;
}

/** The OCR engine cannot run here (language data missing or broken): a deployment problem, not bad content. */
export class OcrUnavailableError extends Error {
  constructor(message: string, cause?: unknown) {
    super(message, { cause });
    this.name = 'OcrUnavailableError';
  }
}

export interface OcrEngineOptions {
  /** Directory holding eng.traineddata or eng.traineddata.gz; default: the bundled LSTM model. */
  languageDataPath?: string;
  jobTimeoutMs?: number;
  idleMs?: number;
}

const STARTUP_TIMEOUT_MS = 60_000;
const DEFAULT_JOB_TIMEOUT_MS = 120_000;
const DEFAULT_IDLE_MS = 5 * 60_000;
const LANGUAGE = 'eng';

interface RunningWorker {
  tesseract: Tesseract.Worker;
  thread: Thread | undefined;
  /** Settles when the thread dies (crash or termination). */
  died: Promise<void>;
}

export function defaultLanguageDataPath(): string {
  const packageJson = createRequire(import.meta.url).resolve('@tesseract.js-data/eng/package.json');
  // 4.0.0_best_int is the LSTM-only model: a third of the size of 4.0.0 (which adds the legacy engine) and what LSTM_ONLY uses.
  return join(dirname(packageJson), '4.0.0_best_int');
}

export function createOcrEngine(options: OcrEngineOptions = {}): OcrEngine {
  const languageDataPath = options.languageDataPath ?? defaultLanguageDataPath();
  const jobTimeoutMs = options.jobTimeoutMs ?? DEFAULT_JOB_TIMEOUT_MS;
  const idleMs = options.idleMs ?? DEFAULT_IDLE_MS;
  let running: Promise<RunningWorker> | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  let idleTimer: NodeJS.Timeout | undefined;
  let closed = false;

  async function startWorker(): Promise<RunningWorker> {
    const gzip = await languageFileIsGzipped(languageDataPath);
    const workerPath = fileURLToPath(new URL('./ocr-quiet.worker.ts', import.meta.url));
    let startupTimer: NodeJS.Timeout | undefined;
    let starting = true;
    let failStartup: (error: unknown) => void = () => {};
    const tesseract = await Promise.race([
      Tesseract.createWorker(LANGUAGE, Tesseract.OEM.LSTM_ONLY, {
        langPath: languageDataPath,
        gzip,
        // 'none': never write a decompressed copy of the model into the working directory.
        cacheMethod: 'none',
        workerPath,
        logger: () => {},
        // Without a handler tesseract.js rethrows a failed job inside its message listener. A failure
        // while loading the model (a corrupt file) would otherwise leave createWorker pending for ever.
        errorHandler: (error: unknown) => {
          if (starting) failStartup(error);
        },
      }),
      new Promise<never>((_, reject) => {
        failStartup = (error) => reject(new OcrUnavailableError(`The OCR engine could not load its language data from ${languageDataPath}: ${String(error)}`, error));
        startupTimer = setTimeout(() => reject(new OcrUnavailableError(`The OCR engine did not start within ${STARTUP_TIMEOUT_MS / 1000} s (language data in ${languageDataPath}).`)), STARTUP_TIMEOUT_MS);
      }),
    ]).finally(() => {
      starting = false;
      clearTimeout(startupTimer);
    });
    // tesseract.js keeps the thread on `worker` without typing it; the extractor needs it to
    // notice a crash (tesseract.js would leave the job pending forever) and to unref it when idle.
    const thread = (tesseract as unknown as { worker?: Thread }).worker;
    const died = new Promise<void>((resolve) => {
      if (!thread) return;
      thread.on('error', () => resolve());
      thread.on('exit', () => resolve());
    });
    thread?.unref();
    return { tesseract, thread, died };
  }

  const hasWorker = (): boolean => running !== undefined;

  async function stopWorker(): Promise<void> {
    const current = running;
    running = undefined;
    if (!current) return;
    const worker = await current.catch(() => undefined);
    if (!worker) return;
    await worker.tesseract.terminate().catch(() => {});
    await worker.thread?.terminate().catch(() => {});
  }

  async function runJob(image: Buffer): Promise<string> {
    if (closed) return '';
    clearTimeout(idleTimer);
    running ??= startWorker();
    let worker: RunningWorker;
    try {
      worker = await running;
    } catch (error) {
      running = undefined;
      throw error instanceof OcrUnavailableError ? error : new OcrUnavailableError(`The OCR engine could not start: ${error instanceof Error ? error.message : String(error)}`, error);
    }
    worker.thread?.ref();
    let jobTimer: NodeJS.Timeout | undefined;
    try {
      const outcome = await Promise.race([
        worker.tesseract.recognize(image).then((result) => ({ text: result.data.text }), () => ({ text: '' })),
        worker.died.then(() => ({ text: '', restart: true })),
        new Promise<{ text: string; restart: boolean }>((resolve) => {
          jobTimer = setTimeout(() => resolve({ text: '', restart: true }), jobTimeoutMs);
        }),
      ]);
      if ('restart' in outcome && outcome.restart) await stopWorker();
      return outcome.text;
    } finally {
      clearTimeout(jobTimer);
      worker.thread?.unref();
      // (stopWorker may have dropped the worker meanwhile: a crash, a timeout.)
      if (!closed && hasWorker()) {
        idleTimer = setTimeout(() => void stopWorker(), idleMs);
        idleTimer.unref();
      }
    }
  }

  return {
    recognize(image) {
      const job = queue.then(() => runJob(image));
      queue = job.catch(() => {});
      return job;
    },
    async close() {
      closed = true;
      clearTimeout(idleTimer);
      // Terminating first makes a job in flight settle at once (as '') instead of finishing its page.
      await stopWorker();
      await queue;
    },
  };
}

async function languageFileIsGzipped(directory: string): Promise<boolean> {
  const file = join(directory, `${LANGUAGE}.traineddata`);
  if (await exists(`${file}.gz`)) return true;
  if (await exists(file)) return false;
  throw new OcrUnavailableError(`OCR language data not found: expected ${LANGUAGE}.traineddata or ${LANGUAGE}.traineddata.gz in ${directory}.`);
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}
