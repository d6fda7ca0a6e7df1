/**
 * What every row of `npm run bench` shares: the printed table, the JSON figures (keys listed in
 * bench/README.md), and the small helpers for medians and formatting.
 */
export type Row = [area: string, figure: string, baseline: string, ratio: string, target: string];
export const rows: Row[] = [];
export const result: Record<string, number | null> = {
  parse_vs_udsv: null,
  checkins_per_s: null,
  checkins_p99_ms: null,
  checkins_vs_laps: null,
  firmware_200_downloads_peak_rss_mb: null,
  firmware_200_downloads_rss_growth_mb: null,
  upload_during_downloads_vs_idle: null,
  parse_vs_scan: null,
  parse_upload_vs_scan: null,
  laps_api_vs_hello: null,
  laps_api_p99_vs_hello: null,
  laps_api_errors: null,
  ceiling_vs_hello: null,
  laps_api_vs_ceiling: null,
  gps_api_vs_hello: null,
  upload_vs_raw: null,
  upload_link_vs_raw: null,
  abuse_rider_p99_ms: null,
  login_js_gzip_kb: null,
  laps_js_gzip_kb: null,
  laps_table_ms: null,
  analytics_100k_ms: null,
  clip_export_720p_x_realtime: null,
  lighthouse_benchmark_index: null,
  lighthouse_cpu_slowdown: null,
  lighthouse_login: null,
  lighthouse_laps: null,
  lighthouse_analytics: null,
  lighthouse_shared: null,
  lighthouse_shared_lap: null,
  lighthouse_laps_en: null,
  lighthouse_analytics_en: null,
  track_analysis_vs_basic: null,
  track_analysis_ns_per_sample: null,
  import_typical_csv_vs_parse: null,
  import_typical_vbo_vs_parse: null,
  import_typical_gpx_vs_parse: null,
  import_csv_vs_udsv: null,
  import_vbo_vs_udsv: null,
  import_gpx_vs_sax: null,
  import_csv_memory_mb: null,
  import_vbo_memory_mb: null,
  import_gpx_memory_mb: null,
  sessions_list_vs_laps: null,
  progress_100_days_ms: null,
  video_sync_vs_read: null,
};

export const log = (s: string) => process.stderr.write(`${s}\n`);
export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
export const fmt = (n: number, d = 1) => n.toFixed(d);
/** 'met' or 'MISSED', for a row with a goal. */
export const verdict = (met: boolean) => (met ? 'met' : 'MISSED');

export function timeMedian(fn: () => unknown, runs: number): number {
  fn(); // warm-up
  const ts: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    fn();
    ts.push(performance.now() - t);
  }
  return median(ts);
}

export function printTable(json: boolean) {
  const header: Row = ['area', 'figure', 'baseline (same run)', 'ratio', 'target'];
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((r) => r[i]!.length)));
  const out = all.map((r) => `| ${r.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`);
  out.splice(1, 0, `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  process.stdout.write(`${out.join('\n')}\n`);
  if (json)
    process.stdout.write(
      `${JSON.stringify(Object.fromEntries(Object.entries(result).map(([k, v]) => [k, v === null ? null : Number(v.toFixed(3))])))}\n`,
    );
}
