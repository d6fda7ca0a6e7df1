// Voltas runs on Node.js 24 LTS (decision 006). npm puts the Node 24 that `npm install` brought
// (the registry's `node` package) first on PATH for `npm start`, `npm test` and `npx voltas`.
export const MIN_NODE_MAJOR = 24;

/** Stops with a message when started on an older Node.js (no security fixes, other native ABI). */
export function refuseOldRuntime(what) {
  const major = Number(process.versions.node.split('.')[0]);
  if (major >= MIN_NODE_MAJOR) return;
  process.stderr.write(
    `${what} needs Node.js ${MIN_NODE_MAJOR} or newer; this is ${process.version}. ` +
      'Start it through npm (npm start, npm test, npx voltas …), which runs the Node 24 that npm install put in node_modules/.bin, or install Node.js 24 LTS.\n',
  );
  process.exit(1);
}
