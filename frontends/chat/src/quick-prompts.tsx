import { Button } from 'primereact/button';
import { TabPanel, TabView } from 'primereact/tabview';
import { readCurrentTenant, readStoredAuth } from '@ledgerline/ui/auth-storage.ts';
import { CHAT_MESSAGES, PROMPT_CATEGORIES, PROMPT_CATEGORY_LABELS, type PromptTemplate } from '@ledgerline/contracts/chat.contracts.ts';

/** The prompt templates page, under the current firm's prefix. */
export function templatesPagePath(): string {
  const tenant = readCurrentTenant()?.shortName;
  return tenant ? `/${tenant}/prompt-templates` : '/prompt-templates';
}

/**
 * Spec 001 §2: Quick Prompts, the firm's active templates by category; picking one fills
 * the input. Admins get a link to manage them.
 */
export function QuickPrompts({ templates, onPick }: { templates: readonly PromptTemplate[]; onPick(content: string): void }) {
  const isAdmin = readStoredAuth()?.user.role === 'Admin';
  return (
    <div className="quick-prompts">
      <div className="quick-prompts__header">
        <span className="quick-prompts__title">Quick Prompts</span>
        {isAdmin && <a className="quick-prompts__manage" href={templatesPagePath()}>Manage templates</a>}
      </div>
      <TabView>
        {PROMPT_CATEGORIES.map((category) => {
          const inCategory = templates.filter((t) => t.category === category);
          return (
            <TabPanel key={category} header={PROMPT_CATEGORY_LABELS[category]}>
              {inCategory.length === 0
                ? <p className="quick-prompts__empty">{CHAT_MESSAGES.noTemplates}</p>
                : (
                  <div className="quick-prompts__list">
                    {inCategory.map((t) => (
                      <Button key={t.id} type="button" label={t.title} size="small" outlined tooltip={t.description ?? t.content} tooltipOptions={{ position: 'top' }} onClick={() => onPick(t.content)} />
                    ))}
                  </div>
                )}
            </TabPanel>
          );
        })}
      </TabView>
    </div>
  );
}
