import type { z } from 'zod';
import type { organizerTemplateInputSchema } from '@ledgerline/contracts/organizers.contracts.ts';
import { AU_INDIVIDUAL_CHECKLIST } from './au-individual.ts';
import { INDIA_ITR_CHECKLIST } from './india-itr.ts';
import { UK_SELF_ASSESSMENT_CHECKLIST } from './uk-self-assessment.ts';
import { US_1040_ORGANIZER } from './us-1040.ts';

/**
 * The organizer templates every firm starts with (issue 42), read-only: a firm copies one to
 * change it. `builtIn` is the stable key a firm's copy of the shipped template is found by,
 * and what "the same template" means for last year's answers.
 */
export interface ShippedOrganizerTemplate {
  builtIn: string;
  /** The report type's name the template fits in the firm's catalogue, when it has one. */
  reportTypeName: string | null;
  template: Omit<z.input<typeof organizerTemplateInputSchema>, 'reportTypeId'>;
}

/**
 * One file per template, each naming the official forms and instructions it was reviewed
 * against; `reportTypeName` is the name of the matching report type in the compliance
 * presets' calendars, so a firm's copy attaches to the report type it already has.
 */
export const SHIPPED_ORGANIZER_TEMPLATES: readonly ShippedOrganizerTemplate[] = [
  US_1040_ORGANIZER,
  UK_SELF_ASSESSMENT_CHECKLIST,
  INDIA_ITR_CHECKLIST,
  AU_INDIVIDUAL_CHECKLIST,
];
