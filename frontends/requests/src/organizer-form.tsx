import { lazy, Suspense } from 'react';
import type { OrganizerSurveyProps } from './organizer-survey.tsx';

// SurveyJS is fetched by the first questionnaire shown, never by another page of the app.
const OrganizerSurvey = lazy(() => import('./organizer-survey.tsx'));

/** An organizer's questions as SurveyJS draws them, loaded on first use. */
export function OrganizerForm(props: OrganizerSurveyProps) {
  return (
    <Suspense fallback={<p className="organizer-loading" role="status">Loading the questions…</p>}>
      <OrganizerSurvey {...props} />
    </Suspense>
  );
}
