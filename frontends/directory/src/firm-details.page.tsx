import { Fragment, useState } from 'react';
import { Card } from 'primereact/card';
import { Dropdown } from 'primereact/dropdown';
import { Message } from 'primereact/message';
import { ProgressSpinner } from 'primereact/progressspinner';
import type { Client } from '@ledgerline/contracts/directory.contracts.ts';
import { useAuth } from '@ledgerline/ui/auth-context.tsx';
import { isClientRole, type StoredUser } from '@ledgerline/ui/auth-storage.ts';
import { formatDate } from '@ledgerline/ui/date-format.ts';
import { EmptyState } from '@ledgerline/ui/empty-state.tsx';
import { PageHeading } from '@ledgerline/ui/page-heading.tsx';
import { failureReason } from '@ledgerline/ui/server-message.ts';
import { useAccessibleClients } from './accessible-clients.query.ts';
import { clientFieldTexts, useClientFieldSettings, type ClientFieldTexts } from './client-field-settings.query.ts';
import { readablePhone } from './phone-format.ts';

/** /firm-details and /{tenant}/firm-details (spec 000 §2 "Company Details"). */
export function FirmDetailsPage() {
  const { state } = useAuth();
  // The shell's guard renders this page only for a signed-in user.
  if (state.status !== 'authenticated') return null;
  return <CompanyDetails user={state.user} />;
}

function CompanyDetails({ user }: { user: StoredUser }) {
  const clients = useAccessibleClients(user);
  const settings = useClientFieldSettings();
  const [selectedId, setSelectedId] = useState<number | null>(null);
  const list = clients.data ?? [];
  // Defaults to the first accessible client until the user picks another.
  const selected = list.find((client) => client.id === selectedId) ?? list[0];
  const showSelector = !isClientRole(user.role) && list.length > 0;

  return (
    <section className="directory-page">
      <PageHeading
        title="Company Details"
        subtitle="Registered details of the client company"
        actions={
          showSelector && (
            <Dropdown
              value={selected?.id}
              options={list}
              optionLabel="name"
              optionValue="id"
              onChange={(event) => setSelectedId(Number(event.value))}
              filter
              aria-label="Client"
              className="firm-details__selector"
            />
          )
        }
      />
      {clients.isPending && <ProgressSpinner className="directory-page__spinner" aria-label="Loading" />}
      {clients.isError && <Message severity="error" text={failureReason(clients.error)} className="page-error" />}
      {clients.isSuccess && !selected && (
        <Card>
          <EmptyState icon="pi pi-building" text="You don't have access to any client details. Please contact your administrator." />
        </Card>
      )}
      {selected && <ClientDetailsCard client={selected} texts={clientFieldTexts(settings.data)} forClient={isClientRole(user.role)} />}
    </section>
  );
}

/** A client's details; a Client user reads the phone grouped as people write it, staff as the firm's format stores it. */
export function ClientDetailsCard({ client, texts, forClient = false }: { client: Client; texts: ClientFieldTexts; forClient?: boolean }) {
  const phone = client.phone || client.phoneNumber;
  const rows: [string, string][] = [
    ['Company Name', client.name],
    ['Address', client.address],
    [texts.phoneLabel, forClient && phone ? readablePhone(phone) : phone],
    [texts.federalIdLabel, client.federalId],
    [texts.stateIdLabel, client.stateId],
    ['Employees', String(client.employeeCount)],
    ['Start Date', formatDate(client.startDate)],
  ];
  return (
    <Card title={client.name} subTitle={client.email} className="firm-details">
      <dl className="details-list">
        {rows.map(([label, value]) => (
          <Fragment key={label}>
            <dt>{label}</dt>
            <dd>{value || 'N/A'}</dd>
          </Fragment>
        ))}
      </dl>
    </Card>
  );
}
