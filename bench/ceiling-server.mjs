// The laps API's ceiling on this machine: node:http alone (no framework, no sign-in, no database)
// answering every request with the laps answer's own bytes and headers, taken from the real server
// by the benchmark. What the laps endpoint could reach if it did nothing but write its answer.
import http from 'node:http';
import { readFileSync } from 'node:fs';

const [port, bodyFile, headersJson] = process.argv.slice(2);
const body = readFileSync(bodyFile);
const headers = { ...JSON.parse(headersJson), 'content-length': body.length };
const server = http.createServer((_req, res) => {
  res.writeHead(200, headers);
  res.end(body);
});
server.keepAliveTimeout = 72_000;
server.listen(Number(port), '127.0.0.1', () => process.stdout.write('ready\n'));
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
