//go:build !windows

package cli

// The sample hook written by init on Unix: a POSIX shell script, run
// directly (it is executable and has a shebang).
const (
	sampleScriptName = "beforeSubmitPrompt.sh"
	sampleScriptMode = 0o755
	sampleLogHint    = "${TMPDIR:-/tmp}/agent.log"
)

// sampleCommand is the hooks.json command that runs the script at rel,
// a path relative to where the file's hooks run.
func sampleCommand(rel string) string { return rel }

const sampleScript = `#!/bin/sh
# Sample beforeSubmitPrompt hook, created by "agenthooks init".
#
# It gets the prompt's JSON payload on stdin, appends it to a log file and
# prints {}: no opinion, so the prompt is submitted. To block a prompt,
# print {"continue": false, "user_message": "why"} instead, or exit 2.
log="${TMPDIR:-/tmp}/agent.log"
{
  printf '%s ' "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
  cat
  printf '\n'
} >>"$log"
printf '{}\n'
`
