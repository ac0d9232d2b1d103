import { useEffect, useMemo, useRef, useState } from 'react';
import type { OrganizerAnswers, OrganizerDetail } from '@ledgerline/contracts/organizers.contracts.ts';
import { AnswerSaver, browserSchedule, type SaveState } from './answer-saver.ts';
import { readDraft, removeDraft, startingAnswers, writeDraft } from './organizer-draft.ts';
import type { OrganizerSource } from './organizers.api.ts';

/** About a pause in typing: often enough that little is ever unsaved, rarely enough not to PUT every key. */
export const SAVE_DELAY_MS = 800;

/**
 * The client's answers saved as they type (answer-saver.ts), a local copy restored after a
 * reload when it is newer than the server's, and a last PUT (keepalive) when the page is
 * hidden or goes away: a phone that locks hides the page first, a closing tab hides it too.
 */
export function useAnswerSaving(organizer: Pick<OrganizerDetail, 'id' | 'answers' | 'updatedAt'>, source: OrganizerSource, enabled: boolean) {
  const tenant = source.draftScope;
  // The source of the first render: the page keeps one per organizer.
  const sourceRef = useRef(source);
  const [state, setState] = useState<SaveState>('idle');
  // Read once per organizer: later refetches must not replace what the client is typing.
  const start = useMemo(
    () => (enabled ? startingAnswers(organizer, readDraft(tenant, organizer.id)) : { answers: organizer.answers, restored: false }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [organizer.id, enabled],
  );
  const saverRef = useRef<AnswerSaver | null>(null);
  useEffect(() => {
    if (!enabled) return undefined;
    const saver = new AnswerSaver({
      save: (answers) => sourceRef.current.save(answers),
      keepLocally: (answers) => writeDraft(tenant, organizer.id, answers),
      forgetLocal: () => removeDraft(tenant, organizer.id),
      onState: setState,
      delayMs: SAVE_DELAY_MS,
      schedule: browserSchedule,
    });
    saverRef.current = saver;
    // Answers kept on this device but never saved (the page went away first) go up now.
    if (start.restored) saver.change(start.answers);
    const leave = () => {
      const unsaved = saver.unsaved;
      if (unsaved) sourceRef.current.saveOnLeave(unsaved);
    };
    const hidden = () => { if (document.visibilityState === 'hidden') leave(); };
    document.addEventListener('visibilitychange', hidden);
    window.addEventListener('pagehide', leave);
    return () => {
      document.removeEventListener('visibilitychange', hidden);
      window.removeEventListener('pagehide', leave);
      // Leaving for another page of the portal: send what is unsaved, the local copy stays until then.
      if (saver.unsaved) void saver.flush();
      saver.dispose();
      saverRef.current = null;
    };
  }, [organizer.id, enabled, tenant, start]);
  return {
    state,
    restored: start.restored,
    startAnswers: start.answers,
    change: (answers: OrganizerAnswers) => saverRef.current?.change(answers),
    flush: () => saverRef.current?.flush() ?? Promise.resolve(),
    forget: () => removeDraft(tenant, organizer.id),
  };
}
