import { useQueryClient } from '@tanstack/react-query';
import { invalidateApiResources } from '@ledgerline/ui/api-invalidation.ts';
import { FileAccessButton } from '@ledgerline/ui/file-access-button.tsx';
import type { FileRef } from '@ledgerline/ui/file-access.ts';
import { ACTIVITY_RESOURCES } from './dashboard.api.ts';

/**
 * View and download buttons of a dashboard row that names a file; once the view or download
 * is recorded the feed and the figures are refetched, so it shows at once.
 */
export function FileActions({ file }: { file: FileRef }) {
  const queryClient = useQueryClient();
  const refetch = () => void invalidateApiResources(queryClient, ACTIVITY_RESOURCES);
  return (
    <div className="record-actions">
      <FileAccessButton file={file} kind="view" onRecorded={refetch} />
      <FileAccessButton file={file} kind="download" onRecorded={refetch} />
    </div>
  );
}
