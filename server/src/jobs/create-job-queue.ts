// The job queue chosen from the config: pg-boss on PostgreSQL (one run per job across instances),
// else in process (SQLite is one process's database); measured either way.
import type { AppConfig } from '../config';
import type { Database } from '../db/create-db';
import type { Metrics } from '../lib/metrics';
import { createInProcessQueue, measuredJobQueue, type JobQueue } from './job-queue';
import { createPgBossQueue } from './pg-boss-queue';

/** Creates and starts the queue; its counts feed the metrics. */
export async function createJobQueue(
  config: AppConfig,
  database: Database,
  metrics: Metrics,
  log: { error(obj: unknown, msg: string): void },
): Promise<JobQueue> {
  const jobs = measuredJobQueue(
    database.dialect === 'postgres' && config.databaseUrl
      ? await createPgBossQueue({
          connectionString: config.databaseUrl,
          onError: (err) => log.error({ err }, 'job queue'),
        })
      : createInProcessQueue(),
    {
      sent: (job, result) => metrics.jobsSent.inc({ job, result }),
      ran: (job, outcome) => metrics.jobRuns.inc({ job, outcome }),
    },
  );
  await jobs.start();
  metrics.watchJobs(() => jobs.counts());
  return jobs;
}
