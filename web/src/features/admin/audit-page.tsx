// The admins' audit log: who changed what, before and after, in the page's words.
import type { z } from 'zod';
import type { auditEntrySchema } from '#core/contracts/admin.contract.ts';
import { Page } from '#web/components/ui/page.tsx';
import { SortableTable, type Column } from '#web/components/ui/sortable-table.tsx';
import { isMessageId, type Translate, useT } from '#web/i18n/messages.ts';
import { useAudit } from './admin.api';
import { adminMenus } from './admin-menus';

type Entry = z.infer<typeof auditEntrySchema>;
/** A record's before or after in the page's words: its fields named, yes/no, nothing as a dash; data as stored. */
function show(t: Translate, v: Record<string, unknown>): string {
  const field = (k: string) => {
    const sector = /^sector (\d+)$/.exec(k);
    if (sector) return t('admin.auditSector', { n: Number(sector[1]) });
    const id = `admin.auditFields.${k}`;
    return isMessageId(id) ? t(id as 'admin.auditFields.owner') : k;
  };
  const value = (x: unknown) => {
    if (x === true) return t('admin.auditYes');
    if (x === false) return t('admin.auditNo');
    if (x === null || x === undefined || x === '') return '—';
    return typeof x === 'object' ? JSON.stringify(x) : String(x as string | number);
  };
  return Object.entries(v)
    .map(([k, x]) => `${field(k)}: ${k === 'state' || k === 'cohorts' || k === 'reason' ? words(t, k, x) : value(x)}`)
    .join(', ');
}
/** A rollout's state, cohorts and halt reason, stored as codes, in the page's words. */
function words(t: Translate, key: 'state' | 'cohorts' | 'reason', x: unknown): string {
  if (key === 'state') return t('firmware.state', { state: String(x) as 'running' });
  if (key === 'reason') {
    const id = `firmware.haltCode.${String(x)}`;
    return isMessageId(id) ? t(id as 'firmware.haltCode.failure-threshold') : String(x);
  }
  const cohort = (c: unknown) =>
    c === 'all' || c === 'internal' || c === 'beta' ? t(`firmware.cohort.${c}`) : String(c).replace(/^seller:/, '');
  return Array.isArray(x) ? x.map(cohort).join(' + ') : cohort(x);
}
const when = (iso: string) => new Date(iso).toLocaleString('pt-BR', { dateStyle: 'short', timeStyle: 'medium' });

/** Every assignment, registration, token rotation and role change: who, what, before, after, when. */
export function AuditPage() {
  const t = useT();
  const audit = useAudit();
  const columns: Column<Entry>[] = [
    { key: 'at', label: t('admin.auditWhen'), value: (e) => e.id, render: (e) => when(e.at) },
    { key: 'actor', label: t('admin.auditWho'), value: (e) => e.actor },
    {
      key: 'action',
      label: t('admin.auditAction'),
      value: (e) =>
        isMessageId(`admin.actions.${e.action}`)
          ? t(`admin.actions.${e.action}` as 'admin.actions.rotate-token')
          : e.action,
    },
    { key: 'target', label: t('admin.auditTarget'), value: (e) => e.target },
    { key: 'before', label: t('admin.auditBefore'), value: (e) => show(t, e.before), sortable: false },
    { key: 'after', label: t('admin.auditAfter'), value: (e) => show(t, e.after), sortable: false },
  ];
  return (
    <Page wide title={t('admin.auditTitle')} menu={adminMenus(t).audit}>
      <SortableTable
        label={t('admin.auditTitle')}
        columns={columns}
        query={audit}
        rowKey={(e) => e.id}
        empty={t('admin.auditEmpty')}
      />
    </Page>
  );
}
