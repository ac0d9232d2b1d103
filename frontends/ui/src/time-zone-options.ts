/** The IANA zones this browser knows, for a picker; a saved zone it does not list is kept as an option. */
export function timeZoneOptions(current: string | undefined | null): { label: string; value: string }[] {
  const zones = Intl.supportedValuesOf('timeZone');
  const all = current && !zones.includes(current) ? [current, ...zones] : zones;
  return all.map((z) => ({ label: z.replace(/_/g, ' '), value: z }));
}
