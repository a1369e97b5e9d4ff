#!/bin/sh
# The demo: run the bundled example workspace's hooks through agenthooks,
# step by step, without touching your own ~/.cursor or trust store.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
ws="$here/workspace"
bin=${AGENTHOOKS:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ -z "$bin" ]; then
  bin="$tmp/agenthooks"
  (cd "$here/.." && go build -o "$bin" ./cmd/agenthooks)
fi
export HOME="$tmp/home" AGENTHOOKS_CONFIG_DIR="$tmp/config" AGENTHOOKS_ENTERPRISE_CONFIG="$tmp/none.json"
mkdir -p "$HOME"

step() { # step TITLE STEP PAYLOAD
  printf '\n== %s\n$ agenthooks run %s <<< %s\n' "$1" "$2" "$3"
  printf '%s' "$3" | "$bin" run "$2" --workspace "$ws"
}

printf '== An untrusted workspace: its project hooks do not run\n'
"$bin" validate --workspace "$ws" || true
step "git push, before trusting" beforeShellExecution '{"command":"git push","cwd":"."}'

printf '\n$ agenthooks trust %s\n' "$ws"
"$bin" trust "$ws"

step "session starts" sessionStart '{"session_id":"demo-1","is_background_agent":false,"composer_mode":"agent"}'
step "git push is denied" beforeShellExecution '{"conversation_id":"demo-1","command":"git push origin main","cwd":"."}'
step "gh asks" beforeShellExecution '{"conversation_id":"demo-1","command":"gh pr create","cwd":"."}'
step "ls is allowed" beforeShellExecution '{"conversation_id":"demo-1","command":"ls -la","cwd":"."}'
step "reading .env is denied" beforeReadFile '{"conversation_id":"demo-1","file_path":"'"$ws"'/.env","content":"TOKEN=x"}'
step "an edit is audited" afterFileEdit '{"conversation_id":"demo-1","file_path":"'"$ws"'/main.go","edits":[{"old_string":"a","new_string":"b"}]}'
step "stop, first time: a follow-up" stop '{"conversation_id":"demo-1","status":"completed","loop_count":0}'
step "stop at the loop limit: no follow-up" stop '{"conversation_id":"demo-1","status":"completed","loop_count":2}'
