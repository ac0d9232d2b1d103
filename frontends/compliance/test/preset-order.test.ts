import { describe, expect, it } from '@jest/globals';
import { firmPresetsFirst } from '../src/preset-dialog.tsx';

const presets = [{ id: 'in-gst', country: 'IN' }, { id: 'uk-vat', country: 'UK' }, { id: 'us-federal', country: 'US' }, { id: 'us-states', country: 'US' }];

describe("the statutory calendars offered, the firm's country first", () => {
  it('puts the calendars of the firm\'s country first, the rest in the server\'s order', () => {
    expect(firmPresetsFirst(presets, 'US').map((p) => p.id)).toEqual(['us-federal', 'us-states', 'in-gst', 'uk-vat']);
    // The ISO code GB is the calendars' UK.
    expect(firmPresetsFirst(presets, 'GB').map((p) => p.id)).toEqual(['uk-vat', 'in-gst', 'us-federal', 'us-states']);
  });

  it('keeps the order for a firm without a country, or one with no calendar of its own', () => {
    expect(firmPresetsFirst(presets, null).map((p) => p.id)).toEqual(['in-gst', 'uk-vat', 'us-federal', 'us-states']);
    expect(firmPresetsFirst(presets, 'CA').map((p) => p.id)).toEqual(['in-gst', 'uk-vat', 'us-federal', 'us-states']);
  });
});
