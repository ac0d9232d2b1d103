import type { ServiceMigrations } from '@ledgerline/kit/db/migrations.ts';

/**
 * The messaging service's tables in every firm's schema (spec 001 §3). A participant's read
 * status is a position (`last_read_message_id`): every message up to it counts as read by
 * them, so marking a whole thread read is one row's update however long it is, and a
 * conversation's unread count is an index range. `notified_at` remembers that a participant
 * who was away has been notified of the conversation, until they read it (one notification
 * per conversation, not per message).
 */
export const messagingTenantMigrations: ServiceMigrations = {
  service: 'messaging',
  scope: 'tenant',
  migrations: [{
    id: '001_messaging',
    sql: `CREATE TABLE conversations (
      id serial PRIMARY KEY,
      type text NOT NULL DEFAULT 'direct',
      title text NOT NULL,
      created_by_id integer NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );

    CREATE TABLE conversation_participants (
      conversation_id integer NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
      user_id integer NOT NULL,
      -- The name when they joined: shown if the user read model does not know them (platform administrators).
      name text NOT NULL,
      role text NOT NULL DEFAULT 'member',
      joined_at timestamptz NOT NULL DEFAULT now(),
      left_at timestamptz,
      last_read_message_id integer NOT NULL DEFAULT 0,
      last_read_at timestamptz,
      notified_at timestamptz,
      PRIMARY KEY (conversation_id, user_id)
    );
    CREATE INDEX conversation_participants_by_user ON conversation_participants (user_id, conversation_id);

    CREATE TABLE messages (
      id serial PRIMARY KEY,
      conversation_id integer NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
      sender_id integer NOT NULL,
      sender_name text NOT NULL,
      content text NOT NULL,
      message_type text NOT NULL DEFAULT 'text' CHECK (message_type = 'text'),
      file_id integer,
      file_name text,
      reply_to_id integer REFERENCES messages (id),
      is_edited boolean NOT NULL DEFAULT false,
      edited_at timestamptz,
      sent_at timestamptz NOT NULL DEFAULT now(),
      is_deleted boolean NOT NULL DEFAULT false,
      deleted_at timestamptz
    );
    CREATE INDEX messages_by_conversation ON messages (conversation_id, id DESC)`,
  }, {
    id: '002_client_conversations',
    // A Client user's "message the firm" (issue 40): the client it is about, and whom an Admin gave it to.
    sql: `ALTER TABLE conversations ADD COLUMN client_id integer, ADD COLUMN assigned_to_id integer;
    CREATE INDEX conversations_of_clients ON conversations (client_id, updated_at DESC) WHERE client_id IS NOT NULL`,
  }],
};
