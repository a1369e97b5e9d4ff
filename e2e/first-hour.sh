#!/usr/bin/env bash
# A newcomer's first hour, played on a fresh home with real agents from
# npm (Claude Code and Gemini CLI at least; every agent in AGENTS_BIN is
# found and wired): setup wires them, init gives a
# first hook, trust shows it and lets it run, each agent's own hook
# payload for `rm -rf /` is denied through the command setup wired, doctor
# is green, and setup --undo leaves every agent's settings byte for byte
# as they were. Every command is printed with the seconds since the start.
#
#   AGENTHOOKS_BIN_DIR=DIR AGENTS_BIN=DIR e2e/first-hour.sh
#
# AGENTHOOKS_BIN_DIR holds agenthooks and agenthooks-engine (go build -o DIR
# ./cmd/...); AGENTS_BIN holds the claude and gemini commands (the e2e
# tests install them: node_modules/.bin of ~/.cache/agenthooks-e2e).
# TestFirstHour runs it; CI runs that.
set -euo pipefail

: "${AGENTHOOKS_BIN_DIR:?set AGENTHOOKS_BIN_DIR to the folder of the agenthooks binaries}"
: "${AGENTS_BIN:?set AGENTS_BIN to the folder of the claude and gemini commands}"
bin_dir=$(cd "$AGENTHOOKS_BIN_DIR" && pwd) agents_bin=$(cd "$AGENTS_BIN" && pwd)
for c in "$bin_dir/agenthooks" "$agents_bin/claude" "$agents_bin/gemini"; do
  [ -x "$c" ] || { echo "first-hour: $c is not there"; exit 1; }
done

tmp=$(mktemp -d)
cleanup() {
  HOME="$tmp/home" TMPDIR="$tmp/tmp" "$bin_dir/agenthooks" engine stop --all >/dev/null 2>&1 || true
  rm -rf "$tmp"
}
trap cleanup EXIT
mkdir -p "$tmp/home" "$tmp/tmp" "$tmp/src/app"
tmp=$(cd "$tmp" && pwd -P)

# A fresh machine: a home of its own, the agents and agenthooks on PATH,
# nothing of the caller's agenthooks settings.
for v in $(env | grep -o '^AGENTHOOKS_[A-Z_]*'); do unset "$v"; done
export HOME="$tmp/home" TMPDIR="$tmp/tmp" USER=newcomer LANG=C.UTF-8 NO_COLOR=1 TERM=dumb
export XDG_CONFIG_HOME="$HOME/.config" XDG_STATE_HOME="$HOME/.local/state" XDG_CACHE_HOME="$HOME/.cache" XDG_DATA_HOME="$HOME/.local/share"
unset XDG_RUNTIME_DIR
export PATH="$agents_bin:$bin_dir:/usr/local/bin:/usr/bin:/bin"
export DISABLE_AUTOUPDATER=1 GEMINI_CLI_NO_RELAUNCH=1

start=$(date +%s)
say() { printf '\n[%3ds] $ %s\n' "$(($(date +%s) - start))" "$*"; }
run() { say "$(printf '%q ' "$@")"; "$@"; }
fail() { echo "first-hour: FAILED: $*"; exit 1; }

# The agents are there, and Claude Code has settings of the user's own.
run claude --version
run gemini --version
mkdir -p "$HOME/.claude"
cat > "$HOME/.claude/settings.json" <<'JSON'
{
  "model": "opus",
  "permissions": {"allow": ["Bash(ls:*)"]},
  "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "echo done >> ~/stops.log"}]}]}
}
JSON
# Every file and folder of the agents' settings, with its hash (the
# agents' own temporary files, which --version may leave half-written,
# aside).
snapshot() { (cd "$HOME" && { find .claude .gemini .codex .copilot .config/opencode ! -name '*.tmp' -print 2>/dev/null || true; } | sort | while read -r f; do
  if [ -f "$f" ]; then printf '%s %s\n' "$(sha256sum < "$f" | cut -c1-64)" "$f"; else printf 'dir %s\n' "$f"; fi
done); }
snapshot > "$tmp/before"
say "(the agents' settings before agenthooks)"; cat "$tmp/before"

cd "$tmp/src/app"

# 1. One command wires every agent found.
run agenthooks setup --yes | tee "$tmp/setup.out"
grep -q '^claude: updated ' "$tmp/setup.out" || fail "setup did not wire Claude Code"
grep -q '^gemini: created ' "$tmp/setup.out" || fail "setup did not wire Gemini CLI"
grep -q 'opened: Gemini CLI trusts the folder' "$tmp/setup.out" || fail "setup did not open Gemini CLI's folder trust"
run agenthooks setup --yes | tee "$tmp/setup2.out"
grep -q '^nothing to change' "$tmp/setup2.out" || fail "setup again changed something"

# 2. A first hook, from init, made to stop rm -rf.
run agenthooks init --project
jq '.hooks.beforeShellExecution = [{"matcher": "rm -rf", "command": ".cursor/hooks/no-rm-rf.sh"}]' \
  .cursor/hooks.json > .cursor/hooks.json.new && mv .cursor/hooks.json.new .cursor/hooks.json
cat > .cursor/hooks/no-rm-rf.sh <<'SH'
#!/bin/sh
cat > /dev/null
echo '{"permission":"deny","user_message":"rm -rf is not for agents here","agent_message":"Do not delete recursively; ask the user."}'
SH
chmod +x .cursor/hooks/no-rm-rf.sh
say "cat .cursor/hooks.json"; cat .cursor/hooks.json
run agenthooks test beforeShellExecution --command 'rm -rf /' | tee "$tmp/test1.out"
grep -q '^decision: none' "$tmp/test1.out" || fail "an untrusted project hook ran"

# 3. Trust shows what it trusts, then lets it run.
run agenthooks trust --dry-run | tee "$tmp/trust.out"
grep -q 'beforeShellExecution  rm -rf' "$tmp/trust.out" || fail "trust did not show the hook"
grep -q 'added' "$tmp/trust.out" || grep -q '.cursor/hooks/no-rm-rf.sh' "$tmp/trust.out" || fail "trust did not show the files"
run agenthooks trust
run agenthooks test beforeShellExecution --command 'rm -rf /' | tee "$tmp/test2.out"
grep -q '^decision: deny' "$tmp/test2.out" || fail "the trusted hook did not deny rm -rf"

# 4. Each agent's own hook payload, through the command setup wired.
wired() { jq -r --arg ev "$2" '.hooks[$ev][].hooks[].command | select(test(" run --from "))' "$1" | head -n 1; }
claude_cmd=$(wired "$HOME/.claude/settings.json" PreToolUse)
gemini_cmd=$(wired "$HOME/.gemini/settings.json" BeforeTool)
[ -n "$claude_cmd" ] && [ -n "$gemini_cmd" ] || fail "no agenthooks command in the agents' settings"
say "Claude Code's PreToolUse for Bash rm -rf /, to: $claude_cmd"
out=$(printf '{"session_id":"s1","transcript_path":"%s","cwd":"%s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /","description":"clean up"}}' \
  "$tmp/transcript.jsonl" "$PWD" | CLAUDE_PROJECT_DIR="$PWD" sh -c "$claude_cmd")
echo "$out"
jq -e '.hookSpecificOutput.permissionDecision == "deny"' <<<"$out" >/dev/null || fail "Claude Code was not told to deny"
say "Gemini CLI's BeforeTool for run_shell_command rm -rf /, to: $gemini_cmd"
out=$(printf '{"session_id":"s2","transcript_path":"","cwd":"%s","hook_event_name":"BeforeTool","timestamp":"2026-01-01T00:00:00Z","tool_name":"run_shell_command","tool_input":{"command":"rm -rf /"}}' \
  "$PWD" | GEMINI_PROJECT_DIR="$PWD" sh -c "$gemini_cmd")
echo "$out"
jq -e '.decision == "deny"' <<<"$out" >/dev/null || fail "Gemini CLI was not told to deny"

# The log shows what each agent tried, beside the hook and the outcome.
run env COLUMNS=160 agenthooks log --outcome deny | tee "$tmp/log.out"
grep -q 'claude: rm -rf /' "$tmp/log.out" || fail "log does not show Claude Code's denied action"
grep -q 'gemini: rm -rf /' "$tmp/log.out" || fail "log does not show Gemini CLI's denied action"

# 5. Doctor is green.
run agenthooks doctor

# 6. Undo: the agents' settings exactly as before.
run agenthooks setup --undo
snapshot > "$tmp/after"
say "diff (the agents' settings before agenthooks) (after setup --undo)"
diff "$tmp/before" "$tmp/after" || fail "setup --undo did not leave the agents' settings as they were"
echo "identical"
say "done: the first hour took $(($(date +%s) - start))s"
