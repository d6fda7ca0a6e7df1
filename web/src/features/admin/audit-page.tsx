import type { z } from 'zod';
import type { auditEntrySchema } from '#core/contracts/admin.contract.ts';
import { Page } from '#web/components/ui/page.tsx';
import { SortableTable, type Column } from '#web/components/ui/sortable-table.tsx';
import { t } from '#web/i18n/messages.ts';
import { useAudit } from './admin.api';
import { ADMIN_MENUS } from './admin-menus';
import { QueryStatus } from '#web/components/ui/query-status.tsx';

type Entry = z.infer<typeof auditEntrySchema>;
const show = (v: Record<string, unknown>) =>
  Object.entries(v)
    .map(([k, x]) => `${k}: ${String(x)}`)
    .join(', ');
const when = (iso: string) => new Date(iso).toLocaleString('pt-BR', { dateStyle: 'short', timeStyle: 'medium' });

/** Every assignment, registration, token rotation and role change: who, what, before, after, when. */
export function AuditPage() {
  const audit = useAudit();
  const a = t.admin;
  const columns: Column<Entry>[] = [
    { key: 'at', label: a.auditWhen, value: (e) => e.id, render: (e) => when(e.at) },
    { key: 'actor', label: a.auditWho, value: (e) => e.actor },
    { key: 'action', label: a.auditAction, value: (e) => a.actions[e.action] ?? e.action },
    { key: 'target', label: a.auditTarget, value: (e) => e.target },
    { key: 'before', label: a.auditBefore, value: (e) => show(e.before), sortable: false },
    { key: 'after', label: a.auditAfter, value: (e) => show(e.after), sortable: false },
  ];
  return (
    <Page title={a.auditTitle} menu={ADMIN_MENUS.audit}>
      <QueryStatus query={audit}>
        {(rows) => (
          <SortableTable label={a.auditTitle} columns={columns} rows={rows} rowKey={(e) => e.id} empty={a.auditEmpty} />
        )}
      </QueryStatus>
    </Page>
  );
}
