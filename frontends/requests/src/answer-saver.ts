import type { OrganizerAnswers } from '@ledgerline/contracts/organizers.contracts.ts';

/** What the page says about the client's answers: nothing yet, waiting to save, saving, saved, or failed (kept locally, retried). */
export type SaveState = 'idle' | 'pending' | 'saving' | 'saved' | 'failed';

export const SAVE_STATE_TEXT: Readonly<Record<SaveState, string>> = {
  idle: '',
  pending: 'Saving…',
  saving: 'Saving…',
  saved: 'Saved',
  failed: 'Not saved yet: kept on this device, trying again',
};

/** A timer the saver can start and cancel (the page passes setTimeout; tests call it by hand). */
export type Schedule = (run: () => void, delayMs: number) => () => void;

export const browserSchedule: Schedule = (run, delayMs) => {
  const timer = setTimeout(run, delayMs);
  return () => clearTimeout(timer);
};

export interface AnswerSaverOptions {
  save(answers: OrganizerAnswers): Promise<unknown>;
  /** The local copy: written on every change, cleared once the server has the same answers. */
  keepLocally(answers: OrganizerAnswers): void;
  forgetLocal(): void;
  onState(state: SaveState): void;
  delayMs: number;
  schedule: Schedule;
}

/**
 * Saves answers as the client types: every change is kept locally at once and sent after
 * `delayMs` of quiet; one PUT at a time, the latest answers win (a change made while a PUT is
 * under way is sent after it). A failed PUT keeps the local copy and is retried on the next
 * change or flush, so no answer is lost to a phone that sleeps or a network that drops.
 */
export class AnswerSaver {
  readonly #options: AnswerSaverOptions;
  #latest: OrganizerAnswers | null = null;
  #dirty = false;
  #cancel: (() => void) | null = null;
  #inFlight: Promise<void> | null = null;

  constructor(options: AnswerSaverOptions) {
    this.#options = options;
  }

  /** Answers not yet confirmed by the server (null when all are saved). */
  get unsaved(): OrganizerAnswers | null {
    return this.#dirty || this.#inFlight ? this.#latest : null;
  }

  change(answers: OrganizerAnswers): void {
    this.#latest = answers;
    this.#dirty = true;
    this.#options.keepLocally(answers);
    this.#options.onState('pending');
    this.#cancel?.();
    this.#cancel = this.#options.schedule(() => { void this.flush(); }, this.#options.delayMs);
  }

  /** Sends what is unsaved now (Submit calls it first); resolves when the server has the latest answers or a PUT failed. */
  async flush(): Promise<void> {
    this.#cancel?.();
    this.#cancel = null;
    // Whoever flushes waits for every PUT under way: Submit must not overtake the latest answers.
    while (this.#inFlight) await this.#inFlight;
    if (!this.#dirty || this.#latest === null) return;
    const sent = this.#latest;
    this.#dirty = false;
    this.#options.onState('saving');
    let failed = false;
    this.#inFlight = (async () => {
      try {
        await this.#options.save(sent);
      } catch {
        failed = true;
        this.#dirty = true;
      }
    })();
    await this.#inFlight;
    this.#inFlight = null;
    if (failed) {
      this.#options.onState('failed');
      return;
    }
    if (this.#dirty) return this.flush();
    this.#options.forgetLocal();
    this.#options.onState('saved');
  }

  /** Stops the timer (the page unmounts); what is unsaved stays in the local copy. */
  dispose(): void {
    this.#cancel?.();
    this.#cancel = null;
  }
}
