export function OrganizerTemplatesPage() {
  return null;
}
