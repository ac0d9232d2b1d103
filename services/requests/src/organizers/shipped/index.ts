import type { z } from 'zod';
import type { organizerTemplateInputSchema } from '@ledgerline/contracts/organizers.contracts.ts';

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

export const SHIPPED_ORGANIZER_TEMPLATES: readonly ShippedOrganizerTemplate[] = [
  {
    builtIn: 'us-1040',
    reportTypeName: 'Form 1040',
    template: {
      name: 'US individual income tax organizer (Form 1040)',
      jurisdiction: 'US',
      sections: [
        {
          id: 'household', title: 'You and your household',
          questions: [
            { id: 'filing_status', type: 'single_choice', title: 'Filing status you expect', required: true, choices: ['Single', 'Married filing jointly', 'Married filing separately', 'Head of household', 'Qualifying surviving spouse'] },
            { id: 'dependants', type: 'group', title: 'Dependants', fields: [
              { id: 'name', type: 'text', title: 'Full name', required: true },
              { id: 'date_of_birth', type: 'date', title: 'Date of birth', required: true },
              { id: 'relationship', type: 'text', title: 'Relationship to you', required: true },
              { id: 'ssn', type: 'text', title: 'SSN or ITIN', sensitive: true },
              { id: 'months_lived_with_you', type: 'number', title: 'Months lived with you' },
            ] },
          ],
        },
        {
          id: 'income', title: 'Income',
          questions: [
            { id: 'received_1099_b', type: 'yes_no', title: 'Did you sell stocks, bonds or other investments (Form 1099-B)?', required: true, requestItem: { when: true, title: '1099-B from your broker' } },
          ],
        },
      ],
    },
  },
];
