import type { ServiceMigrations } from '@ledgerline/kit/db/migrations.ts';
import { DEFAULT_PROMPT_TEMPLATES } from './templates/default-prompt-templates.ts';

const literal = (s: string | null) => (s === null ? 'NULL' : `'${s.replace(/'/g, "''")}'`);

/**
 * Chat's tables in every tenant schema (DESIGN §2: sessions and messages per file, prompt
 * templates). A new firm starts with a few useful templates per category.
 */
export const chatTenantMigrations: ServiceMigrations = {
  service: 'chat',
  scope: 'tenant',
  migrations: [
    {
      id: '001_chat',
      sql: `CREATE TABLE chat_sessions (
        id serial PRIMARY KEY,
        user_id integer NOT NULL,
        user_name text NOT NULL,
        file_id integer NOT NULL,
        title text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      -- The dialog's sidebar: one user's sessions on one file, most recent first.
      CREATE INDEX chat_sessions_by_file_user ON chat_sessions (file_id, user_id, updated_at DESC);
      CREATE TABLE chat_messages (
        id serial PRIMARY KEY,
        session_id integer NOT NULL REFERENCES chat_sessions (id) ON DELETE CASCADE,
        role text NOT NULL CHECK (role IN ('user', 'assistant')),
        content text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX chat_messages_by_session ON chat_messages (session_id, id);
      CREATE TABLE prompt_templates (
        id serial PRIMARY KEY,
        title text NOT NULL,
        description text,
        content text NOT NULL,
        category text NOT NULL CHECK (category IN ('document_management', 'compliance_tax', 'business_insights')),
        is_active boolean NOT NULL DEFAULT true,
        created_by_id integer,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      INSERT INTO prompt_templates (title, description, content, category) VALUES
      ${DEFAULT_PROMPT_TEMPLATES.map((t) => `(${literal(t.title)}, ${literal(t.description)}, ${literal(t.content)}, ${literal(t.category)})`).join(',\n      ')};`,
    },
  ],
};
