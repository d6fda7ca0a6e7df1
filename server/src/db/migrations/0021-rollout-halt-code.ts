import { sql, type Kysely } from 'kysely';

// Frozen in time. Why a rollout halted, as a code and its figures (issue 61) instead of an English
// sentence: `halt_reason` now holds the code ('failure-threshold'; '' unless halted), and
// `halt_figures` its numbers as JSON ({ failed, judged, threshold }), said in each reader's language
// by the page. Halts stored before were all sentences of the same form: "3 of 4 devices failed (…)".
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('rollouts')
    .addColumn('halt_figures', 'text', (c) => c.notNull().defaultTo('{}'))
    .execute();
  const { rows } = await sql<{
    id: string;
    halt_reason: string;
    failure_threshold_pct: number;
  }>`select id, halt_reason, failure_threshold_pct from rollouts where halt_reason <> ''`.execute(db);
  for (const r of rows) {
    const m = /^(\d+) of (\d+) devices failed/.exec(r.halt_reason);
    const figures = {
      failed: Number(m?.[1] ?? 0),
      judged: Number(m?.[2] ?? 0),
      threshold: Number(r.failure_threshold_pct),
    };
    await sql`update rollouts set halt_reason = 'failure-threshold', halt_figures = ${JSON.stringify(figures)}
      where id = ${r.id}`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{
    id: string;
    halt_figures: string;
  }>`select id, halt_figures from rollouts where halt_reason <> ''`.execute(db);
  for (const r of rows) {
    const f = JSON.parse(r.halt_figures) as { failed?: number; judged?: number; threshold?: number };
    const share = f.judged ? ((f.failed ?? 0) / f.judged) * 100 : 0;
    const sentence = `${f.failed ?? 0} of ${f.judged ?? 0} devices failed (${share.toFixed(0)} % > ${f.threshold ?? 0} %)`;
    await sql`update rollouts set halt_reason = ${sentence} where id = ${r.id}`.execute(db);
  }
  await db.schema.alterTable('rollouts').dropColumn('halt_figures').execute();
}
