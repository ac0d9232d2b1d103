import { Button } from 'primereact/button';
import { TabPanel, TabView } from 'primereact/tabview';
import { useEffect, useState } from 'react';
import { readCurrentTenant, readStoredAuth } from '@ledgerline/ui/auth-storage.ts';
import { CHAT_MESSAGES, PROMPT_CATEGORIES, asksForSummary, PROMPT_CATEGORY_LABELS, type PromptTemplate } from '@ledgerline/contracts/chat.contracts.ts';

/** The prompt templates page, under the current firm's prefix. */
export function templatesPagePath(): string {
  const tenant = readCurrentTenant()?.shortName;
  return tenant ? `/${tenant}/prompt-templates` : '/prompt-templates';
}

/**
 * Without a model a prompt is answered from the document's own lines: a summary request
 * with an extractive summary, any other by quoting the lines holding its words. Each
 * button shows which, so nobody expects a written answer.
 */
function withoutModelHint(content: string): { icon: string; hint: string } {
  return asksForSummary(content)
    ? { icon: 'pi pi-align-left', hint: CHAT_MESSAGES.promptAsSummary }
    : { icon: 'pi pi-search', hint: CHAT_MESSAGES.promptAsQuotes };
}

/**
 * Spec 001 §2: Quick Prompts, the firm's active templates by category; picking one fills
 * the input. Admins get a link to manage them. Open while the conversation is empty, folded
 * once it has started, so the answers get the dialog's height.
 */
export function QuickPrompts({ templates, withoutModel, startOpen, onPick }: {
  templates: readonly PromptTemplate[]; withoutModel: boolean; startOpen: boolean; onPick(content: string): void;
}) {
  const isAdmin = readStoredAuth()?.user.role === 'Admin';
  const [open, setOpen] = useState(startOpen);
  useEffect(() => { setOpen(startOpen); }, [startOpen]);
  return (
    <div className="quick-prompts">
      <div className="quick-prompts__header">
        <Button
          type="button" text size="small" className="quick-prompts__title" label="Quick Prompts"
          icon={open ? 'pi pi-chevron-down' : 'pi pi-chevron-right'} aria-expanded={open} onClick={() => setOpen((o) => !o)}
        />
        {isAdmin && <a className="quick-prompts__manage" href={templatesPagePath()}>Manage templates</a>}
      </div>
      {open && (
        <TabView>
          {PROMPT_CATEGORIES.map((category) => {
            const inCategory = templates.filter((t) => t.category === category);
            return (
              <TabPanel key={category} header={PROMPT_CATEGORY_LABELS[category]}>
                {inCategory.length === 0
                  ? <p className="quick-prompts__empty">{CHAT_MESSAGES.noTemplates}</p>
                  : (
                    <div className="quick-prompts__list">
                      {inCategory.map((t) => {
                        const mark = withoutModel ? withoutModelHint(t.content) : null;
                        const tooltip = [t.description ?? t.content, mark?.hint].filter(Boolean).join(' — ');
                        return (
                          <Button
                            key={t.id} type="button" label={t.title} size="small" outlined
                            {...(mark ? { icon: mark.icon, 'aria-description': mark.hint } : {})}
                            tooltip={tooltip} tooltipOptions={{ position: 'top' }} onClick={() => onPick(t.content)}
                          />
                        );
                      })}
                    </div>
                  )}
              </TabPanel>
            );
          })}
        </TabView>
      )}
    </div>
  );
}
