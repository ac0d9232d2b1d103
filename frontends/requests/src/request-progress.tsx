import { ProgressBar } from 'primereact/progressbar';
import { progressPercent, progressText, type ProgressVerb } from './request-view.ts';

/** The progress bar of a request: required items done (or in, see ProgressVerb), out of all required. */
export function RequestProgress({ progress, compact = false, verb = 'done' }: { progress: { required: number; done: number }; compact?: boolean; verb?: ProgressVerb }) {
  const text = progressText(progress, verb);
  return (
    <div className={compact ? 'request-progress request-progress--compact' : 'request-progress'}>
      <ProgressBar value={progressPercent(progress)} showValue={false} aria-label={text} />
      <small>{compact ? `${progress.done}/${progress.required}` : text}</small>
    </div>
  );
}
