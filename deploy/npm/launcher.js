#!/usr/bin/env node
// agenthooks on npm: this package holds no binary of its own. npm installs
// the one optional package that matches this machine (@agenthooks/<os>-<cpu>,
// with the static agenthooks and agenthooks-engine binaries), and this
// launcher runs its agenthooks with the same arguments, streams and exit
// status. Agents are wired to that binary's own path (agenthooks setup),
// so no step goes through Node.
"use strict";

const { spawnSync } = require("child_process");
const path = require("path");

const platforms = {
  "linux x64": "@agenthooks/linux-x64",
  "linux arm64": "@agenthooks/linux-arm64",
  "darwin x64": "@agenthooks/darwin-x64",
  "darwin arm64": "@agenthooks/darwin-arm64",
  "win32 x64": "@agenthooks/win32-x64",
  "win32 arm64": "@agenthooks/win32-arm64",
};

function binary() {
  const key = `${process.platform} ${process.arch}`;
  const pkg = platforms[key];
  if (!pkg) {
    console.error(`agenthooks: no build for ${key}; builds exist for ${Object.keys(platforms).join(", ")}`);
    process.exit(1);
  }
  let dir;
  try {
    dir = path.dirname(require.resolve(`${pkg}/package.json`));
  } catch {
    console.error(
      `agenthooks: the package with this machine's binaries, ${pkg}, is not installed.\n` +
        `npm skips optional dependencies with --no-optional or --omit=optional: reinstall without it\n` +
        `(npm install -g agenthooks), or install ${pkg} beside it.`,
    );
    process.exit(1);
  }
  return path.join(dir, "bin", process.platform === "win32" ? "agenthooks.exe" : "agenthooks");
}

const r = spawnSync(binary(), process.argv.slice(2), { stdio: "inherit", windowsHide: true });
if (r.error) {
  console.error(`agenthooks: ${r.error.message}`);
  process.exit(1);
}
if (r.signal) {
  process.kill(process.pid, r.signal);
}
process.exit(r.status ?? 1);
