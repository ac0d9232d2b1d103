import { describe, expect, it } from '@jest/globals';
import type { OrganizerAnswers } from '@ledgerline/contracts/organizers.contracts.ts';
import { AnswerSaver, type SaveState } from '../src/answer-saver.ts';

/** A saver whose timer and server the test drives by hand: no clocks, no waiting. */
function harness(options: { failFirst?: boolean } = {}) {
  const saved: OrganizerAnswers[] = [];
  const states: SaveState[] = [];
  const local: { answers: OrganizerAnswers | null } = { answers: null };
  const timers: { run(): void; cancelled: boolean }[] = [];
  const pending: { resolve(): void; reject(): void }[] = [];
  let calls = 0;
  const saver = new AnswerSaver({
    save: (answers) => {
      calls += 1;
      if (options.failFirst && calls === 1) return Promise.reject(new Error('offline'));
      return new Promise<void>((resolve, reject) => pending.push({ resolve: () => { saved.push(answers); resolve(); }, reject }));
    },
    keepLocally: (answers) => { local.answers = answers; },
    forgetLocal: () => { local.answers = null; },
    onState: (state) => states.push(state),
    delayMs: 800,
    schedule: (run) => {
      const timer = { run, cancelled: false };
      timers.push(timer);
      return () => { timer.cancelled = true; };
    },
  });
  const fireTimers = () => timers.filter((t) => !t.cancelled).forEach((t) => { t.cancelled = true; t.run(); });
  return { saver, saved, states, local, timers, pending, fireTimers };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('answer saver', () => {
  it('keeps every change locally at once and sends only the last one after the pause', async () => {
    const h = harness();
    h.saver.change({ name: 'A' });
    h.saver.change({ name: 'Ann' });
    expect(h.local.answers).toEqual({ name: 'Ann' });
    expect(h.timers.filter((t) => !t.cancelled)).toHaveLength(1);
    expect(h.saver.unsaved).toEqual({ name: 'Ann' });
    h.fireTimers();
    await settle();
    h.pending.shift()!.resolve();
    await settle();
    expect(h.saved).toEqual([{ name: 'Ann' }]);
    expect(h.local.answers).toBeNull();
    expect(h.saver.unsaved).toBeNull();
    expect(h.states.at(-1)).toBe('saved');
  });

  it('sends a change made during a save after it, and keeps the local copy until the server has the latest', async () => {
    const h = harness();
    h.saver.change({ name: 'Ann' });
    const first = h.saver.flush();
    await settle();
    h.saver.change({ name: 'Anne' });
    const second = h.saver.flush();
    h.pending.shift()!.resolve();
    await settle();
    expect(h.saved).toEqual([{ name: 'Ann' }]);
    expect(h.local.answers).toEqual({ name: 'Anne' });
    h.pending.shift()!.resolve();
    await Promise.all([first, second]);
    expect(h.saved).toEqual([{ name: 'Ann' }, { name: 'Anne' }]);
    expect(h.local.answers).toBeNull();
  });

  it('a failed save says so, keeps the local copy and the answers unsaved, and the next flush sends them', async () => {
    const h = harness({ failFirst: true });
    h.saver.change({ name: 'Ann' });
    await h.saver.flush();
    expect(h.states.at(-1)).toBe('failed');
    expect(h.local.answers).toEqual({ name: 'Ann' });
    expect(h.saver.unsaved).toEqual({ name: 'Ann' });
    const retry = h.saver.flush();
    await settle();
    h.pending.shift()!.resolve();
    await retry;
    expect(h.saved).toEqual([{ name: 'Ann' }]);
    expect(h.states.at(-1)).toBe('saved');
  });

  it('a flush with nothing changed sends nothing', async () => {
    const h = harness();
    await h.saver.flush();
    expect(h.saved).toEqual([]);
    expect(h.states).toEqual([]);
  });
});
