import type { Queryable } from '@ledgerline/kit/db/database.ts';
import type { PromptCategory, PromptTemplate, PromptTemplateInput, PromptTemplateUpdate } from '@ledgerline/contracts/chat.contracts.ts';
import { isoInstant as iso } from '@ledgerline/kit/db/instants.ts';

interface Row {
  id: number; title: string; description: string | null; content: string; category: PromptCategory; is_active: boolean;
  created_by_id: number | null; created_at: Date | string; updated_at: Date | string;
}
const template = (r: Row): PromptTemplate => ({
  id: r.id, title: r.title, description: r.description, content: r.content, category: r.category, isActive: r.is_active,
  createdById: r.created_by_id, createdAt: iso(r.created_at), updatedAt: iso(r.updated_at),
});

const COLUMNS: Record<keyof PromptTemplateUpdate, string> = {
  title: 'title', description: 'description', content: 'content', category: 'category', isActive: 'is_active',
};

/** A firm's prompt templates (spec 001 §3), the Quick Prompts of the AI Chat dialog. */
export class PromptTemplateStore {
  async list(db: Queryable, filter: { isActive?: boolean; category?: PromptCategory }): Promise<PromptTemplate[]> {
    const params: unknown[] = [];
    const where: string[] = [];
    if (filter.isActive !== undefined) { params.push(filter.isActive); where.push(`is_active = $${params.length}`); }
    if (filter.category) { params.push(filter.category); where.push(`category = $${params.length}`); }
    const r = await db.query<Row>(`SELECT * FROM prompt_templates${where.length ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY category, id`, params);
    return r.rows.map(template);
  }

  async create(db: Queryable, input: PromptTemplateInput, createdById: number): Promise<PromptTemplate> {
    const r = await db.query<Row>(
      'INSERT INTO prompt_templates (title, description, content, category, is_active, created_by_id) VALUES ($1, $2, $3, $4, $5, $6) RETURNING *',
      [input.title, input.description, input.content, input.category, input.isActive, createdById],
    );
    return template(r.rows[0]!);
  }

  /** Changes the given fields; null when there is no such template. */
  async update(db: Queryable, id: number, changes: PromptTemplateUpdate): Promise<PromptTemplate | null> {
    const params: unknown[] = [id];
    const sets = Object.entries(changes).filter(([, v]) => v !== undefined).map(([k, v]) => {
      params.push(v);
      return `${COLUMNS[k as keyof PromptTemplateUpdate]} = $${params.length}`;
    });
    const r = await db.query<Row>(`UPDATE prompt_templates SET ${[...sets, 'updated_at = now()'].join(', ')} WHERE id = $1 RETURNING *`, params);
    return r.rows[0] ? template(r.rows[0]) : null;
  }
}
