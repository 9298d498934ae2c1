/** The media table's SQL (worker/media/service.ts holds the rules). */
import type { Database } from "../db/databases";

export function mediaById(db: Database, id: string) {
  return db
    .prepare("SELECT content_type, byte_size, sha256, bytes FROM media WHERE id = ?")
    .bind(id)
    .first<{ content_type: string; byte_size: number; sha256: string; bytes: ArrayBuffer | number[] }>();
}

export function mediaOfOrganization(db: Database, id: string, orgId: string) {
  return db.prepare("SELECT 1 FROM media WHERE id = ? AND organization_id = ?").bind(id, orgId).first();
}

export function insertMedia(
  db: Database,
  m: {
    id: string;
    organizationId: string;
    contentType: string;
    byteSize: number;
    sha256: string;
    bytes: Uint8Array<ArrayBuffer>;
    createdBy: string;
  },
) {
  return db
    .prepare(
      "INSERT INTO media (id, organization_id, content_type, byte_size, sha256, bytes, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(m.id, m.organizationId, m.contentType, m.byteSize, m.sha256, m.bytes, m.createdBy, Date.now());
}
