/**
 * The OCR worker thread's entry point: tesseract.js's own Node worker script, with two
 * guards around it.
 * - The thread's console is silenced: Tesseract's C++ core reports unreadable images and odd
 *   layouts ("Error in pixReadStream…", "Image too small to scale!!") on stderr, which would
 *   land in the service's log for every bad upload; the extractor turns those into '' instead.
 * - A failed start ends the thread: when the language model does not load, tesseract.js 7
 *   reports 'initialization failed' and then also "resolves" the same job, a message its
 *   main-thread half cannot handle (it throws from an event listener and takes the process
 *   down). After the failure is reported, nothing more is sent and the thread exits.
 */
import { createRequire } from 'node:module';
import { parentPort } from 'node:worker_threads';

const silent = (): void => {};
console.log = silent;
console.info = silent;
console.warn = silent;
console.error = silent;
console.debug = silent;

const STARTUP_ACTIONS = new Set(['load', 'loadLanguage', 'initialize']);

if (parentPort) {
  const port = parentPort;
  const post = port.postMessage.bind(port);
  let failed = false;
  port.postMessage = (message: unknown, transfer?: readonly Transferable[]) => {
    if (failed) return;
    post(message, transfer as never);
    const { status, action } = (message ?? {}) as { status?: string; action?: string };
    if (status === 'reject' && action && STARTUP_ACTIONS.has(action)) {
      failed = true;
      // Let the report reach the main thread before the thread goes.
      setImmediate(() => process.exit(1));
    }
  };
}

createRequire(import.meta.url)('tesseract.js/src/worker-script/node/index.js');
