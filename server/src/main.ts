// The server's entry: config, app, listen, and a graceful stop on SIGINT/SIGTERM.
import { buildApp } from './app';
import { loadConfig } from './config';
import { startMetricsServer } from './lib/metrics';

const SHUTDOWN_GRACE_MS = 25_000;

/** Reads config, builds the app, listens, and closes gracefully on SIGINT/SIGTERM. */
export async function main(): Promise<void> {
  const config = loadConfig();
  const { app, database, blobs, idp, metrics, jobs } = await buildApp(config);
  await app.listen({ port: config.port, host: config.host });
  // METRICS_PORT: the metrics alone, on loopback, for a scraper on this machine.
  const metricsServer =
    config.metricsPort === undefined ? undefined : await startMetricsServer(metrics.registry, config.metricsPort);
  const lines = [
    `Voltas is running at ${config.publicUrl}`,
    `  database:          ${database.description}`,
    `  blob store:        ${blobs.description}`,
    `  identity provider: ${idp.description}`,
    `  background jobs:   ${jobs.description}`,
    ...(metricsServer ? [`  metrics:           http://127.0.0.1:${config.metricsPort}/metrics`] : []),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal}: closing`);
    // In-flight requests finish; a client that stopped reading cannot hold the stop for ever.
    setTimeout(() => {
      app.log.warn('requests still open after 25 s: closing their connections');
      app.server.closeAllConnections();
    }, SHUTDOWN_GRACE_MS).unref();
    metricsServer?.close();
    app.close().then(
      () => process.exit(0),
      (err: unknown) => {
        app.log.error({ err }, 'close failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}
