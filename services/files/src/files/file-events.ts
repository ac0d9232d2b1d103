import type { FileDeletedEvent, FileEvent, PortalFile } from '@ledgerline/contracts/files.contracts.ts';

/** Payload of file.uploaded: the file as stored, names included (activity and dashboards read it). */
export function fileEvent(f: PortalFile): FileEvent {
  return {
    id: f.id, originalName: f.originalName, mimeType: f.mimeType, size: f.size, clientId: f.clientId, clientName: f.clientName,
    fileType: f.fileType, documentType: f.documentType, reportTypeId: f.reportTypeId, reportTypeName: f.reportTypeName,
    uploadedById: f.uploadedById, uploaderName: f.uploaderName, uploadedAt: f.uploadedAt, createdAt: f.createdAt,
  };
}

export function fileDeletedEvent(f: PortalFile, by: { id: number; name: string }, at = new Date()): FileDeletedEvent {
  return { ...fileEvent(f), deletedById: by.id, deletedByName: by.name, deletedAt: at.toISOString() };
}
